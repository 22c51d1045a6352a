import { memo } from 'react';

import { CurveChart, niceCeil, type Series } from '@/charts/curve-chart';
import { LightCurveChart } from '@/charts/light-curve-chart';
import { Figure, formatNumber } from '@/components';
import type { HeadroomMark, LatencyCurve } from '@/lib/api-types';

type LatencyChartProps = {
  curve: LatencyCurve;
  /** Read latency at the operating point (the evaluation's figure for the window). */
  operatingLatencyMs: number | null;
  /** Overlaid curves (what-if baseline, other configurations). */
  extra?: { name: string; curve: LatencyCurve; dashed?: boolean; color?: string }[];
  title?: string;
  /** Name of this curve when others are overlaid. */
  name?: string;
  /** Another operating point to mark (what-if: the baseline's). */
  baselinePoint?: { iops: number; latencyMs: number | null } | null;
  /** Plain SVG instead of Recharts (no tooltip): a chart redrawn on every what-if step. */
  light?: boolean;
  /** The headroom load (first target reached), marked beside the saturation load and explained. */
  headroom?: HeadroomMark | null;
};

function readSeries(name: string, curve: LatencyCurve, dashed?: boolean, color?: string): Series {
  return { name, dashed, color, points: curve.points.map((p) => ({ x: p.iops, y: p.read_latency_ms })) };
}

/** A readable ceiling for the hockey stick: the latency near 90% of the saturating load. */
export function latencyCeiling(curves: LatencyCurve[]): number | undefined {
  const tops = curves.map((c) => {
    const near = c.points.filter((p) => p.load_pct <= 90 && p.read_latency_ms !== null);
    return near.length ? near[near.length - 1]!.read_latency_ms! : null;
  });
  const valid = tops.filter((t): t is number => t !== null);
  if (!valid.length) return undefined;
  return niceCeil(Math.max(...valid) * 1.15);
}

/** Read latency against IOPS up to saturation, with the workload's operating point marked (redrawn only when its props change). */
export const LatencyChart = memo(function LatencyChart({ curve, operatingLatencyMs, extra = [], title, name, baselinePoint, light = false, headroom }: LatencyChartProps) {
  const series: Series[] = [
    readSeries(name ?? 'Read latency', curve),
    ...(extra.length
      ? []
      : [{ name: 'Average latency', dashed: true, color: '#7c8794', points: curve.points.map((p) => ({ x: p.iops, y: p.avg_latency_ms })) }]),
    ...extra.map((e) => readSeries(e.name, e.curve, e.dashed, e.color)),
  ];
  const yMax = latencyCeiling([curve, ...extra.map((e) => e.curve)]);
  const opY = operatingLatencyMs ?? null;
  const Chart = light ? LightCurveChart : CurveChart;
  const headroomIops = headroom?.headroom_iops ?? null;
  const chart = (
    <Chart
      title={title ?? `Latency vs IOPS (${curve.window})`}
      summary={`Read latency rises from ${formatNumber(curve.points[0]?.read_latency_ms ?? null)} ms at light load; the workload runs at ${formatNumber(curve.operating_iops)} IOPS (${formatNumber(curve.operating_load_pct)}% of the ${formatNumber(curve.saturation_iops)} IOPS that saturate the first resource).`}
      series={series}
      xLabel="Front-end IOPS"
      yLabel="Latency [ms]"
      yMax={yMax}
      lines={[
        ...(headroomIops !== null ? [{ x: headroomIops, label: 'headroom', color: '#1a7f37' }] : []),
        { x: curve.saturation_iops, label: 'saturation' },
      ]}
      markers={[
        ...(baselinePoint && baselinePoint.latencyMs !== null
          ? [{ x: baselinePoint.iops, y: Math.min(baselinePoint.latencyMs, yMax ?? baselinePoint.latencyMs), label: 'baseline', color: '#57606a', labelPosition: 'bottom' as const }]
          : []),
        ...(opY !== null
          ? [{ x: curve.operating_iops, y: Math.min(opY, yMax ?? opY), label: `${baselinePoint ? 'what-if' : 'you'}: ${formatNumber(curve.operating_iops)} IOPS, ${formatNumber(opY)} ms` }]
          : []),
      ]}
    />
  );
  if (!headroom || headroomIops === null) return chart;
  return (
    <div className="chart-with-note">
      {chart}
      <p className="chart-note" data-testid="headroom-note">
        <strong>Headroom load</strong> <Figure label={`Headroom load (${curve.window})`} figure={headroom.headroom} />: the most this window can
        carry while {headroom.binding} stay within their target. <strong>Saturation</strong> at {formatNumber(curve.saturation_iops)} IOPS is where the
        busiest part is 100% busy; the gap between the two is the headroom kept for failovers, bursts and rebuilds.
      </p>
    </div>
  );
});
