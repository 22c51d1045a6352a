import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { GrowthRequest, GrowthProjection } from '@/lib/api-types';

/** `POST /api/v1/whatif/growth`: month by month as the workloads grow: each window's busiest component and read latency, capacity fill, and when each first breaks. */
export function getGrowth(body: GrowthRequest, { signal }: { signal?: AbortSignal } = {}): Promise<GrowthProjection> {
  return api.post('/api/v1/whatif/growth', { body, signal });
}

export const getGrowthQueryOptions = (body: GrowthRequest) =>
  queryOptions({
    queryKey: ['whatif', 'growth', body] as const,
    queryFn: ({ signal }) => getGrowth(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useGrowth(body: GrowthRequest | null) {
  return useQuery({ ...getGrowthQueryOptions(body as GrowthRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
