import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SizeRequest, SizingResult } from '@/lib/api-types';

/** `POST /api/v1/size`: the fewest drives (whole RAID groups) of a configuration family meeting every window. */
export function sizeConfiguration(body: SizeRequest, { signal }: { signal?: AbortSignal } = {}): Promise<SizingResult> {
  return api.post('/api/v1/size', { body, signal });
}

export const sizeConfigurationQueryOptions = (body: SizeRequest) =>
  queryOptions({
    queryKey: ['sizing', 'size', body] as const,
    queryFn: ({ signal }) => sizeConfiguration(body, { signal }),
    staleTime: Infinity,
  });

export function useSizeConfiguration(body: SizeRequest | null) {
  return useQuery({ ...sizeConfigurationQueryOptions(body as SizeRequest), enabled: body !== null });
}
