/**
 * The comparison table's rows: each a figure per configuration, which way is better, and the
 * best configuration(s) of the row (ties share it; unknown values never win).
 */
import type { CompareResult, Explained } from '@/lib/api-types';

export type Better = 'lower' | 'higher' | 'pass' | null;

export type Cell = {
  value: number | boolean | string | null;
  /** Shown as a Figure (opens its explanation) when present. */
  figure?: Explained;
  /** Difference from the first configuration, pre-formatted (null for the first). */
  delta?: string | null;
  /** What a null value means when it is not "saturated" (the configuration has no such part). */
  missing?: string;
};

export type Row = { key: string; label: string; unit: string; better: Better; cells: Cell[]; group?: string };

/** The engine's difference that matters in one unit (`Comparison.significance`). */
export type Significance = { unit: string; absolute: number; relative: number };

/** Whether two values differ by as much as matters in `unit` (the engine's rule, `models.compare.matters`). */
export function matters(unit: string, a: number, b: number, significance: Significance[] = []): boolean {
  const rule = significance.find((s) => s.unit === unit);
  const step = rule ? Math.max(rule.absolute, rule.relative * Math.max(Math.abs(a), Math.abs(b))) : 0;
  const gap = Math.abs(a - b);
  return gap >= step && gap > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Indexes of the best cells (empty when the row has no direction or fewer than 2 known values): the
 * values within the difference that matters of the best one (`significance`, the engine's rule),
 * and none where every value is.
 */
export function bestOf(row: Row, significance: Significance[] = []): number[] {
  if (!row.better) return [];
  if (row.better === 'pass') {
    const passing = row.cells.map((c, i) => (c.value === true ? i : -1)).filter((i) => i >= 0);
    return passing.length && passing.length < row.cells.length ? passing : [];
  }
  const nums = row.cells.map((c) => (typeof c.value === 'number' && Number.isFinite(c.value) ? c.value : null));
  const known = nums.filter((n): n is number => n !== null);
  if (known.length < 2) return [];
  const target = row.better === 'lower' ? Math.min(...known) : Math.max(...known);
  const best = nums.map((n, i) => (n !== null && !matters(row.unit, n, target, significance) ? i : -1)).filter((i) => i >= 0);
  return best.length === known.length ? [] : best;
}

function signed(d: number | null | undefined, unit: string, digits = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 1 })): string | null {
  if (d === null || d === undefined || d === 0) return null;
  return `${d > 0 ? '+' : '−'}${digits(Math.abs(d))}${unit}`;
}

type OptionalRow = { key: string; label: string; unit: string; better: Better; cell: (i: number) => Cell };

/** Rows of resources only some configurations have (parity drives, a back-end bus, a cluster
 * network, rated flash): shown where any column has the figure. */
function optionalRows(window: string, columns: number, rows: OptionalRow[]): Row[] {
  const out: Row[] = [];
  for (const r of rows) {
    const cells = Array.from({ length: columns }, (_, i) => r.cell(i));
    if (cells.some((c) => c.value !== null)) {
      out.push({ key: `${window}:${r.key}`, group: window, label: r.label, unit: r.unit, better: r.better, cells });
    }
  }
  return out;
}

