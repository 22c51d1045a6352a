import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { DegradedRequest, DegradedComparison } from '@/lib/api-types';

/** `POST /api/v1/whatif/degraded`: normal, drive failed, rebuilding and controller down side by side, with rebuild hours and exposure. */
export function getDegraded(body: DegradedRequest, { signal }: { signal?: AbortSignal } = {}): Promise<DegradedComparison> {
  return api.post('/api/v1/whatif/degraded', { body, signal });
}

export const getDegradedQueryOptions = (body: DegradedRequest) =>
  queryOptions({
    queryKey: ['whatif', 'degraded', body] as const,
    queryFn: ({ signal }) => getDegraded(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useDegraded(body: DegradedRequest | null) {
  return useQuery({ ...getDegradedQueryOptions(body as DegradedRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
