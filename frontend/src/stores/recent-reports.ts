/**
 * Reports this browser saved or opened, newest first (at most {@link MAX_RECENT}), kept in
 * localStorage: a "Recent reports" list that needs no account. Pages record and read it.
 */
import { createStore, useStore } from './create-store';

export type RecentReport = { id: string; name: string; kind: string; at: string };

export const MAX_RECENT = 20;

function revive(raw: unknown): RecentReport[] | null {
  if (!Array.isArray(raw)) return null;
  return raw
    .filter((r): r is RecentReport => typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.name === 'string')
    .slice(0, MAX_RECENT);
}

export const recentReportsStore = createStore<RecentReport[]>([], { key: 'sizer.recent-reports.v1', revive });

export function useRecentReports(): RecentReport[] {
  return useStore(recentReportsStore, (s) => s);
}

export const recentReports = {
  /** `report` first in the list (once), the oldest dropped past {@link MAX_RECENT}. */
  remember(report: Omit<RecentReport, 'at'>, at = new Date().toISOString()) {
    recentReportsStore.set((list) => [{ ...report, at }, ...list.filter((r) => r.id !== report.id)].slice(0, MAX_RECENT));
  },
  forget(id: string) {
    recentReportsStore.set((list) => list.filter((r) => r.id !== id));
  },
  clear() {
    recentReportsStore.set([]);
  },
};
