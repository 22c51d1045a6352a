import type { HostStatsImport } from '@/lib/api-types';

import { sendUpload, type UploadProgress } from './send-upload';

/** `POST /api/v1/import/host-stats`: iostat, sar, perfmon or esxtop (format detected) into workloads, for the timeline. */
export function importHostStatsFile(input: {
  file: Blob & { name?: string };
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}): Promise<HostStatsImport> {
  return sendUpload<HostStatsImport>({ path: '/api/v1/import/host-stats', ...input });
}
