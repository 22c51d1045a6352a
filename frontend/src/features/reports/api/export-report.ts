import { buildUrl } from '@/lib/api-client';
import { env } from '@/config/env';

/** What a saved report exports as: the snapshot, one row per figure, the proposal or the BOM workbook. */
export type ExportFormat = 'json' | 'csv' | 'pdf' | 'xlsx';

/** `GET /api/v1/reports/{report_id}/export?format=json|csv|pdf|xlsx`: a download link (the browser fetches it). */
export function reportExportUrl(reportId: string, format: ExportFormat): string {
  return buildUrl(env.API_BASE_URL, '/api/v1/reports/{report_id}/export', { report_id: reportId }, { format });
}
