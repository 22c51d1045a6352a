import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { TraceJob } from '@/lib/api-types';

import { getTraceJobQueryOptions } from './get-trace-job';

/**
 * `DELETE /api/v1/traces/{job_id}`: cancels a queued or running job (202, the job) or deletes a
 * finished one and its upload (204, undefined).
 */
export function cancelTraceJob(jobId: string): Promise<TraceJob | undefined> {
  return api.delete('/api/v1/traces/{job_id}', { path: { job_id: jobId } }) as Promise<TraceJob | undefined>;
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
