/**
 * A tornado chart on Recharts: one row per input, a bar for the input moved down and one for it
 * moved up, drawn from zero (the base) in the direction of the change. Rows come ranked (largest
 * swing first). Import only from lazily loaded code.
 */
import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { formatNumber } from '@/components';

import { niceStep } from './ticks';
import { useNarrow } from './use-narrow';

export type TornadoRow = {
  /** The input, e.g. "drive count +/-10%". */
  label: string;
  /** Change of the result with the input at its low end; null = saturates. */
  low: number | null;
  high: number | null;
  lowSetting: string;
  highSetting: string;
};

type TornadoChartProps = {
  title: string;
  /** One sentence read by screen readers instead of the drawing. */
  summary: string;
  rows: TornadoRow[];
  /** What the bars measure, e.g. "Change in headroom used [points]". */
  xLabel: string;
  unit: string;
  lowName?: string;
  highName?: string;
};

export const LOW_COLOR = '#1f5fa8';
export const HIGH_COLOR = '#c2410c';

function signed(v: number | null, unit: string): string {
  if (v === null) return 'saturates';
  const s = formatNumber(Math.abs(v), 3);
  return `${v > 0 ? '+' : v < 0 ? '−' : ''}${s}${unit ? ` ${unit}` : ''}`;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Ranked horizontal bars around zero, with the data as a table for screen readers and keyboards. */
export function TornadoChart({ title, summary, rows, xLabel, unit, lowName = 'Input down', highName = 'Input up' }: TornadoChartProps) {
  const id = useId();
  const narrow = useNarrow();
  const maxChars = narrow ? 18 : 46;
  const data = rows.map((r) => ({ ...r, short: shorten(r.label, maxChars) }));
  const longest = Math.max(8, ...data.map((r) => r.short.length));
  const axisWidth = Math.min(narrow ? 120 : 300, Math.round(longest * 6.4) + 14);
  const height = Math.max(140, 50 + rows.length * 34);
  const extent = Math.max(1e-9, ...rows.flatMap((r) => [Math.abs(r.low ?? 0), Math.abs(r.high ?? 0)]));
  // symmetric round ticks around zero: ..., -10, -5, 0, +5, +10, ...
  const step = niceStep(extent, narrow ? 2 : 3);
  const edge = Math.ceil(extent / step) * step;
  const ticks: number[] = [];
  for (let v = -edge; v <= edge + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));

  return (
    <figure className="chart tornado" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-drawing" role="img" aria-label={summary}>
        <ResponsiveContainer width="100%" height={height}>
          <BarChart data={data} layout="vertical" stackOffset="sign" margin={{ top: 4, right: 16, bottom: 24, left: 4 }} barCategoryGap={6}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e3e8ee" horizontal={false} />
            <XAxis
              type="number"
              domain={[-edge, edge]}
              ticks={ticks}
              tickFormatter={(v: number) => signed(v, '')}
              label={{ value: narrow ? `change [${unit}]` : xLabel, position: 'insideBottom', offset: -14 }}
            />
            <YAxis type="category" dataKey="short" width={axisWidth} tick={{ fontSize: 12 }} interval={0} />
            <Tooltip
              formatter={(value, name, item) => {
                const row = (item as { payload?: TornadoRow }).payload;
                const setting = row ? (name === lowName ? row.lowSetting : row.highSetting) : '';
                return [`${signed(typeof value === 'number' ? value : null, unit)} (${setting})`, String(name)];
              }}
              labelFormatter={(_, payload) => (payload?.[0]?.payload as TornadoRow | undefined)?.label ?? ''}
            />
            <Legend verticalAlign="top" height={26} />
            <ReferenceLine x={0} stroke="#57606a" />
            <Bar dataKey="low" name={lowName} stackId="swing" fill={LOW_COLOR} isAnimationActive={false} />
            <Bar dataKey="high" name={highName} stackId="swing" fill={HIGH_COLOR} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details className="chart-data">
        <summary>Data of “{title}”</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Input</th>
              <th scope="col">{lowName}</th>
              <th scope="col">{highName}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <td>{r.label}</td>
                <td>
                  {r.lowSetting}: {signed(r.low, unit)}
                </td>
                <td>
                  {r.highSetting}: {signed(r.high, unit)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
