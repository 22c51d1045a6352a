/** The results' curves (Recharts): loaded lazily, so the charting library stays out of the first load. */
import { useState } from 'react';

import { ErrorState, Loading, SelectField } from '@/components';
import type { ConfigurationInput, EvaluationResult, SizingResult, Workload } from '@/lib/api-types';

import { useCurves } from '../api/get-curves';
import { CacheOptionsChart } from './charts/cache-options-chart';
import { HitRatioChart } from './charts/hit-ratio-chart';
import { LatencyChart } from './charts/latency-chart';
import { QueueDepthChart } from './charts/queue-depth-chart';

export type ResultChartsProps = {
  workloads: Workload[];
  configuration: ConfigurationInput;
  result: EvaluationResult;
  sizing?: Pick<SizingResult, 'cache_options' | 'chosen_flash_cache_gb'> | null;
  /** A note shown above the curves (e.g. "computed now" on a saved report). */
  note?: string;
};

export default function ResultCharts({ workloads, configuration, result, sizing, note }: ResultChartsProps) {
  const windows = result.windows.map((w) => w.window);
  const [window, setWindow] = useState(windows[0] ?? '');
  const active = windows.includes(window) ? window : (windows[0] ?? '');
  const curves = useCurves(active ? { workloads, configuration, window: active, calibration_margin: 'pessimistic' } : null);
  const operating = result.windows.find((w) => w.window === active)?.read_latency_ms ?? null;
  const data = curves.data;

  return (
    <section className="result-charts" aria-labelledby="curves-title">
      <div className="section-head">
        <h3 id="curves-title">Curves</h3>
        {windows.length > 1 ? (
          <SelectField
            label="Window"
            className="inline-field"
            value={active}
            onChange={setWindow}
            options={windows.map((w) => ({ value: w, label: w }))}
          />
        ) : null}
      </div>
      {note ? <p className="muted">{note}</p> : null}
      {curves.isPending ? <Loading label="Computing curves…" /> : null}
      {curves.isError ? <ErrorState title="The curves could not be computed" error={curves.error} onRetry={() => void curves.refetch()} /> : null}
      {data ? (
        <div className={curves.isFetching ? 'chart-grid is-updating' : 'chart-grid'}>
          {data.latency_vs_load ? <LatencyChart curve={data.latency_vs_load} operatingLatencyMs={operating} headroom={data.headroom} /> : null}
          {data.queue_depth ? <QueueDepthChart curve={data.queue_depth} /> : null}
          {data.hit_ratio ? <HitRatioChart curve={data.hit_ratio} /> : null}
          {sizing && sizing.cache_options.length > 1 ? (
            <CacheOptionsChart options={sizing.cache_options} chosenGb={sizing.chosen_flash_cache_gb} />
          ) : null}
          {data.notes.length ? (
            <ul className="notes">
              {data.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
