import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ExpandRequest, ExpansionResult } from '@/lib/api-types';

/** `POST /api/v1/plan/expand`: the installed system plus shelves, drives, cache or nodes, per window and over growth. */
export function expandSystem(body: ExpandRequest, { signal }: { signal?: AbortSignal } = {}): Promise<ExpansionResult> {
  return api.post('/api/v1/plan/expand', { body, signal });
}

export const expandSystemQueryOptions = (body: ExpandRequest) =>
  queryOptions({
    queryKey: ['plan', 'expand', body] as const,
    queryFn: ({ signal }) => expandSystem(body, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The answer for `body` (null: none asked for yet). */
export function useExpansion(body: ExpandRequest | null) {
  return useQuery({ ...expandSystemQueryOptions(body as ExpandRequest), enabled: body !== null });
}
