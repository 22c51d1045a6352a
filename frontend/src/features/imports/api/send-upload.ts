import { ApiError, buildUrl, parseApiError } from '@/lib/api-client';
import { env } from '@/config/env';

export type UploadProgress = { loaded: number; total: number };

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
 * options as query parameters (nulls left out). Sent with XMLHttpRequest for its upload progress
 * (fetch has none), so a large workbook shows how far it got. Errors are an {@link ApiError} (422
 * with `loc` `body.file` naming the sheet, row and column, or `query.<option>`).
 */
export function sendUpload<T>({ path, file, query, onProgress, signal }: SendUploadInput): Promise<T> {
  const params = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== null && v !== undefined));
  const url = buildUrl(env.API_BASE_URL, path, undefined, params as Record<string, string>);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('X-Filename', encodeURIComponent(file.name ?? 'upload'));
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
    });
    xhr.addEventListener('load', () => {
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        // not JSON: keep the text
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(parseApiError(xhr.status, body, xhr.statusText));
    });
    xhr.addEventListener('error', () => reject(new ApiError('Could not reach the API. Is the server running?', { status: 0 })));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    if (signal) {
      if (signal.aborted) return xhr.abort();
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(file);
  });
}
