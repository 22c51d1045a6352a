/**
 * A tiny typed fetch wrapper around the generated OpenAPI types (`src/api/schema.d.ts`).
 *
 *   const health = await api.get('/api/v1/health');            // typed response body
 *   await api.post('/api/v1/things/{id}', { path: { id }, body }); // typed path params and body
 *
 * Paths, parameters, request and response bodies all come from `paths`, so a backend change shows
 * up as a type error after `npm run gen:api`. Failures throw an {@link ApiError} (`api-error.ts`)
 * parsed from FastAPI's `{ "detail": ... }` body, with per-field messages for 422 validation errors.
 *
 * Only `features/*\/api/*` files should import this module.
 */
import type { paths } from '@/api/schema';
import { env } from '@/config/env';

import { ApiError, parseApiError } from './api-error';

export { ApiError, fieldPath, parseApiError, type ValidationIssue } from './api-error';

// ---- Types derived from `paths` -------------------------------------------------------------------

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that define an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<M, { responses: unknown }> ? P : never;
}[keyof paths];

/** The operation object for a path and method. */
export type Operation<P extends keyof paths, M extends HttpMethod> = paths[P] extends Record<M, infer O>
  ? O
  : never;

type JsonContent<T> = T extends { content: { 'application/json': infer J } } ? J : undefined;
type SuccessStatus = 200 | 201 | 202 | 203 | 204;

/** The JSON body of a successful (2xx) response, `undefined` when it has none. */
export type ResponseBody<O> = O extends { responses: infer R }
  ? JsonContent<R[Extract<keyof R, SuccessStatus>]>
  : never;

/** The JSON response body for `M path`. */
export type ApiResponse<P extends keyof paths, M extends HttpMethod = 'get'> = ResponseBody<
  Operation<P, M>
>;

type ParamsOf<O, K extends 'path' | 'query'> = O extends { parameters: infer Ps }
  ? K extends keyof Ps
    ? Exclude<Ps[K], undefined>
    : never
  : never;

type BodyOf<O> = O extends { requestBody?: infer B }
  ? JsonContent<Exclude<B, undefined>> extends infer J
    ? [J] extends [undefined]
      ? never
      : J
    : never
  : never;

/** `{ key: T }`, optional when every field of T is optional, absent when T is never. */
type Field<Key extends string, T> = [T] extends [never]
  ? { [K in Key]?: never }
  : object extends T
    ? { [K in Key]?: T }
    : { [K in Key]: T };

export type RequestOptions<O> = Field<'path', ParamsOf<O, 'path'>> &
  Field<'query', ParamsOf<O, 'query'>> &
  Field<'body', BodyOf<O>> & {
    signal?: AbortSignal;
    headers?: Record<string, string>;
  };

/** Makes the options argument optional when nothing in it is required. */
type OptionsArg<O> = object extends RequestOptions<O> ? [options?: RequestOptions<O>] : [options: RequestOptions<O>];

// ---- The client -------------------------------------------------------------------------------------

export type ApiClientOptions = {
  /** Absolute base URL, or '' for the page's own origin. */
  baseUrl: string;
  /** Injected for tests; defaults to the global fetch at call time (so MSW can patch it). */
  fetch?: typeof fetch;
};

type Query = Record<string, unknown>;

export function buildUrl(
  baseUrl: string,
  template: string,
  pathParams?: Record<string, unknown>,
  query?: Query,
): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = pathParams?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
  const origin = baseUrl || (typeof window !== 'undefined' ? window.location.origin : 'http://localhost');
  const url = new URL(origin.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
  }
  return url.href;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export function createApiClient({ baseUrl, fetch: fetchImpl }: ApiClientOptions) {
  async function request<M extends HttpMethod, P extends PathsWith<M>>(
    method: M,
    path: P,
    ...[options]: OptionsArg<Operation<P, M>>
  ): Promise<ApiResponse<P, M>> {
    const opts = (options ?? {}) as {
      path?: Record<string, unknown>;
      query?: Query;
      body?: unknown;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    };
    const url = buildUrl(baseUrl, path, opts.path, opts.query);
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    const init: RequestInit = { method: method.toUpperCase(), headers };
    if (opts.signal) init.signal = opts.signal;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(opts.body);
    }

    let res: Response;
    try {
      res = await (fetchImpl ?? globalThis.fetch)(url, init);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw new ApiError('Could not reach the API. Is the server running?', { status: 0, detail: err });
    }
    const body = await readBody(res);
    if (!res.ok) throw parseApiError(res.status, body, res.statusText);
    return body as ApiResponse<P, M>;
  }

  return {
    request,
    get: <P extends PathsWith<'get'>>(path: P, ...options: OptionsArg<Operation<P, 'get'>>) =>
      request('get', path, ...options),
    post: <P extends PathsWith<'post'>>(path: P, ...options: OptionsArg<Operation<P, 'post'>>) =>
      request('post', path, ...options),
    put: <P extends PathsWith<'put'>>(path: P, ...options: OptionsArg<Operation<P, 'put'>>) =>
      request('put', path, ...options),
    patch: <P extends PathsWith<'patch'>>(path: P, ...options: OptionsArg<Operation<P, 'patch'>>) =>
      request('patch', path, ...options),
    delete: <P extends PathsWith<'delete'>>(path: P, ...options: OptionsArg<Operation<P, 'delete'>>) =>
      request('delete', path, ...options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client, pointed at the configured API base URL. */
export const api: ApiClient = createApiClient({ baseUrl: env.API_BASE_URL });
