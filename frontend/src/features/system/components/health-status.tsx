import { ErrorState, Loading } from '@/components';

import { useHealth } from '../api/get-health';

/** One line about the API: "API ok · engine 0.1.0 · catalog 2025-06", or why it is not ok. */
export function HealthStatus() {
  const health = useHealth();

  if (health.isPending) return <Loading label="Checking the API…" />;
  if (health.isError) {
    return (
      <ErrorState
        title="The API is not reachable"
        error={health.error}
        onRetry={() => void health.refetch()}
      />
    );
  }

  const { status, database, engine_version, catalog_version } = health.data;
  const ok = status === 'ok';
  return (
    <p className={ok ? 'health health-ok' : 'health health-degraded'} role="status">
      <span className="health-dot" aria-hidden="true" />
      API {status} · engine {engine_version} · catalog {catalog_version}
      {ok ? null : <> · database {database}</>}
    </p>
  );
}
