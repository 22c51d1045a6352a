/** Ranges (bands) and the ranking of the uncertainties (a tornado, Recharts): loaded lazily. */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { TornadoChart } from '@/charts/tornado-chart';
import { CalibrationNote, NumberField, SelectField } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { Band, BandMethod, RangesRequest, RangesResult, Uncertainty } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { useRanges } from '../api/get-ranges';
import { show, signed } from '../lib/format';
import type { AnalysisProps } from '../lib/types';
import { QueryState } from './query-state';
import { MetricToggle, tornadoRows, type Metric } from './sensitivity-analysis';

const UNCERTAINTY_LABELS: Record<keyof Uncertainty, string> = {
  skew_alpha_delta: 'Zipf alpha (added)',
  hot_data_factor: 'Hot data share of rule skews (x)',
  working_set_factor: 'Working sets (x)',
  full_stripe_share_delta: 'Full-stripe share, layout aging (added)',
  cache_factor: 'Effective cache (x)',
  locality_b_delta: 'Tiering locality, b-model bias (added)',
  scaling_efficiency: 'Scale-out efficiency',
  model_error_factor: "The model's own error: CPU costs and drive times (x)",
};

/** A band as a bar from low to high with the expected value marked; `max` sets the scale. */
function BandBar({ band, max }: { band: Band; max: number }) {
  const pct = (v: number) => `${(Math.min(Math.max(v, 0), max) / max) * 100}%`;
  const low = band.low ?? max;
  const high = band.high ?? max;
  return (
    <span className="band-track" aria-hidden="true">
      <span className={band.high === null ? 'band-fill band-open' : 'band-fill'} style={{ left: pct(low), width: `calc(${pct(high)} - ${pct(low)})` }} />
      {band.expected !== null ? <span className="band-expected" style={{ left: pct(band.expected) }} /> : null}
    </span>
  );
}

function bandText(b: Band): string {
  const u = b.unit === '%' ? '%' : b.unit === 'x load' ? 'x' : b.unit;
  return `${show(b.low, u)} – ${show(b.high, u)} (expected ${show(b.expected, u)})`;
}

function scaleOf(...bands: Band[]): number {
  const values = bands.flatMap((b) => [b.low, b.expected, b.high]).filter((v): v is number => v !== null && Number.isFinite(v));
  return Math.max(1e-9, ...values) * 1.1;
}

function BandRow({ label, band, max, note }: { label: string; band: Band; max?: number; note?: ReactNode }) {
  return (
    <tr>
      <th scope="row">
        {label}
        {note ? <span className="col-note">{note}</span> : null}
      </th>
      <td>{bandText(band)}</td>
      <td className="band-col">
        <BandBar band={band} max={max ?? scaleOf(band)} />
      </td>
    </tr>
  );
}

function SkewNote({ r, tracesHref }: { r: RangesResult; tracesHref?: string }) {
  const skew = r.ranking.filter((b) => b.applicable && /skew|hot_data/.test(b.input));
  const cap = r.capability_scale;
  const fold = cap && cap.low && cap.high ? cap.high / cap.low : null;
  // the boxed advice only when skew is what moves the result most here; otherwise a plain remark
  const first = r.ranking.find((b) => b.applicable);
  const leads = first !== undefined && /skew|hot_data/.test(first.input);
  return (
    <div className={leads ? 'notice skew-note' : 'skew-note muted'} data-testid="skew-note" data-leads={leads ? 'true' : 'false'}>
      <p>
        {leads ? <strong>Access skew is the input to measure.</strong> : <>Access skew moved the result less than {first?.label ?? 'other inputs'} here.</>} How concentrated the I/O is (the Zipf alpha, or x% of the I/O on y% of the
        data) decides how much the caches absorb, and with it the drive load: skew alone can move what an array sustains several-fold.
      </p>
      <p>
        {skew.length
          ? `Here: ${skew.map((b) => `${b.label} moves headroom used by ${show(b.swing_pts)} points`).join('; ')}.`
          : 'The workloads here state no skew the ranges can move (uniform access).'}{' '}
        {cap && fold !== null
          ? `All uncertainties together move the sustainable load from ${show(cap.low)} x to ${show(cap.high)} x today's (${show(fold)}-fold).`
          : null}{' '}
        {tracesHref ? (
          <>
            Measure it from a block trace: <Link to={tracesHref}>analyse a trace</Link>.
          </>
        ) : null}
      </p>
    </div>
  );
}

type RangesAnalysisProps = AnalysisProps<RangesRequest> & {
  /** Where traces are analysed (the skew note links there). */
  tracesHref?: string;
};

