import { Figure, formatNumber } from '@/components';
import type { WindowResult } from '@/lib/api-types';

/** Each phase of a window: load, cache hits and latencies against its target. */
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
              <td>{p.read_latency_target_ms != null ? `${formatNumber(p.read_latency_target_ms)} ms` : '—'}</td>
              <td>
                <Figure label={`Write latency (${p.phase})`} figure={p.write_latency_ms} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
