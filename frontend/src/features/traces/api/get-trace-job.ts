import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { TraceJob } from '@/lib/api-types';

/** How often a queued or running job is asked for its progress. */
export const TRACE_POLL_MS = 500;

/** `GET /api/v1/traces/{job_id}`: status and progress (% and records/s); the analysis once done. */
export function getTraceJob(jobId: string, { signal }: { signal?: AbortSignal } = {}): Promise<TraceJob> {
  return api.get('/api/v1/traces/{job_id}', { path: { job_id: jobId }, signal });
}

export const isActive = (job: Pick<TraceJob, 'status'> | undefined) => job?.status === 'queued' || job?.status === 'running';

export const getTraceJobQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: ['traces', jobId] as const,
    queryFn: ({ signal }) => getTraceJob(jobId, { signal }),
    // a finished job does not change any more; a running one is polled
    staleTime: (query) => (isActive(query.state.data) ? 0 : Infinity),
    refetchInterval: (query) => (query.state.error ? false : isActive(query.state.data) || !query.state.data ? TRACE_POLL_MS : false),
  });

/** The job, polled every {@link TRACE_POLL_MS} ms while it is queued or running. */
export function useTraceJob(jobId: string) {
  return useQuery({ ...getTraceJobQueryOptions(jobId), enabled: jobId !== '' });
}
