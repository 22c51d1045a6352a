import type { ReactNode } from 'react';

import { Figure, formatNumber } from '@/components';
import type { Recommendation, RecommendedConfiguration } from '@/lib/api-types';

type RecommendResultsProps = {
  recommendation: Recommendation;
  /** Open a recommended configuration in Size (none on a saved report). */
  onUse?: (configuration: RecommendedConfiguration) => void;
  /** Shown between the summary and the table (the cost vs latency chart). */
  chart?: ReactNode;
};

function money(v: number | null | undefined): string {
  return v == null ? 'unknown' : `${formatNumber(v)} USD`;
}

/** How far off this class of system has been (90th percentile) and which parts are estimates, in the engine's words. */
function modelError(c: RecommendedConfiguration): string {
  const error = c.model_error;
  const band = error?.p90_pct == null ? 'unknown' : `${formatNumber(error.p90_pct)} % (p90, ${error.label})`;
  const estimated = c.calibration?.estimated.length ? `; estimates: ${c.calibration.estimated.join(', ')}` : '';
  const margins = c.calibration?.margins?.length ? '; sized at the pessimistic end' : '';
  return `${band}${estimated}${margins}`;
}

/** Each recommended configuration's TCO at the three reduction ratios, and the choice that flips as the ratio drops. */
function RatioTable({ recommendation: r }: { recommendation: Recommendation }) {
  const priced = r.configurations.filter((c) => c.tco);
  if (!priced.length) return null;
  const first = priced[0]!.tco!;
  return (
    <div className="table-scroll" data-testid="recommend-ratios">
      <table className="data-table">
        <caption>
          TCO over {first.years} years ({first.currency}) at three data-reduction ratios: each configuration grown to hold the data
        </caption>
        <thead>
          <tr>
            <th scope="col">Configuration</th>
            {first.ratios.map((c) => (
              <th scope="col" key={c.case}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {priced.map((c) => (
            <tr key={`${c.rank}-${c.array_id}-${c.drive_id}`}>
              <th scope="row">
                {c.rank}. {c.model}, {c.drive_name}
              </th>
              {c.tco!.ratios.map((x) => (
                <td key={x.case}>
                  <Figure label={`TCO, ${x.label}, ${c.model}`} figure={x.tco} />
                  {x.drives_added ? <span className="col-note">+{formatNumber(x.drives_added)} drives</span> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {r.ratio_flip ? (
        <p className={r.ratio_flip.flips ? 'notice' : 'muted'} data-testid="ratio-flip">
          {r.ratio_flip.words}
        </p>
      ) : null}
    </div>
  );
}

/** The ranked configurations (Pareto-optimal ones marked), the arrays that cannot meet the load, and why. */
export function RecommendResults({ recommendation: r, onUse, chart }: RecommendResultsProps) {
  return (
    <section aria-labelledby="recommend-results-title">
      <h2 id="recommend-results-title">Recommended configurations</h2>
      <p className="muted">
        {formatNumber(r.stats.families)} families, {formatNumber(r.stats.candidates)} candidates in {formatNumber(r.stats.total_seconds)} s ·
        engine {r.engine_version} · catalog {r.catalog_version}. Ranked by cost, rack units and read latency; ★ = on the Pareto front (
        {r.pareto_objectives.join(', ')}).
      </p>
      {r.reasons.length ? (
        <div className="notice" role="status">
          <ul>
            {r.reasons.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {chart}
      {r.configurations.length ? (
        <div className="table-scroll">
          <table className="data-table recommend-table">
            <caption className="visually-hidden">Recommended configurations, best first</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Array</th>
                <th scope="col">Drive</th>
                <th scope="col">RAID</th>
                <th scope="col">Failures tolerated</th>
                <th scope="col">Drives</th>
                <th scope="col">Flash</th>
                <th scope="col">Rack units</th>
                <th scope="col">Power</th>
                <th scope="col">List cost</th>
                <th scope="col">Usable</th>
                <th scope="col">Read latency</th>
                <th scope="col">TCO</th>
                <th scope="col">Binding</th>
                <th scope="col">Model error</th>
                {onUse ? (
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {r.configurations.map((c) => (
                <tr key={`${c.rank}-${c.array_id}-${c.drive_id}-${c.raid_scheme}`}>
                  <td>
                    {c.rank}
                    {c.on_pareto_front ? <span title="On the Pareto front"> ★</span> : null}
                  </td>
                  <th scope="row">
                    {c.vendor} {c.model}
                  </th>
                  <td>{c.drive_name}</td>
                  <td>{c.layout || `${c.raid_scheme} ${c.group_width}`}</td>
                  <td>{c.failures_tolerated}</td>
                  <td>
                    {c.drive_count} + {c.spares} spares
                  </td>
                  <td>{c.flash_cache_gb ? `${formatNumber(c.flash_cache_gb)} GB` : '—'}</td>
                  <td>{formatNumber(c.rack_units)} U</td>
                  <td>{c.power_w == null ? 'unknown' : `${formatNumber(c.power_w)} W`}</td>
                  <td>{money(c.cost_usd)}</td>
                  <td>{formatNumber(c.usable_tb)} TB</td>
                  <td>{c.read_latency_ms == null ? 'saturated' : `${formatNumber(c.read_latency_ms)} ms`}</td>
                  <td>{c.tco ? <Figure label={`TCO over ${c.tco.years} years, ${c.model}`} figure={c.tco.total} /> : '—'}</td>
                  <td className="small">{c.binding_constraint}</td>
                  <td className="small" title={c.model_error?.text}>
                    {modelError(c)}
                  </td>
                  {onUse ? (
                    <td>
                      <button type="button" onClick={() => onUse(c)} aria-label={`Open ${c.model} with ${c.drive_name} in Size`} title="Open in Size">
                        Open
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <RatioTable recommendation={r} />
      {r.infeasible.length ? (
        <details className="infeasible">
          <summary>{r.infeasible.length} arrays cannot meet the workloads</summary>
          <ul>
            {r.infeasible.map((a) => (
              <li key={a.array_id}>
                <strong>
                  {a.vendor} {a.model}
                </strong>
                : {a.binding_constraint} (closest: {a.closest})
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {r.notes.length ? (
        <ul className="notes">
          {r.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
