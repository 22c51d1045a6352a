import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { CatalogReference, EvaluateRequest, SizeRequest } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';

import { run } from '../hooks/use-run';

const workloads = [fixtures.templates.templates[0]!.workload];
const headroom = { controller_max_pct: 40, failover_max_pct: 100, drive_max_pct: 60, port_max_pct: 70, capacity_max_fill_pct: 90 };
const reference: CatalogReference = {
  array_id: 'netapp-fas3170',
  raid_scheme: 'raid-dp',
  drive_count: null,
  flash_cache_gb: 0,
  headroom: null,
  hypothetical: false,
};

function record() {
  const sized: SizeRequest[] = [];
  const evaluated: EvaluateRequest[] = [];
  server.use(
    http.post('*/api/v1/size', async ({ request }) => {
      sized.push((await request.json()) as SizeRequest);
      return HttpResponse.json(fixtures.sizeOltp);
    }),
    http.post('*/api/v1/evaluate', async ({ request }) => {
      evaluated.push((await request.json()) as EvaluateRequest);
      return HttpResponse.json(fixtures.evaluate48);
    }),
  );
  return { sized, evaluated };
}

describe('run', () => {
  it('sizes a catalog reference in one request', async () => {
    const { sized, evaluated } = record();
    const outcome = await run({ kind: 'size', workloads, configuration: reference, flashCacheOptionsGb: [0, 32, 64] });
    expect(sized).toHaveLength(1);
    expect(evaluated).toHaveLength(0);
    expect(sized[0]).toMatchObject({ configuration: reference, flash_cache_options_gb: [0, 32, 64] });
    expect(outcome.kind).toBe('size');
    expect(outcome.sizing?.drive_count).toBe(144);
    expect(outcome.configuration).toEqual(fixtures.sizeOltp.configuration);
  });

  it('sizes with custom headroom targets in one request: the reference carries them', async () => {
    const { sized } = record();
    const outcome = await run({ kind: 'size', workloads, configuration: { ...reference, headroom }, flashCacheOptionsGb: null });
    expect(sized).toHaveLength(1);
    expect(sized[0]!.configuration).toMatchObject({ array_id: 'netapp-fas3170', headroom });
    expect(outcome.request).toEqual(sized[0]);
  });

  it('evaluates a fixed drive count with custom targets in one request, named by the server', async () => {
    const { sized, evaluated } = record();
    const outcome = await run({ kind: 'evaluate', workloads, configuration: { ...reference, drive_count: 48, headroom }, flashCacheOptionsGb: null });
    expect(sized).toHaveLength(0);
    expect(evaluated).toHaveLength(1);
    expect(evaluated[0]!.configuration).toMatchObject({ array_id: 'netapp-fas3170', drive_count: 48, headroom });
    expect(outcome.sizing).toBeNull();
    expect(outcome.result.configuration).toBe(fixtures.evaluate48.configuration);
  });
});
