import { useState } from 'react';

import { SelectField } from '@/components';
import type { CompareSchemes, RaidScheme, RaidSchemeRecord } from '@/lib/api-types';

/** What a scheme comparison asks the API: the schemes and what to do with one the array does not offer. */
export type SchemeChoice = { schemes: RaidScheme[]; sizeEach: boolean; unsupported: CompareSchemes['unsupported'] };

type SchemeCompareProps = {
  /** Every RAID scheme the engine models (GET /catalog/raid-schemes). */
  schemes: RaidSchemeRecord[];
  /** The engine's words beside a scheme the array does not offer (the list's `hypothetical_label`). */
  hypotheticalLabel: string;
  /** The schemes the configuration's array offers (every scheme when unknown). */
  offered: RaidScheme[];
  /** The array's model, for the words ("the FAS3270 does not offer RAID 10"). */
  arrayModel: string;
  /** The current configuration's scheme. */
  current: string;
  onCompare: (choice: SchemeChoice) => void;
  pending?: boolean;
  disabled?: boolean;
};

function defaultOther(current: string): RaidScheme {
  return current === 'raid10' ? 'raid-dp' : 'raid10';
}

/**
 * One click: the current workload on the current configuration in two RAID schemes. A scheme the
 * array does not offer is compared with the same drives in an array that offers it (the one-click
 * button, which says so), or as a labelled hypothetical on the same array (the free choice).
 */
export function SchemeCompare({ schemes, hypotheticalLabel, offered, arrayModel, current, onCompare, pending, disabled }: SchemeCompareProps) {
  const quickA = (current || 'raid-dp') as RaidScheme;
  const quickB = defaultOther(quickA);
  const [a, setA] = useState<RaidScheme>(quickA);
  const [b, setB] = useState<RaidScheme>(quickB);
  const [sizeEach, setSizeEach] = useState(true);
  const isOffered = (s: string) => offered.includes(s as RaidScheme);
  const name = (s: string) => schemes.find((x) => x.scheme === s)?.name.split(' (')[0] ?? s;
  const options = schemes.map((s) => ({ value: s.scheme, label: isOffered(s.scheme) ? s.name : `${s.name} · ${hypotheticalLabel}` }));
  const quickPeer = !isOffered(quickB);
  const hypothetical = !isOffered(a) || !isOffered(b);

  return (
    <div className="scheme-compare">
      <p>
        <button
          type="button"
          className="primary"
          disabled={disabled || pending}
          onClick={() => onCompare({ schemes: [quickA, quickB], sizeEach, unsupported: quickPeer ? 'peer' : 'reject' })}
        >
          Compare {name(quickA)} with {name(quickB)}
        </button>
      </p>
      {quickPeer ? (
        <p className="muted" data-testid="peer-note">
          The {arrayModel} does not offer {name(quickB)}: {name(quickB)} is computed with the same drives, flash cache, ports and
          headroom in the generic array, which does; the comparison lists every other difference at the top.
        </p>
      ) : null}
      <details>
        <summary>Any two schemes</summary>
        <div className="grid grid-3">
          <SelectField label="First scheme" value={a} onChange={(v) => setA(v as RaidScheme)} options={options} />
          <SelectField
            label="Second scheme"
            value={b}
            onChange={(v) => setB(v as RaidScheme)}
            options={options}
            errors={a === b ? ['Choose two different schemes'] : []}
          />
          <div className="row-actions align-end">
            <button
              type="button"
              disabled={disabled || pending || a === b}
              onClick={() => onCompare({ schemes: [a, b], sizeEach, unsupported: hypothetical ? 'hypothetical' : 'reject' })}
            >
              Compare {name(a)} vs {name(b)}
            </button>
          </div>
        </div>
        {hypothetical ? (
          <p className="notice">
            The {arrayModel} does not offer {[a, b].filter((s) => !isOffered(s)).map(name).join(' or ')}: it is computed as a
            hypothetical, and labelled so wherever it appears.
          </p>
        ) : null}
      </details>
      <label className="checkbox">
        <input type="checkbox" checked={sizeEach} onChange={(e) => setSizeEach(e.target.checked)} /> Size each scheme (find the drives
        each needs); unchecked: the same drive count for both
      </label>
    </div>
  );
}
