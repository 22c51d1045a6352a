import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ReplicationRequest, ReplicationResult } from '@/lib/api-types';

/** `POST /api/v1/plan/replication`: WAN bandwidth, lag and sync latency from each window's change rate and the RPO, and the DR array. */
export function planReplication(body: ReplicationRequest, { signal }: { signal?: AbortSignal } = {}): Promise<ReplicationResult> {
  return api.post('/api/v1/plan/replication', { body, signal });
}

export const planReplicationQueryOptions = (body: ReplicationRequest) =>
  queryOptions({
    queryKey: ['plan', 'replication', body] as const,
    queryFn: ({ signal }) => planReplication(body, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The answer for `body` (null: none asked for yet). */
export function useReplicationPlan(body: ReplicationRequest | null) {
  return useQuery({ ...planReplicationQueryOptions(body as ReplicationRequest), enabled: body !== null });
}
