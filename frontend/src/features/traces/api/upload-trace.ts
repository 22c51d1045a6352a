import { useMutation } from '@tanstack/react-query';

import type { operations } from '@/api/schema';
import { buildUrl } from '@/lib/api-client';
import type { TraceJobCreated } from '@/lib/api-types';
import { env } from '@/config/env';
import { postWithProgress, type UploadProgress } from '@/lib/upload';

import { traceOwnerTokens } from '../lib/owner-tokens';

type Query = NonNullable<operations['traces-create']['parameters']['query']>;

/** The analysis options of `POST /api/v1/traces` (query parameters); an option the form leaves
 * out is null, and is not sent (the API takes an absent parameter, never a null one). */
export type TraceUploadOptions = { [K in keyof Query]?: Query[K] | null };

export type { UploadProgress };

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
 * `TraceRejection` (with samples of the bad lines). The job's owner token (needed to cancel or
 * delete it) is kept in this browser.
 */
export async function uploadTrace({ file, options, onProgress, signal }: UploadTraceInput): Promise<TraceJobCreated> {
  const url = buildUrl(env.API_BASE_URL, '/api/v1/traces', undefined, options);
  const form = new FormData();
  form.append('file', file, file.name ?? 'trace');
  const created = await postWithProgress<TraceJobCreated>(url, form, { onProgress, signal });
  traceOwnerTokens.remember(created.id, created.owner_token);
  return created;
}

/** Upload a trace; resolves with the job to follow. */
export function useUploadTrace() {
  return useMutation({ mutationFn: uploadTrace });
}
