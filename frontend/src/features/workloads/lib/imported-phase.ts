import type { ImportedPhase, Phase } from '@/lib/api-types';

/**
 * A phase from an imported one, placed in `window` (the client side of `ImportedPhase.to_phase`):
 * its IOPS when it has them, else its MB/s; the mix, read and random shares as imported.
 */
export function toPhase(imported: ImportedPhase, window: string): Phase {
  const byIops = (imported.iops ?? 0) > 0;
  const sizes = imported.io_sizes;
  const single = sizes.length === 1 && sizes[0]!.pct === 100;
  return {
    name: imported.name.slice(0, 80),
    window,
    iops: byIops ? imported.iops : 0,
    mb_per_s: byIops ? null : (imported.mb_per_s ?? null),
    read_pct: imported.read_pct,
    random_pct: imported.random_pct,
    io_sizes: single ? [] : sizes,
    io_size_kib: single ? sizes[0]!.size_kib : null,
    read_latency_target_ms: null,
    working_set_gb: imported.working_set_gb ?? null,
    write_overwrite_pct: 0,
  };
}
