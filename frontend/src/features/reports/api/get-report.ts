import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ReportSnapshot } from '@/lib/api-types';

/** `GET /api/v1/reports/{report_id}`: the immutable snapshot exactly as saved. */
export function getReport(reportId: string, { signal }: { signal?: AbortSignal } = {}): Promise<ReportSnapshot> {
  return api.get('/api/v1/reports/{report_id}', { path: { report_id: reportId }, signal }) as Promise<ReportSnapshot>;
}

export const getReportQueryOptions = (reportId: string) =>
  queryOptions({
    queryKey: ['reports', reportId] as const,
    queryFn: ({ signal }) => getReport(reportId, { signal }),
    staleTime: Infinity,
  });

export function useReport(reportId: string) {
  return useQuery(getReportQueryOptions(reportId));
}