/** The bands and the ranking of the uncertainties (as computed or as a report saved it). */
export function RangesView({ result: r, tracesHref }: { result: RangesResult; tracesHref?: string }) {
  const [metric, setMetric] = useState<Metric>('headroom');
  const rows = tornadoRows(r.ranking, metric);
  const unit = metric === 'headroom' ? 'points' : 'ms';
  const pctMax = scaleOf(r.headroom_used_pct, r.max_utilization_pct, ...r.windows.flatMap((w) => [w.headroom_used_pct, w.max_utilization_pct]));
  const msMax = scaleOf(r.read_latency_ms, ...r.windows.map((w) => w.read_latency_ms));
  return (
    <>
      <p data-testid="ranges-summary">{r.text}</p>
      <CalibrationNote result={r} />
      {r.pass_probability !== null ? (
        <p>
          Meets every target in <strong>{show(r.pass_probability * 100, '%')}</strong> of {r.samples} samples.
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="data-table band-table">
          <caption>Bands: low – high (expected)</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">Band</th>
              <th scope="col" className="band-col">
                <span className="visually-hidden">Band drawn, expected value marked</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <BandRow label="Headroom used" band={r.headroom_used_pct} max={pctMax} note={r.expected.binding_words} />
            <BandRow label="Busiest component" band={r.max_utilization_pct} max={pctMax} />
            <BandRow label="Worst read latency" band={r.read_latency_ms} max={msMax} />
            {r.capability_scale ? <BandRow label="Sustainable load" band={r.capability_scale} note="x today's load" /> : null}
            {r.windows.map((w) => (
              <BandRow key={w.window} label={`${w.window}: read latency`} band={w.read_latency_ms} max={msMax} />
            ))}
            {r.windows.map((w) => (
              <BandRow key={`${w.window}-h`} label={`${w.window}: headroom used`} band={w.headroom_used_pct} max={pctMax} />
            ))}
          </tbody>
        </table>
      </div>
      <SkewNote r={r} tracesHref={tracesHref} />
      <div className="section-head">
        <h3>Which uncertainty matters</h3>
        <MetricToggle metric={metric} onChange={setMetric} name="ranges-metric" />
      </div>
      <TornadoChart
        title="Uncertainties ranked by their swing"
        summary={`Most influential: ${r.most_influential}. ${rows.map((x) => `${x.label} ${signed(x.low)} / ${signed(x.high)} ${unit}`).join('; ')}.`}
        rows={rows}
        xLabel={metric === 'headroom' ? 'Change in headroom used [points]' : 'Change in worst read latency [ms]'}
        unit={unit}
        lowName="Low end"
        highName="High end"
      />
      <details className="options">
        <summary>The ranges assumed</summary>
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Input</th>
                <th scope="col">Low</th>
                <th scope="col">Expected</th>
                <th scope="col">High</th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(UNCERTAINTY_LABELS) as (keyof Uncertainty)[]).map((k) => {
                const range = r.uncertainty[k];
                return range ? (
                  <tr key={k}>
                    <th scope="row">{UNCERTAINTY_LABELS[k]}</th>
                    <td>{show(range.low)}</td>
                    <td>{show(range.expected)}</td>
                    <td>{show(range.high)}</td>
                  </tr>
                ) : null;
              })}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

/** Low / expected / high bands over the plausible ranges of the inputs nobody measures well, and which matters most. */
export default function RangesAnalysis({ workloads, configuration, degraded, tracesHref, renderSave }: RangesAnalysisProps) {
  const [method, setMethod] = useState<BandMethod>('ends');
  const [samples, setSamples] = useState(64);
  const [coverage, setCoverage] = useState(90);
  const settled = useDebouncedValue({ method, samples, coverage }, 400);
  const body: RangesRequest = useMemo(
    () => ({
      workloads,
      configuration,
      calibration_margin: 'as_stated',
      degraded,
      method: settled.method,
      samples: settled.samples,
      coverage_pct: settled.coverage,
      capability: true,
      seed: 0,
      uncertainty: null,
    }),
    [workloads, configuration, degraded, settled],
  );
  const ranges = useRanges(body);
  const r = ranges.data;
  const headingId = useId();
  const errors = fieldErrors(ranges.error instanceof ApiError && ranges.error.isValidation ? ranges.error.fieldErrors : null);

  return (
    <section className="card analysis" aria-labelledby={headingId} id="ranges" data-testid="ranges-analysis">
      <div className="card-head">
        <h2 id={headingId}>Ranges</h2>
      </div>
      <p className="muted">
        The answer as a band: every uncertain input at the end of its plausible range that helps (low) or hurts (high), or sampled
        (Monte Carlo).
      </p>
      <div className="grid grid-4">
        <SelectField
          label="Method"
          value={method}
          onChange={(v) => setMethod(v as BandMethod)}
          hint={method === 'ends' ? '3 evaluations' : 'Sampled, seed 0'}
          options={[
            { value: 'ends', label: 'Ends of the ranges' },
            { value: 'monte-carlo', label: 'Monte Carlo' },
          ]}
          errors={errors.at('method')}
        />
        {method === 'monte-carlo' ? (
          <>
            <NumberField label="Samples" value={samples} min={1} max={256} step={1} errors={errors.at('samples')} onChange={(v) => setSamples(Math.round(v ?? 64))} />
            <NumberField label="Band covers" unit="%" value={coverage} min={1} max={100} errors={errors.at('coverage_pct')} onChange={(v) => setCoverage(v ?? 90)} />
          </>
        ) : null}
      </div>
      <QueryState loading="Evaluating the ends of the ranges…" failed="The ranges could not be computed" query={ranges} workloads={workloads} />
      {r ? (
        <div className={ranges.isFetching ? 'is-updating' : undefined}>
          <RangesView result={r} tracesHref={tracesHref} />
        </div>
      ) : null}
      {r && renderSave ? renderSave(body) : null}
    </section>
  );
}
