import { useId, useMemo, useState, type ReactNode } from 'react';

import { CalibrationNote, Figure, NumberField, SelectField } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { ConfigurationInput, DegradedComparison, DegradedRequest, ModeResult, Outcome, Workload } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { useDegraded } from '../api/get-degraded';
import { MODE_LABELS, show } from '../lib/format';
import { QueryState } from './query-state';

type DegradedAnalysisProps = {
  workloads: Workload[];
  configuration: ConfigurationInput;
  /** Save & share for the request behind the results shown (the page supplies it). */
  renderSave?: (inputs: DegradedRequest) => ReactNode;
};

const URE_OPTIONS = [
  { value: '1e-14', label: '10^14 bits (desktop)' },
  { value: '1e-15', label: '10^15 bits (enterprise HDD)' },
  { value: '1e-16', label: '10^16 bits' },
  { value: '1e-17', label: '10^17 bits (enterprise SSD)' },
];

function Row({ label, modes, cell, className }: { label: ReactNode; modes: ModeResult[]; cell: (m: ModeResult, o: Outcome) => ReactNode; className?: string }) {
  return (
    <tr className={className}>
      <th scope="row">{label}</th>
      {modes.map((m) => (
        <td key={m.mode} className={m.available ? undefined : 'muted'}>
          {m.outcome ? cell(m, m.outcome) : '—'}
        </td>
      ))}
    </tr>
  );
}

/** The degraded modes side by side (a result as computed or as a report saved it). */
export function DegradedView({ result: r }: { result: DegradedComparison }) {
  const windows = r.modes.find((m) => m.outcome)?.outcome?.windows.map((w) => w.window) ?? [];
  const pools = [...new Set(r.modes.flatMap((m) => m.rebuild.map((x) => x.pool)))];
  return (
    <>
      <p data-testid="degraded-summary">{r.text}</p>
      <CalibrationNote result={r} />
      <div className="table-scroll">
        <table className="data-table degraded-table">
          <caption className="visually-hidden">Degraded modes side by side</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              {r.modes.map((m) => (
                <th scope="col" key={m.mode} className={m.mode === r.worst_mode ? 'worst' : undefined}>
                  {MODE_LABELS[m.mode]}
                  {m.mode === r.worst_mode ? <span className="col-note">worst</span> : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <Row
              label="Verdict"
              modes={r.modes}
              cell={(m, o) => (
                <>
                  <span className={o.passed ? 'badge badge-ok' : 'badge badge-fail'}>{o.passed ? 'Meets' : 'Fails'}</span>
                  {m.note ? <span className="col-note">{m.note}</span> : null}
                </>
              )}
            />
            <Row label="Nearest limit" modes={r.modes} cell={(_, o) => <span className="small">{o.binding_words}</span>} />
            <Row label="Headroom used" modes={r.modes} cell={(_, o) => show(o.headroom_used_pct, '%')} />
            <Row label="Busiest component" modes={r.modes} cell={(_, o) => show(o.max_utilization_pct, '%')} />
            <Row label="Worst read latency" modes={r.modes} cell={(_, o) => show(o.read_latency_ms, 'ms')} />
            <Row label="Capacity fill" modes={r.modes} cell={(_, o) => show(o.fill_pct, '%', '—')} />
            {windows.map((w) => (
              <Row
                key={w}
                label={`${w}: read latency`}
                modes={r.modes}
                cell={(_, o) => {
                  const x = o.windows.find((y) => y.window === w);
                  return x ? (
                    <>
                      {show(x.read_latency_ms, 'ms')}{' '}
                      {x.read_latency_met == null ? null : (
                        <span
                          className={x.read_latency_met ? 'delta-better' : 'delta-worse'}
                          title={x.read_latency_met ? 'meets its read latency target' : 'misses its read latency target'}
                        >
                          {x.read_latency_met ? '✓' : '✗'}
                        </span>
                      )}
                    </>
                  ) : (
                    '—'
                  );
                }}
              />
            ))}
            {pools.map((pool) => (
              <tr key={pool} className="group-row">
                <th scope="row">Rebuild{pools.length > 1 || pool !== 'pool' ? ` of ${pool}` : ''}</th>
                {r.modes.map((m) => {
                  const x = m.rebuild.find((y) => y.pool === pool);
                  return (
                    <td key={m.mode} data-testid={x ? 'rebuild-exposure' : undefined}>
                      {x ? (
                        <>
                          <Figure label={`Rebuild time (${pool})`} figure={x.rebuild_hours} />
                          <span className="col-note">
                            further failure <Figure label={`Further failure during the rebuild (${pool})`} figure={x.further_failure_pct} />
                            {x.unreadable_sector_pct ? (
                              <>
                                {' '}
                                · unreadable sector <Figure label={`Unreadable sector during the rebuild (${pool})`} figure={x.unreadable_sector_pct} />
                              </>
                            ) : null}{' '}
                            · {x.failures_tolerated_during_rebuild} more failure{x.failures_tolerated_during_rebuild === 1 ? '' : 's'} tolerated
                          </span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.modes.flatMap((m) => m.rebuild).length ? (
        <ul className="notes">
          {r.modes.flatMap((m) => m.rebuild.map((x) => <li key={`${m.mode}-${x.pool}`}>{x.text}</li>))}
        </ul>
      ) : null}
    </>
  );
}

/** Normal, a drive failed, rebuilding and a controller down, side by side, with rebuild hours and exposure. */
export function DegradedAnalysis({ workloads, configuration, renderSave }: DegradedAnalysisProps) {
  const [afr, setAfr] = useState(2);
  const [ure, setUre] = useState('1e-15');
  const settled = useDebouncedValue({ afr, ure }, 400);
  const body: DegradedRequest = useMemo(
    () => ({ workloads, configuration, calibration_margin: 'pessimistic', afr_pct: settled.afr, ure_per_bit: Number(settled.ure) }),
    [workloads, configuration, settled],
  );
  const degraded = useDegraded(body);
  const r = degraded.data;
  const headingId = useId();
  const errors = fieldErrors(degraded.error instanceof ApiError && degraded.error.isValidation ? degraded.error.fieldErrors : null);

  return (
    <section className="card analysis" aria-labelledby={headingId} id="degraded" data-testid="degraded-analysis">
      <div className="card-head">
        <h2 id={headingId}>Degraded modes</h2>
      </div>
      <p className="muted">The same workloads with a drive failed, during the rebuild, and with a controller (or node) down, beside normal operation.</p>
      <div className="grid grid-4">
        <NumberField label="Drive annual failure rate" unit="%" value={afr} min={0} max={100} errors={errors.at('afr_pct')} onChange={(v) => setAfr(v ?? 2)} />
        <SelectField label="One unreadable sector per" value={ure} onChange={setUre} options={URE_OPTIONS} errors={errors.at('ure_per_bit')} />
      </div>
      <QueryState loading="Evaluating each degraded mode…" failed="The degraded modes could not be evaluated" query={degraded} workloads={workloads} />
      {r ? (
        <div className={degraded.isFetching ? 'is-updating' : undefined}>
          <DegradedView result={r} />
        </div>
      ) : null}
      {r && renderSave ? renderSave(body) : null}
    </section>
  );
}
