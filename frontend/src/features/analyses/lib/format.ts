/** Plain-words formatting of what-if answers. */
import { formatNumber } from '@/components';
import type { DegradedMode } from '@/lib/api-types';

/** A value with its unit; `saturated` for null (an unbounded figure). */
export function show(v: number | null | undefined, unit = '', nullText = 'saturated'): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return nullText;
  return unit ? `${formatNumber(v)}${unit === '%' || unit === 'x' ? '' : ' '}${unit}` : formatNumber(v);
}

/** A change with its sign: +12.6 / −7.5 (a minus sign, not a hyphen). */
export function signed(v: number | null | undefined, unit = ''): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'saturates';
  const sign = v > 0 ? '+' : v < 0 ? '−' : '±';
  return `${sign}${formatNumber(Math.abs(v))}${unit ? ` ${unit}` : ''}`;
}

export const MODE_LABELS: Record<DegradedMode, string> = {
  none: 'Normal operation',
  'drive-failed': 'A drive failed',
  rebuilding: 'Rebuilding',
  'controller-failed': 'A controller (node) down',
};

export const MODE_OPTIONS = (Object.keys(MODE_LABELS) as DegradedMode[]).map((m) => ({ value: m, label: MODE_LABELS[m] }));
