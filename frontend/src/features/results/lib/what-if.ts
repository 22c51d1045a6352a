/**
 * The what-if panel's slider positions against a baseline configuration. The adjustments
 * themselves are the engine's (`adjust` on /evaluate and /curves): this file only keeps and names
 * the positions.
 */
import { isFullConfiguration, type Adjustments, type ConfigurationInput } from '@/lib/api-types';

export type WhatIf = {
  /** Growth [%/year] for every workload; null = as entered. */
  growthPctPerYear: number | null;
  /** Flash cache [GB, whole system]. */
  flashCacheGb: number;
  /** Drives of the first pool (excluding spares). */
  driveCount: number;
  /** Change of every phase's write share [percentage points]. */
  writeShiftPp: number;
  /** Multiplier of every working set. */
  workingSetScale: number;
  /** Multiplier of every phase's IOPS and MB/s. */
  iopsScale: number;
};

export function drivesOf(c: ConfigurationInput): number | null {
  return isFullConfiguration(c) ? (c.pools[0]?.drive_count ?? null) : (c.drive_count ?? null);
}

export function flashOf(c: ConfigurationInput): number {
  return isFullConfiguration(c) ? (c.cache?.flash_cache_gb ?? 0) : (c.flash_cache_gb ?? 0);
}

export function neutralWhatIf(configuration: ConfigurationInput): WhatIf {
  return {
    growthPctPerYear: null,
    flashCacheGb: flashOf(configuration),
    driveCount: drivesOf(configuration) ?? 0,
    writeShiftPp: 0,
    workingSetScale: 1,
    iopsScale: 1,
  };
}

/**
 * The slider positions as the engine's what-if dials (`adjust` of /evaluate and /curves): the
 * engine applies them (models/adjust.py), so the what-if moves exactly what the analyses move.
 * Only the dials away from the baseline are sent.
 */
export function toAdjustments(w: WhatIf, base: WhatIf): Adjustments {
  return {
    growth_pct_per_year: w.growthPctPerYear,
    flash_cache_gb: w.flashCacheGb === base.flashCacheGb ? null : w.flashCacheGb,
    drive_count: w.driveCount === base.driveCount || !w.driveCount ? null : w.driveCount,
    write_shift_pp: w.writeShiftPp,
    working_set_scale: w.workingSetScale,
    iops_scale: w.iopsScale,
  };
}

export function isNeutral(w: WhatIf, base: WhatIf): boolean {
  return (
    w.growthPctPerYear === base.growthPctPerYear &&
    w.flashCacheGb === base.flashCacheGb &&
    w.driveCount === base.driveCount &&
    w.writeShiftPp === 0 &&
    w.workingSetScale === 1 &&
    w.iopsScale === 1
  );
}

/** A short text naming the slider positions: which what-if a drawing answers (`data-drawn-for`). */
export function whatIfKey(w: WhatIf): string {
  return [w.growthPctPerYear ?? '-', w.flashCacheGb, w.driveCount, w.writeShiftPp, w.workingSetScale, w.iopsScale].join('|');
}
