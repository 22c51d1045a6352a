import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/catalog/arrays/{array_id}`: one array model and the drives it supports. */
export type ArrayDetail = ApiResponse<'/api/v1/catalog/arrays/{array_id}'>;

export function getArray(arrayId: string, { signal }: { signal?: AbortSignal } = {}): Promise<ArrayDetail> {
  return api.get('/api/v1/catalog/arrays/{array_id}', { path: { array_id: arrayId }, signal });
}

export const getArrayQueryOptions = (arrayId: string) =>
  queryOptions({
    queryKey: ['catalog', 'arrays', arrayId] as const,
    queryFn: ({ signal }) => getArray(arrayId, { signal }),
    staleTime: Infinity,
  });

/** The array and its drives; idle while no array is chosen. */
export function useArray(arrayId: string) {
  return useQuery({ ...getArrayQueryOptions(arrayId), enabled: arrayId !== '' });
}
