import type { ReactNode } from 'react';

import { CalibrationNote, ErrorState, Figure, formatNumber, Loading } from '@/components';
import type { ConfigurationInput, Explained, RaidGrid as RaidGridResult, RaidGridRequest, Workload } from '@/lib/api-types';

import { useRaidGrid } from '../api/get-raid-grid';

type RaidGridProps = {
  workloads: Workload[];
  /** The configuration sized or evaluated: its array and drive; every scheme is sized anew. */
  configuration: ConfigurationInput;
  /** The scheme of the configuration shown above (its row is marked). */
  currentScheme?: string | null;
  /** Save & share for the request behind the grid shown (the page supplies it). */
  renderSave?: (inputs: RaidGridRequest) => ReactNode;
};

function ms(x: number | null): string {
  return x === null ? 'saturated' : `${formatNumber(x)} ms`;
}

function Money({ label, figure }: { label: string; figure: Explained }) {
  return figure.value === null ? <span title={figure.text}>unknown</span> : <Figure label={label} figure={figure} />;
}

/** The grid's table: each scheme sized (as computed or as a report saved it). */
export function RaidGridTable({ grid: data, currentScheme }: { grid: RaidGridResult; currentScheme?: string | null }) {
  return (
    <>
    <div className="table-scroll">
        <table className="data-table raid-grid-table">
          <caption className="visually-hidden">RAID schemes side by side</caption>
          <thead>
            <tr>
              <th scope="col">
                Scheme <span className="muted">width</span>
              </th>
              <th scope="col">
                Drives <span className="muted">+spares</span>
              </th>
              <th scope="col">Usable / raw</th>
              <th scope="col">Cost per usable TB</th>
              <th scope="col">Cost per 1,000 IOPS</th>
              <th scope="col">Failures tolerated</th>
              <th scope="col">Rebuild</th>
              <th scope="col">Latency read / write</th>
              <th scope="col">Write penalty</th>
              <th scope="col">Meets every target</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((r) => (
              <tr key={r.scheme} data-scheme={r.scheme} className={r.scheme === currentScheme ? 'row-current' : undefined}>
                <th scope="row">
                  {r.scheme_name} <span className="muted">{r.group_width}</span>
                  {r.scheme === currentScheme ? <span className="col-note">the configuration above</span> : null}
                </th>
                <td>
                  {formatNumber(r.drives)} <span className="muted">+{formatNumber(r.spares)}</span>
                </td>
                <td>
                  <Figure label={`Usable share of raw, ${r.scheme_name}`} figure={r.usable_raw_pct} />
                </td>
                <td>
                  <Money label={`Cost per usable TB, ${r.scheme_name}`} figure={r.cost_per_usable_tb} />
                </td>
                <td>
                  <Money label={`Cost per 1,000 IOPS, ${r.scheme_name}`} figure={r.cost_per_1000_iops} />
                </td>
                <td>{formatNumber(r.failures_tolerated)}</td>
                <td>{r.rebuild_hours ? <Figure label={`Rebuild time, ${r.scheme_name}`} figure={r.rebuild_hours} /> : 'none'}</td>
                <td className="latency-pair">
                  <span className="figure-words">{ms(r.read_latency_ms)}</span> / <span className="figure-words">{ms(r.write_latency_ms)}</span>
                </td>
                <td>{r.write_penalty ? <Figure label={`Write penalty, ${r.scheme_name}`} figure={r.write_penalty} /> : 'unknown'}</td>
                <td>
                  <span className={r.passed ? 'badge badge-ok' : 'badge badge-fail'}>{r.passed ? 'Meets' : r.feasible ? 'Fails' : 'Cannot'}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
    </div>
    <CalibrationNote result={data} title="How calibrated these sizings are" />
    </>
  );
}

/**
 * Every RAID scheme the array offers for this workload and drive, each sized by the engine:
 * drives, usable share of raw, cost per usable TB and per 1,000 IOPS, failures tolerated, rebuild
 * time, latency and write penalty (`POST /raid-grid`).
 */
export function RaidGrid({ workloads, configuration, currentScheme, renderSave }: RaidGridProps) {
  const grid = useRaidGrid({ workloads, configuration, calibration_margin: 'pessimistic' });
  const data = grid.data;
  return (
    <section className="raid-grid" aria-labelledby="raid-grid-title" data-testid="raid-grid">
      <h3 id="raid-grid-title">RAID grid: every scheme this array offers</h3>
      <p className="muted">
        The same workload and drive in each scheme the array sells, each sized by the engine (the fewest whole RAID groups that meet
        every window).{data ? ` Latency, write penalty and cost per IOPS are for the busiest window, ${data.window} (${formatNumber(data.frontend_iops)} IOPS).` : ''}
      </p>
      {grid.isPending ? <Loading label="Sizing every scheme…" /> : null}
      {grid.isError ? <ErrorState title="The RAID grid could not be computed" error={grid.error} onRetry={() => void grid.refetch()} /> : null}
      {data ? <RaidGridTable grid={data} currentScheme={currentScheme} /> : null}
      {data && renderSave ? renderSave({ workloads, configuration, calibration_margin: 'pessimistic' }) : null}
    </section>
  );
}
