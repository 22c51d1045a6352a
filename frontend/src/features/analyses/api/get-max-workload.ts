import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { MaxWorkloadRequest, MaxWorkloadResult } from '@/lib/api-types';

/** `POST /api/v1/whatif/max-workload`: the largest load scale each window's mix sustains within its targets, and what binds. */
export function getMaxWorkload(body: MaxWorkloadRequest, { signal }: { signal?: AbortSignal } = {}): Promise<MaxWorkloadResult> {
  return api.post('/api/v1/whatif/max-workload', { body, signal });
}

export const getMaxWorkloadQueryOptions = (body: MaxWorkloadRequest) =>
  queryOptions({
    queryKey: ['whatif', 'max-workload', body] as const,
    queryFn: ({ signal }) => getMaxWorkload(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useMaxWorkload(body: MaxWorkloadRequest | null) {
  return useQuery({ ...getMaxWorkloadQueryOptions(body as MaxWorkloadRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
