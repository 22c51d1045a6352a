import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { SizeRequest } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';

import { run } from '../hooks/use-run';

const workloads = [fixtures.templates.templates[0]!.workload];
const reference = { array_id: 'netapp-fas3170', raid_scheme: 'raid-dp' as const, drive_count: null, flash_cache_gb: 0 };
const headroom = { controller_max_pct: 40, failover_max_pct: 100, drive_max_pct: 60, port_max_pct: 70, capacity_max_fill_pct: 90 };

function recordSizes() {
  const bodies: SizeRequest[] = [];
  server.use(
    http.post('*/api/v1/size', async ({ request }) => {
      bodies.push((await request.json()) as SizeRequest);
      return HttpResponse.json(fixtures.sizeOltp);
    }),
  );
  return bodies;
}

describe('run', () => {
  it('sizes a catalog reference in one request', async () => {
    const bodies = recordSizes();
    const outcome = await run({ kind: 'size', workloads, configuration: reference, flashCacheOptionsGb: [0, 32, 64], headroom: null });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ configuration: reference, flash_cache_options_gb: [0, 32, 64] });
    expect(outcome.kind).toBe('size');
    expect(outcome.sizing?.drive_count).toBe(144);
    expect(outcome.configuration).toEqual(fixtures.sizeOltp.configuration);
  });

  it('sizes again with custom headroom targets on the configuration the server resolved', async () => {
    const bodies = recordSizes();
    const outcome = await run({ kind: 'size', workloads, configuration: reference, flashCacheOptionsGb: null, headroom });
    expect(bodies).toHaveLength(2);
    const second = bodies[1]!.configuration as typeof fixtures.sizeOltp.configuration;
    expect(second.headroom).toEqual(headroom);
    expect(second.controller).toEqual(fixtures.sizeOltp.configuration.controller);
    expect(second.pools[0]!.drive_count).toBeNull();
    expect(outcome.request).toEqual(bodies[1]);
  });

  it('evaluates a fixed drive count; with custom targets on the resolved configuration', async () => {
    const bodies = recordSizes();
    const evaluated: unknown[] = [];
    server.use(
      http.post('*/api/v1/evaluate', async ({ request }) => {
        evaluated.push(await request.json());
        return HttpResponse.json(fixtures.evaluate48);
      }),
    );
    const plain = await run({ kind: 'evaluate', workloads, configuration: { ...reference, drive_count: 48 }, flashCacheOptionsGb: null, headroom: null });
    expect(bodies).toHaveLength(0);
    expect(plain.sizing).toBeNull();
    expect(evaluated[0]).toMatchObject({ configuration: { array_id: 'netapp-fas3170', drive_count: 48 } });

    const custom = await run({ kind: 'evaluate', workloads, configuration: { ...reference, drive_count: 48 }, flashCacheOptionsGb: null, headroom });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.configuration).toMatchObject({ drive_count: null });
    const full = custom.configuration as typeof fixtures.sizeOltp.configuration;
    expect(full.pools[0]!.drive_count).toBe(48);
    expect(full.headroom).toEqual(headroom);
  });
});
