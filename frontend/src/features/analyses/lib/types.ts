import type { ReactNode } from 'react';

import type { ConfigurationInput, DegradedMode, Workload } from '@/lib/api-types';

/** What every analysis of the current workloads and configuration takes. */
export type AnalysisProps<Request = unknown> = {
  workloads: Workload[];
  configuration: ConfigurationInput;
  /** Evaluate in this mode (normal, a drive failed, rebuilding, a controller down). */
  degraded: DegradedMode;
  /** Save & share for the request behind the results shown (the page supplies it: features do not import each other). */
  renderSave?: (inputs: Request) => ReactNode;
};
