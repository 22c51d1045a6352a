/** Small pure helpers over the generated Workload / Phase types for the editor. */
import type { IoSize, Phase, Replication, Skew, Workload } from '@/lib/api-types';

const UNIFORM: Skew = { zipf_alpha: null, io_pct: null, data_pct: null };
const NO_REPLICATION: Replication = { mode: 'none', io_amplification: 1, capacity_amplification: 1, sync_latency_ms: 0 };

/** The I/O-size mix as table rows: the mix, or the single-size shorthand as one 100% row. */
export function ioRows(phase: Phase): IoSize[] {
  if (phase.io_sizes && phase.io_sizes.length) return phase.io_sizes;
  // an emptied size (NaN) keeps its row: the cell shows empty and the checks flag it
  if (phase.io_size_kib !== null && phase.io_size_kib !== undefined && phase.io_size_kib !== 0) {
    return [{ size_kib: phase.io_size_kib, pct: 100 }];
  }
  return [];
}

/** Store table rows back: one 100% row stays the single-size shorthand, anything else is a mix. */
export function withIoRows(phase: Phase, rows: IoSize[]): Phase {
  if (rows.length === 1 && rows[0]!.pct === 100) return { ...phase, io_sizes: [], io_size_kib: rows[0]!.size_kib };
  return { ...phase, io_sizes: rows, io_size_kib: null };
}

/** Sum of the mix [%]. */
export function mixTotal(rows: readonly IoSize[]): number {
  return rows.reduce((s, r) => s + (Number.isFinite(r.pct) ? r.pct : 0), 0);
}

/** I/O-weighted mean size [KiB] (null when the mix does not sum to anything). */
export function meanSizeKib(rows: readonly IoSize[]): number | null {
  const total = mixTotal(rows);
  if (total <= 0) return null;
  return rows.reduce((s, r) => s + r.size_kib * r.pct, 0) / total;
}

/** Whether the mix sums to 100 (the engine's tolerance: 0.01). */
export function mixSumsTo100(rows: readonly IoSize[]): boolean {
  return Math.abs(mixTotal(rows) - 100) <= 0.01;
}

/** Window names in first-seen order. */
export function windowsOf(workloads: readonly Workload[]): string[] {
  const seen = new Set<string>();
  for (const w of workloads) for (const p of w.phases) seen.add(p.window);
  return [...seen];
}

/** `base`, or `base 2`, `base 3`... so that it is not in `taken`. */
export function uniqueName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i += 1) {
    const name = `${base} ${i}`;
    if (!taken.includes(name)) return name;
  }
}

export function blankPhase(window: string, name = 'phase'): Phase {
  return {
    name,
    window,
    iops: 5000,
    mb_per_s: null,
    read_pct: 70,
    random_pct: 100,
    io_sizes: [],
    io_size_kib: 8,
    read_latency_target_ms: null,
    working_set_gb: null,
    write_overwrite_pct: 0,
  };
}

export function blankWorkload(name = 'Workload'): Workload {
  return {
    name,
    capacity_tb: 10,
    growth_pct_per_year: 0,
    horizon_years: 0,
    dedupe_ratio: 1,
    compression_ratio: 1,
    working_set_gb: null,
    working_set_pct: null,
    skew: UNIFORM,
    replication: NO_REPLICATION,
    snapshot_reserve_pct: 0,
    snapshot_change_pct_per_day: 0,
    snapshot_retention_days: 0,
    pool: null,
    phases: [blankPhase('business hours', 'main')],
  };
}

/** Fill the defaults the API would fill, so edited objects are complete (templates may omit some). */
export function normalizeWorkload(w: Workload): Workload {
  const blank = blankWorkload(w.name);
  return {
    ...blank,
    ...w,
    skew: { ...UNIFORM, ...(w.skew ?? UNIFORM) },
    replication: { ...NO_REPLICATION, ...(w.replication ?? NO_REPLICATION) },
    phases: w.phases.map((p) => ({ ...blankPhase(p.window, p.name), io_size_kib: null, ...p })),
  };
}
