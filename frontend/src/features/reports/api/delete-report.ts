import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `DELETE /api/v1/reports/{report_id}` with the owner token from the save. */
export function deleteReport({ reportId, ownerToken }: { reportId: string; ownerToken: string }): Promise<void> {
  return api
    .delete('/api/v1/reports/{report_id}', { path: { report_id: reportId }, headers: { 'X-Owner-Token': ownerToken } })
    .then(() => undefined);
}

export function useDeleteReport() {
  return useMutation({ mutationFn: deleteReport });
}
