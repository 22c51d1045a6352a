import type { operations } from '@/api/schema';
import type { LiveOpticsImport } from '@/lib/api-types';

import { sendUpload, type UploadProgress } from './send-upload';

type Query = NonNullable<operations['import-live_optics']['parameters']['query']>;
export type LiveOpticsQuery = { [K in keyof Query]?: Query[K] | null };

/** `POST /api/v1/import/live-optics`: a Live Optics workbook into workloads (phases per window, figures explained). */
export function importLiveOptics(input: {
  file: Blob & { name?: string };
  query?: LiveOpticsQuery;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}): Promise<LiveOpticsImport> {
  return sendUpload<LiveOpticsImport>({ path: '/api/v1/import/live-optics', ...input });
}
