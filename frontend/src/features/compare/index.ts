import { lazy } from 'react';

export { CompareTable } from './components/compare-table';
export { SchemeCompare, type SchemeChoice } from './components/scheme-compare';
export { useCompare, type CompareRequest } from './api/compare-configurations';
export { bestOf, comparisonRows } from './lib/rows';
export { columnLabels, shortNames } from './lib/short-names';

/** Overlaid curves of a comparison, loaded on demand (Recharts). */
export const CompareCurves = lazy(() => import('./components/compare-curves'));
