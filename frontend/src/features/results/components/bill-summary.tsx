import { Figure, figureText, Stat, type FigureExplanation } from '@/components';
import type { BillOfMaterials, Packaging } from '@/lib/api-types';

type BillSummaryProps = {
  bill: BillOfMaterials;
  /** Unused: the engine's explanations carry the packaging figures (kept for callers). */
  packaging?: Packaging | null;
  /** The sizing's explanation of the drive count, when it was sized. */
  sizingText?: string | null;
};

type Item = { label: string; key: string; field: keyof BillOfMaterials & keyof typeof UNITS };

const UNITS = {
  drives: 'drives',
  spares: 'spares',
  shelves: 'shelves',
  rack_units: 'U',
  power_w: 'W',
  cost_usd: 'USD',
  flash_cache_gb: 'GB',
} as const;

const ITEMS: Item[] = [
  { label: 'Drives', key: 'drives', field: 'drives' },
  { label: 'Hot spares', key: 'spares', field: 'spares' },
  { label: 'Shelves', key: 'shelves', field: 'shelves' },
  { label: 'Rack units', key: 'rackUnits', field: 'rack_units' },
  { label: 'Power', key: 'power', field: 'power_w' },
  { label: 'List cost', key: 'cost', field: 'cost_usd' },
  { label: 'Flash cache', key: 'flash', field: 'flash_cache_gb' },
];

/**
 * Drives, spares, shelves, rack units, power, list cost and flash cache. Each figure the engine
 * explains (`bill.explain`: its formula and numbers) opens its math; the drive count of a sizing
 * says how it was found (the sizing's words). A figure the engine sends no explanation for (the
 * flash cache, an input; reports saved before the bill was explained) is shown as a number.
 */
export function BillSummary({ bill, sizingText }: BillSummaryProps) {
  const engine = bill.explain ?? {};
  const shown = (field: Item['field']): FigureExplanation | null => {
    const e = engine[field];
    if (!e) return null;
    const value = bill[field] as number | null;
    return field === 'drives' && sizingText ? { ...e, value, text: sizingText } : { ...e, value };
  };
  return (
    <section aria-labelledby="bill-title" className="bill">
      <h3 id="bill-title">What to buy</h3>
      <dl className="stat-grid">
        {ITEMS.map(({ label, key, field }) => {
          const figure = shown(field);
          const value = bill[field] as number | null;
          return (
            <Stat key={key} label={label} testId={`bill-${key}`}>
              {figure ? (
                <Figure label={label} figure={figure} />
              ) : (
                <span className="figure-plain">{value === null ? 'unknown' : figureText({ value, unit: UNITS[field] })}</span>
              )}
            </Stat>
          );
        })}
      </dl>
    </section>
  );
}
