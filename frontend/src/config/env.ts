/**
 * Environment, checked once at start-up (bulletproof-react `config/env.ts`).
 *
 * Variables come from Vite (`VITE_*` in `.env*` files or the shell at build time). A bad value
 * throws here, before anything renders, instead of failing later on the first request.
 *
 * - `VITE_API_BASE_URL`: where the API lives. Empty or unset means the same origin that served the
 *   UI (the backend serves `frontend/dist`, and the Vite dev server proxies `/api`). Otherwise an
 *   absolute `http(s)://` URL, no trailing slash needed.
 */

export type Env = {
  /** Absolute base URL of the API, or '' for the page's own origin. Never ends with '/'. */
  readonly API_BASE_URL: string;
};

export class EnvError extends Error {
  override name = 'EnvError';
}

export function parseEnv(raw: Record<string, unknown>): Env {
  const base = raw.VITE_API_BASE_URL;
  if (base === undefined || base === null || base === '') return { API_BASE_URL: '' };
  if (typeof base !== 'string') throw new EnvError('VITE_API_BASE_URL must be a string');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new EnvError(`VITE_API_BASE_URL must be an absolute http(s) URL, got "${base}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EnvError(`VITE_API_BASE_URL must use http or https, got "${url.protocol}"`);
  }
  if (url.search || url.hash) {
    throw new EnvError('VITE_API_BASE_URL must not contain a query string or fragment');
  }
  return { API_BASE_URL: url.href.replace(/\/+$/, '') };
}

/** Parse the build's environment; on failure say why on the page (not only in the console). */
function loadEnv(): Env {
  try {
    return parseEnv(import.meta.env as Record<string, unknown>);
  } catch (error) {
    const root = typeof document === 'undefined' ? null : document.getElementById('root');
    if (root) root.textContent = `Storage Sizer could not start: ${(error as Error).message}`;
    throw error;
  }
}

export const env: Env = loadEnv();
