import type { RatioFlip, Tco } from '@/lib/api-types';

import { Figure, formatNumber } from '../figure/figure';
import { Stat } from '../stat/stat';

type TcoPanelProps = {
  tco: Tco;
  /** Among several configurations: which costs least at each ratio, and whether that flips. */
  flip?: RatioFlip | null;
  /** Heading level 3 by default (inside a results section). */
  title?: string;
};

function money(x: number | null | undefined, currency: string): string {
  return x === null || x === undefined ? 'unknown' : `${formatNumber(x)} ${currency}`;
}

/** The money of one configuration over its years: capital, yearly costs, TCO and the three-ratio table. */
export function TcoPanel({ tco, flip, title }: TcoPanelProps) {
  const cur = tco.currency;
  return (
    <section className="card tco-panel" aria-label={title ?? `Money over ${tco.years} years`} data-testid="tco-panel">
      <h3>{title ?? `Money over ${tco.years} years (${cur})`}</h3>
      <dl className="stat-grid">
        <Stat label="Capital">
          <Figure label="Capital cost" figure={tco.capital} />
        </Stat>
        <Stat label="Support a year">
          <Figure label="Support a year" figure={tco.support_per_year} />
        </Stat>
        <Stat label="Energy a year">
          <Figure label="Energy a year" figure={tco.energy_per_year} />
        </Stat>
        <Stat label="Rack space a year">
          <Figure label="Rack space a year" figure={tco.rack_space_per_year} />
        </Stat>
        <Stat label={`TCO, ${tco.years} years`} testId="tco-total">
          <Figure label={`TCO over ${tco.years} years`} figure={tco.total} />
        </Stat>
      </dl>
      <div className="table-scroll">
        <table className="data-table ratio-table" data-testid="ratio-table">
          <caption>
            Cost at three data-reduction ratios (busiest window {tco.busiest_window}, {formatNumber(tco.busiest_iops)} IOPS)
          </caption>
          <thead>
            <tr>
              <th scope="col">Reduction</th>
              <th scope="col">Drives</th>
              <th scope="col">Effective TB</th>
              <th scope="col">TCO</th>
              <th scope="col">Per effective TB</th>
              <th scope="col">Per 1,000 IOPS</th>
            </tr>
          </thead>
          <tbody>
            {tco.ratios.map((c) => (
              <tr key={c.case} data-case={c.case} className={c.holds ? undefined : 'row-fail'}>
                <th scope="row">
                  {c.label}
                  <span className="col-note" title={c.ratio_source}>
                    {c.note ?? (c.holds ? 'holds the data' : 'does not hold the data')}
                  </span>
                </th>
                <td>
                  {formatNumber(c.drives)}
                  {c.drives_added ? <span className="muted"> (+{formatNumber(c.drives_added)})</span> : null}
                </td>
                <td>
                  <Figure label={`Effective TB, ${c.label}`} figure={c.effective_tb} />
                </td>
                <td>
                  <Figure label={`TCO, ${c.label}`} figure={c.tco} />
                </td>
                <td>
                  <Figure label={`Per effective TB, ${c.label}`} figure={c.cost_per_effective_tb} />
                </td>
                <td>
                  <Figure label={`Per 1,000 IOPS, ${c.label}`} figure={c.cost_per_1000_iops} />
                </td>
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
      <details className="options">
        <summary>Bill of materials, priced ({tco.lines.length} lines)</summary>
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Qty</th>
                <th scope="col">List (USD)</th>
                <th scope="col">Discount</th>
                <th scope="col">Net ({cur})</th>
                <th scope="col">Support a year</th>
                <th scope="col">Power</th>
                <th scope="col">U</th>
              </tr>
            </thead>
            <tbody>
              {tco.lines.map((l, i) => (
                <tr key={`${l.kind}-${i}`}>
                  <th scope="row">{l.description}</th>
                  <td>
                    {formatNumber(l.quantity)} {l.unit}
                  </td>
                  <td>{l.included ? 'included' : money(l.list_usd, 'USD')}</td>
                  <td>{l.included ? '' : `${formatNumber(l.discount_pct)} %`}</td>
                  <td>{money(l.net, cur)}</td>
                  <td>{money(l.support_per_year, cur)}</td>
                  <td>{l.power_w === null ? 'unknown' : `${formatNumber(l.power_w)} W`}</td>
                  <td>{formatNumber(l.rack_units)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <details className="options">
        <summary>Year by year</summary>
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Year</th>
                <th scope="col">Capital</th>
                <th scope="col">Support</th>
                <th scope="col">Energy</th>
                <th scope="col">Rack space</th>
                <th scope="col">Cumulative TCO</th>
              </tr>
            </thead>
            <tbody>
              {tco.by_year.map((y) => (
                <tr key={y.year}>
                  <th scope="row">{y.year}</th>
                  <td>{money(y.capital, cur)}</td>
                  <td>{money(y.support, cur)}</td>
                  <td>{money(y.energy, cur)}</td>
                  <td>{money(y.rack_space, cur)}</td>
                  <td>{money(y.total, cur)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      {tco.notes.length ? (
        <ul className="notes">
          {tco.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
