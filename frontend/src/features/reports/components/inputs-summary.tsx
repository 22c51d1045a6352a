import { formatNumber, Stat } from '@/components';
import { isFullConfiguration, type ConfigurationInput, type HeadroomTargets, type Phase, type Workload } from '@/lib/api-types';

const f = formatNumber;

function mix(p: Phase): string {
  if (p.io_sizes?.length) return p.io_sizes.map((s) => `${f(s.pct)}% ${f(s.size_kib)} KiB`).join(', ');
  return p.io_size_kib ? `${f(p.io_size_kib)} KiB` : '—';
}

function rate(p: Phase): string {
  return p.iops > 0 ? `${f(p.iops)} IOPS` : p.mb_per_s ? `${f(p.mb_per_s)} MB/s` : 'idle';
}

function workingSet(w: Workload): string {
  if (w.working_set_gb != null) return `${f(w.working_set_gb)} GB`;
  if (w.working_set_pct != null) return `${f(w.working_set_pct)}% of the capacity`;
  return 'the whole capacity';
}

function skew(w: Workload): string {
  const s = w.skew;
  if (s?.io_pct != null && s.data_pct != null) return `${f(s.io_pct)}% of the I/O to ${f(s.data_pct)}% of the data`;
  if (s?.zipf_alpha != null) return `Zipf, alpha ${f(s.zipf_alpha)}`;
  return 'uniform';
}

function replication(w: Workload): string {
  const r = w.replication;
  if (!r || r.mode === 'none') return 'none';
  const lat = r.mode === 'sync' && r.sync_latency_ms ? `, +${f(r.sync_latency_ms)} ms per write` : '';
  return `${r.mode}: writes x${f(r.io_amplification ?? 1)}, capacity x${f(r.capacity_amplification ?? 1)}${lat}`;
}

function snapshots(w: Workload): string {
  const parts = [];
  if (w.snapshot_reserve_pct) parts.push(`${f(w.snapshot_reserve_pct)}% reserve`);
  if (w.snapshot_change_pct_per_day) parts.push(`${f(w.snapshot_change_pct_per_day)}%/day changed, kept ${f(w.snapshot_retention_days ?? 0)} days`);
  return parts.join('; ') || 'none';
}

function headroomText(h: HeadroomTargets | null | undefined): string {
  const t = h ?? { controller_max_pct: null, failover_max_pct: 100, drive_max_pct: 70, port_max_pct: 70, capacity_max_fill_pct: 100 };
  const ctrl = t.controller_max_pct != null ? `${f(t.controller_max_pct)}%` : '50% each for a pair, else 70%';
  return `controllers ${ctrl}, after a failover ${f(t.failover_max_pct)}%, drives ${f(t.drive_max_pct)}%, ports ${f(t.port_max_pct)}%, capacity filled ${f(t.capacity_max_fill_pct)}%`;
}

/** `words`: the engine's words for the configuration (the report's `configuration_words`), which
 * end in "hypothetical: not offered by this array" when its array does not offer it. */
