import { Figure, Stat } from '@/components';
import type { BillOfMaterials, Packaging } from '@/lib/api-types';

import { explainBill } from '../lib/explain';

type BillSummaryProps = {
  bill: BillOfMaterials;
  packaging?: Packaging | null;
  /** The sizing's explanation of the drive count, when it was sized. */
  sizingText?: string | null;
};

/** Drives, spares, shelves, rack units, power, list cost and flash cache; each opens its math. */
export function BillSummary({ bill, packaging, sizingText }: BillSummaryProps) {
  const e = explainBill(bill, packaging, sizingText);
  // the engine's own formula and inputs when the API sends them (the sizing's words for the drive count)
  const engine = bill.explain ?? {};
  const items: [string, keyof typeof e, keyof BillOfMaterials][] = [
    ['Drives', 'drives', 'drives'],
    ['Hot spares', 'spares', 'spares'],
    ['Shelves', 'shelves', 'shelves'],
    ['Rack units', 'rackUnits', 'rack_units'],
    ['Power', 'power', 'power_w'],
    ['List cost', 'cost', 'cost_usd'],
    ['Flash cache', 'flash', 'flash_cache_gb'],
  ];
  const figure = (key: keyof typeof e, field: keyof BillOfMaterials) =>
    (key === 'drives' && sizingText) || !engine[field] ? e[key] : { ...engine[field], value: e[key].value };
  return (
    <section aria-labelledby="bill-title" className="bill">
      <h3 id="bill-title">What to buy</h3>
      <dl className="stat-grid">
        {items.map(([label, key, field]) => (
          <Stat key={key} label={label} testId={`bill-${key}`}>
            <Figure label={label} figure={figure(key, field)} />
          </Stat>
        ))}
      </dl>
    </section>
  );
}
