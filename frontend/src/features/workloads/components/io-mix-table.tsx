import { useId } from 'react';

import { formatNumber } from '@/components';
import type { IoSize } from '@/lib/api-types';

import { meanSizeKib, mixSumsTo100, mixTotal } from '../lib/workload-model';

type IoMixTableProps = {
  /** Accessible name prefix, e.g. the phase name. */
  label: string;
  rows: IoSize[];
  onChange: (rows: IoSize[]) => void;
  /** Messages for the mix as a whole (e.g. the API's "must sum to 100"). */
  errors?: readonly string[];
  /** Messages per row and column: `rowErrors(i, 'pct')`. */
  rowErrors?: (index: number, field: 'size_kib' | 'pct') => string[];
};

const NEXT_SIZE = [4, 8, 16, 32, 64, 128, 256, 512, 1024];

/**
 * The I/O-size mix as an editable table (size [KiB], share of I/Os [%]) with a bar per row, the
 * running total (which must be 100) and the I/O-weighted mean size.
 */
export function IoMixTable({ label, rows, onChange, errors = [], rowErrors }: IoMixTableProps) {
  const id = useId();
  const total = mixTotal(rows);
  const ok = mixSumsTo100(rows);
  const mean = meanSizeKib(rows);
  const maxPct = Math.max(100, ...rows.map((r) => r.pct));

  function update(index: number, patch: Partial<IoSize>) {
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  }
  function add() {
    const used = new Set(rows.map((r) => r.size_kib));
    const size = NEXT_SIZE.find((s) => !used.has(s)) ?? (rows.at(-1)?.size_kib ?? 4) * 2;
    onChange([...rows, { size_kib: size, pct: Math.max(0, Math.round((100 - total) * 100) / 100) }]);
  }

  return (
    <div className="io-mix">
      <table className="io-mix-table">
        <caption>I/O sizes of {label}</caption>
        <thead>
          <tr>
            <th scope="col">Size [KiB]</th>
            <th scope="col">Share of I/Os [%]</th>
            <th scope="col" className="io-mix-bar-col">
              <span className="visually-hidden">Bar</span>
            </th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const sizeErrors = rowErrors?.(i, 'size_kib') ?? [];
            const pctErrors = rowErrors?.(i, 'pct') ?? [];
            return (
              <tr key={i}>
                <td>
                  <input
                    type="number"
                    inputMode="decimal"
                    min={0}
                    step="any"
                    aria-label={`Size of row ${i + 1} [KiB]`}
                    aria-invalid={sizeErrors.length ? true : undefined}
                    aria-describedby={sizeErrors.length ? `${id}-r${i}-size` : undefined}
                    value={Number.isFinite(row.size_kib) ? row.size_kib : ''}
                    onChange={(e) => update(i, { size_kib: e.target.value === '' ? NaN : Number(e.target.value) })}
                  />
                  {sizeErrors.length ? (
                    <span className="field-error" id={`${id}-r${i}-size`}>
                      {sizeErrors.join(' ')}
                    </span>
                  ) : null}
                </td>
                <td>
                  <input
                    type="number"
                    inputMode="decimal"
                    min={0}
                    max={100}
                    step="any"
                    aria-label={`Share of row ${i + 1} [%]`}
                    aria-invalid={pctErrors.length ? true : undefined}
                    aria-describedby={pctErrors.length ? `${id}-r${i}-pct` : undefined}
                    value={Number.isFinite(row.pct) ? row.pct : ''}
                    onChange={(e) => update(i, { pct: e.target.value === '' ? NaN : Number(e.target.value) })}
                  />
                  {pctErrors.length ? (
                    <span className="field-error" id={`${id}-r${i}-pct`}>
                      {pctErrors.join(' ')}
                    </span>
                  ) : null}
                </td>
                <td className="io-mix-bar-col" aria-hidden="true">
                  <span className="io-mix-bar" style={{ width: `${(Math.max(0, row.pct || 0) / maxPct) * 100}%` }} />
                </td>
                <td>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove ${Number.isFinite(row.size_kib) ? row.size_kib : ''} KiB row`}
                    onClick={() => onChange(rows.filter((_, j) => j !== i))}
                    disabled={rows.length <= 1}
                  >
                    ×
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className={ok ? 'io-mix-total' : 'io-mix-total io-mix-total-bad'}>
              <output aria-live="polite" data-testid="io-mix-total">
                {formatNumber(total)}%
              </output>
            </td>
            <td colSpan={2} className="io-mix-mean">
              {mean !== null ? <>mean {formatNumber(mean)} KiB</> : null}
            </td>
          </tr>
        </tfoot>
      </table>
      {!ok ? (
        <p className="field-error" role="status">
          The shares add up to {formatNumber(total)}%: they must add up to 100%.
        </p>
      ) : null}
      {errors.length ? <p className="field-error">{errors.join(' ')}</p> : null}
      <button type="button" onClick={add} disabled={rows.length >= 64}>
        Add a size
      </button>
    </div>
  );
}
