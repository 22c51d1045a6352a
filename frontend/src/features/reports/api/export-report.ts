import { buildUrl } from '@/lib/api-client';
import { env } from '@/config/env';

/** `GET /api/v1/reports/{report_id}/export?format=json|csv`: a download link (the browser fetches it). */
export function reportExportUrl(reportId: string, format: 'json' | 'csv'): string {
  return buildUrl(env.API_BASE_URL, '/api/v1/reports/{report_id}/export', { report_id: reportId }, { format });
}
