import { buildUrl } from '@/lib/api-client';
import { env } from '@/config/env';
import { postWithProgress, type UploadProgress } from '@/lib/upload';

export type { UploadProgress };

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type SendUploadInput = {
  /** API path, e.g. `/api/v1/import/rvtools`. */
  path: string;
  file: Blob & { name?: string };
  query?: Record<string, QueryValue>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * An upload route of `/api/v1/import`: the file as the raw body (its name in `X-Filename`), the
 * options as query parameters (nulls left out), with upload progress, so a large workbook shows
 * how far it got. Errors are an {@link ApiError} (422 with `loc` `body.file` naming the sheet,
 * row and column, or `query.<option>`).
 */
export function sendUpload<T>({ path, file, query, onProgress, signal }: SendUploadInput): Promise<T> {
  const params = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== null && v !== undefined));
  const url = buildUrl(env.API_BASE_URL, path, undefined, params as Record<string, string>);
  const headers = { 'Content-Type': 'application/octet-stream', 'X-Filename': encodeURIComponent(file.name ?? 'upload') };
  return postWithProgress<T>(url, file, { headers, onProgress, signal });
}
