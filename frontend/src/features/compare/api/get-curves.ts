import { queryOptions, useQueries } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CurvesRequest, CurvesResult } from '@/lib/api-types';

/** `POST /api/v1/curves` for one configuration of a comparison. */
export function getCurves(body: CurvesRequest, { signal }: { signal?: AbortSignal } = {}): Promise<CurvesResult> {
  return api.post('/api/v1/curves', { body, signal });
}

export const getCurvesQueryOptions = (body: CurvesRequest) =>
  queryOptions({
    queryKey: ['sizing', 'curves', body] as const,
    queryFn: ({ signal }) => getCurves(body, { signal }),
    staleTime: Infinity,
  });

/** The curves of every configuration of a comparison, in order. */
export function useCurvesOfEach(bodies: CurvesRequest[]) {
  return useQueries({ queries: bodies.map((b) => getCurvesQueryOptions(b)) });
}
