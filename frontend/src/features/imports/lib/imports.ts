import type {
  ArrayStatsImport,
  CapacitySource,
  HostStatsImport,
  LiveOpticsImport,
  LoadSeries,
  RVToolsImport,
  TimelineRequest,
} from '@/lib/api-types';

export type ImportKind = 'live-optics' | 'rvtools' | 'array-stats' | 'host-stats';

export const KIND_NAMES: Record<ImportKind, string> = {
  'live-optics': 'Live Optics workbook',
  rvtools: 'RVTools workbook',
  'array-stats': 'Array statistics (ONTAP, PowerStore, CSV)',
  'host-stats': 'Host statistics (iostat, sar, perfmon, esxtop)',
};

export type ImportResult =
  | { kind: 'live-optics'; data: LiveOpticsImport }
  | { kind: 'rvtools'; data: RVToolsImport }
  | { kind: 'array-stats'; data: ArrayStatsImport }
  | { kind: 'host-stats'; data: HostStatsImport };

export type ImportItem = {
  id: number;
  file: File;
  kind: ImportKind;
  status: 'uploading' | 'reading' | 'done' | 'failed';
  /** Share of the file sent, 0..1. */
  progress: number;
  result: ImportResult | null;
  error: string | null;
  /** The time zone of the file's clock, as the user states it (used when the file does not state one). */
  timeZone: string;
  include: boolean;
};

/** What a file most likely is, from its name: RVTools exports are named so, other workbooks are Live Optics. */
export function guessKind(name: string): ImportKind {
  const n = name.toLowerCase();
  if (n.includes('rvtools')) return 'rvtools';
  if (/\.xlsx?(\.gz)?$/.test(n)) return 'live-optics';
  if (/(ontap|qos|statistics|powerstore|array|unisphere|generic)/.test(n)) return 'array-stats';
  return 'host-stats';
}

/** The series an import carries for the timeline (RVTools has none). */
export function seriesOf(result: ImportResult | null): LoadSeries | null {
  if (!result || result.kind === 'rvtools') return null;
  return result.data.series ?? null;
}

/** The timeline request of the included imports: a layer per series (the zone stated unless the file
 * states it), RVTools groups as capacity. Null when no import has a series. */
export function timelineRequest(items: ImportItem[]): TimelineRequest | null {
  const included = items.filter((i) => i.include && i.status === 'done');
  const layers = included.flatMap((i) => {
    const series = seriesOf(i.result);
    return series ? [{ series, time_zone: series.zone ? null : i.timeZone.trim() || null }] : [];
  });
  if (!layers.length) return null;
  const capacity: CapacitySource[] = included.flatMap((i) => (i.result?.kind === 'rvtools' ? i.result.data.capacity_sources : []));
  return { layers, capacity };
}

/** The browser's time zone, the default for files that do not state theirs. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
