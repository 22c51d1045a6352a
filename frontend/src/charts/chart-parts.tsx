/** What the line charts share: series, markers and lines, the palette, tick labels and the data table under a chart. */
import { formatNumber } from '@/components';

export type CurvePoint = { x: number; y: number | null };

export type Series = {
  name: string;
  points: CurvePoint[];
  color?: string;
  dashed?: boolean;
  /** Plot against the right-hand axis. */
  right?: boolean;
  /** Show a dot at each point (sparse curves). */
  dots?: boolean;
};

export type Marker = {
  x: number;
  y: number;
  label: string;
  color?: string;
  right?: boolean;
  /** Where the label goes (default above the dot). */
  labelPosition?: 'top' | 'bottom' | 'left' | 'right';
};

export type VerticalLine = { x: number; label: string; color?: string; dashed?: boolean };

/** A shaded span of the x axis (e.g. a peak window), labelled at its top. */
export type Span = { x1: number; x2: number; label: string; color?: string };

export const PALETTE = ['#1f5fa8', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

/** An axis tick's label: two significant digits below 100. */
export function tick(v: number): string {
  return formatNumber(v, 2);
}

/** The numbers of a chart, folded under it (read by screen readers and anyone who wants the values). */
export function ChartData({ title, xLabel, series }: { title: string; xLabel: string; series: Series[] }) {
  return (
    <details className="chart-data">
      <summary>Data of “{title}”</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">{xLabel}</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {series.flatMap((s) =>
            s.points.map((p, i) => (
              <tr key={`${s.name}-${i}`}>
                <td>{s.name}</td>
                <td>{formatNumber(p.x)}</td>
                <td>{p.y === null ? '—' : formatNumber(p.y)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </details>
  );
}
