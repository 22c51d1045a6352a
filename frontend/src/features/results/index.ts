import { lazy } from 'react';

import { preloadable } from '@/lib/preloadable';

export { preloadResultCharts, ResultsView } from './components/results-view';
export { Verdicts } from './components/verdicts';
export { BillSummary } from './components/bill-summary';
export { BackendLoad } from './components/backend-load';
export { RaidGrid, RaidGridTable } from './components/raid-grid';
export { UtilizationPanel } from './components/utilization-panel';
export { CapacityWaterfall } from './components/capacity-waterfall';
export { useRun, run, runRequest, type RunInput, type RunOutcome } from './hooks/use-run';
export { useCurves } from './api/get-curves';
export { ObservedPanel } from './components/observed-panel';
export { SiteFitPanel } from './components/site-fit-panel';
export { hasObserved } from './lib/observed';

const whatIfPanel = preloadable(() => import('./components/what-if-panel'));

/** The what-if panel's code, fetched ahead by a page that will show it (see {@link preloadResultCharts}). */
export const preloadWhatIfPanel = whatIfPanel.preload;

/** The what-if panel (with its chart): drawn at once when fetched ahead, else loaded on demand. */
export const WhatIfPanel = whatIfPanel.Component;

/** Stored curves of a saved report, loaded on demand. */
export const CurvesView = lazy(() => import('./components/curves-view'));
export { CasesFields } from './components/cases-fields';
export { ConfidenceField, DEFAULT_CONFIDENCE_PCT } from './components/confidence-field';
