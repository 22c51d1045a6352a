/** Formatting and error helpers of the trace screens. */
import { formatNumber } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { TraceRejection } from '@/lib/api-types';

/** Bytes in decimal units: 163,584 -> "164 KB". */
export function bytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${formatNumber(v)} ${units[u]}`;
}

/** GB with a sensible unit for small figures: 0.0263 GB -> "26.3 MB". */
export function gigabytes(gb: number): string {
  return bytes(gb * 1e9);
}

/** A duration in seconds in words: 479 -> "8.0 min", 86,400 -> "24.0 h". */
export function duration(s: number): string {
  if (s < 120) return `${formatNumber(s)} s`;
  if (s < 7200) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** The API's reason for refusing an upload (400), with its samples of bad lines, if `error` is one. */
export function rejectionOf(error: unknown): TraceRejection | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body;
  if (typeof body !== 'object' || body === null || typeof (body as { detail?: unknown }).detail !== 'string') return null;
  const r = body as TraceRejection;
  return { ...r, bad_lines: Array.isArray(r.bad_lines) ? r.bad_lines : [] };
}
