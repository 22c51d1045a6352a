import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ObservedComparison, ObservedRequest } from '@/lib/api-types';

/** `POST /api/v1/import/observed`: the configuration the statistics came from, at the observed loads. */
export function compareObserved(body: ObservedRequest, { signal }: { signal?: AbortSignal } = {}): Promise<ObservedComparison> {
  return api.post('/api/v1/import/observed', { body, signal });
}

export const compareObservedQueryOptions = (body: ObservedRequest) =>
  queryOptions({
    queryKey: ['import', 'observed', body] as const,
    queryFn: ({ signal }) => compareObserved(body, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** Observed vs predicted for `body` (null: nothing to compare yet). */
export function useCompareObserved(body: ObservedRequest | null) {
  return useQuery({
    ...compareObservedQueryOptions(body as ObservedRequest),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}
