import { formatNumber } from '@/components';
import { isFullConfiguration, type ConfigurationInput, type Phase, type Workload } from '@/lib/api-types';
import { describeConfiguration } from '@/lib/describe';

function mix(p: Phase): string {
  if (p.io_sizes?.length) return p.io_sizes.map((s) => `${formatNumber(s.pct)}% ${formatNumber(s.size_kib)} KiB`).join(', ');
  return p.io_size_kib ? `${formatNumber(p.io_size_kib)} KiB` : '—';
}

function rate(p: Phase): string {
  return p.iops > 0 ? `${formatNumber(p.iops)} IOPS` : p.mb_per_s ? `${formatNumber(p.mb_per_s)} MB/s` : 'idle';
}

function configurationText(c: ConfigurationInput): string {
  if (isFullConfiguration(c)) return `${describeConfiguration(c)}${c.pools[0]?.drive_count ? `, ${c.pools[0].drive_count} drives` : ''}`;
  return [c.name ?? c.array_id, c.drive_id, c.raid_scheme, c.group_width ? `groups of ${c.group_width}` : null, c.drive_count ? `${c.drive_count} drives` : 'sized']
    .filter(Boolean)
    .join(', ');
}

type InputsSummaryProps = { workloads: Workload[]; configurations: ConfigurationInput[] };

/** What the saved result was computed from: the workloads (phases by window) and the configurations. */
export function InputsSummary({ workloads, configurations }: InputsSummaryProps) {
  return (
    <section className="inputs-summary" aria-labelledby="inputs-title">
      <h2 id="inputs-title">Inputs</h2>
      <ul>
        {configurations.map((c, i) => (
          <li key={i}>
            Configuration{configurations.length > 1 ? ` ${i + 1}` : ''}: {configurationText(c)}
          </li>
        ))}
      </ul>
      {workloads.map((w) => (
        <div key={w.name} className="table-scroll">
          <table className="data-table">
            <caption>
              {w.name}: {formatNumber(w.capacity_tb)} TB, growth {formatNumber(w.growth_pct_per_year ?? 0)}%/year over{' '}
              {formatNumber(w.horizon_years ?? 0)} years, reduction {formatNumber((w.dedupe_ratio ?? 1) * (w.compression_ratio ?? 1))}:1
            </caption>
            <thead>
              <tr>
                <th scope="col">Window</th>
                <th scope="col">Phase</th>
                <th scope="col">Rate</th>
                <th scope="col">Reads</th>
                <th scope="col">Random</th>
                <th scope="col">I/O sizes</th>
                <th scope="col">Read target</th>
              </tr>
            </thead>
            <tbody>
              {w.phases.map((p) => (
                <tr key={p.name}>
                  <td>{p.window}</td>
                  <th scope="row">{p.name}</th>
                  <td>{rate(p)}</td>
                  <td>{formatNumber(p.read_pct)}%</td>
                  <td>{formatNumber(p.random_pct ?? 100)}%</td>
                  <td>{mix(p)}</td>
                  <td>{p.read_latency_target_ms != null ? `${formatNumber(p.read_latency_target_ms)} ms` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
