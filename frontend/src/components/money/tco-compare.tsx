import type { RatioFlip, Tco } from '@/lib/api-types';

import { Figure } from '../figure/figure';

type TcoCompareProps = {
  /** Each configuration's money, in the order shown (a comparison's columns). */
  items: { label: string; tco: Tco }[];
  flip?: RatioFlip | null;
};

/** Several configurations' TCO side by side at the three reduction ratios, and the choice that flips. */
export function TcoCompare({ items, flip }: TcoCompareProps) {
  const first = items[0]?.tco;
  if (!first) return null;
  return (
    <section className="card tco-compare" aria-labelledby="tco-compare-title" data-testid="tco-compare">
      <h3 id="tco-compare-title">
        Money over {first.years} years ({first.currency}) at three data-reduction ratios
      </h3>
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              {items.map((i) => (
                <th scope="col" key={i.label}>
                  {i.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Capital</th>
              {items.map((i) => (
                <td key={i.label}>
                  <Figure label={`Capital, ${i.label}`} figure={i.tco.capital} />
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">TCO as sized</th>
              {items.map((i) => (
                <td key={i.label}>
                  <Figure label={`TCO, ${i.label}`} figure={i.tco.total} />
                </td>
              ))}
            </tr>
            {first.ratios.map((c, k) => (
              <tr key={c.case} data-case={c.case}>
                <th scope="row">TCO, {c.label}</th>
                {items.map((i) => {
                  const x = i.tco.ratios[k];
                  return (
                    <td key={i.label}>
                      {x ? <Figure label={`TCO, ${x.label}, ${i.label}`} figure={x.tco} /> : '—'}
                      {x?.drives_added ? <span className="col-note">+{x.drives_added} drives</span> : null}
                    </td>
                  );
                })}
              </tr>
            ))}
            {first.ratios.map((c, k) => (
              <tr key={`${c.case}-tb`}>
                <th scope="row">Per effective TB, {c.label}</th>
                {items.map((i) => {
                  const x = i.tco.ratios[k];
                  return <td key={i.label}>{x ? <Figure label={`Per effective TB, ${x.label}, ${i.label}`} figure={x.cost_per_effective_tb} /> : '—'}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {flip ? (
        <p className={flip.flips ? 'notice' : 'muted'} data-testid="ratio-flip">
          {flip.words}
        </p>
      ) : null}
    </section>
  );
}
