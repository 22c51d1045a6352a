import { memo } from 'react';

import { Figure, UtilizationBar } from '@/components';
import type { EvaluationResult, Explained, WindowResult } from '@/lib/api-types';

type UtilizationPanelProps = {
  result: EvaluationResult;
  /** A baseline to draw as ghost bars (what-if). */
  baseline?: EvaluationResult | null;
};

type Row = { key: string; label: string; figure: Explained; limit: number };

/** The utilization bars of one window: controllers (and after a failover), ports, each drive pool. */
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
  for (const p of w.pools) {
    rows.push({
      key: `drives:${p.pool}`,
      label: w.pools.length > 1 ? `Drives (${p.pool})` : 'Drives',
      figure: p.drive_utilization_pct,
      limit: limit(`drives:${p.pool}`, 70),
    });
  }
  return rows;
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
            </div>
          );
        })}
      </div>
    </section>
  );
});
