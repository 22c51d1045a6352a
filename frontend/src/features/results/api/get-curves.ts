import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CurvesRequest, CurvesResult } from '@/lib/api-types';

/** `POST /api/v1/curves`: latency vs load, IOPS vs outstanding I/Os and hit ratio vs cache size for one window. */
export function getCurves(body: CurvesRequest, { signal }: { signal?: AbortSignal } = {}): Promise<CurvesResult> {
  return api.post('/api/v1/curves', { body, signal });
}

export const getCurvesQueryOptions = (body: CurvesRequest) =>
  queryOptions({
    queryKey: ['sizing', 'curves', body] as const,
    queryFn: ({ signal }) => getCurves(body, { signal }),
    staleTime: Infinity,
  });

/** The curves for `body` (null: none); keeps the previous curves on screen while new ones load. */
export function useCurves(body: CurvesRequest | null) {
  return useQuery({
    ...getCurvesQueryOptions(body as CurvesRequest),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}
