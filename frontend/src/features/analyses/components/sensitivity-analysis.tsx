/** The tornado of the sensitivity analysis (Recharts): loaded lazily. */
import { useId, useMemo, useState } from 'react';

import { TornadoChart, type TornadoRow } from '@/charts/tornado-chart';
import { CalibrationNote, NumberField } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { SensitivityRequest, SensitivityResult, SensitivitySteps, TornadoBar } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { useSensitivity } from '../api/get-sensitivity';
import { show, signed } from '../lib/format';
import type { AnalysisProps } from '../lib/types';
import { QueryState } from './query-state';

export type Metric = 'headroom' | 'latency';

export const DEFAULT_STEPS: SensitivitySteps = {
  iops_pct: 10,
  write_pct_points: 10,
  working_set_pct: 25,
  hit_ratio_points: 5,
  cache_pct: 25,
  drive_count_pct: 10,
  skew_alpha: 0.1,
  hot_data_pct: 25,
  full_stripe_share: 0.1,
};

const STEP_FIELDS: { key: keyof SensitivitySteps; label: string; unit: string; max: number }[] = [
  { key: 'iops_pct', label: 'Front-end IOPS ±', unit: '%', max: 90 },
  { key: 'write_pct_points', label: 'Write share ±', unit: 'points', max: 50 },
  { key: 'working_set_pct', label: 'Working sets ±', unit: '%', max: 90 },
  { key: 'hit_ratio_points', label: 'Read hit ratio ±', unit: 'points', max: 50 },
  { key: 'cache_pct', label: 'Cache size ±', unit: '%', max: 90 },
  { key: 'drive_count_pct', label: 'Drives ±', unit: '%', max: 90 },
  { key: 'skew_alpha', label: 'Zipf alpha ±', unit: '', max: 1 },
  { key: 'hot_data_pct', label: 'Hot data share ∓', unit: '%', max: 90 },
  { key: 'full_stripe_share', label: 'Full-stripe share ±', unit: '', max: 0.5 },
];

/** Tornado rows for one metric, largest swing of that metric first (a saturating end ranks first); inputs that do not apply are left out. */
export function tornadoRows(bars: TornadoBar[], metric: Metric): TornadoRow[] {
  const swing = (b: TornadoBar) => (metric === 'headroom' ? b.swing_pts : b.latency_swing_ms) ?? Infinity;
  return [...bars]
    .filter((b) => b.applicable)
    .sort((a, b) => swing(b) - swing(a) || (a.rank ?? 0) - (b.rank ?? 0))
    .map((b) => ({
      label: b.label,
      low: metric === 'headroom' ? b.headroom_low_delta_pts : b.latency_low_delta_ms,
      high: metric === 'headroom' ? b.headroom_high_delta_pts : b.latency_high_delta_ms,
      lowSetting: b.low_setting,
      highSetting: b.high_setting,
    }));
}

export function MetricToggle({ metric, onChange, name }: { metric: Metric; onChange: (m: Metric) => void; name: string }) {
  return (
    <fieldset className="plain inline-radios">
      <legend className="visually-hidden">Measure the change in</legend>
      <label>
        <input type="radio" name={name} checked={metric === 'headroom'} onChange={() => onChange('headroom')} /> Headroom used [points]
      </label>
      <label>
        <input type="radio" name={name} checked={metric === 'latency'} onChange={() => onChange('latency')} /> Read latency [ms]
      </label>
    </fieldset>
  );
}

/** Each input moved down and up by a step (one at a time), ranked by how far it moves the result. */
/** The tornado of a sensitivity result (as computed or as a report saved it). */
export function SensitivityView({ result: r, metric }: { result: SensitivityResult; metric: Metric }) {
  const rows = tornadoRows(r.bars, metric);
  const notApplicable = r.bars.filter((b) => !b.applicable);
  const unit = metric === 'headroom' ? 'points' : 'ms';
  return (
    <>
      <p data-testid="sensitivity-summary">{r.text}</p>
      <CalibrationNote result={r} />
      <p className="muted">
        At the base: headroom used {show(r.base.headroom_used_pct, '%')} ({r.base.binding_words}), worst read latency{' '}
        {show(r.base.read_latency_ms, 'ms')}.
      </p>
      <TornadoChart
        title={metric === 'headroom' ? 'Change in headroom used, ranked' : 'Change in read latency, ranked'}
        summary={`Ranked: ${rows.map((x) => `${x.label} ${signed(x.low)} / ${signed(x.high)} ${unit}`).join('; ')}.`}
        rows={rows}
        xLabel={metric === 'headroom' ? 'Change in headroom used [points]' : 'Change in worst read latency [ms]'}
        unit={unit}
        lowName="Input down"
        highName="Input up"
      />
      {notApplicable.length ? (
        <p className="muted">Not applicable to this configuration: {notApplicable.map((b) => b.label).join('; ')}.</p>
      ) : null}
    </>
  );
}

export default function SensitivityAnalysis({ workloads, configuration, degraded, renderSave }: AnalysisProps<SensitivityRequest>) {
  const [steps, setSteps] = useState<SensitivitySteps>(DEFAULT_STEPS);
  const [metric, setMetric] = useState<Metric>('headroom');
  const settled = useDebouncedValue(steps, 400);
  const body: SensitivityRequest = useMemo(() => ({ workloads, configuration, degraded, calibration_margin: 'pessimistic' as const, steps: settled }), [workloads, configuration, degraded, settled]);
  const sensitivity = useSensitivity(body);
  const r = sensitivity.data;
  const headingId = useId();
  const errors = fieldErrors(sensitivity.error instanceof ApiError && sensitivity.error.isValidation ? sensitivity.error.fieldErrors : null).scope('steps');

  return (
    <section className="card analysis" aria-labelledby={headingId} id="sensitivity" data-testid="sensitivity-analysis">
      <div className="card-head">
        <h2 id={headingId}>Sensitivity</h2>
        <MetricToggle metric={metric} onChange={setMetric} name="sensitivity-metric" />
      </div>
      <p className="muted">
        Each input moved down and up by a step, one at a time; the bars show how far that moves the result from the base. The widest bar
        is the input to measure best.
      </p>
      <QueryState loading="Moving each input…" failed="The sensitivity analysis failed" query={sensitivity} workloads={workloads} />
      {r ? (
        <div className={sensitivity.isFetching ? 'is-updating' : undefined}>
          <SensitivityView result={r} metric={metric} />
        </div>
      ) : null}
      {r && renderSave ? renderSave(body) : null}
      <details className="options">
        <summary>Step sizes</summary>
        <div className="grid grid-3">
          {STEP_FIELDS.map((f) => (
            <NumberField
              key={f.key}
              label={f.label}
              unit={f.unit || undefined}
              value={steps[f.key] ?? null}
              min={0}
              max={f.max}
              errors={errors.at(f.key)}
              onChange={(v) => setSteps((s) => ({ ...s, [f.key]: v ?? DEFAULT_STEPS[f.key] }))}
            />
          ))}
        </div>
      </details>
    </section>
  );
}
