import { useMemo } from 'react';

import { ErrorState, formatNumber, SliderField } from '@/components';
import type { ConfigurationInput, CurveName, EvaluationResult, Workload } from '@/lib/api-types';
import { useLeadingDebounce } from '@/lib/use-debounced-value';

import { useEvaluateConfiguration } from '../api/evaluate-configuration';
import { useCurves } from '../api/get-curves';
import { isNeutral, neutralWhatIf, toAdjustments, whatIfKey, type WhatIf } from '../lib/what-if';
import { LatencyChart } from './charts/latency-chart';
import { UtilizationPanel } from './utilization-panel';

/** A slider change this soon after the previous one waits until the changes stop this long (a drag). */
export const WHAT_IF_DEBOUNCE_MS = 60;

const NO_EXTRA: [] = [];

/** The what-if draws one curve: the others are not computed. */
const WHAT_IF_CURVES: CurveName[] = ['latency_vs_load'];

type WhatIfPanelProps = {
  workloads: Workload[];
  configuration: ConfigurationInput;
  baseline: EvaluationResult;
  /** Drives per RAID group: the drive-count slider moves in whole groups. */
  groupWidth: number;
  maxDrives?: number | null;
  /** Flash-cache sizes the array sells (GB); empty = any size up to 2 TB. */
  flashSizes: number[];
};

type Row = { label: string; base: number | null; next: number | null; unit: string; better: 'lower' | 'higher' };

function headlineRows(base: EvaluationResult, next: EvaluationResult): Row[] {
  const rows: Row[] = [
    { label: 'Drives incl. spares', base: base.bill.drives + base.bill.spares, next: next.bill.drives + next.bill.spares, unit: '', better: 'lower' },
    { label: 'Usable capacity', base: base.capacity.usable_tb, next: next.capacity.usable_tb, unit: 'TB', better: 'higher' },
    { label: 'Capacity fill', base: base.capacity.fill_pct, next: next.capacity.fill_pct, unit: '%', better: 'lower' },
    { label: 'List cost', base: base.bill.cost_usd, next: next.bill.cost_usd, unit: 'USD', better: 'lower' },
  ];
  for (const w of next.windows) {
    const b = base.windows.find((x) => x.window === w.window);
    const drive = (x: typeof w | undefined) => (x ? Math.max(...x.pools.map((p) => p.drive_utilization_pct.value ?? Infinity)) : null);
    const parity = (x: typeof w | undefined) => {
      const pools = x ? x.pools.filter((p) => p.parity_utilization_pct) : [];
      return pools.length ? Math.max(...pools.map((p) => p.parity_utilization_pct!.value ?? Infinity)) : null;
    };
    rows.push(
      { label: `${w.window}: read latency`, base: b?.read_latency_ms ?? null, next: w.read_latency_ms, unit: 'ms', better: 'lower' },
      { label: `${w.window}: controllers busy`, base: b?.controller_utilization_pct.value ?? null, next: w.controller_utilization_pct.value, unit: '%', better: 'lower' },
      { label: `${w.window}: drives busy`, base: drive(b), next: drive(w), unit: '%', better: 'lower' },
    );
    if (parity(w) !== null || parity(b) !== null) {
      rows.push({ label: `${w.window}: parity drives busy`, base: parity(b), next: parity(w), unit: '%', better: 'lower' });
    }
    if (w.backend_bus_utilization_pct || b?.backend_bus_utilization_pct) {
      rows.push({ label: `${w.window}: back-end bus busy`, base: b?.backend_bus_utilization_pct?.value ?? null, next: w.backend_bus_utilization_pct?.value ?? null, unit: '%', better: 'lower' });
    }
    if (w.cluster_network_utilization_pct || b?.cluster_network_utilization_pct) {
      rows.push({ label: `${w.window}: cluster network busy`, base: b?.cluster_network_utilization_pct?.value ?? null, next: w.cluster_network_utilization_pct?.value ?? null, unit: '%', better: 'lower' });
    }
  }
  return rows;
}

function show(v: number | null, unit: string): string {
  if (v === null || !Number.isFinite(v)) return unit === '%' || unit === 'ms' ? 'saturated' : 'unknown';
  return unit ? `${formatNumber(v)} ${unit}` : formatNumber(v);
}

function change(row: Row): { text: string; tone: 'better' | 'worse' | 'same' } {
  if (row.base === null || row.next === null || !Number.isFinite(row.base) || !Number.isFinite(row.next)) {
    return row.base === row.next ? { text: '—', tone: 'same' } : { text: row.next === null ? 'now saturated' : 'no longer saturated', tone: row.next === null ? 'worse' : 'better' };
  }
  const d = row.next - row.base;
  if (Math.abs(d) < 1e-9 * Math.max(1, Math.abs(row.base))) return { text: '—', tone: 'same' };
  const unit = row.unit === '%' ? ' pp' : row.unit ? ` ${row.unit}` : '';
  const tone = (d < 0) === (row.better === 'lower') ? 'better' : 'worse';
  return { text: `${d > 0 ? '+' : '−'}${formatNumber(Math.abs(d))}${unit}`, tone };
}

