import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { CatalogReference, EvaluateRequest, SizeRequest } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';

import { getCurvesQueryOptions } from '../api/get-curves';
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
  const urls: string[] = [];
  server.use(
    http.post('*/api/v1/size', async ({ request }) => {
      urls.push(request.url);
      sized.push((await request.json()) as SizeRequest);
      const withCurves = new URL(request.url).searchParams.get('with_curves') === 'true';
      return HttpResponse.json({ ...fixtures.sizeOltp, curves: withCurves ? fixtures.curvesOltp : null });
    }),
    http.post('*/api/v1/evaluate', async ({ request }) => {
      urls.push(request.url);
      evaluated.push((await request.json()) as EvaluateRequest);
      const withCurves = new URL(request.url).searchParams.get('with_curves') === 'true';
      return HttpResponse.json({ ...fixtures.evaluate48, curves: withCurves ? fixtures.curvesOltp : null });
    }),
    http.post('*/api/v1/curves', ({ request }) => {
      urls.push(request.url);
      return HttpResponse.json(fixtures.curvesOltp);
    }),
  );
  return { sized, evaluated, urls };
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

  it('brings the first window\'s curves with a sizing and keeps them where the charts look for them', async () => {
    const { urls } = record();
    const client = new QueryClient();
    const outcome = await run({ kind: 'size', workloads, configuration: reference, flashCacheOptionsGb: null }, undefined, client);

    expect(urls).toHaveLength(1);
    expect(new URL(urls[0]!).searchParams.get('with_curves')).toBe('true');
    // the charts' own query: the workloads run, the configuration as sized, the curves' window
    const key = getCurvesQueryOptions({ workloads, configuration: outcome.configuration, window: fixtures.curvesOltp.window, calibration_margin: 'pessimistic' }).queryKey;
    expect(client.getQueryData(key)).toEqual(fixtures.curvesOltp);
    expect(outcome.sizing).not.toHaveProperty('curves');
  });

  it('brings the first window\'s curves with an evaluation, for the configuration as given', async () => {
    const { urls } = record();
    const client = new QueryClient();
    const configuration = { ...reference, drive_count: 48 };
    const outcome = await run({ kind: 'evaluate', workloads, configuration, flashCacheOptionsGb: null }, undefined, client);

    expect(urls.map((u) => new URL(u).pathname)).toEqual(['/api/v1/evaluate']);
    const key = getCurvesQueryOptions({ workloads, configuration, window: fixtures.curvesOltp.window, calibration_margin: 'pessimistic' }).queryKey;
    expect(client.getQueryData(key)).toEqual(fixtures.curvesOltp);
    expect(outcome.result).not.toHaveProperty('curves');
  });

  it('asks for no curves when there is no cache to keep them in', async () => {
    const { urls } = record();
    await run({ kind: 'size', workloads, configuration: reference, flashCacheOptionsGb: null });

    expect(new URL(urls[0]!).searchParams.has('with_curves')).toBe(false);
  });
});
