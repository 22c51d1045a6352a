export { ConsolidateForm, ExpandForm, QuoteForm, RefreshForm, ReplicationForm, type ArrayChoice, type DriveChoice } from './components/plan-forms';
export { ConsolidationView, ExpansionView, QuoteCheckView, RefreshView, ReplicationView } from './components/plan-results';
export { useConsolidation } from './api/consolidate-workloads';
export { useExpansion } from './api/expand-system';
export { useQuoteCheck } from './api/check-quote';
export { useRefresh } from './api/plan-refresh';
export { useReplicationPlan } from './api/plan-replication';
