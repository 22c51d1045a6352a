import { lazy, Suspense } from 'react';

import { ErrorState, formatNumber, Loading } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { TraceJob, Workload } from '@/lib/api-types';

import { useCancelTraceJob } from '../api/cancel-trace-job';
import { isActive, useTraceJob } from '../api/get-trace-job';
import { bytes } from '../lib/format';
import { BadLines } from './bad-lines';

const TraceResults = lazy(() => import('./trace-results'));

export type UseWorkload = (workload: Workload, how: 'replace' | 'add') => void;

type TraceJobViewProps = {
  jobId: string;
  /** Put the derived workload into the workflow (and open Size). */
  onUseWorkload: UseWorkload;
  /** Workloads already in the workflow (offers "add" beside "use"). */
  workloadCount: number;
  /** After the job was deleted. */
  onDeleted: () => void;
};

const STATUS: Record<TraceJob['status'], string> = {
  queued: 'Queued',
  running: 'Analysing',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function Progress({ job }: { job: TraceJob }) {
  const pct = Math.max(0, Math.min(100, job.percent));
  const label =
    job.status === 'queued'
      ? `Waiting to analyse ${job.filename}…`
      : `Analysing ${job.filename}: ${formatNumber(pct)}% · ${job.records.toLocaleString('en-US')} records · ${formatNumber(job.records_per_s)} records/s`;
  return (
    <div className="progress-block" data-testid="trace-progress">
      <label htmlFor={`progress-${job.id}`}>{label}</label>
      <progress id={`progress-${job.id}`} value={pct} max={100} aria-valuetext={`${formatNumber(pct)}%`} />
    </div>
  );
}

/** One trace job: its progress while it runs (cancellable), its failure, or its analysis. */
export function TraceJobView({ jobId, onUseWorkload, workloadCount, onDeleted }: TraceJobViewProps) {
  const job = useTraceJob(jobId);
  const cancel = useCancelTraceJob();
  const j = job.data;

  if (job.isPending) return <Loading label="Loading the trace analysis…" />;
  if (job.isError) {
    const missing = job.error instanceof ApiError && (job.error.status === 404 || job.error.status === 422);
    return missing ? (
      <div className="empty" role="status">
        There is no trace analysis <code>{jobId}</code>: it may have been deleted, or the link is incomplete. Upload the trace again.
      </div>
    ) : (
      <ErrorState title="The trace analysis could not be loaded" error={job.error} onRetry={() => void job.refetch()} />
    );
  }
  if (!j) return null;

  function remove() {
    cancel.mutate(jobId, { onSuccess: (answer) => (answer ? undefined : onDeleted()) });
  }

  return (
    <section className="trace-job" aria-labelledby="trace-job-title" data-status={j.status}>
      <div className="section-head">
        <h2 id="trace-job-title">
          {j.filename} <span className="muted trace-size">{bytes(j.size_bytes)}</span>
        </h2>
        <span className={`badge ${j.status === 'done' ? 'badge-ok' : j.status === 'failed' ? 'badge-fail' : 'badge-neutral'}`}>{STATUS[j.status]}</span>
      </div>

      {isActive(j) ? (
        <>
          <Progress job={j} />
          <div className="row-actions">
            <button type="button" className="danger" onClick={() => cancel.mutate(jobId)} disabled={j.cancel_requested || cancel.isPending}>
              {j.cancel_requested ? 'Cancelling…' : 'Cancel the analysis'}
            </button>
          </div>
        </>
      ) : null}

      {j.status === 'cancelled' ? (
        <p className="notice" role="status">
          The analysis was cancelled after {j.records.toLocaleString('en-US')} records ({formatNumber(j.percent)}%).
        </p>
      ) : null}

      {j.status === 'failed' ? (
        <div className="error-state" role="alert">
          <p className="error-title">The analysis failed</p>
          <p className="error-message">{j.error ?? 'No reason given.'}</p>
          <BadLines lines={j.bad_lines ?? []} />
        </div>
      ) : null}

      {cancel.isError ? <ErrorState title="The job could not be cancelled or deleted" error={cancel.error} /> : null}

      {j.status === 'done' && j.result ? (
        <Suspense fallback={<Loading label="Loading the charts…" />}>
          <TraceResults analysis={j.result} onUseWorkload={onUseWorkload} workloadCount={workloadCount} />
        </Suspense>
      ) : null}

      {!isActive(j) ? (
        <div className="row-actions trace-delete">
          <button type="button" className="danger" onClick={remove} disabled={cancel.isPending}>
            Delete this trace and its analysis
          </button>
        </div>
      ) : null}
    </section>
  );
}
