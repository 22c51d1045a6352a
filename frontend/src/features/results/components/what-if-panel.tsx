import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

import { ErrorState, formatNumber, SliderField } from '@/components';
import type { ConfigurationInput, EvaluationResult, FlashCacheOption, Workload } from '@/lib/api-types';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { useEvaluateConfiguration } from '../api/evaluate-configuration';
import { useCurves } from '../api/get-curves';
import { applyToConfiguration, applyToWorkloads, isNeutral, neutralWhatIf, type WhatIf } from '../lib/what-if';
import { LatencyChart } from './charts/latency-chart';
import { UtilizationPanel } from './utilization-panel';

/** Slider changes wait this long for the next one before asking the API. */
export const WHAT_IF_DEBOUNCE_MS = 150;

type WhatIfPanelProps = {
  workloads: Workload[];
  configuration: ConfigurationInput;
  baseline: EvaluationResult;
  /** Drives per RAID group: the drive-count slider moves in whole groups. */
  groupWidth: number;
  maxDrives?: number | null;
  /** Flash-cache sizes the array sells (GB); empty = any size up to 2 TB. */
  flashSizes: number[];
  flashOptions?: FlashCacheOption[];
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
    rows.push(
      { label: `${w.window}: read latency`, base: b?.read_latency_ms ?? null, next: w.read_latency_ms, unit: 'ms', better: 'lower' },
      { label: `${w.window}: controllers busy`, base: b?.controller_utilization_pct.value ?? null, next: w.controller_utilization_pct.value, unit: '%', better: 'lower' },
      { label: `${w.window}: drives busy`, base: drive(b), next: drive(w), unit: '%', better: 'lower' },
    );
  }
  return rows;
}

function measure(name: string) {
  try {
    performance.measure(name, 'whatif:input');
  } catch {
    // no input mark (e.g. cleared): nothing to time
  }
}

function show(v: number | null, unit: string): string {
  if (v === null || !Number.isFinite(v)) return 'saturated';
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
 * Sliders (growth, flash cache, drives, write share, working set, IOPS) that re-evaluate live,
 * debounced, and show the change against the baseline. Redraw times are recorded as the
 * performance measure `whatif` (slider input -> charts drawn with the new answer).
 */
export function WhatIfPanel({ workloads, configuration, baseline, groupWidth, maxDrives, flashSizes, flashOptions = [] }: WhatIfPanelProps) {
  const base = useMemo(() => neutralWhatIf(configuration), [configuration]);
  const [w, setW] = useState<WhatIf>(base);
  const debounced = useDebouncedValue(w, WHAT_IF_DEBOUNCE_MS);
  const neutral = isNeutral(debounced, base);
  /** The slider state of the last input not yet timed to the screen (and which parts were drawn). */
  const pending = useRef<{ w: WhatIf; bars: boolean } | null>(null);

  const request = useMemo(
    () =>
      neutral
        ? null
        : {
            workloads: applyToWorkloads(workloads, debounced),
            configuration: applyToConfiguration(configuration, debounced, flashOptions),
            degraded: 'none' as const,
          },
    [neutral, workloads, configuration, debounced, flashOptions],
  );
  const windows = baseline.windows.map((x) => x.window);
  const window = windows[0] ?? '';
  const evaluation = useEvaluateConfiguration(request);
  const current = !neutral && evaluation.data && !evaluation.isPlaceholderData ? evaluation.data : null;
  // the curve after the evaluation: both at once would share the server's CPU and delay the bars
  const curves = useCurves(request && window && current ? { workloads: request.workloads, configuration: request.configuration, window } : null);
  const baseCurves = useCurves(window ? { workloads, configuration, window } : null);

  const shown = neutral ? null : (evaluation.data ?? null);
  const drawnCurve = !neutral && curves.data && !curves.isPlaceholderData ? curves.data.latency_vs_load : null;

  function update(patch: Partial<WhatIf>) {
    const next = { ...w, ...patch };
    performance.mark('whatif:input');
    pending.current = { w: next, bars: false };
    setW(next);
  }

  // Performance measures from the last slider input: `whatif:bars` when the deltas and bars show
  // its answer, `whatif` when the latency curve does too. Only the settled input counts.
  const settled = pending.current !== null && debounced === pending.current.w;
  useEffect(() => {
    const p = pending.current;
    if (!p || p.bars || debounced !== p.w || !current) return;
    const frame = requestAnimationFrame(() => {
      p.bars = true;
      measure('whatif:bars');
    });
    return () => cancelAnimationFrame(frame);
  }, [current, debounced]);

  const onDrawn = useCallback(() => {
    const p = pending.current;
    if (!p || debounced !== p.w || !current || !drawnCurve) return;
    pending.current = null;
    measure('whatif');
  }, [current, drawnCurve, debounced]);

  const step = Math.max(1, groupWidth);
  const baseDrives = base.driveCount;
  const driveMax = Math.max(baseDrives * 4, step * 4, maxDrives ? Math.min(maxDrives, baseDrives * 4) : 0);
  const flashChoices = flashSizes.length ? [0, ...flashSizes.filter((s) => s > 0)] : [];
  const flashIndex = Math.max(0, flashChoices.indexOf(w.flashCacheGb));
  const growthBase = workloads[0]?.growth_pct_per_year ?? 0;
  const horizon = Math.max(0, ...workloads.map((x) => x.horizon_years ?? 0));
  const baseLatency = baseCurves.data?.latency_vs_load;
  const state = neutral ? 'baseline' : current && drawnCurve && (settled || pending.current === null) ? 'ready' : evaluation.isError || curves.isError ? 'error' : 'loading';

  return (
    <section className="card what-if" aria-labelledby="what-if-title" data-whatif-state={state}>
      <div className="section-head">
        <h2 id="what-if-title">What if…</h2>
        <button type="button" onClick={() => update(base)} disabled={isNeutral(w, base)}>
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
                {shown.passed ? 'Still meets every target' : `Fails: ${shown.bottleneck}`}
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
      {shown ? (
        <div className={state === 'loading' ? 'what-if-charts is-updating' : 'what-if-charts'}>
          <UtilizationPanel result={shown} baseline={baseline} />
          {curves.data?.latency_vs_load ? (
            <LatencyChart
              title={`What-if latency vs IOPS (${window})`}
              name="What-if read latency"
              curve={curves.data.latency_vs_load}
              operatingLatencyMs={shown.windows.find((x) => x.window === window)?.read_latency_ms ?? null}
              extra={baseLatency ? [{ name: 'Baseline', curve: baseLatency, dashed: true, color: '#7c8794' }] : []}
              baselinePoint={baseLatency ? { iops: baseLatency.operating_iops, latencyMs: baseline.windows.find((x) => x.window === window)?.read_latency_ms ?? null } : null}
              onDrawn={onDrawn}
            />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export default WhatIfPanel;
