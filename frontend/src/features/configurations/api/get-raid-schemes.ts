import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/catalog/raid-schemes`: every RAID scheme the engine models, with names and notes. */
export type RaidSchemeList = ApiResponse<'/api/v1/catalog/raid-schemes'>;

export function getRaidSchemes({ signal }: { signal?: AbortSignal } = {}): Promise<RaidSchemeList> {
  return api.get('/api/v1/catalog/raid-schemes', { signal });
}

export const getRaidSchemesQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'raid-schemes'] as const,
    queryFn: ({ signal }) => getRaidSchemes({ signal }),
    staleTime: Infinity,
  });

export function useRaidSchemes() {
  return useQuery(getRaidSchemesQueryOptions());
}
