import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/catalog/drives`: every drive of the catalog. */
export type DriveList = ApiResponse<'/api/v1/catalog/drives'>;

export function getDrives({ signal }: { signal?: AbortSignal } = {}): Promise<DriveList> {
  return api.get('/api/v1/catalog/drives', { signal });
}

export const getDrivesQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'drives'] as const,
    queryFn: ({ signal }) => getDrives({ signal }),
    staleTime: Infinity,
  });

/** The catalog's drives (`enabled: false` leaves the request out until they are needed). */
export function useDrives({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDrivesQueryOptions(), enabled });
}
