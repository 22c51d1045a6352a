import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/catalog/ports`: front-end port types with their practical rates. */
export type PortList = ApiResponse<'/api/v1/catalog/ports'>;

export function getPorts({ signal }: { signal?: AbortSignal } = {}): Promise<PortList> {
  return api.get('/api/v1/catalog/ports', { signal });
}

export const getPortsQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'ports'] as const,
    queryFn: ({ signal }) => getPorts({ signal }),
    staleTime: Infinity,
  });

export function usePorts() {
  return useQuery(getPortsQueryOptions());
}
