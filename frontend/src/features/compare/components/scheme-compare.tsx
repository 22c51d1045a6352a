import { useState } from 'react';

import { SelectField } from '@/components';
import type { RaidSchemeRecord } from '@/lib/api-types';

type SchemeCompareProps = {
  /** Every RAID scheme the engine models (GET /catalog/raid-schemes). */
  schemes: RaidSchemeRecord[];
  /** The current configuration's scheme. */
  current: string;
  onCompare: (schemes: string[], sizeEach: boolean) => void;
  pending?: boolean;
  disabled?: boolean;
};

function defaultOther(current: string): string {
  return current === 'raid10' ? 'raid-dp' : 'raid10';
}

/** One click: the current workload on the current configuration in two RAID schemes. */
export function SchemeCompare({ schemes, current, onCompare, pending, disabled }: SchemeCompareProps) {
  const [a, setA] = useState(current || 'raid-dp');
  const [b, setB] = useState(defaultOther(current));
  const [sizeEach, setSizeEach] = useState(true);
  const options = schemes.map((s) => ({ value: s.scheme, label: s.name }));
  const name = (s: string) => schemes.find((x) => x.scheme === s)?.name.split(' (')[0] ?? s;
  const quickA = current || 'raid-dp';
  const quickB = defaultOther(quickA);

  return (
    <div className="scheme-compare">
      <p>
        <button type="button" className="primary" disabled={disabled || pending} onClick={() => onCompare([quickA, quickB], sizeEach)}>
          Compare {name(quickA)} with {name(quickB)}
        </button>
      </p>
      <details>
        <summary>Any two schemes</summary>
        <div className="grid grid-3">
          <SelectField label="First scheme" value={a} onChange={setA} options={options} />
          <SelectField label="Second scheme" value={b} onChange={setB} options={options} errors={a === b ? ['Choose two different schemes'] : []} />
          <div className="row-actions align-end">
            <button type="button" disabled={disabled || pending || a === b} onClick={() => onCompare([a, b], sizeEach)}>
              Compare {name(a)} vs {name(b)}
            </button>
          </div>
        </div>
      </details>
      <label className="checkbox">
        <input type="checkbox" checked={sizeEach} onChange={(e) => setSizeEach(e.target.checked)} /> Size each scheme (find the drives
        each needs); unchecked: the same drive count for both
      </label>
    </div>
  );
}
