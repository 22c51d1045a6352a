import type { ReactNode } from 'react';

type UtilizationBarProps = {
  /** What is busy, e.g. "Controllers". */
  label: ReactNode;
  /** Utilization [%]; null when saturated. */
  value: number | null;
  /** The headroom target [%], drawn as a line. */
  limit: number;
  /** The number itself (a Figure that opens its explanation), shown beside the bar. */
  figure?: ReactNode;
  /** A second value drawn as a ghost bar, e.g. the baseline in a what-if. */
  baseline?: number | null;
};

/** Scale of the bars: 0..120% so a value past 100 still shows how far past it is. */
const SCALE_MAX = 120;

function pct(v: number): string {
  return `${(Math.min(Math.max(v, 0), SCALE_MAX) / SCALE_MAX) * 100}%`;
}

/**
 * A horizontal utilization bar against its headroom line: green within the target, amber past it,
 * red at saturation (100% or more). CSS only, so it costs nothing in the first load.
 */
export function UtilizationBar({ label, value, limit, figure, baseline }: UtilizationBarProps) {
  const v = value ?? SCALE_MAX;
  const state = value === null || v >= 100 ? 'over' : v > limit ? 'warn' : 'ok';
  const stateText = state === 'ok' ? 'within target' : state === 'warn' ? 'over the target' : 'saturated';
  return (
    <div className={`util util-${state}`}>
      <div className="util-label">
        <span>{label}</span>
        <span className="util-figure">
          {figure}
          <span className="visually-hidden">, {stateText} of {limit}%</span>
        </span>
      </div>
      <div className="util-track" aria-hidden="true">
        {baseline !== undefined ? (
          <span className="util-baseline" style={{ width: pct(baseline ?? SCALE_MAX) }} />
        ) : null}
        <span className="util-fill" style={{ width: pct(v) }} />
        <span className="util-limit" style={{ left: pct(limit) }} title={`target ${limit}%`} />
        <span className="util-full" style={{ left: pct(100) }} />
      </div>
    </div>
  );
}
