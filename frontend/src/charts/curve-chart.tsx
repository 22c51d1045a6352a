/**
 * Line charts on Recharts, shared by the features. Import only from lazily loaded code (pages,
 * feature components behind `lazy`): Recharts must stay out of the first load.
 */
import { useId, type ReactNode } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

import { formatNumber } from '@/components';

import { ChartData, PALETTE, tick, type Marker, type Series, type Span, type VerticalLine } from './chart-parts';
import { linearTicks, logTicks } from './ticks';
import { useNarrow } from './use-narrow';

export { niceCeil } from './ticks';

export type { CurvePoint, Marker, Series, Span, VerticalLine } from './chart-parts';
export { PALETTE } from './chart-parts';

type CurveChartProps = {
  title: string;
  /** One sentence read by screen readers instead of the drawing (the table has the numbers). */
  summary: string;
  series: Series[];
  xLabel: string;
  yLabel: string;
  yRightLabel?: string;
  xScale?: 'linear' | 'log';
  /** Clip the left axis (e.g. latency near saturation). */
  yMax?: number;
  markers?: Marker[];
  lines?: VerticalLine[];
  spans?: Span[];
  height?: number;
  children?: ReactNode;
};

/**
 * Width of a y axis [px]: its longest tick label (about 7 px a character at 12 px) plus the tick,
 * a gap and the rotated axis title, so the title never overlaps the tick labels.
 */
export function axisWidth(ticks: number[]): number {
  const longest = Math.max(1, ...ticks.map((t) => tick(t).length));
  return 12 + longest * 7 + 8 + 18;
}

/** A labelled line chart (numeric x), with optional markers and vertical lines, and its data as a table. */
export function CurveChart({
  title,
  summary,
  series,
  xLabel,
  yLabel,
  yRightLabel,
  xScale = 'linear',
  yMax,
  markers = [],
  lines = [],
  spans = [],
  height = 260,
  children,
}: CurveChartProps) {
  const id = useId();
  const hasRight = series.some((s) => s.right) || markers.some((m) => m.right);

  const xs = [
    ...series.flatMap((s) => s.points.map((p) => p.x)),
    ...markers.map((m) => m.x),
    ...lines.map((l) => l.x),
    ...spans.flatMap((a) => [a.x1, a.x2]),
  ].filter(
    (x) => Number.isFinite(x) && (xScale !== 'log' || x > 0),
  );
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const narrow = useNarrow();
  const allXTicks = xScale === 'log' ? logTicks(xMin, xMax, series.flatMap((s) => s.points.map((p) => p.x))) : linearTicks(xMin, xMax, narrow ? 3 : 5);
  // on a phone, every other log tick (1, 4, 16, 64, 256): labels never touch
  const xTicks = narrow && xScale === 'log' && allXTicks.length > 5 ? allXTicks.filter((_, i) => i % 2 === 0) : allXTicks;
  const domain: [number, number] = xScale === 'log' ? [xMin, xMax] : [xTicks[0] ?? 0, xTicks.at(-1) ?? 1];
  // round y ticks (1, 2, 2.5, 5 x 10^k), never Recharts' own (5,500 / 11,000 / 16,500)
  const yValues = (right: boolean) => [
    ...series.filter((s) => !!s.right === right).flatMap((s) => s.points.map((p) => p.y)),
    ...markers.filter((m) => !!m.right === right).map((m) => m.y),
  ].filter((y): y is number => y !== null && Number.isFinite(y));
  const leftValues = yValues(false);
  const leftTicks = linearTicks(0, yMax ?? (leftValues.length ? Math.max(...leftValues) : 1), 4);
  const rightValues = yValues(true);
  const rightTicks = linearTicks(0, rightValues.length ? Math.max(...rightValues) : 1, 4);

  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-drawing" role="img" aria-label={summary}>
        <ResponsiveContainer width="100%" height={height}>
          <LineChart margin={{ top: 8, right: hasRight ? 8 : 24, bottom: 28, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e3e8ee" />
            <XAxis
              type="number"
              dataKey="x"
              scale={xScale}
              domain={domain}
              ticks={xTicks}
              allowDataOverflow={xScale === 'log'}
              tickFormatter={tick}
              label={{ value: xLabel, position: 'insideBottom', offset: -16 }}
            />
            <YAxis
              yAxisId="left"
              tickFormatter={tick}
              ticks={leftTicks}
              domain={[0, leftTicks.at(-1) ?? 1]}
              allowDataOverflow={yMax !== undefined}
              width={axisWidth(leftTicks)}
              label={{ value: yLabel, angle: -90, position: 'insideLeft', offset: 4, style: { textAnchor: 'middle' } }}
            />
            {hasRight ? (
              <YAxis
                yAxisId="right"
                orientation="right"
                tickFormatter={tick}
                ticks={rightTicks}
                domain={[0, rightTicks.at(-1) ?? 1]}
                width={axisWidth(rightTicks)}
                label={{ value: yRightLabel, angle: 90, position: 'insideRight', offset: 4, style: { textAnchor: 'middle' } }}
              />
            ) : null}
            <Tooltip
              formatter={(value) => (typeof value === 'number' ? formatNumber(value) : String(value))}
              labelFormatter={(label) => `${xLabel}: ${typeof label === 'number' ? formatNumber(label) : String(label)}`}
            />
            {series.length > 1 ? <Legend verticalAlign="top" wrapperStyle={{ paddingBottom: 6 }} /> : null}
            {series.map((s, i) => (
              <Line
                key={s.name}
                yAxisId={s.right ? 'right' : 'left'}
                data={s.points.filter((p) => xScale !== 'log' || p.x > 0)}
                dataKey="y"
                name={s.name}
                type="monotone"
                stroke={s.color ?? PALETTE[i % PALETTE.length]}
                strokeWidth={2}
                strokeDasharray={s.dashed ? '6 4' : undefined}
                dot={s.dots ? { r: 3 } : false}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
            {spans.map((a, i) => (
              <ReferenceArea
                key={`${i}-${a.label}`}
                yAxisId="left"
                x1={a.x1}
                x2={a.x2}
                fill={a.color ?? '#1f5fa8'}
                fillOpacity={0.12}
                stroke="none"
                label={{ value: a.label, position: 'insideTop', fontSize: 12, fill: a.color ?? '#1f5fa8' }}
                ifOverflow="extendDomain"
              />
            ))}
            {lines.map((l, i) => (
              <ReferenceLine
                key={`${i}-${l.label}-${l.x}`}
                yAxisId="left"
                x={l.x}
                stroke={l.color ?? '#57606a'}
                strokeDasharray={l.dashed === false ? undefined : '4 4'}
                label={{ value: l.label, position: 'insideTopRight', fontSize: 12, fill: l.color ?? '#57606a' }}
              />
            ))}
            {markers.map((m, i) => (
              <ReferenceDot
                key={`${i}-${m.label}-${m.x}`}
                yAxisId={m.right ? 'right' : 'left'}
                x={m.x}
                y={m.y}
                r={6}
                fill={m.color ?? '#b42318'}
                stroke="#fff"
                strokeWidth={2}
                label={{ value: m.label, position: m.labelPosition ?? 'top', fontSize: 12, fill: m.color ?? '#b42318' }}
                ifOverflow="extendDomain"
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      {children}
      <ChartData title={title} xLabel={xLabel} series={series} />
    </figure>
  );
}
