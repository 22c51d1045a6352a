import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { RangesRequest, RangesResult } from '@/lib/api-types';

/** `POST /api/v1/whatif/ranges`: low / expected / high bands over the plausible ranges of the inputs nobody measures well, ranked. */
export function getRanges(body: RangesRequest, { signal }: { signal?: AbortSignal } = {}): Promise<RangesResult> {
  return api.post('/api/v1/whatif/ranges', { body, signal });
}

export const getRangesQueryOptions = (body: RangesRequest) =>
  queryOptions({
    queryKey: ['whatif', 'ranges', body] as const,
    queryFn: ({ signal }) => getRanges(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useRanges(body: RangesRequest | null) {
  return useQuery({ ...getRangesQueryOptions(body as RangesRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
