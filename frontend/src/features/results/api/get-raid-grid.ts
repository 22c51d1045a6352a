import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { RaidGrid, RaidGridRequest } from '@/lib/api-types';

/** `POST /api/v1/raid-grid`: the configuration's drive in every RAID scheme its array offers, each sized. */
export function getRaidGrid(body: RaidGridRequest, { signal }: { signal?: AbortSignal } = {}): Promise<RaidGrid> {
  return api.post('/api/v1/raid-grid', { body, signal });
}

export const raidGridQueryOptions = (body: RaidGridRequest) =>
  queryOptions({
    queryKey: ['sizing', 'raid-grid', body] as const,
    queryFn: ({ signal }) => getRaidGrid(body, { signal }),
    staleTime: Infinity,
  });

/** The RAID grid for `body` (null: none yet). */
export function useRaidGrid(body: RaidGridRequest | null) {
  return useQuery({ ...raidGridQueryOptions(body as RaidGridRequest), enabled: body !== null });
}
