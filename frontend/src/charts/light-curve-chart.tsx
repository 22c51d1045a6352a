/**
 * A line chart drawn as plain SVG by React, without a charting library: the look and the props of
 * {@link CurveChart} for what a what-if needs (numeric linear axes, one left axis, markers and
 * vertical lines), redrawn in a few milliseconds where Recharts' store-driven renders take tens. For
 * charts redrawn on every slider step.
 */
import { useId, useLayoutEffect, useRef, useState } from 'react';

import { ChartData, PALETTE, tick, type Marker, type Series, type VerticalLine } from './chart-parts';
import { labelWidth, linearTicks, ticksThatFit } from './ticks';

type LightCurveChartProps = {
  title: string;
  /** One sentence read by screen readers instead of the drawing (the table has the numbers). */
  summary: string;
  series: Series[];
  xLabel: string;
  yLabel: string;
  /** Clip the axis (e.g. latency near saturation). */
  yMax?: number;
  markers?: Marker[];
  lines?: VerticalLine[];
  height?: number;
};

// CurveChart's geometry: margins, axis sizes and the legend row above the plot
const MARGIN = { top: 8, right: 24, bottom: 28, left: 12 };
const Y_AXIS = 64;
const X_AXIS = 30;
const LEGEND = 30;
const TICK = 6;
const AXIS = '#666';
const LABEL = '#808080';

/** The width of an element, measured before the first paint and whenever it changes. */
function useWidth<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * A monotone cubic through the points (Fritsch-Carlson, as d3's curveMonotoneX and Recharts'
 * `type="monotone"`): no overshoot between points. Points in pixels, x increasing.
 */
export function monotonePath(pts: [number, number][]): string {
  const n = pts.length;
  if (n === 0) return '';
  const f = (v: number) => Number(v.toFixed(2));
  let d = `M${f(pts[0]![0])},${f(pts[0]![1])}`;
  if (n === 1) return d;
  if (n === 2) return `${d}L${f(pts[1]![0])},${f(pts[1]![1])}`;
  const secant: number[] = [];
  for (let i = 0; i < n - 1; i += 1) {
    const h = pts[i + 1]![0] - pts[i]![0];
    secant.push(h ? (pts[i + 1]![1] - pts[i]![1]) / h : 0);
  }
  const tangent: number[] = new Array<number>(n).fill(0);
  for (let i = 1; i < n - 1; i += 1) {
    const [s0, s1] = [secant[i - 1]!, secant[i]!];
    const [h0, h1] = [pts[i]![0] - pts[i - 1]![0], pts[i + 1]![0] - pts[i]![0]];
    const p = (s0 * h1 + s1 * h0) / (h0 + h1 || 1);
    tangent[i] = (Math.sign(s0) + Math.sign(s1)) * Math.min(Math.abs(s0), Math.abs(s1), 0.5 * Math.abs(p)) || 0;
  }
  const h0 = pts[1]![0] - pts[0]![0];
  tangent[0] = h0 ? (3 * secant[0]! - tangent[1]!) / 2 : tangent[1]!;
  const hn = pts[n - 1]![0] - pts[n - 2]![0];
  tangent[n - 1] = hn ? (3 * secant[n - 2]! - tangent[n - 2]!) / 2 : tangent[n - 2]!;
  for (let i = 0; i < n - 1; i += 1) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    const dx = (x1 - x0) / 3;
    d += `C${f(x0 + dx)},${f(y0 + dx * tangent[i]!)},${f(x1 - dx)},${f(y1 - dx * tangent[i + 1]!)},${f(x1)},${f(y1)}`;
  }
  return d;
}

/** Runs of consecutive points with a value (a null breaks the line, as `connectNulls={false}`). */
function runs(points: Series['points']): { x: number; y: number }[][] {
  const out: { x: number; y: number }[][] = [[]];
  for (const p of points) {
    if (p.y === null || !Number.isFinite(p.y) || !Number.isFinite(p.x)) {
      if (out.at(-1)!.length) out.push([]);
    } else out.at(-1)!.push({ x: p.x, y: p.y });
  }
  return out.filter((r) => r.length);
}

function LegendIcon({ color, dashed }: { color: string; dashed?: boolean }) {
  return (
    <svg width="14" height="14" viewBox="0 0 32 32" aria-hidden="true" className="light-legend-icon">
      <path d="M0,16h32" stroke={color} strokeWidth="4" strokeDasharray={dashed ? '8 5' : undefined} />
      <circle cx="16" cy="16" r="5.3" fill="#fff" stroke={color} strokeWidth="4" />
    </svg>
  );
}

