import type { GroupBy, RVToolsImport } from '@/lib/api-types';

import { sendUpload, type UploadProgress } from './send-upload';

/** `POST /api/v1/import/rvtools`: an RVTools workbook into capacities per datastore, cluster, folder or host. */
export function importRVTools(input: {
  file: Blob & { name?: string };
  groupBy: GroupBy;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}): Promise<RVToolsImport> {
  const { groupBy, ...rest } = input;
  return sendUpload<RVToolsImport>({ path: '/api/v1/import/rvtools', query: { group_by: groupBy }, ...rest });
}
