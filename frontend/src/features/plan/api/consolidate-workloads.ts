import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ConsolidateRequest, Consolidation } from '@/lib/api-types';

/** `POST /api/v1/plan/consolidate`: N workloads onto owned and new arrays at the least cost. */
export function consolidateWorkloads(body: ConsolidateRequest, { signal }: { signal?: AbortSignal } = {}): Promise<Consolidation> {
  return api.post('/api/v1/plan/consolidate', { body, signal });
}

export const consolidateWorkloadsQueryOptions = (body: ConsolidateRequest) =>
  queryOptions({
    queryKey: ['plan', 'consolidate', body] as const,
    queryFn: ({ signal }) => consolidateWorkloads(body, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The answer for `body` (null: none asked for yet). */
export function useConsolidation(body: ConsolidateRequest | null) {
  return useQuery({ ...consolidateWorkloadsQueryOptions(body as ConsolidateRequest), enabled: body !== null });
}