/** A labelled line chart (numeric x) in plain SVG, with optional markers and vertical lines, and its data as a table. */
export function LightCurveChart({ title, summary, series, xLabel, yLabel, yMax, markers = [], lines = [], height = 260 }: LightCurveChartProps) {
  const id = useId();
  const [ref, width] = useWidth<HTMLDivElement>();
  const legend = series.length > 1;
  const svgHeight = height - (legend ? LEGEND : 0);

  const xs = [...series.flatMap((s) => s.points.map((p) => p.x)), ...markers.map((m) => m.x), ...lines.map((l) => l.x)].filter(Number.isFinite);
  // as many x ticks as their labels fit side by side (phone widths take fewer)
  const plotWidth = width - MARGIN.right - MARGIN.left - Y_AXIS;
  const xTicks = ticksThatFit(xs.length ? Math.min(...xs) : 0, xs.length ? Math.max(...xs) : 1, plotWidth, tick);
  const [x0, x1] = [xTicks[0] ?? 0, xTicks.at(-1) ?? 1];
  const ys = [...series.flatMap((s) => s.points.map((p) => p.y)), ...markers.map((m) => m.y)].filter((y): y is number => y !== null && Number.isFinite(y));
  // four steps up the value axis, as Recharts' default five ticks
  const yTicks = linearTicks(0, yMax ?? (ys.length ? Math.max(...ys) : 1), 4);
  const y1 = yMax ?? yTicks.at(-1) ?? 1;
  const visibleYTicks = yTicks.filter((t) => t <= y1 * (1 + 1e-9));

  const left = MARGIN.left + Y_AXIS;
  const right = Math.max(left + 1, width - MARGIN.right);
  const top = MARGIN.top;
  const bottom = Math.max(top + 1, svgHeight - MARGIN.bottom - X_AXIS);
  const px = (x: number) => left + ((x - x0) / (x1 - x0 || 1)) * (right - left);
  const py = (y: number) => bottom - (y / (y1 || 1)) * (bottom - top);
  const clip = `${id}-plot`;

  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-drawing light-chart" role="img" aria-label={summary} ref={ref} style={{ height }}>
        {legend ? (
          <ul className="light-legend" aria-hidden="true">
            {series.map((s, i) => (
              <li key={s.name} style={{ color: s.color ?? PALETTE[i % PALETTE.length] }}>
                <LegendIcon color={s.color ?? PALETTE[i % PALETTE.length]!} dashed={s.dashed} />
                {s.name}
              </li>
            ))}
          </ul>
        ) : null}
        {width > 0 ? (
          <svg width={width} height={svgHeight} viewBox={`0 0 ${width} ${svgHeight}`} aria-hidden="true">
            <defs>
              <clipPath id={clip}>
                <rect x={0} y={top} width={width} height={bottom - top} />
              </clipPath>
            </defs>
            <g stroke="#e3e8ee" strokeDasharray="3 3">
              {visibleYTicks.map((t) => (
                <line key={`h${t}`} x1={left} x2={right} y1={py(t)} y2={py(t)} />
              ))}
              {xTicks.map((t) => (
                <line key={`v${t}`} x1={px(t)} x2={px(t)} y1={top} y2={bottom} />
              ))}
            </g>
            {lines.map((l, i) => (
              <g key={`${i}-${l.label}`} className="light-reference-line">
                <line x1={px(l.x)} x2={px(l.x)} y1={top} y2={bottom} stroke={l.color ?? '#57606a'} strokeDasharray={l.dashed === false ? undefined : '4 4'} />
                <text x={px(l.x) - 5} y={top + 5} dy="0.71em" textAnchor="end" fontSize={12} fill={l.color ?? '#57606a'}>
                  {l.label}
                </text>
              </g>
            ))}
            <g clipPath={`url(#${clip})`} fill="none" strokeWidth={2}>
              {series.map((s, i) =>
                runs(s.points).map((run, j) => (
                  <path
                    key={`${s.name}-${j}`}
                    className="light-line"
                    data-series={s.name}
                    d={monotonePath(run.map((p) => [px(p.x), py(p.y)]))}
                    stroke={s.color ?? PALETTE[i % PALETTE.length]}
                    strokeDasharray={s.dashed ? '6 4' : undefined}
                  />
                )),
              )}
            </g>
            <g stroke={AXIS} fill="none">
              <line x1={left} x2={right} y1={bottom} y2={bottom} />
              <line x1={left} x2={left} y1={top} y2={bottom} />
              {xTicks.map((t) => (
                <line key={`xt${t}`} x1={px(t)} x2={px(t)} y1={bottom} y2={bottom + TICK} />
              ))}
              {visibleYTicks.map((t) => (
                <line key={`yt${t}`} x1={left - TICK} x2={left} y1={py(t)} y2={py(t)} />
              ))}
            </g>
            <g fill={AXIS}>
              {xTicks.map((t) => (
                <text key={`xl${t}`} x={px(t)} y={bottom + TICK + 2} dy="0.71em" textAnchor="middle">
                  {tick(t)}
                </text>
              ))}
              {visibleYTicks.map((t) => (
                <text key={`yl${t}`} x={left - TICK - 2} y={py(t)} dy="0.355em" textAnchor="end">
                  {tick(t)}
                </text>
              ))}
            </g>
            <text x={(left + right) / 2} y={svgHeight - 6} textAnchor="middle" fill={LABEL}>
              {xLabel}
            </text>
            <text transform={`translate(${MARGIN.left + 8},${(top + bottom) / 2}) rotate(-90)`} dy="0.71em" textAnchor="middle" fill={LABEL}>
              {yLabel}
            </text>
            {markers.map((m, i) => {
              const [cx, cy] = [px(m.x), py(m.y)];
              const below = m.labelPosition === 'bottom';
              // the label centred on its marker, moved in where it would run off either edge
              const half = (labelWidth(m.label.length) - 12) / 2;
              const lx = Math.min(Math.max(cx, half + 2), width - half - 2);
              return (
                <g key={`${i}-${m.label}-${m.x}`} className="light-marker">
                  <circle cx={cx} cy={cy} r={6} fill={m.color ?? '#b42318'} stroke="#fff" strokeWidth={2} />
                  <text x={lx} y={below ? cy + 11 : cy - 11} dy={below ? '0.71em' : undefined} textAnchor="middle" fontSize={12} fill={m.color ?? '#b42318'}>
                    {m.label}
                  </text>
                </g>
              );
            })}
          </svg>
        ) : null}
      </div>
      <ChartData title={title} xLabel={xLabel} series={series} />
    </figure>
  );
}
