import { ErrorState, Figure, formatNumber, Loading } from '@/components';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { ConfigurationInput, ObservedVsModel, Workload } from '@/lib/api-types';

import { useCompareObserved } from '../api/compare-observed';

type ObservedPanelProps = {
  workloads: Workload[];
  /** What you have now: the configuration the statistics came from (null: not chosen yet). */
  configuration: ConfigurationInput | null;
};

const ms = (x: number | null | undefined) => (x == null ? '–' : `${formatNumber(x)} ms`);

function ErrorPct({ pct }: { pct: number | null | undefined }) {
  if (pct == null) return <>–</>;
  const sign = pct > 0 ? '+' : '';
  const cls = Math.abs(pct) <= 25 ? 'ok' : pct < 0 ? 'warn' : 'muted';
  return <span className={`error-pct ${cls}`}>{`${sign}${formatNumber(pct)} %`}</span>;
}

/**
 * Host-observed latency beside the model's prediction for the configuration the statistics came
 * from, evaluated at the load the host measured in each window (the engine does both sides).
 */
export function ObservedPanel({ workloads, configuration }: ObservedPanelProps) {
  const query = useCompareObserved(configuration ? { workloads, configuration } : null);
  const error = query.error instanceof ApiError ? query.error : null;
  if (!configuration) return <p className="muted">Choose the configuration the statistics came from.</p>;
  if (query.isPending) return <Loading label="Evaluating what you have now…" />;
  if (error?.isValidation) {
    return (
      <div className="error-state" role="alert">
        <p className="error-title">This configuration cannot be evaluated</p>
        <ul>
          {error.issues.map((i) => (
            <li key={`${fieldPath(i.loc)}-${i.msg}`}>
              {fieldPath(i.loc) ? `${fieldPath(i.loc)}: ` : ''}
              {i.msg}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (query.isError) return <ErrorState title="What you have now could not be evaluated" error={query.error} onRetry={() => void query.refetch()} />;
  const c = query.data;
  return (
    <div className="observed-panel" aria-busy={query.isFetching}>
      <p>
        On <strong>{c.configuration}</strong>, at the load each window carried:
      </p>
      <div className="table-scroll">
        <table className="data-table observed-table">
          <caption>Observed on the host vs predicted by the model</caption>
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Observed IOPS</th>
              <th scope="col">Read latency: host</th>
              <th scope="col">model</th>
              <th scope="col">difference</th>
              <th scope="col">Write latency: host</th>
              <th scope="col">model</th>
              <th scope="col">difference</th>
              <th scope="col">Queue (host)</th>
              <th scope="col">Model bottleneck</th>
            </tr>
          </thead>
          <tbody>
            {c.rows.map((r: ObservedVsModel) => (
              <tr key={`${r.workload}/${r.phase}`}>
                <th scope="row" title={r.source}>
                  {r.workload} / {r.window}
                </th>
                <td>{formatNumber(r.observed_iops)}</td>
                <td>{ms(r.observed_read_latency_ms)}</td>
                <td>
                  <Figure label={`Predicted read latency, ${r.window}`} figure={r.predicted_read_latency_ms} />
                </td>
                <td>
                  <ErrorPct pct={r.read_error_pct} />
                </td>
                <td>{ms(r.observed_write_latency_ms)}</td>
                <td>
                  <Figure label={`Predicted write latency, ${r.window}`} figure={r.predicted_write_latency_ms} />
                </td>
                <td>
                  <ErrorPct pct={r.write_error_pct} />
                </td>
                <td>{r.observed_queue_length == null ? '–' : formatNumber(r.observed_queue_length)}</td>
                <td>{r.bottleneck}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="muted">
        {c.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
