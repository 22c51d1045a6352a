/**
 * POST a file with upload progress: XMLHttpRequest, because fetch reports none. The answer is the
 * JSON body; a failure an {@link ApiError} parsed from FastAPI's `detail` (status 0 when the API
 * cannot be reached), an abort a DOMException named `AbortError`. For `features/*\/api/*` files.
 */
import { ApiError, parseApiError } from './api-error';

export type UploadProgress = { loaded: number; total: number };

export type PostWithProgressOptions = {
  headers?: Record<string, string>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

export function postWithProgress<T>(url: string, body: XMLHttpRequestBodyInit, { headers, onProgress, signal }: PostWithProgressOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [k, v] of Object.entries(headers ?? {})) xhr.setRequestHeader(k, v);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
    });
    xhr.addEventListener('load', () => {
      let parsed: unknown = xhr.responseText;
      try {
        parsed = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        // not JSON: keep the text
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
      else reject(parseApiError(xhr.status, parsed, xhr.statusText));
    });
    xhr.addEventListener('error', () => reject(new ApiError('Could not reach the API. Is the server running?', { status: 0 })));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    if (signal) {
      if (signal.aborted) return xhr.abort();
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(body);
  });
}
