import { Fragment } from 'react';

import { CalibrationNote, Figure, formatNumber } from '@/components';
import type { CompareResult } from '@/lib/api-types';

import { bestOf, comparisonRows, type Cell, type Row } from '../lib/rows';
import { columnLabels } from '../lib/short-names';

function CellValue({ cell, row, column }: { cell: Cell; row: Row; column: string }) {
  if (typeof cell.value === 'boolean') {
    return <span className={cell.value ? 'badge badge-ok' : 'badge badge-fail'}>{cell.value ? 'Meets' : 'Fails'}</span>;
  }
  if (typeof cell.value === 'string') return <>{cell.value}</>;
  if (cell.value === null) return <>{cell.missing ?? (row.unit === 'ms' || row.unit === '%' ? 'saturated' : 'unknown')}</>;
  if (cell.figure) return <Figure label={`${row.label}${row.group ? ` (${row.group})` : ''}, ${column}`} figure={cell.figure} />;
  return (
    <>
      {formatNumber(cell.value)}
      {row.unit ? <span className="unit"> {row.unit}</span> : null}
    </>
  );
}

/** Configurations side by side; the best value of each row is highlighted. */
export function CompareTable({ result }: { result: CompareResult }) {
  const rows = comparisonRows(result);
  const names = result.comparison.columns.map((c) => c.headline.configuration);
  const short = columnLabels(result.items.map((i) => i.configuration_words));
  const groups = [...new Set(rows.map((r) => r.group ?? ''))];
  const notes = result.items.map((i) => i.note).filter((n): n is string => !!n);
  return (
    <>
    {notes.map((n) => (
      <p key={n} className="notice" data-testid="compare-note">
        {n}
      </p>
    ))}
    <p className="muted">
      {names.length} configurations side by side; differences in brackets are against the first.{' '}
      {result.comparison.best_rule ?? 'The best value in each row is highlighted.'}
    </p>
    <div className="table-scroll">
      <table className="data-table compare-table">
        <caption className="visually-hidden">Configurations side by side</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            {result.items.map((item, i) => (
              <th scope="col" key={i}>
                {short[i]}
                {short[i] !== names[i] ? <span className="col-note">{names[i]}</span> : null}
                {item.sizing ? (
                  <span className="col-note">
                    sized: {item.sizing.drive_count} drives{item.sizing.feasible ? '' : ' (infeasible)'}
                  </span>
                ) : null}
                {/* the note in full is above the table: the head says where, not the whole list again */}
                {item.note ? <span className="col-note col-note-peer">see the note above the table</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <Fragment key={group || 'overall'}>
              {group ? (
                <tr className="group-row">
                  <th scope="colgroup" colSpan={names.length + 1}>
                    Window: {group}
                  </th>
                </tr>
              ) : null}
              {rows
                .filter((r) => (r.group ?? '') === group)
                .map((row) => {
                  const best = new Set(bestOf(row, result.comparison.significance ?? []));
                  return (
                    <tr key={row.key} data-row={row.key}>
                      <th scope="row">{row.label}</th>
                      {row.cells.map((cell, i) => (
                        <td key={i} className={best.has(i) ? 'best' : undefined} data-best={best.has(i) ? 'true' : undefined}>
                          <CellValue cell={cell} row={row} column={short[i] ?? ''} />
                          {cell.delta ? <span className="delta-note"> ({cell.delta})</span> : null}
                          {best.has(i) ? <span className="visually-hidden"> (best)</span> : null}
                        </td>
                      ))}
                    </tr>
                  );
                })}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
    {result.items.map((item, i) => (
      <CalibrationNote key={i} result={item.result} title={`How calibrated ${short[i] ?? names[i] ?? 'this column'}'s figures are`} />
    ))}
    </>
  );
}
