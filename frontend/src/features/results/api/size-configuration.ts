import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SizeAnswer, SizeRequest } from '@/lib/api-types';

/**
 * `POST /api/v1/size`: the fewest drives (whole RAID groups) of a configuration family meeting every
 * window; with `withCurves`, the first window's curves in the same answer (a results page draws its
 * charts without a second request).
 */
export function sizeConfiguration(
  body: SizeRequest,
  { signal, withCurves = false }: { signal?: AbortSignal; withCurves?: boolean } = {},
): Promise<SizeAnswer> {
  return api.post('/api/v1/size', { body, signal, query: withCurves ? { with_curves: true } : undefined });
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
