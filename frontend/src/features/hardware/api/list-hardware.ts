import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { HardwareList } from '@/lib/api-types';

/** `GET /api/v1/hardware`: every custom drive, controller and array record. */
export function listHardware({ signal }: { signal?: AbortSignal } = {}): Promise<HardwareList> {
  return api.get('/api/v1/hardware', { signal });
}

/** Shared key: the configuration builder lists the same records. */
export const HARDWARE_KEY = ['hardware'] as const;

export const listHardwareQueryOptions = () =>
  queryOptions({
    queryKey: [...HARDWARE_KEY, 'list'] as const,
    queryFn: ({ signal }) => listHardware({ signal }),
    staleTime: 30_000,
  });

export function useHardwareList() {
  return useQuery(listHardwareQueryOptions());
}
