import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { RaidConversionRequest, RaidConversion } from '@/lib/api-types';

/** `POST /api/v1/whatif/raid-conversion`: a benchmark result under one RAID scheme converted to another (back-end arithmetic), with the rough shortcuts beside it. */
export function convertRaid(body: RaidConversionRequest, { signal }: { signal?: AbortSignal } = {}): Promise<RaidConversion> {
  return api.post('/api/v1/whatif/raid-conversion', { body, signal });
}

export const convertRaidQueryOptions = (body: RaidConversionRequest) =>
  queryOptions({
    queryKey: ['whatif', 'raid-conversion', body] as const,
    queryFn: ({ signal }) => convertRaid(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useRaidConversion(body: RaidConversionRequest | null) {
  return useQuery({ ...convertRaidQueryOptions(body as RaidConversionRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
