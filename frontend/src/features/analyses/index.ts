import { lazy } from 'react';

export { MaxWorkloadAnalysis } from './components/max-workload-analysis';
export { DegradedAnalysis, DegradedView } from './components/degraded-analysis';
export { RaidConversionCalculator, type SchemeChoice } from './components/raid-conversion-calculator';
export { BuildingBlocksCalculator, BuildingBlocksView } from './components/building-blocks-calculator';
export { MODE_OPTIONS } from './lib/format';
export type { AnalysisProps } from './lib/types';

/** Growth by month (charts), loaded on demand. */
export const GrowthAnalysis = lazy(() => import('./components/growth-analysis'));

/** The sensitivity tornado, loaded on demand. */
export const SensitivityAnalysis = lazy(() => import('./components/sensitivity-analysis'));

/** Ranges and the ranking of the uncertainties (a tornado), loaded on demand. */
export const RangesAnalysis = lazy(() => import('./components/ranges-analysis'));

/** Saved results, drawn as the analyses draw them (charts: loaded on demand). */
export const GrowthView = lazy(() => import('./components/growth-analysis').then((m) => ({ default: m.GrowthView })));
export const SensitivityView = lazy(() => import('./components/sensitivity-analysis').then((m) => ({ default: m.SensitivityView })));
export const RangesView = lazy(() => import('./components/ranges-analysis').then((m) => ({ default: m.RangesView })));
