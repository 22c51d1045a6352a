import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ReportCreated } from '@/lib/api-types';

/** `POST /api/v1/reports/{report_id}/recompute`: a new report from the saved inputs on today's engine and catalog. */
export function recomputeReport(reportId: string): Promise<ReportCreated> {
  return api.post('/api/v1/reports/{report_id}/recompute', { path: { report_id: reportId } });
}

export function useRecomputeReport() {
  return useMutation({ mutationFn: recomputeReport });
}
