export { getHealth, getHealthQueryOptions, useHealth, type Health } from './api/get-health';
export { HealthStatus } from './components/health-status';
