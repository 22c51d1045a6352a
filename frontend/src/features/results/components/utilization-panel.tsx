import { memo } from 'react';

import { Figure, UtilizationBar } from '@/components';
import type { EvaluationResult, Explained, WindowResult } from '@/lib/api-types';

type UtilizationPanelProps = {
  result: EvaluationResult;
  /** A baseline to draw as ghost bars (what-if). */
  baseline?: EvaluationResult | null;
};

type Row = { key: string; label: string; figure: Explained; limit: number };

/** The utilization bars of one window: controllers (and after a failover), ports, the flash cache devices, each drive pool. */
export function windowRows(w: WindowResult): Row[] {
  const limit = (name: string, fallback: number) => w.checks.find((c) => c.name === name)?.limit ?? fallback;
  const ctrlCheck = w.checks.find((c) => c.name.startsWith('controllers') && c.name !== 'controllers after failover');
  const rows: Row[] = [
    { key: 'controllers', label: 'Controllers', figure: w.controller_utilization_pct, limit: ctrlCheck?.limit ?? 50 },
  ];
  if (w.failover_utilization_pct) {
    rows.push({
      key: 'failover',
      label: 'After a controller failover',
      figure: w.failover_utilization_pct,
      limit: limit('controllers after failover', 100),
    });
  }
  rows.push({ key: 'ports', label: 'Front-end ports', figure: w.port_utilization_pct, limit: limit('ports', 70) });
  if (w.backend_bus_utilization_pct) {
    rows.push({ key: 'bus', label: 'Back-end bus', figure: w.backend_bus_utilization_pct, limit: limit('back-end bus', 70) });
  }
  if (w.flash_cache_utilization_pct) {
    rows.push({ key: 'flash cache', label: 'Flash cache devices', figure: w.flash_cache_utilization_pct, limit: limit('flash cache', 70) });
  }
  if (w.cluster_network_utilization_pct) {
    rows.push({ key: 'network', label: 'Cluster network', figure: w.cluster_network_utilization_pct, limit: limit('cluster network', 70) });
  }
  for (const p of w.pools) {
    const of = w.pools.length > 1 ? ` (${p.pool})` : '';
    rows.push({
      key: `drives:${p.pool}`,
      label: `Drives${of}`,
      figure: p.drive_utilization_pct,
      limit: limit(`drives:${p.pool}`, 70),
    });
    // dedicated parity drives take every partial-stripe write: they bind before the data drives
    if (p.parity_utilization_pct) {
      rows.push({
        key: `parity drives:${p.pool}`,
        label: `Parity drives${of}`,
        figure: p.parity_utilization_pct,
        limit: limit(`parity drives:${p.pool}`, 70),
      });
    }
  }
  return rows;
}

/** Flash wear of each pool with an endurance rating, in years at this window's write rate. */
function WearLines({ w }: { w: WindowResult }) {
  const worn = w.pools.filter((p) => p.endurance);
  if (!worn.length) return null;
  return (
    <p className="muted wear" data-testid="wear">
      {worn.map((p, i) => (
        <span key={p.pool}>
          {i ? ' · ' : ''}Flash wear{w.pools.length > 1 ? ` (${p.pool})` : ''}:{' '}
          <Figure label={`Years to wear out${w.pools.length > 1 ? ` (${p.pool})` : ''} (${w.window})`} figure={p.endurance!.years_to_wear_out} />
        </span>
      ))}
    </p>
  );
}

/** Utilization per component against its headroom line, per window (redrawn only when its props change). */
export const UtilizationPanel = memo(function UtilizationPanel({ result, baseline }: UtilizationPanelProps) {
  return (
    <section aria-labelledby="util-title" className="utilization">
      <h3 id="util-title">How busy each part is</h3>
      <p className="muted">Bars against the headroom target (the dark line); 100% is saturation.</p>
      <div className="window-cards">
        {result.windows.map((w) => {
          const base = baseline?.windows.find((b) => b.window === w.window);
          const baseRows = base ? windowRows(base) : [];
          return (
            <div key={w.window} className="window-card" role="group" aria-label={`Utilization in ${w.window}`}>
              <h4>{w.window}</h4>
              {windowRows(w).map((row) => {
                const b = baseRows.find((r) => r.key === row.key);
                return (
                  <UtilizationBar
                    key={row.key}
                    label={row.label}
                    value={row.figure.value}
                    limit={row.limit}
                    baseline={b ? b.figure.value : undefined}
                    figure={<Figure label={`${row.label} busy (${w.window})`} figure={row.figure} />}
                  />
                );
              })}
              <WearLines w={w} />
            </div>
          );
        })}
      </div>
    </section>
  );
});
