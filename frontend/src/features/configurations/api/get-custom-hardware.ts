import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { HardwareList } from '@/lib/api-types';

/**
 * `GET /api/v1/hardware`: the custom drives, controllers and arrays, selectable in the builder by
 * their record ids. The query key is the one the hardware screen invalidates after a change.
 */
export function getCustomHardware({ signal }: { signal?: AbortSignal } = {}): Promise<HardwareList> {
  return api.get('/api/v1/hardware', { signal });
}

export const getCustomHardwareQueryOptions = () =>
  queryOptions({
    queryKey: ['hardware', 'list'] as const,
    queryFn: ({ signal }) => getCustomHardware({ signal }),
    staleTime: 30_000,
  });

export function useCustomHardware() {
  return useQuery(getCustomHardwareQueryOptions());
}
