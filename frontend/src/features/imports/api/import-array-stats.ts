import type { operations } from '@/api/schema';
import type { ArrayStatsImport } from '@/lib/api-types';

import { sendUpload, type UploadProgress } from './send-upload';

type Query = NonNullable<operations['import-array_stats']['parameters']['query']>;
export type ArrayStatsQuery = { [K in keyof Query]?: Query[K] | null };

/** `POST /api/v1/import/array-stats`: ONTAP, PowerStore or generic CSV exports into workloads (format detected). */
export function importArrayStats(input: {
  file: Blob & { name?: string };
  query?: ArrayStatsQuery;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}): Promise<ArrayStatsImport> {
  return sendUpload<ArrayStatsImport>({ path: '/api/v1/import/array-stats', ...input });
}
