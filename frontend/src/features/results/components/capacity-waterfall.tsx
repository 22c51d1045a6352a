import { Figure, formatNumber } from '@/components';
import type { CapacityResult, Explained } from '@/lib/api-types';

type CapacityWaterfallProps = { capacity: CapacityResult };

/** The pool's steps: raw counts the hot spares, right-sizing sets them aside (they hold no data). */
const POOL_STEPS = ['Raw (with the spares)', 'Right-sized (spares set aside)', 'After RAID', 'Usable (after reserves)'];

type Step = { label: string; figure: Explained; change: string | null };

function steps(capacity: CapacityResult): Step[] {
  const pools = capacity.pools.length;
  const out: Step[] = [];
  capacity.pools.forEach((pool) => {
    const figures = [pool.raw_tb, pool.right_sized_tb, pool.after_raid_tb, pool.usable_tb];
    figures.forEach((figure, j) => {
      out.push({
        label: pools > 1 ? `${POOL_STEPS[j]} (${pool.pool})` : POOL_STEPS[j]!,
        figure,
        change: null,
      });
    });
  });
  out.push({ label: 'Effective (after data reduction)', figure: capacity.effective_tb, change: null });
  // the change from the previous step of the same pool
  return out.map((s, k) => {
    if (k === 0) return s;
    const prev = out[k - 1]!;
    const boundary = pools > 1 && k < out.length - 1 && k % 4 === 0;
    if (boundary || s.figure.value === null || prev.figure.value === null) return s;
    const d = s.figure.value - prev.figure.value;
    return { ...s, change: `${d >= 0 ? '+' : '−'}${formatNumber(Math.abs(d))} TB` };
  });
}

/** Raw -> right-sized -> RAID -> reserves -> usable -> effective, with what the workloads need. */
export function CapacityWaterfall({ capacity }: CapacityWaterfallProps) {
  const list = steps(capacity);
  const needed = capacity.needed_tb.value ?? 0;
  const max = Math.max(needed, ...list.map((s) => s.figure.value ?? 0)) || 1;
  const pct = (v: number) => `${(Math.max(0, v) / max) * 100}%`;
  return (
    <section aria-labelledby="capacity-title" className="waterfall">
      <h3 id="capacity-title">Capacity</h3>
      <ol className="waterfall-steps">
        {list.map((s) => (
          <li key={s.label} className="waterfall-step">
            <span className="waterfall-label">{s.label}</span>
            <span className="waterfall-track" aria-hidden="true">
              <span className="waterfall-bar" style={{ width: pct(s.figure.value ?? 0) }} />
              <span className="waterfall-needed" style={{ left: pct(needed) }} />
            </span>
            <span className="waterfall-value">
              <Figure label={s.label} figure={s.figure} />
              {s.change ? <span className="waterfall-change">{s.change}</span> : null}
            </span>
          </li>
        ))}
      </ol>
      <p className="waterfall-needed-text">
        <span className="needed-swatch" aria-hidden="true" /> Needed at the horizon:{' '}
        <Figure label="Capacity needed" figure={capacity.needed_tb} /> physical, {formatNumber(capacity.fill_pct)}% of usable
        (limit {formatNumber(capacity.max_fill_pct)}%).
      </p>
    </section>
  );
}
