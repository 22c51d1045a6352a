import { Area, AreaChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { formatNumber } from '@/components';
import type { Timeline } from '@/lib/api-types';

const PALETTE = ['#1f5fa8', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

/**
 * The imports stacked per interval on the shared clock: the top of the stack is the sum, whose
 * highest point is the coincident peak (solid line); the dashed line is the sum of each import's
 * own peak, what adding the peaks would have claimed.
 */
export function TimelineChart({ timeline }: { timeline: Timeline }) {
  const names = timeline.layers.map((l) => l.name);
  const data = timeline.times.map((t, i) => {
    const row: Record<string, string | number | null> = { t };
    names.forEach((n, k) => {
      row[n] = timeline.layer_iops[k]?.[i] ?? null;
    });
    return row;
  });
  const coincident = timeline.coincident_peak.value ?? 0;
  const sumOfPeaks = timeline.sum_of_peaks.value ?? 0;
  return (
    <figure className="timeline-chart" aria-label="Stacked IOPS of the imports over time">
      <figcaption className="muted small">
        IOPS per {formatNumber(timeline.interval_s / 60)}-minute interval, {timeline.clock}. Coincident peak {formatNumber(coincident)} IO/s at{' '}
        {timeline.coincident_peak_at}; the sum of each import&apos;s peak is {formatNumber(sumOfPeaks)} IO/s.
      </figcaption>
      <div style={{ width: '100%', height: 320 }}>
        <ResponsiveContainer>
          <AreaChart data={data} margin={{ top: 16, right: 24, bottom: 8, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="t" minTickGap={48} tick={{ fontSize: 11 }} />
            <YAxis tickFormatter={(v: number) => formatNumber(v, 2)} domain={[0, Math.ceil(Math.max(sumOfPeaks, coincident) * 1.08)]} />
            <Tooltip formatter={(v) => formatNumber(Number(v))} />
            <Legend />
            {names.map((n, k) => (
              <Area
                key={n}
                type="stepAfter"
                dataKey={n}
                stackId="iops"
                stroke={PALETTE[k % PALETTE.length]}
                fill={PALETTE[k % PALETTE.length]}
                fillOpacity={0.45}
                isAnimationActive={false}
                connectNulls={false}
              />
            ))}
            <ReferenceLine y={coincident} stroke="#111" label={{ value: 'coincident peak', position: 'insideTopLeft', fontSize: 11 }} />
            <ReferenceLine
              y={sumOfPeaks}
              stroke="#b91c1c"
              strokeDasharray="6 4"
              label={{ value: 'sum of peaks', position: 'insideTopRight', fontSize: 11 }}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
