/** Stored curves (a saved "curves" report), drawn without asking the API again. Lazily loaded. */
import type { CurvesResult } from '@/lib/api-types';

import { HitRatioChart } from './charts/hit-ratio-chart';
import { LatencyChart } from './charts/latency-chart';
import { QueueDepthChart } from './charts/queue-depth-chart';

export default function CurvesView({ curves }: { curves: CurvesResult }) {
  const lvl = curves.latency_vs_load;
  // older snapshots lack the operating point's latency: the nearest point of the curve then
  const operating =
    lvl?.operating_read_latency_ms ??
    lvl?.points.reduce<{ d: number; y: number | null }>(
      (best, p) => (Math.abs(p.iops - lvl.operating_iops) < best.d ? { d: Math.abs(p.iops - lvl.operating_iops), y: p.read_latency_ms } : best),
      { d: Infinity, y: null },
    ).y;
  return (
    <div className="chart-grid">
      {lvl ? <LatencyChart curve={lvl} operatingLatencyMs={operating ?? null} /> : null}
      {curves.queue_depth ? <QueueDepthChart curve={curves.queue_depth} /> : null}
      {curves.hit_ratio ? <HitRatioChart curve={curves.hit_ratio} /> : null}
      {curves.notes.length ? (
        <ul className="notes">
          {curves.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
