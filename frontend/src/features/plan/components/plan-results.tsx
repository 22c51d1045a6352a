import { CalibrationNote, formatNumber } from '@/components';
import type { Consolidation, ExpansionResult, QuoteCheck, RefreshResult, ReplicationResult } from '@/lib/api-types';

const n = (x: number | null | undefined, digits = 3) => (x === null || x === undefined ? '—' : formatNumber(x, digits));

/** A figure with the engine's formula filled in, as the engine wrote it. */
function Formula({ text }: { text: string | undefined }) {
  return text ? <p className="formula">{text}</p> : null;
}

export function QuoteCheckView({ result }: { result: QuoteCheck }) {
  return (
    <section className="card plan-result" aria-label="Quote check">
      <h2>Second opinion: {result.verdict === 'under' ? 'under-provisioned' : result.verdict === 'over' ? 'over-provisioned' : 'fits'}</h2>
      <p data-testid="quote-verdict">{result.text}</p>
      <CalibrationNote result={result.evaluation} title="How calibrated the quoted system's figures are" />
      {result.labels.length ? (
        <ul className="labels" aria-label="Parts the catalog lacks">
          {result.labels.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}
      <table>
        <caption>Findings</caption>
        <thead>
          <tr>
            <th>Area</th>
            <th>Verdict</th>
            <th className="num">By</th>
            <th>Unit</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {result.findings.map((f) => (
            <tr key={f.area}>
              <td>{f.area}</td>
              <td>{f.verdict}</td>
              <td className="num">{n(f.amount)}</td>
              <td>{f.unit}</td>
              <td>{f.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{result.sizing.explanation}</p>
    </section>
  );
}

export function ConsolidationView({ result }: { result: Consolidation }) {
  return (
    <section className="card plan-result" aria-label="Consolidation">
      <h2>Placement</h2>
      <p data-testid="consolidation-summary">{result.text}</p>
      <table>
        <caption>Arrays and what each carries</caption>
        <thead>
          <tr>
            <th>Array</th>
            <th>Workloads</th>
            <th className="num">Drives</th>
            <th className="num">List USD</th>
            <th>Busiest window</th>
            <th className="num">Headroom used %</th>
          </tr>
        </thead>
        <tbody>
          {result.arrays.map((a) => (
            <tr key={a.name}>
              <td>
                {a.name}
                {a.fixed ? ' (owned)' : ''}
              </td>
              <td>{a.workloads.join(', ')}</td>
              <td className="num">{a.drives}</td>
              <td className="num">{n(a.cost_usd, 6)}</td>
              <td>{a.busiest_window}</td>
              <td className="num">{n(a.headroom_used_pct)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.unplaced.length ? (
        <ul aria-label="Fit nowhere">
          {result.unplaced.map((u) => (
            <li key={u.workload}>
              {u.workload}: {u.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="muted">{result.method}</p>
      {result.arrays.map((a) => (
        <CalibrationNote key={a.name} result={a.result} title={`How calibrated ${a.name}'s figures are`} />
      ))}
    </section>
  );
}

export function ReplicationView({ result }: { result: ReplicationResult }) {
  return (
    <section className="card plan-result" aria-label="Replication">
      <h2>Replication</h2>
      <p data-testid="replication-summary">{result.text}</p>
      <table>
        <caption>Per window</caption>
        <thead>
          <tr>
            <th>Window</th>
            <th className="num">Writes MB/s</th>
            <th className="num">Sent MB/s</th>
            <th className="num">Link Mbit/s</th>
            <th className="num">Lag min</th>
          </tr>
        </thead>
        <tbody>
          {result.windows.map((w) => (
            <tr key={w.window}>
              <td>{w.window}</td>
              <td className="num">{n(w.write_mb_s.value)}</td>
              <td className="num">{n(w.change_mb_s.value)}</td>
              <td className="num">{n(w.bandwidth_mbit_s.value)}</td>
              <td className="num">{n(w.lag_minutes?.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Formula text={result.bandwidth_mbit_s.text} />
      <Formula text={result.lag_minutes?.text} />
      <Formula text={result.sync_write_ms?.text} />
      {result.primary ? <CalibrationNote result={result.primary} title="How calibrated the primary array's figures are" /> : null}
      {result.dr ? <p>{result.dr.text}</p> : null}
      {result.dr ? <CalibrationNote result={result.dr.failover.result} title="How calibrated the DR array's figures are" /> : null}
      {result.notes.map((note) => (
        <p key={note} className="muted">
          {note}
        </p>
      ))}
    </section>
  );
}

export function ExpansionView({ result }: { result: ExpansionResult }) {
  return (
    <section className="card plan-result" aria-label="Expansion">
      <h2>What the expansion buys</h2>
      <p data-testid="expansion-summary">{result.text}</p>
      <CalibrationNote result={result.after} title="How calibrated the expanded system's figures are" />
      <ul>
        {[result.drives_added, result.shelves_added, result.usable_tb_added, result.cost_added_usd].map((f) => (
          <li key={f.formula}>{f.text}</li>
        ))}
      </ul>
      <table>
        <caption>Per window, before and after</caption>
        <thead>
          <tr>
            <th>Window</th>
            <th className="num">Headroom used before %</th>
            <th className="num">After %</th>
            <th className="num">Read ms before</th>
            <th className="num">After</th>
            <th>Binding after</th>
          </tr>
        </thead>
        <tbody>
          {result.windows.map((w) => (
            <tr key={w.window}>
              <td>{w.window}</td>
              <td className="num">{n(w.headroom_used_before_pct)}</td>
              <td className="num">{n(w.headroom_used_after_pct)}</td>
              <td className="num">{n(w.read_latency_before_ms)}</td>
              <td className="num">{n(w.read_latency_after_ms)}</td>
              <td>{w.binding_after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function RefreshView({ result }: { result: RefreshResult }) {
  return (
    <section className="card plan-result" aria-label="Refresh">
      <h2>Today and the successor</h2>
      <p data-testid="refresh-summary">{result.text}</p>
      <CalibrationNote result={result.current} title="How calibrated today's system's figures are" />
      <CalibrationNote result={result.successor.result} title="How calibrated the successor's figures are" />
      <table>
        <caption>Per window: measured, modelled today, the successor</caption>
        <thead>
          <tr>
            <th>Window</th>
            <th className="num">Observed IOPS</th>
            <th className="num">Observed read ms</th>
            <th className="num">Today read ms</th>
            <th className="num">Successor read ms</th>
          </tr>
        </thead>
        <tbody>
          {result.windows.map((w) => (
            <tr key={w.window}>
              <td>{w.window}</td>
              <td className="num">{n(w.observed_iops)}</td>
              <td className="num">{n(w.observed_read_latency_ms)}</td>
              <td className="num">{n(w.current_read_latency_ms)}</td>
              <td className="num">{n(w.successor_read_latency_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Side by side</caption>
        <thead>
          <tr>
            <th>Figure</th>
            <th>Today</th>
            <th>Successor</th>
          </tr>
        </thead>
        <tbody>
          {result.side_by_side.map((c) => (
            <tr key={c.figure}>
              <td>{c.figure}</td>
              <td>{String(c.before ?? '—')}</td>
              <td>{String(c.after ?? '—')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
