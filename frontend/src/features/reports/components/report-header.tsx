import type { ReactNode } from 'react';

import type { ReportSnapshot } from '@/lib/api-types';

import { reportExportUrl } from '../api/export-report';
import { useRecomputeReport } from '../api/recompute-report';

type ReportHeaderProps = {
  report: ReportSnapshot;
  reportHref: (id: string) => string;
  /** The page that diffs this report against another (the app's route table). */
  diffHref?: (before: string, after?: string) => string;
  children?: ReactNode;
};

const KIND: Record<ReportSnapshot['kind'], string> = {
  evaluate: 'Evaluation',
  size: 'Sizing',
  compare: 'Comparison',
  curves: 'Curves',
  recommend: 'Recommendation',
  'raid-grid': 'RAID grid',
  growth: 'Growth',
  sensitivity: 'Sensitivity',
  ranges: 'Ranges',
  degraded: 'Degraded modes',
  'building-blocks': 'Building blocks',
  replication: 'Replication and DR',
  expand: 'Expansion',
  'quote-check': 'Quote check',
  consolidate: 'Consolidation',
  refresh: 'Refresh',
};

/** The report's name, provenance (versions, when), export links and recomputation. */
export function ReportHeader({ report, reportHref, diffHref, children }: ReportHeaderProps) {
  const recompute = useRecomputeReport();
  const created = new Date(report.created_at);
  return (
    <header className="report-header">
      <p className="eyebrow">
        {KIND[report.kind]} report · read-only snapshot
      </p>
      <h1>{report.name}</h1>
      <p className="muted">
        Saved {Number.isNaN(created.getTime()) ? report.created_at : created.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC · engine{' '}
        {report.engine_version} · catalog {report.catalog_version}
        {report.recomputed_from ? (
          <>
            {' '}
            · recomputed from <a href={reportHref(report.recomputed_from)}>{report.recomputed_from}</a>
          </>
        ) : null}
      </p>
      <nav className="report-actions no-print" aria-label="Report actions">
        <a className="button primary" href={reportExportUrl(report.id, 'pdf')} download data-testid="download-pdf">
          Proposal (PDF)
        </a>
        <a className="button" href={reportExportUrl(report.id, 'xlsx')} download data-testid="download-xlsx">
          BOM workbook (XLSX)
        </a>
        <a href={reportExportUrl(report.id, 'json')} download>
          Export JSON
        </a>
        <a href={reportExportUrl(report.id, 'csv')} download>
          Export CSV
        </a>
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
        <button type="button" disabled={recompute.isPending} onClick={() => recompute.mutate(report.id)}>
          {recompute.isPending ? 'Recomputing…' : 'Recompute on the current engine'}
        </button>
        {diffHref ? <a href={diffHref(report.id)}>Compare with another report</a> : null}
      </nav>
      {recompute.data ? (
        <p role="status">
          Recomputed as a new report: <a href={reportHref(recompute.data.id)}>{recompute.data.id}</a>
          {diffHref ? (
            <>
              {' '}
              (<a href={diffHref(report.id, recompute.data.id)}>side by side</a>)
            </>
          ) : null}
          {recompute.data.changes?.filter((c) => c.changed).length
            ? ` (${recompute.data.changes.filter((c) => c.changed).length} headline figures changed)`
            : ' (no headline figure changed)'}
        </p>
      ) : null}
      {recompute.isError ? <p role="alert">Recompute failed: {recompute.error.message}</p> : null}
      {report.changes?.length ? (
        <details className="changes">
          <summary>Changes against the original</summary>
          <ul>
            {report.changes
              .filter((c) => c.changed)
              .map((c) => (
                <li key={c.figure}>
                  {c.figure}: {String(c.before)} → {String(c.after)}
                </li>
              ))}
          </ul>
        </details>
      ) : null}
      {children}
    </header>
  );
}
