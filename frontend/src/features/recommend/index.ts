export { RecommendStatus } from './components/recommend-status';
export { getRecommendAvailability, RECOMMEND_PATH } from './api/get-recommend-availability';