export function comparisonRows(result: CompareResult): Row[] {
  const cols = result.comparison.columns;
  const items = result.items;
  const rows: Row[] = [
    { key: 'passed', label: 'Meets every target', unit: '', better: 'pass', cells: cols.map((c) => ({ value: c.headline.passed })) },
    {
      key: 'drives_total',
      label: 'Drives to buy (incl. spares)',
      unit: '',
      better: 'lower',
      cells: cols.map((c, i) => ({ value: c.headline.drives_total, delta: i ? signed(c.delta.drives_total, '') : null })),
    },
    { key: 'drives', label: 'Drives in RAID groups', unit: '', better: 'lower', cells: cols.map((c) => ({ value: c.headline.drives })) },
    {
      key: 'usable_tb',
      label: 'Usable capacity',
      unit: 'TB',
      better: 'higher',
      cells: cols.map((c, i) => {
        const pools = items[i]?.result.capacity.pools ?? [];
        return { value: c.headline.usable_tb, figure: pools.length === 1 ? pools[0]!.usable_tb : undefined, delta: i ? signed(c.delta.usable_tb, ' TB') : null };
      }),
    },
    {
      key: 'cost_usd',
      label: 'List cost',
      unit: 'USD',
      better: 'lower',
      cells: cols.map((c, i) => ({ value: c.headline.cost_usd, delta: i ? signed(c.delta.cost_usd, ' USD', (x) => Math.round(x).toLocaleString('en-US')) : null })),
    },
    {
      key: 'failures_tolerated',
      label: 'Drive failures tolerated (per group)',
      unit: '',
      better: 'higher',
      cells: cols.map((c) => ({ value: c.headline.failures_tolerated ?? null })),
    },
    // reports saved before the engine named the bottleneck in words carry its name only
    { key: 'bottleneck', label: 'Bottleneck', unit: '', better: null, cells: cols.map((c) => ({ value: c.headline.bottleneck_words })) },
  ];
  const windows = cols[0]?.headline.windows.map((w) => w.window) ?? [];
  for (const name of windows) {
    const win = (i: number) => cols[i]?.headline.windows.find((w) => w.window === name);
    const res = (i: number) => items[i]?.result.windows.find((w) => w.window === name);
    const dwin = (i: number) => cols[i]?.delta.windows.find((w) => w.window === name);
    rows.push(
      { key: `${name}:passed`, group: name, label: 'Meets its targets', unit: '', better: 'pass', cells: cols.map((_, i) => ({ value: win(i)?.passed ?? null })) },
      {
        key: `${name}:read`,
        group: name,
        label: 'Read latency',
        unit: 'ms',
        better: 'lower',
        cells: cols.map((_, i) => ({ value: win(i)?.read_latency_ms ?? null, delta: i ? signed(dwin(i)?.read_latency_ms, ' ms', (x) => x.toPrecision(2)) : null })),
      },
      {
        key: `${name}:read_p95`,
        group: name,
        label: 'Read latency p95',
        unit: 'ms',
        better: 'lower',
        cells: cols.map((_, i) => ({ value: res(i)?.read_p95_latency_ms ?? null })),
      },
      {
        key: `${name}:read_p99`,
        group: name,
        label: 'Read latency p99',
        unit: 'ms',
        better: 'lower',
        cells: cols.map((_, i) => ({ value: res(i)?.read_p99_latency_ms ?? null })),
      },
      {
        key: `${name}:read_cold`,
        group: name,
        label: 'Read latency, cold cache',
        unit: 'ms',
        better: 'lower',
        // a window whose cold case equals the warm one has none: its warm latency stands
        cells: cols.map((_, i) => {
          const w = res(i);
          return { value: w ? (w.cold_cache ? w.cold_cache.read_latency_ms : w.read_latency_ms) : null };
        }),
      },
      {
        key: `${name}:write`,
        group: name,
        label: 'Write latency',
        unit: 'ms',
        better: 'lower',
        cells: cols.map((_, i) => ({ value: win(i)?.write_latency_ms ?? null, delta: i ? signed(dwin(i)?.write_latency_ms, ' ms', (x) => x.toPrecision(2)) : null })),
      },
      {
        key: `${name}:controllers`,
        group: name,
        label: 'Controllers busy',
        unit: '%',
        better: 'lower',
        cells: cols.map((_, i) => ({ value: win(i)?.controller_busy_pct ?? null, figure: res(i)?.controller_utilization_pct, delta: i ? signed(dwin(i)?.controller_busy_pct, ' pp') : null })),
      },
      {
        key: `${name}:drives`,
        group: name,
        label: 'Drives busy (busiest pool)',
        unit: '%',
        better: 'lower',
        cells: cols.map((_, i) => {
          const pools = res(i)?.pools ?? [];
          const busiest = [...pools].sort((a, b) => (b.drive_utilization_pct.value ?? Infinity) - (a.drive_utilization_pct.value ?? Infinity))[0];
          return { value: win(i)?.drive_busy_pct ?? null, figure: busiest?.drive_utilization_pct, delta: i ? signed(dwin(i)?.drive_busy_pct, ' pp') : null };
        }),
      },
      ...optionalRows(name, cols.length, [
        {
          key: 'parity',
          label: 'Parity drives busy (busiest pool)',
          unit: '%',
          better: 'lower',
          cell: (i) => {
            const pools = (res(i)?.pools ?? []).filter((p) => p.parity_utilization_pct);
            const busiest = [...pools].sort((a, b) => (b.parity_utilization_pct!.value ?? Infinity) - (a.parity_utilization_pct!.value ?? Infinity))[0];
            return {
              value: win(i)?.parity_busy_pct ?? null,
              figure: busiest?.parity_utilization_pct ?? undefined,
              delta: i ? signed(dwin(i)?.parity_busy_pct, ' pp') : null,
              missing: pools.length ? undefined : 'none (no parity drives)',
            };
          },
        },
        {
          key: 'bus',
          label: 'Back-end bus busy',
          unit: '%',
          better: 'lower',
          cell: (i) => ({
            value: win(i)?.backend_bus_busy_pct ?? null,
            figure: res(i)?.backend_bus_utilization_pct ?? undefined,
            missing: res(i)?.backend_bus_utilization_pct ? undefined : 'not stated',
          }),
        },
        {
          key: 'network',
          label: 'Cluster network busy',
          unit: '%',
          better: 'lower',
          cell: (i) => ({
            value: win(i)?.cluster_network_busy_pct ?? null,
            figure: res(i)?.cluster_network_utilization_pct ?? undefined,
            missing: res(i)?.cluster_network_utilization_pct ? undefined : 'none (not scale-out)',
          }),
        },
        {
          key: 'wear',
          label: 'Flash wear (years to wear out)',
          unit: 'years',
          better: 'higher',
          cell: (i) => ({ value: win(i)?.years_to_wear_out ?? null, missing: 'no endurance rating' }),
        },
      ]),
      {
        key: `${name}:backend`,
        group: name,
        label: 'Back-end IOPS',
        unit: 'IOPS',
        better: 'lower',
        cells: cols.map((_, i) => {
          const pools = res(i)?.pools ?? [];
          const total = pools.reduce((sum, p) => sum + (p.backend_iops.value ?? 0), 0);
          return { value: pools.length ? total : null, figure: pools.length === 1 ? pools[0]!.backend_iops : undefined };
        }),
      },
      {
        key: `${name}:penalty`,
        group: name,
        label: 'Write penalty (first pool)',
        unit: 'per write',
        better: 'lower',
        cells: cols.map((_, i) => {
          const figure = res(i)?.pools[0]?.write_penalty ?? undefined;
          return { value: figure?.value ?? null, figure };
        }),
      },
      {
        key: `${name}:per_drive`,
        group: name,
        label: 'IOPS per drive (first pool)',
        unit: 'IOPS',
        better: 'lower',
        cells: cols.map((_, i) => {
          const figure = res(i)?.pools[0]?.per_drive_iops ?? undefined;
          return { value: figure?.value ?? null, figure };
        }),
      },
    );
  }
  return rows;
}
