import { Figure, formatNumber } from '@/components';
import type { WindowResult } from '@/lib/api-types';

/** Each phase of a window: load, cache hits and latencies (mean, p95, p99) against its target,
 * and the window with cold caches where it differs from the warm steady state. */
export function PhaseTable({ window }: { window: WindowResult }) {
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption>Phases in {window.window}</caption>
        <thead>
          <tr>
            <th scope="col">Workload / phase</th>
            <th scope="col">IOPS</th>
            <th scope="col">MB/s</th>
            <th scope="col">Reads</th>
            <th scope="col">DRAM hits</th>
            <th scope="col">Flash hits</th>
            <th scope="col">Read latency</th>
            <th scope="col">p95 / p99</th>
            <th scope="col">Target</th>
            <th scope="col">Write latency</th>
          </tr>
        </thead>
        <tbody>
          {window.phases.map((p) => (
            <tr key={`${p.workload}/${p.phase}`} className={p.passed ? undefined : 'row-fail'}>
              <th scope="row">
                {p.workload} / {p.phase}
              </th>
              <td>{formatNumber(p.iops)}</td>
              <td>{formatNumber(p.mb_per_s)}</td>
              <td>{formatNumber(p.read_pct)}%</td>
              <td>
                <Figure label={`DRAM hit ratio (${p.phase})`} figure={p.dram_hit_pct} />
              </td>
              <td>
                <Figure label={`Flash hit ratio (${p.phase})`} figure={p.flash_hit_pct} />
              </td>
              <td>
                <Figure label={`Read latency (${p.phase})`} figure={p.read_latency_ms} />
              </td>
              <td>
                {p.read_p95_latency_ms && p.read_p99_latency_ms ? (
                  <>
                    <Figure label={`p95 read latency (${p.phase})`} figure={p.read_p95_latency_ms} />
                    {' / '}
                    <Figure label={`p99 read latency (${p.phase})`} figure={p.read_p99_latency_ms} />
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>{p.read_latency_target_ms != null ? `${formatNumber(p.read_latency_target_ms)} ms` : '—'}</td>
              <td>
                <Figure label={`Write latency (${p.phase})`} figure={p.write_latency_ms} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ColdCache window={window} />
    </div>
  );
}

/** The window right after a restart or failover, while the caches refill (shown where it differs). */
function ColdCache({ window }: { window: WindowResult }) {
  const cold = window.cold_cache;
  if (!cold) return null;
  const ms = (v: number | null | undefined) => (v == null ? 'saturated' : `${formatNumber(v)} ms`);
  return (
    <p className="chart-note" aria-label={`Cold cache in ${window.window}`}>
      <strong>Cold cache</strong> (after a restart or failover, until each working set is read once): read latency{' '}
      {ms(cold.read_latency_ms)} (warm {ms(window.read_latency_ms)}), p99 {ms(cold.read_p99_latency_ms)} (warm{' '}
      {ms(window.read_p99_latency_ms)}); hit ratio{' '}
      {cold.phases.map((p) => `${p.workload}/${p.phase} ${formatNumber(p.hit_pct)}% (warm ${formatNumber(p.warm_hit_pct)}%)`).join(', ')}.{' '}
      {cold.verdict}
    </p>
  );
}
