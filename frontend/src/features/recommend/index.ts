import { lazy } from 'react';

export { RecommendForm } from './components/recommend-form';
export { RecommendResults } from './components/recommend-results';
export { useRecommendation } from './api/recommend-configurations';

/** Cost vs read latency of the recommended configurations (a scatter chart), loaded on demand. */
export const ParetoChart = lazy(() => import('./components/pareto-chart'));
