import type { Workload } from '@/lib/api-types';

/** Whether any phase carries what a host observed (imported host statistics). */
export function hasObserved(workloads: readonly Workload[]): boolean {
  return workloads.some((w) => w.phases.some((p) => p.observed != null));
}
