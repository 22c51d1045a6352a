/**
 * Explanations for figures the engine reports as plain numbers (the bill of materials, window
 * totals), built from the same inputs and formulas as the engine (`models/evaluate.py::_bill`),
 * so every number on screen can show its math.
 */
import { formatNumber, type FigureExplanation } from '@/components';
import type { BillOfMaterials, Packaging, WindowResult } from '@/lib/api-types';

const f = formatNumber;

export function explained(
  value: number | null,
  unit: string,
  formula: string,
  text: string,
  inputs: Record<string, number | string | null> = {},
  source?: string,
): FigureExplanation {
  return { value, unit, formula, text, inputs, source: source ?? null };
}

export type BillExplanations = Record<'drives' | 'spares' | 'shelves' | 'rackUnits' | 'power' | 'cost' | 'flash', FigureExplanation>;

/** `packaging` comes from the configuration (absent for a catalog reference evaluated as is). */
export function explainBill(bill: BillOfMaterials, packaging?: Packaging | null, sizingText?: string | null): BillExplanations {
  const total = bill.drives + bill.spares;
  const pk = packaging;
  return {
    drives: explained(
      bill.drives,
      'drives',
      'N = drives in RAID groups (data + parity), spares excluded',
      sizingText ?? `N = ${bill.drives} (the configuration's drive count)`,
      { drives: bill.drives },
    ),
    spares: explained(bill.spares, 'spares', 'spares = max(min spares, ceil(N / drives per spare)) per pool', `spares = ${bill.spares}`, {
      drives: bill.drives,
    }),
    shelves: pk
      ? explained(
          bill.shelves,
          'shelves',
          'shelves = ceil(max(0, N + spares - drives in controller enclosure) / drives per shelf)',
          `shelves = ceil(max(0, ${total} - ${pk.drives_in_controller_enclosure}) / ${pk.drives_per_shelf}) = ${bill.shelves}`,
          { drives: bill.drives, spares: bill.spares, in_controller: pk.drives_in_controller_enclosure, per_shelf: pk.drives_per_shelf },
        )
      : explained(bill.shelves, 'shelves', 'shelves = ceil((N + spares - in controller enclosure) / drives per shelf)', `shelves = ${bill.shelves}`),
    rackUnits: pk
      ? explained(
          bill.rack_units,
          'U',
          'RU = controller RU + shelves x shelf RU',
          `RU = ${f(pk.controller_rack_units)} + ${bill.shelves} x ${f(pk.shelf_rack_units)} = ${f(bill.rack_units)}`,
          { controller_ru: pk.controller_rack_units, shelves: bill.shelves, shelf_ru: pk.shelf_rack_units },
        )
      : explained(bill.rack_units, 'U', 'RU = controller RU + shelves x shelf RU', `RU = ${f(bill.rack_units)}`),
    power: explained(
      bill.power_w,
      'W',
      'P = controller W + shelves x shelf W + (N + spares) x drive W',
      bill.power_w === null
        ? 'unknown: the catalog has no power figure for a part'
        : pk
          ? `P = ${f(pk.controller_power_w)} + ${bill.shelves} x ${f(pk.shelf_power_w)} + ${total} drives = ${f(bill.power_w)} W`
          : `P = ${f(bill.power_w)} W`,
      pk ? { controller_w: pk.controller_power_w, shelves: bill.shelves, shelf_w: pk.shelf_power_w, drives: total } : { drives: total },
    ),
    cost: explained(
      bill.cost_usd,
      'USD',
      'cost = controllers + shelves x shelf price + flash GB x USD/GB + (N + spares) x drive price (list)',
      bill.cost_usd === null
        ? 'unknown: the catalog has no price for a part'
        : pk
          ? `cost = ${f(pk.controller_price_usd)} + ${bill.shelves} x ${f(pk.shelf_price_usd)} + ${f(bill.flash_cache_gb)} GB x ${f(pk.flash_cache_price_usd_per_gb)} + ${total} drives = ${f(bill.cost_usd)} USD`
          : `cost = ${f(bill.cost_usd)} USD`,
      pk
        ? { controllers_usd: pk.controller_price_usd, shelves: bill.shelves, shelf_usd: pk.shelf_price_usd, flash_gb: bill.flash_cache_gb, drives: total }
        : { drives: total },
      'list-price estimates from the catalog',
    ),
    flash: explained(bill.flash_cache_gb, 'GB', 'flash cache = configured flash read cache, whole system', `flash cache = ${f(bill.flash_cache_gb)} GB`),
  };
}

/** Front-end IOPS of a window: the sum of its phases. */
export function explainWindowIops(w: WindowResult): FigureExplanation {
  const parts = w.phases.map((p) => `${f(p.iops)} (${p.workload}/${p.phase})`);
  return explained(w.frontend_iops, 'IOPS', 'IOPS = sum of the phases running in the window', `IOPS = ${parts.join(' + ') || '0'} = ${f(w.frontend_iops)}`, Object.fromEntries(w.phases.map((p) => [`${p.workload}/${p.phase}`, p.iops])));
}

/** Front-end MB/s of a window. */
export function explainWindowMbs(w: WindowResult): FigureExplanation {
  const parts = w.phases.map((p) => f(p.mb_per_s));
  return explained(w.frontend_mb_s, 'MB/s', 'MB/s = sum over phases of IOPS x mean I/O size', `MB/s = ${parts.join(' + ') || '0'} = ${f(w.frontend_mb_s)}`, Object.fromEntries(w.phases.map((p) => [`${p.workload}/${p.phase}`, p.mb_per_s])));
}

/** The window's IOPS-weighted read latency. */
export function explainWindowLatency(w: WindowResult, kind: 'read' | 'write'): FigureExplanation {
  const value = kind === 'read' ? w.read_latency_ms : w.write_latency_ms;
  const per = w.phases.map((p) => [`${p.workload}/${p.phase}`, kind === 'read' ? p.read_latency_ms.value : p.write_latency_ms.value] as const);
  return explained(
    value,
    'ms',
    `R_${kind} = sum(phase ${kind}s x phase R_${kind}) / sum(phase ${kind}s)`,
    value === null ? `R_${kind} is unbounded: a resource is saturated` : `R_${kind} = IOPS-weighted mean of ${per.map(([n, v]) => `${f(v)} ms (${n})`).join(', ')} = ${f(value)} ms`,
    Object.fromEntries(per),
  );
}
