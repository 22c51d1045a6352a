import { memo, Suspense, useDeferredValue } from 'react';

import { CalibrationNote, Loading } from '@/components';
import { isFullConfiguration, type ConfigurationInput, type EvaluationResult, type Packaging, type SizingResult, type Workload } from '@/lib/api-types';
import { preloadable } from '@/lib/preloadable';

import { BackendLoad } from './backend-load';
import { BillSummary } from './bill-summary';
import { CapacityWaterfall } from './capacity-waterfall';
import { PhaseTable } from './phase-table';
import { UtilizationPanel } from './utilization-panel';
import { Verdicts } from './verdicts';

/**
 * The curves' code (Recharts): loaded on its own, so it stays out of the first load. A page that
 * will show results calls `preloadResultCharts` once it is up, so the charts draw with the answer
 * (in the same render, without suspending) instead of after a second download.
 */
const resultCharts = preloadable(() => import('./result-charts'));
export const preloadResultCharts = resultCharts.preload;
const ResultCharts = resultCharts.Component;

type ResultsViewProps = {
  result: EvaluationResult;
  sizing?: SizingResult | null;
  workloads: Workload[];
  configuration: ConfigurationInput;
  /** Packaging for the bill's explanations when the configuration is a catalog reference. */
  packaging?: Packaging | null;
  /** Draw the curves (they are computed by the API on demand). */
  curves?: boolean;
  curvesNote?: string;
};

/** Everything about one evaluated configuration: verdicts, bill, utilization, capacity, phases, curves;
 * drawn again only when its own props change (typing in the page's form leaves it alone). */
export const ResultsView = memo(function ResultsView({ result, sizing, workloads, configuration, packaging, curves = true, curvesNote }: ResultsViewProps) {
  const pk = isFullConfiguration(configuration) ? configuration.packaging : packaging;
  // the figures are painted first; the charts (the costliest part) in the render React starts right
  // after, not behind a suspended fallback (which React reveals at most every 300 ms)
  const chartsNow = useDeferredValue(true, false);
  return (
    <div className="results">
      <Verdicts result={result} sizing={sizing} workloads={workloads} configuration={configuration} />
      <CalibrationNote result={result} />
      <BillSummary bill={result.bill} packaging={pk} sizingText={sizing?.explanation} />
      <UtilizationPanel result={result} />
      <BackendLoad result={result} />
      <CapacityWaterfall capacity={result.capacity} />
      <section aria-labelledby="phases-title">
        <h3 id="phases-title">Phases</h3>
        {result.windows.map((w) => (
          <PhaseTable key={w.window} window={w} />
        ))}
      </section>
      {curves && !chartsNow ? <Loading label="Drawing charts…" /> : null}
      {curves && chartsNow ? (
        <Suspense fallback={<Loading label="Loading charts…" />}>
          <ResultCharts workloads={workloads} configuration={configuration} result={result} sizing={sizing} note={curvesNote} />
        </Suspense>
      ) : null}
    </div>
  );
});
