import { useMutation } from '@tanstack/react-query';

import type { operations } from '@/api/schema';
import { env } from '@/config/env';
import { ApiError, buildUrl, parseApiError } from '@/lib/api-client';
import type { HostStatsImport } from '@/lib/api-types';

type Query = NonNullable<operations['import-host_stats_any']['parameters']['query']>;

/** The options of `POST /api/v1/import/host-stats` (query parameters); an option the form leaves
 * out is null, and is not sent (the API takes an absent parameter, never a null one). */
export type HostStatsQuery = { [K in keyof Query]?: Query[K] | null };

export type ImportHostStatsInput = {
  file: Blob & { name?: string };
  query: HostStatsQuery;
  signal?: AbortSignal;
};

/**
 * `POST /api/v1/import/host-stats`: the file as the raw body (its name in `X-Filename`), the
 * format detected on the server, the options as query parameters; answers the workloads, windows
 * and per-device summaries. Errors are an {@link ApiError} (422 with `loc` `body.file` naming the
 * line and column, or `query.<option>`).
 */
export async function importHostStats({ file, query, signal }: ImportHostStatsInput): Promise<HostStatsImport> {
  const url = buildUrl(env.API_BASE_URL, '/api/v1/import/host-stats', undefined, query);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      body: file,
      signal,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/octet-stream',
        'X-Filename': encodeURIComponent(file.name ?? 'host-stats'),
      },
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError('Could not reach the API. Is the server running?', { status: 0, detail: err });
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    // not JSON: keep the text
  }
  if (!res.ok) throw parseApiError(res.status, body, res.statusText);
  return body as HostStatsImport;
}

/** Import host statistics; each call re-reads the file with the options given. */
export function useImportHostStats() {
  return useMutation({ mutationFn: importHostStats });
}
