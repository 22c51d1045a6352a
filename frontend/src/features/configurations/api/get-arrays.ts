import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/catalog/arrays`: every array model of the catalog. */
export type ArrayList = ApiResponse<'/api/v1/catalog/arrays'>;

export function getArrays({ signal }: { signal?: AbortSignal } = {}): Promise<ArrayList> {
  return api.get('/api/v1/catalog/arrays', { signal });
}

export const getArraysQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'arrays'] as const,
    queryFn: ({ signal }) => getArrays({ signal }),
    staleTime: Infinity,
  });

export function useArrays() {
  return useQuery(getArraysQueryOptions());
}
