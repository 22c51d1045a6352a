import { useId, useMemo } from 'react';

import { CalibrationNote, Figure } from '@/components';
import type { MaxWorkloadRequest } from '@/lib/api-types';

import { useMaxWorkload } from '../api/get-max-workload';
import { show } from '../lib/format';
import type { AnalysisProps } from '../lib/types';
import { QueryState } from './query-state';

/** Scale of the bars: today's load (1 x) sits at a third of the track. */
const SCALE_MAX = 3;

function ScaleBar({ scale }: { scale: number | null }) {
  const pct = (v: number) => `${(Math.min(Math.max(v, 0), SCALE_MAX) / SCALE_MAX) * 100}%`;
  const v = scale ?? 0;
  return (
    <span className={`scale-track ${v < 1 ? 'scale-short' : v < 1.2 ? 'scale-tight' : ''}`} aria-hidden="true">
      <span className="scale-fill" style={{ width: pct(v) }} />
      <span className="scale-today" style={{ left: pct(1) }} title="today's load" />
    </span>
  );
}

/** Per window: the largest load scale its mix sustains within its targets and limits, and what binds. */
export function MaxWorkloadAnalysis({ workloads, configuration, degraded }: AnalysisProps) {
  const body: MaxWorkloadRequest = useMemo(() => ({ workloads, configuration, degraded, calibration_margin: 'pessimistic' as const }), [workloads, configuration, degraded]);
  const max = useMaxWorkload(body);
  const r = max.data;
  const headingId = useId();

  return (
    <section className="card analysis" aria-labelledby={headingId} id="max-workload" data-testid="max-workload-analysis">
      <div className="card-head">
        <h2 id={headingId}>Maximum workload</h2>
      </div>
      <p className="muted">How far each window's mix can be scaled up (same read share, sizes and working set per I/O) before a target or limit fails.</p>
      <QueryState loading="Scaling each window…" failed="The maximum workload could not be found" query={max} workloads={workloads} />
      {r ? (
        <div className={max.isFetching ? 'is-updating' : undefined}>
          <p className={r.max_scale !== null && r.max_scale >= 1 ? 'verdict-overall ok' : 'verdict-overall fail'} data-testid="max-workload-summary">
            {r.text}
          </p>
          <CalibrationNote result={r} />
          <div className="table-scroll">
            <table className="data-table max-workload-table">
              <caption className="visually-hidden">Maximum load scale per window</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">IOPS today</th>
                  <th scope="col">Max scale</th>
                  <th scope="col" className="scale-col">
                    <span className="visually-hidden">Scale against today (1 x marked)</span>
                  </th>
                  <th scope="col">Max IOPS</th>
                  <th scope="col">Max MB/s</th>
                  <th scope="col">What binds</th>
                </tr>
              </thead>
              <tbody>
                {r.windows.map((w) => (
                  <tr key={w.window} className={w.window === r.binding_window ? 'row-binding' : undefined}>
                    <th scope="row">
                      {w.window}
                      {w.window === r.binding_window ? <span className="col-note">binds the system</span> : null}
                    </th>
                    <td>{show(w.base_iops)}</td>
                    <td>
                      {w.max_scale === null ? 'idle' : `${show(w.max_scale)} x`}
                      {w.headroom_pct !== null ? <span className="col-note">{w.headroom_pct >= 0 ? `+${show(w.headroom_pct)}% room` : `${show(w.headroom_pct)}% short`}</span> : null}
                    </td>
                    <td className="scale-col">
                      <ScaleBar scale={w.max_scale} />
                    </td>
                    <td>
                      <Figure label={`Max IOPS (${w.window})`} figure={w.max_iops_explained} />
                    </td>
                    <td>{show(w.max_mb_s, 'MB/s', '—')}</td>
                    <td className="small">
                      {w.binding_words}
                      <span className="col-note">{w.binding_text}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
