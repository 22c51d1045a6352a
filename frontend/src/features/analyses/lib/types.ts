import type { ConfigurationInput, DegradedMode, Workload } from '@/lib/api-types';

/** What every analysis of the current workloads and configuration takes. */
export type AnalysisProps = {
  workloads: Workload[];
  configuration: ConfigurationInput;
  /** Evaluate in this mode (normal, a drive failed, rebuilding, a controller down). */
  degraded: DegradedMode;
};
