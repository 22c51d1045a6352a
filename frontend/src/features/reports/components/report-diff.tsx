import { ErrorState, formatNumber, Loading } from '@/components';
import type { FigureChange } from '@/lib/api-types';

import { useReportDiff } from '../api/diff-reports';

function cell(x: FigureChange['before']): string {
  if (x === null || x === undefined) return '—';
  if (typeof x === 'boolean') return x ? 'yes' : 'no';
  if (typeof x === 'number') return formatNumber(x);
  return String(x);
}

type ReportDiffProps = {
  before: string;
  after: string;
  reportHref: (id: string) => string;
};

/** Two saved reports side by side: each headline figure of either, and how it changed (the server's comparison). */
export function ReportDiffView({ before, after, reportHref }: ReportDiffProps) {
  const diff = useReportDiff(before, after);
  if (diff.isPending && diff.fetchStatus === 'fetching') return <Loading label="Comparing the reports…" />;
  if (diff.isError) return <ErrorState title="The reports could not be compared" error={diff.error} onRetry={() => void diff.refetch()} />;
  const d = diff.data;
  if (!d) return null;
  return (
    <section className="card report-diff" aria-labelledby="diff-title" data-testid="report-diff">
      <h2 id="diff-title">
        {d.changed} of {d.changes.length} headline figures differ
      </h2>
      <div className="table-scroll">
        <table className="data-table diff-table">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">
                <a href={reportHref(d.before)}>{d.before_name}</a>
                <span className="col-note">
                  {d.before_kind} · engine {d.before_engine_version} · {d.before_created_at.slice(0, 16).replace('T', ' ')} UTC
                </span>
              </th>
              <th scope="col">
                <a href={reportHref(d.after)}>{d.after_name}</a>
                <span className="col-note">
                  {d.after_kind} · engine {d.after_engine_version} · {d.after_created_at.slice(0, 16).replace('T', ' ')} UTC
                </span>
              </th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {d.changes.map((c) => (
              <tr key={c.figure} className={c.changed ? 'row-changed' : undefined} data-changed={c.changed ? 'true' : 'false'}>
                <th scope="row">{c.figure}</th>
                <td>{cell(c.before)}</td>
                <td>{cell(c.after)}</td>
                <td>{!c.changed ? '' : c.delta !== null && c.delta !== undefined ? `${c.delta > 0 ? '+' : ''}${formatNumber(c.delta)}` : 'changed'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
