import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ReportDiff } from '@/lib/api-types';

/** `GET /api/v1/reports/{report_id}/diff/{other_id}`: every headline figure of two reports, before and after. */
export function diffReports(before: string, after: string, { signal }: { signal?: AbortSignal } = {}): Promise<ReportDiff> {
  return api.get('/api/v1/reports/{report_id}/diff/{other_id}', { path: { report_id: before, other_id: after }, signal });
}

export const diffReportsQueryOptions = (before: string, after: string) =>
  queryOptions({
    queryKey: ['reports', 'diff', before, after] as const,
    queryFn: ({ signal }) => diffReports(before, after, { signal }),
    staleTime: Infinity,
  });

/** The diff of two saved reports (both immutable, so it never goes stale); idle until both ids are given. */
export function useReportDiff(before: string, after: string) {
  return useQuery({ ...diffReportsQueryOptions(before, after), enabled: before !== '' && after !== '' });
}
