/** Growth month by month (Recharts via CurveChart): loaded lazily. */
import { useId, useMemo, useState } from 'react';

import { CurveChart, niceCeil, PALETTE, type Marker, type Series, type VerticalLine } from '@/charts/curve-chart';
import { CalibrationNote, NumberField } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { GrowthProjection, GrowthRequest } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { useGrowth } from '../api/get-growth';
import { show } from '../lib/format';
import type { AnalysisProps } from '../lib/types';
import { QueryState } from './query-state';

function windowsOf(p: GrowthProjection): string[] {
  return p.windows.map((w) => w.window);
}

/** Utilization and capacity fill by month, each window's break month marked. */
function utilizationChart(p: GrowthProjection) {
  const windows = windowsOf(p);
  const series: Series[] = windows.map((name, i) => ({
    name,
    color: PALETTE[i % PALETTE.length],
    points: p.points.map((pt) => ({ x: pt.month, y: pt.windows.find((w) => w.window === name)?.max_utilization_pct ?? null })),
  }));
  series.push({ name: 'capacity fill', color: '#57606a', dashed: true, points: p.points.map((pt) => ({ x: pt.month, y: pt.fill_pct })) });
  const markers: Marker[] = p.windows.flatMap((b, i) => {
    if (b.break_month === null) return [];
    const y = p.points.find((pt) => pt.month === b.break_month)?.windows.find((w) => w.window === b.window)?.max_utilization_pct;
    return y == null ? [] : [{ x: b.break_month, y, label: `month ${b.break_month}`, color: PALETTE[i % PALETTE.length], labelPosition: 'top' as const }];
  });
  const lines: VerticalLine[] = p.capacity_break_month !== null ? [{ x: p.capacity_break_month, label: `capacity full: month ${p.capacity_break_month}`, color: '#b42318' }] : [];
  return { series, markers, lines };
}

function latencyChart(p: GrowthProjection) {
  const windows = windowsOf(p);
  const series: Series[] = windows.map((name, i) => ({
    name,
    color: PALETTE[i % PALETTE.length],
    points: p.points.map((pt) => ({ x: pt.month, y: pt.windows.find((w) => w.window === name)?.read_latency_ms ?? null })),
  }));
  const first = p.points[0]?.windows.map((w) => w.read_latency_ms ?? 0) ?? [];
  const all = series.flatMap((s) => s.points.map((pt) => pt.y).filter((y): y is number => y !== null));
  // keep the break months readable when latency explodes near saturation
  const cap = niceCeil(Math.max(...first, 1) * 6);
  const yMax = all.length && Math.max(...all) > cap ? cap : undefined;
  const markers: Marker[] = p.windows.flatMap((b, i) => {
    const month = b.latency_break_month ?? b.break_month;
    if (month === null) return [];
    const y = p.points.find((pt) => pt.month === month)?.windows.find((w) => w.window === b.window)?.read_latency_ms;
    return y == null ? [] : [{ x: month, y: yMax !== undefined ? Math.min(y, yMax) : y, label: `month ${month}`, color: PALETTE[i % PALETTE.length], labelPosition: 'top' as const }];
  });
  return { series, markers, yMax };
}

/** The growth projection: verdicts, break months and the charts (as computed or as a report saved it). */
export function GrowthView({ projection: p }: { projection: GrowthProjection }) {
  const util = p.points.length > 1 ? utilizationChart(p) : null;
  const latency = p.points.length > 1 ? latencyChart(p) : null;
  return (
    <>
      <p className={p.first_break_month === null ? 'verdict-overall ok' : 'verdict-overall fail'} data-testid="growth-summary">
        {p.text}
      </p>
      <CalibrationNote result={p} />
      <p className="muted">{p.formula}</p>
      <ul className="break-list">
        {p.windows.map((w) => (
          <li key={w.window}>
            <span className={w.break_month === null ? 'badge badge-ok' : 'badge badge-fail'}>
              {w.break_month === null ? 'holds' : `month ${w.break_month}`}
            </span>{' '}
            {w.text}
            {w.binding_words ? <span className="muted"> ({w.binding_words})</span> : null}
          </li>
        ))}
        <li>
          <span className={p.capacity_break_month === null ? 'badge badge-ok' : 'badge badge-fail'}>
            {p.capacity_break_month === null ? 'holds' : `month ${p.capacity_break_month}`}
          </span>{' '}
          Capacity:{' '}
          {p.capacity_break_month === null
            ? `fits through month ${p.months} (${show(p.points.at(-1)?.fill_pct, '%')} full at the end).`
            : `the capacity needed exceeds the allowed fill in month ${p.capacity_break_month}.`}
        </li>
      </ul>
      {util && latency ? (
        <div className="chart-grid">
          <CurveChart
            title="Busiest component per window, and capacity fill, by month"
            summary={`Busiest component per window and capacity fill over ${p.months} months. ${p.text}`}
            series={util.series}
            xLabel="Month"
            yLabel="Busy, full [%]"
            markers={util.markers}
            lines={util.lines}
            height={300}
          />
          <CurveChart
            title="Read latency by month"
            summary={`Read latency per window over ${p.months} months. ${p.windows.map((w) => w.text).join(' ')}`}
            series={latency.series}
            xLabel="Month"
            yLabel="Read latency [ms]"
            yMax={latency.yMax}
            markers={latency.markers}
            height={300}
          />
        </div>
      ) : (
        <p className="empty">Nothing grows: the workloads have no growth rate or no horizon, so there is a single month to show.</p>
      )}
      {p.notes.length ? (
        <ul className="notes">
          {p.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** Month by month as the workloads grow: when each window and the capacity first break. */
export default function GrowthAnalysis({ workloads, configuration, degraded, renderSave }: AnalysisProps<GrowthRequest>) {
  const [months, setMonths] = useState<number | null>(null);
  const [step, setStep] = useState(1);
  const options = useDebouncedValue({ months, step }, 400);
  const body: GrowthRequest = useMemo(
    () => ({ workloads, configuration, degraded, calibration_margin: 'pessimistic', months: options.months, step_months: options.step, grow_working_set: true }),
    [workloads, configuration, degraded, options],
  );
  const growth = useGrowth(body);
  const p = growth.data;
  const headingId = useId();
  const errors = fieldErrors(growth.error instanceof ApiError && growth.error.isValidation ? growth.error.fieldErrors : null);

  return (
    <section className="card analysis" aria-labelledby={headingId} id="growth" data-testid="growth-analysis">
      <div className="card-head">
        <h2 id={headingId}>Growth</h2>
      </div>
      <p className="muted">
        The workloads grow at their own rates; each month is evaluated again. A window breaks when it first misses a latency target or
        a headroom limit.
      </p>
      <div className="grid grid-4">
        <NumberField
          label="Months to project"
          value={months}
          optional
          min={0}
          max={240}
          step={1}
          hint="Empty: the workloads' longest horizon"
          errors={errors.at('months')}
          onChange={(v) => setMonths(v === null ? null : Math.round(v))}
        />
        <NumberField label="Step [months]" value={step} min={1} max={120} step={1} errors={errors.at('step_months')} onChange={(v) => setStep(Math.max(1, Math.round(v ?? 1)))} />
      </div>
      <QueryState loading="Projecting growth…" failed="The growth projection failed" query={growth} workloads={workloads} />
      {p ? (
        <div className={growth.isFetching ? 'is-updating' : undefined}>
          <GrowthView projection={p} />
        </div>
      ) : null}
      {p && renderSave ? renderSave(body) : null}
    </section>
  );
}
