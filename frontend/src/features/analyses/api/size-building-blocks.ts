import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { BuildingBlocksRequest, BuildingBlocksResult } from '@/lib/api-types';

/** `POST /api/v1/whatif/building-blocks`: blocks, racks, rack units, power and GB/s per rack unit for a throughput or capacity target. */
export function sizeBuildingBlocks(body: BuildingBlocksRequest, { signal }: { signal?: AbortSignal } = {}): Promise<BuildingBlocksResult> {
  return api.post('/api/v1/whatif/building-blocks', { body, signal });
}

export const sizeBuildingBlocksQueryOptions = (body: BuildingBlocksRequest) =>
  queryOptions({
    queryKey: ['whatif', 'building-blocks', body] as const,
    queryFn: ({ signal }) => sizeBuildingBlocks(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useBuildingBlocks(body: BuildingBlocksRequest | null) {
  return useQuery({ ...sizeBuildingBlocksQueryOptions(body as BuildingBlocksRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