function ConfigurationFacts({ c, words }: { c: ConfigurationInput; words: string | undefined }) {
  const described = words ? <Stat label="Configuration">{words}</Stat> : null;
  if (!isFullConfiguration(c)) {
    return (
      <dl className="stat-grid facts">
        {described}
        <Stat label="Array">{c.name ?? c.array_id}</Stat>
        <Stat label="Drive">{c.drive_id ?? "the array's default"}</Stat>
        <Stat label="RAID">{[c.raid_scheme ?? 'default scheme', c.group_width ? `groups of ${c.group_width}` : null].filter(Boolean).join(', ')}</Stat>
        <Stat label="Drives">{c.drive_count ? f(c.drive_count) : 'sized'}</Stat>
        <Stat label="Flash cache">{c.flash_cache_gb ? `${f(c.flash_cache_gb)} GB` : 'none'}</Stat>
        <Stat label="Front-end ports">{c.port_option ?? "the array's default"}</Stat>
        <Stat label="Headroom targets">{headroomText(c.headroom)}</Stat>
      </dl>
    );
  }
  const ctrl = c.controller;
  return (
    <dl className="stat-grid facts">
      {described}
      <Stat label="Controllers">
        {f(ctrl.count)} x {ctrl.model} ({ctrl.ha_mode}), {f(ctrl.dram_cache_gb ?? 0)} GB DRAM each
      </Stat>
      {c.pools.map((p) => (
        <Stat key={p.name} label={c.pools.length > 1 ? `Pool ${p.name}` : 'Drives'}>
          {p.drive_count ? `${f(p.drive_count)} x ` : 'sized: '}
          {p.drive.name}, {p.raid.scheme} in groups of {p.raid.group_width}
          {p.raid.full_stripe_share != null ? `, full-stripe share ${f(p.raid.full_stripe_share)}` : ''}
        </Stat>
      ))}
      <Stat label="Flash cache">{c.cache?.flash_cache_gb ? `${f(c.cache.flash_cache_gb)} GB (${c.cache.flash_kind})` : 'none'}</Stat>
      <Stat label="Front-end ports">{c.ports.map((g) => `${f(g.count)} x ${g.type}`).join(', ')}</Stat>
      <Stat label="Headroom targets">{headroomText(c.headroom)}</Stat>
    </dl>
  );
}

type InputsSummaryProps = {
  workloads: Workload[];
  configurations: ConfigurationInput[];
  /** The engine's words for each configuration (`configuration_words` of the report). */
  configurationWords: string[];
};

/**
 * Every input that shaped the saved result: per workload its capacity, growth, reduction, working
 * set, skew, replication and snapshots, then its phases by window; per configuration the array,
 * drives and RAID layout, flash cache, ports, controllers and headroom targets.
 */
export function InputsSummary({ workloads, configurations, configurationWords }: InputsSummaryProps) {
  return (
    <section className="inputs-summary" aria-labelledby="inputs-title">
      <h2 id="inputs-title">Inputs</h2>
      {configurations.map((c, i) => (
        <section key={i} aria-label={`Configuration ${i + 1}`}>
          <h3>Configuration{configurations.length > 1 ? ` ${i + 1}` : ''}</h3>
          <ConfigurationFacts c={c} words={configurationWords[i]} />
        </section>
      ))}
      {workloads.map((w) => (
        <section key={w.name} aria-label={`Workload ${w.name}`}>
          <h3>Workload {w.name}</h3>
          <dl className="stat-grid facts">
            <Stat label="Capacity today">{f(w.capacity_tb)} TB</Stat>
            <Stat label="Growth">
              {f(w.growth_pct_per_year ?? 0)}%/year over {f(w.horizon_years ?? 0)} {w.horizon_years === 1 ? 'year' : 'years'}
            </Stat>
            <Stat label="Data reduction">
              {f(w.dedupe_ratio ?? 1)}:1 dedupe x {f(w.compression_ratio ?? 1)}:1 compression
            </Stat>
            <Stat label="Working set">{workingSet(w)}</Stat>
            <Stat label="Access skew">{skew(w)}</Stat>
            <Stat label="Replication">{replication(w)}</Stat>
            <Stat label="Snapshots">{snapshots(w)}</Stat>
          </dl>
          <div className="table-scroll">
            <table className="data-table">
              <caption>Phases of {w.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Phase</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Reads</th>
                  <th scope="col">Random</th>
                  <th scope="col">I/O sizes</th>
                  <th scope="col">Working set</th>
                  <th scope="col">Overwrites absorbed</th>
                  <th scope="col">Read target</th>
                </tr>
              </thead>
              <tbody>
                {w.phases.map((p) => (
                  <tr key={p.name}>
                    <td>{p.window}</td>
                    <th scope="row">{p.name}</th>
                    <td>{rate(p)}</td>
                    <td>{f(p.read_pct)}%</td>
                    <td>{f(p.random_pct ?? 100)}%</td>
                    <td>{mix(p)}</td>
                    <td>{p.working_set_gb != null ? `${f(p.working_set_gb)} GB` : "the workload's"}</td>
                    <td>{f(p.write_overwrite_pct ?? 0)}%</td>
                    <td>{p.read_latency_target_ms != null ? `${f(p.read_latency_target_ms)} ms` : 'none'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </section>
  );
}
