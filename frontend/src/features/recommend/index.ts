export { RecommendForm } from './components/recommend-form';
export { RecommendResults } from './components/recommend-results';
export { useRecommendation } from './api/recommend-configurations';
