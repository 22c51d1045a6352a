import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { TraceJob } from '@/lib/api-types';

import { traceOwnerTokens } from '../lib/owner-tokens';

import { getTraceJobQueryOptions } from './get-trace-job';

/**
 * `DELETE /api/v1/traces/{job_id}`: cancels a queued or running job (202, the job) or deletes a
 * finished one and its upload (204, undefined); with the owner token this browser kept from the
 * upload (403 without it).
 */
export async function cancelTraceJob(jobId: string): Promise<TraceJob | undefined> {
  const job = (await api.delete('/api/v1/traces/{job_id}', {
    path: { job_id: jobId },
    headers: traceOwnerTokens.headers(jobId),
  })) as TraceJob | undefined;
  if (!job) traceOwnerTokens.forget(jobId);
  return job;
}

/** Cancel or delete a job; the job's query takes the answer (or is dropped when deleted). */
export function useCancelTraceJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelTraceJob,
    onSuccess: (job, jobId) => {
      const key = getTraceJobQueryOptions(jobId).queryKey;
      if (job) client.setQueryData(key, job);
      else client.removeQueries({ queryKey: key });
    },
  });
}
