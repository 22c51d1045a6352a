import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { RefreshRequest, RefreshResult } from '@/lib/api-types';

/** `POST /api/v1/plan/refresh`: today's system and its successor sized for the same workloads. */
export function planRefresh(body: RefreshRequest, { signal }: { signal?: AbortSignal } = {}): Promise<RefreshResult> {
  return api.post('/api/v1/plan/refresh', { body, signal });
}

export const planRefreshQueryOptions = (body: RefreshRequest) =>
  queryOptions({
    queryKey: ['plan', 'refresh', body] as const,
    queryFn: ({ signal }) => planRefresh(body, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The answer for `body` (null: none asked for yet). */
export function useRefresh(body: RefreshRequest | null) {
  return useQuery({ ...planRefreshQueryOptions(body as RefreshRequest), enabled: body !== null });
}
