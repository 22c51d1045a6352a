/** List cost against read latency of the recommended configurations (Recharts ScatterChart): loaded lazily. */
import { useId } from 'react';
import { CartesianGrid, Legend, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';

import { linearTicks } from '@/charts/ticks';
import { formatNumber } from '@/components';
import type { Recommendation, RecommendedConfiguration } from '@/lib/api-types';

type ParetoChartProps = {
  recommendation: Recommendation;
  /** Open a configuration in Size. */
  onUse: (configuration: RecommendedConfiguration) => void;
};

type Point = { x: number; y: number; c: RecommendedConfiguration };

const FRONT = '#c2410c';
const OTHER = '#7c8794';

const keyOf = (c: RecommendedConfiguration) => `${c.array_id}|${c.drive_id}|${c.raid_scheme}|${c.group_width}|${c.flash_cache_gb}|${c.drive_count}`;
const describe = (c: RecommendedConfiguration) => `${c.vendor} ${c.model}, ${c.drive_count} x ${c.drive_name}, ${c.raid_scheme} ${c.group_width}`;

/** Every configuration the answer names once (ranked ones and the Pareto front), front first. */
export function paretoPoints(r: Recommendation): { points: Point[]; unplotted: number } {
  const seen = new Map<string, RecommendedConfiguration>();
  for (const c of [...r.pareto_front, ...r.configurations]) {
    const k = keyOf(c);
    const prev = seen.get(k);
    seen.set(k, prev ? { ...prev, on_pareto_front: prev.on_pareto_front || c.on_pareto_front } : c);
  }
  const all = [...seen.values()];
  const points = all
    .filter((c) => c.cost_usd != null && c.read_latency_ms != null)
    .map((c) => ({ x: c.cost_usd!, y: c.read_latency_ms!, c }));
  return { points, unplotted: all.length - points.length };
}

function PointTooltip({ active, payload }: { active?: boolean; payload?: { payload?: Point }[] }) {
  const p = active ? payload?.[0]?.payload : undefined;
  if (!p) return null;
  return (
    <div className="chart-tooltip">
      <p>
        <strong>{describe(p.c)}</strong>
      </p>
      <p>
        {formatNumber(p.x)} USD · {formatNumber(p.y)} ms read latency · {formatNumber(p.c.rack_units)} U
        {p.c.on_pareto_front ? ' · Pareto front' : ''}
      </p>
      <p className="muted">Click to open it in Size</p>
    </div>
  );
}

/**
 * Cost against read latency, one dot per configuration; the Pareto-optimal ones (no other is at
 * once cheaper, smaller and faster) highlighted. Clicking a dot opens it in Size; the table under
 * the chart does the same from the keyboard.
 */
export default function ParetoChart({ recommendation, onUse }: ParetoChartProps) {
  const id = useId();
  const { points, unplotted } = paretoPoints(recommendation);
  const front = points.filter((p) => p.c.on_pareto_front);
  const others = points.filter((p) => !p.c.on_pareto_front);
  if (!points.length) return null;
  const yTicks = linearTicks(0, Math.max(...points.map((p) => p.y)));
  const open = (item: unknown) => {
    const p = (item as { payload?: Point } | undefined)?.payload;
    if (p) onUse(p.c);
  };

  return (
    <figure className="chart pareto-chart" aria-labelledby={`${id}-title`} data-testid="pareto-chart">
      <figcaption id={`${id}-title`} className="chart-title">
        List cost vs read latency
      </figcaption>
      <div
        className="chart-drawing"
        role="img"
        aria-label={`${points.length} configurations by list cost and worst read latency; ${front.length} on the Pareto front (${recommendation.pareto_objectives.join(', ')}): ${front.map((p) => `${describe(p.c)} at ${formatNumber(p.x)} USD, ${formatNumber(p.y)} ms`).join('; ')}.`}
      >
        <ResponsiveContainer width="100%" height={300}>
          <ScatterChart margin={{ top: 8, right: 24, bottom: 28, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e3e8ee" />
            <XAxis
              type="number"
              dataKey="x"
              name="List cost"
              domain={['auto', 'auto']}
              tickFormatter={(v: number) => formatNumber(v, 2)}
              label={{ value: 'List cost [USD]', position: 'insideBottom', offset: -16 }}
            />
            <YAxis
              type="number"
              dataKey="y"
              name="Read latency"
              domain={[0, yTicks.at(-1) ?? 'auto']}
              ticks={yTicks}
              width={64}
              tickFormatter={(v: number) => formatNumber(v, 3)}
              label={{ value: 'Read latency [ms]', angle: -90, position: 'insideLeft', offset: -2, style: { textAnchor: 'middle' } }}
            />
            <ZAxis range={[70, 70]} />
            <Tooltip content={<PointTooltip />} cursor={{ strokeDasharray: '3 3' }} />
            <Legend verticalAlign="top" height={28} />
            <Scatter name="Other configurations" data={others} fill={OTHER} onClick={open} cursor="pointer" isAnimationActive={false} />
            <Scatter
              name="On the Pareto front"
              data={front}
              fill={FRONT}
              stroke="#fff"
              strokeWidth={1.5}
              shape="diamond"
              legendType="diamond"
              onClick={open}
              cursor="pointer"
              isAnimationActive={false}
            />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      {unplotted ? <p className="chart-note">{unplotted} configuration(s) without a price or with a saturated window are not drawn.</p> : null}
      <details className="chart-data">
        <summary>Data of “List cost vs read latency” (open any in Size)</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Configuration</th>
              <th scope="col">List cost</th>
              <th scope="col">Read latency</th>
              <th scope="col">Pareto</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={keyOf(p.c)}>
                <td>{describe(p.c)}</td>
                <td>{formatNumber(p.x)} USD</td>
                <td>{formatNumber(p.y)} ms</td>
                <td>{p.c.on_pareto_front ? '★' : ''}</td>
                <td>
                  <button type="button" className="link-button" onClick={() => onUse(p.c)} aria-label={`Open ${describe(p.c)} in Size`}>
                    Open in Size
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
