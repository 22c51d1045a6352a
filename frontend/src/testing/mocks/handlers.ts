import { http, HttpResponse } from 'msw';

import type { ApiResponse } from '@/lib/api-client';

import { fixtures } from './fixtures';

/** A healthy API, the default for every test; override per test with `server.use(...)`. */
export const healthOk: ApiResponse<'/api/v1/health'> = {
  status: 'ok',
  database: 'ok',
  engine_version: '0.1.0',
  catalog_version: '2025-06-01',
};

export const handlers = [
  http.get('*/api/v1/health', () => HttpResponse.json(healthOk)),
  http.get('*/api/v1/catalog/workload-templates', () => HttpResponse.json(fixtures.templates)),
  http.get('*/api/v1/catalog/arrays', () => HttpResponse.json(fixtures.arrays)),
  http.get('*/api/v1/catalog/arrays/:id', ({ params }) =>
    params.id === 'netapp-fas3170'
      ? HttpResponse.json(fixtures.arrayFas3170)
      : HttpResponse.json({ detail: `array '${String(params.id)}' not found` }, { status: 404 }),
  ),
  http.get('*/api/v1/catalog/raid-schemes', () => HttpResponse.json(fixtures.raidSchemes)),
  http.get('*/api/v1/catalog/ports', () => HttpResponse.json(fixtures.ports)),
  http.get('*/api/v1/catalog/drives', () => HttpResponse.json(fixtures.drives)),
  http.get('*/api/v1/hardware', () => HttpResponse.json(fixtures.hardwareList)),
  http.post('*/api/v1/whatif/growth', () => HttpResponse.json(fixtures.growthOltp)),
  http.post('*/api/v1/whatif/sensitivity', () => HttpResponse.json(fixtures.sensitivityOltp)),
  http.post('*/api/v1/whatif/max-workload', () => HttpResponse.json(fixtures.maxWorkloadOltp)),
  http.post('*/api/v1/whatif/ranges', () => HttpResponse.json(fixtures.rangesOltp)),
  http.post('*/api/v1/whatif/confidence', () => HttpResponse.json(fixtures.confidenceOltp)),
  http.post('*/api/v1/whatif/degraded', () => HttpResponse.json(fixtures.degradedOltp)),
  http.post('*/api/v1/whatif/raid-conversion', () => HttpResponse.json(fixtures.raidConversion)),
  http.post('*/api/v1/whatif/building-blocks', () => HttpResponse.json(fixtures.buildingBlocks)),
  http.get('*/api/v1/traces/:id', ({ params }) =>
    params.id === fixtures.traceJobDone.id
      ? HttpResponse.json(fixtures.traceJobDone)
      : HttpResponse.json({ detail: `trace job '${String(params.id)}' not found` }, { status: 404 }),
  ),
  http.post('*/api/v1/import/host-stats', () => HttpResponse.json(fixtures.hostStatsIostat)),
  http.post('*/api/v1/import/observed', () => HttpResponse.json(fixtures.observedFas3170)),
  http.post('*/api/v1/size', () => HttpResponse.json(fixtures.sizeOltp)),
  http.post('*/api/v1/raid-grid', () => HttpResponse.json(fixtures.raidGridOltp)),
  http.post('*/api/v1/evaluate', () => HttpResponse.json(fixtures.evaluate48)),
  http.post('*/api/v1/curves', () => HttpResponse.json(fixtures.curvesOltp)),
  http.post('*/api/v1/compare', () => HttpResponse.json(fixtures.compareOltp)),
  http.get('*/api/v1/reports/:id', ({ params }) =>
    params.id === fixtures.reportCompare.id
      ? HttpResponse.json(fixtures.reportCompare)
      : params.id === fixtures.reportSize.id
        ? HttpResponse.json(fixtures.reportSize)
        : params.id === fixtures.reportGrowth.id
          ? HttpResponse.json(fixtures.reportGrowth)
          : HttpResponse.json({ detail: `report '${String(params.id)}' not found` }, { status: 404 }),
  ),
  http.get('*/api/v1/reports/:id/diff/:other', ({ params }) =>
    params.id === fixtures.reportDiff.before && params.other === fixtures.reportDiff.after
      ? HttpResponse.json(fixtures.reportDiff)
      : HttpResponse.json({ detail: `report '${String(params.other)}' not found` }, { status: 404 }),
  ),
];
