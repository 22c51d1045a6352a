import { http, HttpResponse } from 'msw';

import type { ApiResponse } from '@/lib/api-client';

/** A healthy API, the default for every test; override per test with `server.use(...)`. */
export const healthOk: ApiResponse<'/api/v1/health'> = {
  status: 'ok',
  database: 'ok',
  engine_version: '0.1.0',
  catalog_version: '2025-06-01',
};

export const handlers = [http.get('*/api/v1/health', () => HttpResponse.json(healthOk))];
