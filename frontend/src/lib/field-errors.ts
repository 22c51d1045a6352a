/**
 * Per-field messages (the API's 422 `loc` paths, dotted: `workloads.0.phases.1.read_pct`) scoped
 * to a part of a form, so each component asks only for its own fields.
 *
 *   const errors = fieldErrors(apiError?.fieldErrors).scope('workloads.0');
 *   errors.at('capacity_tb')      // messages for workloads.0.capacity_tb
 *   errors.scope('phases.1')      // the errors of one phase
 *   errors.here()                 // messages about workloads.0 as a whole (model validators)
 */
export type FieldErrors = {
  /** Messages for exactly `path` (relative to the scope). */
  at: (path: string | number) => string[];
  /** The errors under `path`. */
  scope: (path: string | number) => FieldErrors;
  /** Messages about the scope itself. */
  here: () => string[];
  /** Every (relative path, messages) pair under the scope. */
  entries: () => [string, string[]][];
  readonly count: number;
};

export function fieldErrors(map: Record<string, string[]> | undefined | null, prefix = ''): FieldErrors {
  const all = map ?? {};
  const full = (path: string | number) => (prefix ? `${prefix}.${path}` : String(path));
  const inside = Object.entries(all).filter(([k]) => !prefix || k === prefix || k.startsWith(`${prefix}.`));
  return {
    at: (path) => all[full(path)] ?? [],
    scope: (path) => fieldErrors(all, full(path)),
    here: () => (prefix ? (all[prefix] ?? []) : (all[''] ?? [])),
    entries: () => inside.map(([k, v]) => [prefix ? k.slice(prefix.length + 1) : k, v]),
    count: inside.reduce((n, [, v]) => n + v.length, 0),
  };
}

export const noFieldErrors: FieldErrors = fieldErrors({});

/** Field names in the words of the forms' labels (the rest: underscores to spaces, units in brackets). */
const FIELD_WORDS: Record<string, string> = {
  read_pct: 'reads',
  random_pct: 'random',
  iops: 'IOPS',
  mb_per_s: 'throughput',
  capacity_tb: 'capacity today',
  growth_pct_per_year: 'growth',
  horizon_years: 'horizon',
  dedupe_ratio: 'deduplication ratio',
  compression_ratio: 'compression ratio',
  working_set_gb: 'working set',
  working_set_pct: 'working set share',
  zipf_alpha: 'Zipf alpha',
  io_pct: 'hot I/O',
  data_pct: 'goes to data',
  io_sizes: 'I/O sizes',
  io_size_kib: 'I/O size',
  block_kib: 'cache block',
  tiering_name: 'tiering product',
  tiering_chunk_mb: 'tiering chunk size',
  size_kib: 'size',
  pct: 'share',
  read_latency_target_ms: 'read latency target',
  write_overwrite_pct: 'overwrites absorbed in cache',
  array_id: 'array',
  drive_id: 'drive',
  controller_id: 'controllers',
  raid_scheme: 'RAID scheme',
  group_width: 'RAID group width',
  drive_count: 'drive count',
  flash_cache_gb: 'flash cache',
  flash_cache_options_gb: 'flash-cache options',
  port_option: 'front-end ports',
  controller_max_pct: 'controllers at most',
  failover_max_pct: 'after a failover at most',
  drive_max_pct: 'drives at most',
  port_max_pct: 'ports at most',
  capacity_max_fill_pct: 'capacity filled at most',
  peer_array_id: 'peer array',
};

const UNITS: [RegExp, string][] = [
  [/_pct$/, ' [%]'],
  [/_tb$/, ' [TB]'],
  [/_gb$/, ' [GB]'],
  [/_ms$/, ' [ms]'],
  [/_kib$/, ' [KiB]'],
  [/_mb_s$/, ' [MB/s]'],
  [/_w$/, ' [W]'],
  [/_usd$/, ' [USD]'],
];

/** A field name in words: `read_pct` -> `reads`, `seq_write_mb_s` -> `seq write [MB/s]`. */
export function fieldWords(name: string): string {
  const known = FIELD_WORDS[name];
  if (known) return known;
  for (const [pattern, unit] of UNITS) if (pattern.test(name)) return name.replace(pattern, '').replace(/_/g, ' ') + unit;
  return name.replace(/_/g, ' ');
}

/**
 * A field path in words: `workloads.0.phases.1.read_pct` -> `workload 1 › phase 2 › reads`
 * (with names when given: `workload "OLTP" › phase "online" › reads`).
 */
export function describePath(path: string, names: { workloads?: { name: string; phases: { name: string }[] }[] } = {}): string {
  if (!path) return 'the request';
  const parts = path.split('.');
  const out: string[] = [];
  let workload: { name: string; phases: { name: string }[] } | undefined;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    const next = parts[i + 1];
    const index = next !== undefined && /^\d+$/.test(next) ? Number(next) : null;
    if (part === 'workloads' && index !== null) {
      workload = names.workloads?.[index];
      out.push(workload ? `workload “${workload.name}”` : `workload ${index + 1}`);
      i += 1;
    } else if (part === 'phases' && index !== null) {
      const phase = workload?.phases[index];
      out.push(phase ? `phase “${phase.name}”` : `phase ${index + 1}`);
      i += 1;
    } else if (index !== null) {
      out.push(`${fieldWords(part)} ${index + 1}`);
      i += 1;
    } else if (part === 'configuration') {
      out.push('configuration');
    } else {
      out.push(fieldWords(part));
    }
  }
  return out.join(' › ');
}
