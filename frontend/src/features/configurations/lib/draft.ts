import type { ArrayModel, CatalogReference, Configuration, HeadroomTargets, RaidOption, RaidScheme } from '@/lib/api-types';
import { defaultHeadroom, emptyDraft, type ConfigDraft } from '@/stores/workflow';

export function raidOption(array: ArrayModel, scheme: string): RaidOption | undefined {
  return array.raid.find((r) => r.scheme === scheme);
}

/** Per RAID scheme an array offers, the group widths it builds (from the catalog: `group_widths`). */
export type GroupWidths = Partial<Record<RaidScheme, number[]>>;

/** The group widths the array builds for a RAID option, as the server lists them. */
export function allowedWidths(option: RaidOption, groupWidths: GroupWidths): number[] {
  return groupWidths[option.scheme] ?? [option.default_width];
}

/** Every flash-cache size the array sells (GB, whole system), smallest first. */
export function flashCacheSizes(array: ArrayModel): number[] {
  const sizes = new Set<number>();
  for (const f of array.flash_cache ?? []) for (const s of f.sizes_gb) sizes.add(s);
  return [...sizes].sort((a, b) => a - b);
}

/** The builder's choices for a newly chosen array: its defaults. */
export function draftForArray(array: ArrayModel, previous: ConfigDraft): ConfigDraft {
  return {
    ...previous,
    vendor: array.vendor,
    arrayId: array.id,
    driveId: array.default_drive ?? array.drives?.[0] ?? '',
    raidScheme: array.default_raid,
    groupWidth: null,
    flashCacheGb: 0,
    cacheOptionsGb: [],
    portOption: '',
    controllerId: '',
    nodes: null,
    driveCount: previous.driveCount === null ? null : array.default_drive_count,
  };
}

function sameHeadroom(a: HeadroomTargets, b: HeadroomTargets): boolean {
  return (
    (a.controller_max_pct ?? null) === (b.controller_max_pct ?? null) &&
    a.failover_max_pct === b.failover_max_pct &&
    a.drive_max_pct === b.drive_max_pct &&
    a.port_max_pct === b.port_max_pct &&
    a.capacity_max_fill_pct === b.capacity_max_fill_pct
  );
}

/** The builder's headroom targets, or null when they are the defaults. */
export function customHeadroom(draft: ConfigDraft): HeadroomTargets | null {
  return sameHeadroom(draft.headroom, defaultHeadroom) ? null : draft.headroom;
}

/**
 * The builder's choices for a configuration as the server resolved it (e.g. a saved report's):
 * array, drive, RAID scheme and width, flash cache, headroom targets; `size` opens the drive count.
 * Port options are not named in a full configuration: the array's default is chosen.
 */
export function draftFromConfiguration(c: Configuration, size: boolean): ConfigDraft {
  const pool = c.pools[0];
  return {
    ...emptyDraft,
    vendor: c.vendor ?? '',
    arrayId: c.array_id ?? '',
    driveId: pool?.drive.id ?? '',
    raidScheme: pool?.raid.scheme ?? '',
    groupWidth: pool?.raid.group_width ?? null,
    flashCacheGb: c.cache?.flash_cache_gb ?? 0,
    headroom: { ...defaultHeadroom, ...(c.headroom ?? {}) },
    driveCount: size ? null : (pool?.drive_count ?? null),
  };
}

/** The catalog reference the API resolves (drive_count null = size it; headroom null = the defaults). */
export function draftToReference(draft: ConfigDraft): CatalogReference {
  return {
    array_id: draft.arrayId,
    drive_id: draft.driveId || null,
    raid_scheme: (draft.raidScheme || null) as CatalogReference['raid_scheme'],
    group_width: draft.groupWidth,
    drive_count: draft.driveCount,
    flash_cache_gb: draft.flashCacheGb,
    port_option: draft.portOption || null,
    headroom: customHeadroom(draft),
    hypothetical: false,
    ...(draft.controllerId ? { controller_id: draft.controllerId } : {}),
    ...(draft.nodes !== null ? { nodes: draft.nodes } : {}),
    ...(draft.driveFractionUsed != null ? { drive_fraction_used: draft.driveFractionUsed } : {}),
    ...(draft.plannedFillPct != null ? { planned_fill_pct: draft.plannedFillPct } : {}),
    ...(draft.prefetchKib != null ? { prefetch_kib: draft.prefetchKib } : {}),
  };
}