/**
 * Sliders (growth, flash cache, drives, write share, working set, IOPS) that re-evaluate live and
 * show the change against the baseline. A step asks at once (a drag once it pauses, see
 * {@link useLeadingDebounce}); the evaluation (bars, table) and the latency curve are asked in
 * parallel and each is drawn as soon as it arrives, the previous drawing kept (dimmed) meanwhile.
 * `data-whatif-for` names the slider positions and each drawing's `data-drawn-for` the positions it
 * answers, so a test can time the redraw from the DOM.
 */
export function WhatIfPanel({ workloads, configuration, baseline, groupWidth, maxDrives, flashSizes }: WhatIfPanelProps) {
  const base = useMemo(() => neutralWhatIf(configuration), [configuration]);
  const [w, settled, setW] = useLeadingDebounce<WhatIf>(base, WHAT_IF_DEBOUNCE_MS);
  const neutral = isNeutral(settled, base);

  const request = useMemo(
    () => (neutral ? null : { workloads, configuration, degraded: 'none' as const, calibration_margin: 'pessimistic' as const, adjust: toAdjustments(settled, base) }),
    [neutral, workloads, configuration, settled, base],
  );
  const windows = baseline.windows.map((x) => x.window);
  const window = windows[0] ?? '';
  const curvesRequest = useMemo(
    () => (request && window ? { workloads, configuration, window, curves: WHAT_IF_CURVES, adjust: request.adjust, calibration_margin: 'pessimistic' as const } : null),
    [request, window, workloads, configuration],
  );
  const evaluation = useEvaluateConfiguration(request);
  const curves = useCurves(curvesRequest);
  // the same request as the results' charts: already answered
  const baseCurves = useCurves(window ? { workloads, configuration, window, calibration_margin: 'pessimistic' } : null);

  const shown = neutral ? null : (evaluation.data ?? null);
  const barsFresh = !neutral && !!evaluation.data && !evaluation.isPlaceholderData;
  const curve = neutral ? null : (curves.data?.latency_vs_load ?? null);
  const curveFresh = !neutral && !!curves.data && !curves.isPlaceholderData;
  const drawnFor = whatIfKey(settled);

  const update = (patch: Partial<WhatIf>) => setW({ ...w, ...patch });

  const step = Math.max(1, groupWidth);
  const baseDrives = base.driveCount;
  const driveMax = Math.max(baseDrives * 4, step * 4, maxDrives ? Math.min(maxDrives, baseDrives * 4) : 0);
  const flashChoices = flashSizes.length ? [0, ...flashSizes.filter((s) => s > 0)] : [];
  const flashIndex = Math.max(0, flashChoices.indexOf(w.flashCacheGb));
  const growthBase = workloads[0]?.growth_pct_per_year ?? 0;
  const horizon = Math.max(0, ...workloads.map((x) => x.horizon_years ?? 0));
  const baseLatency = baseCurves.data?.latency_vs_load;
  const baseReadLatency = baseline.windows.find((x) => x.window === window)?.read_latency_ms ?? null;
  // stable props: a slider move re-renders the sliders and the table, not the drawings
  const extra = useMemo(() => (baseLatency ? [{ name: 'Baseline', curve: baseLatency, dashed: true, color: '#7c8794' }] : []), [baseLatency]);
  const baselinePoint = useMemo(
    () => (baseLatency ? { iops: baseLatency.operating_iops, latencyMs: baseReadLatency } : null),
    [baseLatency, baseReadLatency],
  );
  const state =
    w !== settled ? 'loading' : neutral ? 'baseline' : evaluation.isError || curves.isError ? 'error' : barsFresh && curveFresh ? 'ready' : 'loading';

  return (
    <section className="card what-if" aria-labelledby="what-if-title" data-whatif-state={state} data-whatif-for={whatIfKey(w)}>
      <div className="section-head">
        <h2 id="what-if-title">What if…</h2>
        <button type="button" onClick={() => setW(base)} disabled={isNeutral(w, base)}>
          Back to the baseline
        </button>
      </div>
      <div className="what-if-grid">
        <div className="what-if-sliders">
          <SliderField
            label={`Growth [%/year${horizon ? `, over ${formatNumber(horizon)} years` : ', no horizon set'}]`}
            min={0}
            max={100}
            step={1}
            value={w.growthPctPerYear ?? growthBase}
            baseline={growthBase}
            format={(v) => `${formatNumber(v)}%`}
            onChange={(v) => update({ growthPctPerYear: v === growthBase ? null : v })}
          />
          {flashChoices.length ? (
            <SliderField
              label="Flash cache [GB]"
              min={0}
              max={flashChoices.length - 1}
              step={1}
              value={flashIndex}
              baseline={Math.max(0, flashChoices.indexOf(base.flashCacheGb))}
              format={(i) => `${formatNumber(flashChoices[i] ?? 0)} GB`}
              onChange={(i) => update({ flashCacheGb: flashChoices[i] ?? 0 })}
            />
          ) : (
            <p className="muted">This array sells no flash cache.</p>
          )}
          <SliderField
            label={`Drives [whole groups of ${step}]`}
            min={step}
            max={driveMax}
            step={step}
            value={w.driveCount}
            baseline={baseDrives}
            format={(v) => formatNumber(v)}
            onChange={(v) => update({ driveCount: v })}
          />
          <SliderField
            label="Write share [change in percentage points]"
            min={-50}
            max={50}
            step={5}
            value={w.writeShiftPp}
            baseline={0}
            format={(v) => `${v > 0 ? '+' : ''}${v} pp`}
            onChange={(v) => update({ writeShiftPp: v })}
          />
          <SliderField
            label="Working set [x as entered]"
            min={0.25}
            max={4}
            step={0.25}
            value={w.workingSetScale}
            baseline={1}
            format={(v) => `x${v}`}
            onChange={(v) => update({ workingSetScale: v })}
          />
          <SliderField
            label="IOPS [x as entered]"
            min={0.25}
            max={4}
            step={0.25}
            value={w.iopsScale}
            baseline={1}
            format={(v) => `x${v}`}
            onChange={(v) => update({ iopsScale: v })}
          />
        </div>
        <div className="what-if-results" aria-live="polite" aria-busy={state === 'loading'}>
          {neutral ? <p className="muted">Move a slider to see what changes against the baseline.</p> : null}
          {evaluation.isError ? <ErrorState title="This what-if cannot be evaluated" error={evaluation.error} /> : null}
          {shown ? (
            <>
              <p className={shown.passed ? 'verdict-overall ok' : 'verdict-overall fail'}>
                {shown.passed ? 'Still meets every target' : `Fails: ${shown.bottleneck_words}`}
                {shown.passed !== baseline.passed ? <strong> (changed)</strong> : null}
              </p>
              <div className="table-scroll">
                <table className="data-table delta-table">
                  <caption>What-if against the baseline</caption>
                  <thead>
                    <tr>
                      <th scope="col">Figure</th>
                      <th scope="col">Baseline</th>
                      <th scope="col">What-if</th>
                      <th scope="col">Change</th>
                    </tr>
                  </thead>
                  <tbody>
                    {headlineRows(baseline, shown).map((row) => {
                      const c = change(row);
                      return (
                        <tr key={row.label}>
                          <th scope="row">{row.label}</th>
                          <td>{show(row.base, row.unit)}</td>
                          <td>{show(row.next, row.unit)}</td>
                          <td className={`delta delta-${c.tone}`}>{c.text}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </>
          ) : null}
        </div>
      </div>
      {/* drawn from the start (the baseline until a slider moves): a step updates the drawings, never mounts them */}
      <div className="what-if-charts">
        <div className={neutral || barsFresh ? undefined : 'is-updating'} data-testid="what-if-bars" data-drawn-for={neutral || barsFresh ? drawnFor : ''}>
          <UtilizationPanel result={shown ?? baseline} baseline={shown ? baseline : null} />
        </div>
        {curve || baseLatency ? (
          <div className={neutral || curveFresh ? undefined : 'is-updating'} data-testid="what-if-latency" data-drawn-for={neutral || curveFresh ? drawnFor : ''}>
            {curve ? (
              <LatencyChart
                light
                title={`What-if latency vs IOPS (${window})`}
                name="What-if read latency"
                curve={curve}
                operatingLatencyMs={curve.operating_read_latency_ms ?? null}
                extra={extra}
                baselinePoint={baselinePoint}
              />
            ) : (
              <LatencyChart
                light
                title={`What-if latency vs IOPS (${window}): the baseline`}
                name="Baseline read latency"
                curve={baseLatency!}
                operatingLatencyMs={baseReadLatency}
                extra={NO_EXTRA}
              />
            )}
          </div>
        ) : null}
        {curves.isError ? <ErrorState title="The what-if latency curve cannot be computed" error={curves.error} /> : null}
      </div>
    </section>
  );
}

export default WhatIfPanel;
