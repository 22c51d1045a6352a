import { useMutation } from '@tanstack/react-query';

import type { operations } from '@/api/schema';
import { ApiError, buildUrl, parseApiError } from '@/lib/api-client';
import type { TraceJobCreated } from '@/lib/api-types';
import { env } from '@/config/env';

type Query = NonNullable<operations['traces-create']['parameters']['query']>;

/** The analysis options of `POST /api/v1/traces` (query parameters); an option the form leaves
 * out is null, and is not sent (the API takes an absent parameter, never a null one). */
export type TraceUploadOptions = { [K in keyof Query]?: Query[K] | null };

export type UploadProgress = { loaded: number; total: number };

export type UploadTraceInput = {
  file: Blob & { name?: string };
  options: TraceUploadOptions;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * `POST /api/v1/traces`: the trace as the multipart field `file`, the options as query
 * parameters; 202 with the job id. Sent with XMLHttpRequest for its upload progress (fetch has
 * none). A 400 (not a readable trace) is an {@link ApiError} whose `body` is the API's
 * `TraceRejection` (with samples of the bad lines).
 */
export function uploadTrace({ file, options, onProgress, signal }: UploadTraceInput): Promise<TraceJobCreated> {
  const url = buildUrl(env.API_BASE_URL, '/api/v1/traces', undefined, options);
  const form = new FormData();
  form.append('file', file, file.name ?? 'trace');
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
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
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as TraceJobCreated);
      else reject(parseApiError(xhr.status, body, xhr.statusText));
    });
    xhr.addEventListener('error', () => reject(new ApiError('Could not reach the API. Is the server running?', { status: 0 })));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    if (signal) {
      if (signal.aborted) return xhr.abort();
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

/** Upload a trace; resolves with the job to follow. */
export function useUploadTrace() {
  return useMutation({ mutationFn: uploadTrace });
}
