import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { CompareConfigurations, CompareResult, CompareSchemes } from '@/lib/api-types';

export type CompareRequest = CompareConfigurations | CompareSchemes;

/** `POST /api/v1/compare`: 2-8 configurations (or one in several RAID schemes) side by side. */
export function compareConfigurations(body: CompareRequest, { signal }: { signal?: AbortSignal } = {}): Promise<CompareResult> {
  return api.post('/api/v1/compare', { body, signal });
}

export const compareQueryOptions = (body: CompareRequest) =>
  queryOptions({
    queryKey: ['sizing', 'compare', body] as const,
    queryFn: ({ signal }) => compareConfigurations(body, { signal }),
    staleTime: Infinity,
  });

/** The comparison for `body` (null: none asked for yet). */
export function useCompare(body: CompareRequest | null) {
  return useQuery({ ...compareQueryOptions(body as CompareRequest), enabled: body !== null });
}
