import { Figure } from '@/components';
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
  const items: [string, keyof typeof e][] = [
    ['Drives', 'drives'],
    ['Hot spares', 'spares'],
    ['Shelves', 'shelves'],
    ['Rack units', 'rackUnits'],
    ['Power', 'power'],
    ['List cost', 'cost'],
    ['Flash cache', 'flash'],
  ];
  return (
    <section aria-labelledby="bill-title" className="bill">
      <h3 id="bill-title">What to buy</h3>
      <dl className="stat-grid">
        {items.map(([label, key]) => (
          <div key={key} className="stat" data-testid={`bill-${key}`}>
            <dt>{label}</dt>
            <dd>
              <Figure label={label} figure={e[key]} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
