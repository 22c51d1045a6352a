/**
 * What-if adjustments applied to a baseline (workloads + configuration), as pure functions so the
 * panel only keeps slider positions. Every adjustment at its neutral value returns the baseline.
 */
import {
  isFullConfiguration,
  type ConfigurationInput,
  type FlashCacheOption,
  type Phase,
  type Workload,
} from '@/lib/api-types';

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

const clampPct = (x: number) => Math.min(100, Math.max(0, x));

function scalePhase(p: Phase, w: WhatIf): Phase {
  let out = p;
  if (w.iopsScale !== 1) {
    out = { ...out, iops: out.iops * w.iopsScale, mb_per_s: out.mb_per_s != null ? out.mb_per_s * w.iopsScale : out.mb_per_s };
  }
  if (w.writeShiftPp !== 0) out = { ...out, read_pct: clampPct(out.read_pct - w.writeShiftPp) };
  if (w.workingSetScale !== 1 && out.working_set_gb != null) out = { ...out, working_set_gb: out.working_set_gb * w.workingSetScale };
  return out;
}

export function applyToWorkloads(workloads: Workload[], w: WhatIf): Workload[] {
  return workloads.map((wl) => {
    const capacityGb = wl.capacity_tb * 1000;
    let next: Workload = { ...wl, phases: wl.phases.map((p) => scalePhase(p, w)) };
    if (w.growthPctPerYear !== null) next = { ...next, growth_pct_per_year: w.growthPctPerYear };
    if (w.workingSetScale !== 1) {
      if (wl.working_set_gb != null) next = { ...next, working_set_gb: Math.min(wl.working_set_gb * w.workingSetScale, capacityGb) };
      else if (wl.working_set_pct != null) next = { ...next, working_set_pct: Math.min(100, wl.working_set_pct * w.workingSetScale) };
      else if (w.workingSetScale < 1) next = { ...next, working_set_pct: 100 * w.workingSetScale };
    }
    return next;
  });
}

export function applyToConfiguration(c: ConfigurationInput, w: WhatIf, flashOptions: FlashCacheOption[] = []): ConfigurationInput {
  if (!isFullConfiguration(c)) {
    return { ...c, drive_count: w.driveCount || c.drive_count, flash_cache_gb: w.flashCacheGb };
  }
  const pools = c.pools.map((p, i) => (i === 0 && w.driveCount ? { ...p, drive_count: w.driveCount } : p));
  const cache = c.cache ?? { flash_cache_gb: 0, flash_kind: 'flash-cache', flash_hit_ms: 1, dedupe_aware: false, exclusive: true, cache_sequential: false, dram_dedupe_aware: false };
  if (w.flashCacheGb === cache.flash_cache_gb) return { ...c, pools };
  const option = flashOptions.find((f) => f.sizes_gb.includes(w.flashCacheGb)) ?? flashOptions[0];
  return {
    ...c,
    pools,
    cache: option
      ? { ...cache, flash_cache_gb: w.flashCacheGb, flash_kind: option.kind, flash_hit_ms: option.hit_ms, dedupe_aware: option.dedupe_aware, exclusive: option.exclusive }
      : { ...cache, flash_cache_gb: w.flashCacheGb },
    packaging:
      option && c.packaging
        ? { ...c.packaging, flash_cache_price_usd_per_gb: option.price_usd_per_gb || c.packaging.flash_cache_price_usd_per_gb }
        : c.packaging,
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
