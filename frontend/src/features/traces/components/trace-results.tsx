/** The analysis of a trace: profile, miss-ratio curves (Recharts), tiers and the derived workload. Loaded lazily. */
import { useId, useState } from 'react';

import { CurveChart, PALETTE, type Series, type Span } from '@/charts/curve-chart';
import { formatNumber, Stat } from '@/components';
import type { MissRatioCurve, PeakWindow, TraceAnalysis, TraceProfile } from '@/lib/api-types';

import { duration, gigabytes } from '../lib/format';
import { BadLines } from './bad-lines';
import { VolumeTable } from './volume-table';
import type { UseWorkload } from './trace-job-view';

type TraceResultsProps = {
  analysis: TraceAnalysis;
  onUseWorkload: UseWorkload;
  workloadCount: number;
};

const POLICY_NAMES: Record<string, string> = { lru: 'LRU', arc: 'ARC', s3fifo: 'S3-FIFO', fifo: 'FIFO', lfu: 'LFU', clock: 'CLOCK' };
const policyName = (p: string) => POLICY_NAMES[p.toLowerCase()] ?? p.toUpperCase();

function ProfileStats({ p }: { p: TraceProfile }) {
  return (
    <dl className="stat-grid trace-stats">
      <Stat label="Records">{p.records.toLocaleString('en-US')}</Stat>
      <Stat label="Duration">{p.has_timing ? duration(p.duration_s) : 'no timestamps'}</Stat>
      <Stat label="IOPS mean / peak" testId="trace-iops">
        {formatNumber(p.mean_iops)} / {formatNumber(p.peak_iops)}
      </Stat>
      <Stat label="MB/s mean / peak">
        {formatNumber(p.mean_mb_s)} / {formatNumber(p.peak_mb_s)}
      </Stat>
      <Stat label="Reads" testId="trace-read-pct">
        {formatNumber(p.read_pct)}% <span className="muted">({formatNumber(p.read_bytes_pct)}% of bytes)</span>
      </Stat>
      <Stat label="Sequential" testId="trace-sequential">
        {formatNumber(p.sequential_pct)}%
      </Stat>
      <Stat label="Mean I/O size">{formatNumber(p.mean_io_kib)} KiB</Stat>
      <Stat label="Data touched">{gigabytes(p.footprint_gb)}</Stat>
      <Stat label="Address span">{gigabytes(p.address_span_gb)}</Stat>
      <Stat label="Working set peak">{gigabytes(p.peak_working_set_gb)}</Stat>
      <Stat label="Moved">{gigabytes(p.total_gb)}</Stat>
      <Stat label="Streams">{p.streams}</Stat>
    </dl>
  );
}

/** The three busiest intervals by IOPS as shaded spans. */
function peakSpans(peaks: PeakWindow[]): Span[] {
  return peaks.slice(0, 3).map((w) => ({ x1: w.start_s, x2: w.end_s, label: `#${w.rank}`, color: '#b42318' }));
}

function IntervalChart({ p }: { p: TraceProfile }) {
  const s = p.series;
  // each interval's figures drawn at its middle
  const mid = s.interval_s / 2;
  const series: Series[] = [
    { name: 'IOPS', color: PALETTE[0], points: s.start_s.map((x, i) => ({ x: x + mid, y: s.iops[i] ?? null })) },
    { name: 'MB/s', color: PALETTE[1], right: true, points: s.start_s.map((x, i) => ({ x: x + mid, y: s.mb_s[i] ?? null })) },
  ];
  return (
    <CurveChart
      title={`IOPS and MB/s per ${formatNumber(s.interval_s)} s interval`}
      summary={`${p.intervals} intervals over ${duration(p.duration_s)}: IOPS mean ${formatNumber(p.mean_iops)}, peak ${formatNumber(p.peak_iops)}; MB/s mean ${formatNumber(p.mean_mb_s)}, peak ${formatNumber(p.peak_mb_s)}. The three busiest intervals by IOPS are shaded.`}
      series={series}
      xLabel="Time [s]"
      yLabel="IOPS"
      yRightLabel="MB/s"
      spans={peakSpans(p.peaks_by_iops)}
      height={280}
    />
  );
}

function PeakTable({ peaks, by }: { peaks: PeakWindow[]; by: string }) {
  if (!peaks.length) return null;
  const latency = peaks.some((w) => w.mean_latency_ms != null);
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption>Busiest intervals by {by}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">From – to</th>
            <th scope="col">IOPS</th>
            <th scope="col">MB/s</th>
            <th scope="col">Reads</th>
            <th scope="col">Sequential</th>
            <th scope="col">Working set</th>
            {latency ? <th scope="col">Mean latency</th> : null}
          </tr>
        </thead>
        <tbody>
          {peaks.map((w) => (
            <tr key={`${w.rank}-${w.start_s}`}>
              <th scope="row">{w.rank}</th>
              <td>
                {formatNumber(w.start_s)}–{formatNumber(w.end_s)} s
              </td>
              <td>{formatNumber(w.iops)}</td>
              <td>{formatNumber(w.mb_s)}</td>
              <td>{formatNumber(w.read_pct)}%</td>
              <td>{formatNumber(w.sequential_pct)}%</td>
              <td>{gigabytes(w.working_set_gb)}</td>
              {latency ? <td>{w.mean_latency_ms == null ? '—' : `${formatNumber(w.mean_latency_ms)} ms`}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SizeHistogram({ p }: { p: TraceProfile }) {
  const max = Math.max(1e-9, ...p.size_histogram.map((b) => b.pct));
  const bins = [...p.size_histogram].sort((a, b) => a.size_kib - b.size_kib);
  return (
    <table className="io-mix-table size-histogram" data-testid="size-histogram">
      <caption>I/O sizes (mean {formatNumber(p.mean_io_kib)} KiB)</caption>
      <thead>
        <tr>
          <th scope="col">Size</th>
          <th scope="col">I/Os</th>
          <th scope="col">Share</th>
          <th scope="col" className="io-mix-bar-col">
            <span className="visually-hidden">Share drawn</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {bins.map((b) => (
          <tr key={b.size_kib}>
            <th scope="row">{formatNumber(b.size_kib)} KiB</th>
            <td>{b.count.toLocaleString('en-US')}</td>
            <td>{formatNumber(b.pct)}%</td>
            <td>
              <span className="io-mix-bar" style={{ width: `${(b.pct / max) * 100}%` }} aria-hidden="true" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The unit the cache axis reads best in for a footprint [GB]. */
function cacheUnit(footprintGb: number): { unit: string; factor: number } {
  if (footprintGb >= 2000) return { unit: 'TB', factor: 1e-3 };
  if (footprintGb >= 2) return { unit: 'GB', factor: 1 };
  return { unit: 'MB', factor: 1e3 };
}

function MissRatioChart({ curves, footprintGb }: { curves: MissRatioCurve[]; footprintGb: number }) {
  const [log, setLog] = useState(true);
  const id = useId();
  const { unit, factor } = cacheUnit(footprintGb);
  const series: Series[] = curves.flatMap((c, i) => {
    const color = PALETTE[i % PALETTE.length];
    const request: Series = {
      name: `${policyName(c.policy)}: requests`,
      color,
      points: c.cache_gb.map((gb, k) => ({ x: gb * factor, y: c.request_miss_ratio[k] == null ? null : c.request_miss_ratio[k]! * 100 })),
    };
    const byte = c.byte_miss_ratio && c.byte_miss_ratio.length ? c.byte_miss_ratio : null;
    return byte
      ? [
          request,
          {
            name: `${policyName(c.policy)}: bytes`,
            color,
            dashed: true,
            points: c.cache_gb.map((gb, k) => ({ x: gb * factor, y: byte[k] == null ? null : byte[k]! * 100 })),
          },
        ]
      : [request];
  });
  const lru = curves.find((c) => c.policy.toLowerCase() === 'lru');
  const half = lru ? lru.cache_gb.find((_, k) => (lru.request_miss_ratio[k] ?? 1) <= (Math.min(...lru.request_miss_ratio) + 1) / 2) : undefined;
  return (
    <div>
      <CurveChart
        title="Miss ratio vs cache size"
        summary={`Miss ratios of ${curves.map((c) => policyName(c.policy)).join(', ')} from an empty cache to the ${gigabytes(footprintGb)} the trace touches.${half !== undefined ? ` LRU halves its misses (towards the floor) at about ${gigabytes(half)}.` : ''}`}
        series={series}
        xLabel={`Cache size [${unit}]`}
        yLabel="Miss ratio [%]"
        xScale={log ? 'log' : 'linear'}
        lines={[{ x: footprintGb * factor, label: 'everything touched', color: '#57606a' }]}
        height={300}
      >
        <label className="checkbox chart-option" htmlFor={`${id}-log`}>
          <input id={`${id}-log`} type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> Logarithmic cache-size axis
        </label>
      </CurveChart>
      <ul className="notes">
        {curves.map((c) => (
          <li key={c.policy}>
            {policyName(c.policy)}: {c.method}
            {c.sampling_rate < 1 ? `, sampled at ${formatNumber(c.sampling_rate * 100)}% (${c.sampled_requests.toLocaleString('en-US')} requests)` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TierTableView({ analysis }: { analysis: TraceAnalysis }) {
  const t = analysis.tiers;
  const levels = [...new Set(t.rows.flatMap((r) => r.captures.map((c) => c.io_pct)))].sort((a, b) => a - b);
  return (
    <div className="table-scroll">
      <table className="data-table tier-table" data-testid="tier-table">
        <caption>
          Fast-tier capacity that serves a share of the I/O, per relocation chunk size (share of {t.capacity_basis}, {gigabytes(t.capacity_basis_gb)})
        </caption>
        <thead>
          <tr>
            <th scope="col">Chunk</th>
            <th scope="col">Chunks touched</th>
            {levels.map((l) => (
              <th scope="col" key={l}>
                {formatNumber(l)}% of I/O
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {t.rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{r.chunks_touched.toLocaleString('en-US')}</td>
              {levels.map((l) => {
                const c = r.captures.find((x) => x.io_pct === l);
                return (
                  <td key={l}>
                    {c ? (
                      <>
                        {gigabytes(c.capacity_gb)} <span className="col-note">{formatNumber(c.fraction_of_capacity * 100)}% of capacity</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{t.method}. Coarse chunks drag cold data along with the hot: the fast tier they need grows with the chunk.</p>
    </div>
  );
}

function DerivedWorkloadCard({ analysis, onUseWorkload, workloadCount }: TraceResultsProps) {
  const d = analysis.derived;
  const w = d.workload;
  return (
    <section className="card derived-workload" aria-labelledby="derived-title">
      <h3 id="derived-title">The trace as a workload: {w.name}</h3>
      <ul>
        {w.phases.map((ph) => (
          <li key={ph.name}>
            Phase <strong>{ph.name}</strong> in window “{ph.window}”: {formatNumber(ph.iops ?? 0)} IOPS, {formatNumber(ph.read_pct)}% reads,{' '}
            {formatNumber(ph.random_pct ?? 100)}% random, sizes{' '}
            {(ph.io_sizes ?? []).map((s) => `${formatNumber(s.size_kib)} KiB ${formatNumber(s.pct)}%`).join(', ') || `${formatNumber(ph.io_size_kib ?? 0)} KiB`}
          </li>
        ))}
        <li>
          Capacity {formatNumber(w.capacity_tb * 1000)} GB, working set {gigabytes(w.working_set_gb ?? 0)}; access skew: Zipf alpha{' '}
          {formatNumber(d.skew.zipf_alpha)} (the hottest {formatNumber(d.skew.hot_data_pct ?? 20)}% of the data gets {formatNumber(d.skew.hot_io_pct)}% of
          the I/O; fit error {formatNumber(d.skew.fit_rmse)}).
        </li>
        <li>
          Fast tier for 80% of the I/O:{' '}
          {Object.entries(d.fast_tier_fraction)
            .map(([k, v]) => `${formatNumber(v * 100)}% at ${k}`)
            .join(', ')}
          .
        </li>
      </ul>
      {d.notes?.length ? (
        <ul className="notes">
          {d.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <div className="row-actions">
        <button type="button" className="primary" onClick={() => onUseWorkload(w, 'replace')}>
          Use as workload
        </button>
        {workloadCount > 0 ? (
          <button type="button" onClick={() => onUseWorkload(w, 'add')}>
            Add to the {workloadCount} workload{workloadCount === 1 ? '' : 's'} on Size
          </button>
        ) : null}
      </div>
      <p className="muted">Opens Size with this workload{workloadCount > 0 ? ' (“Use” replaces the workloads there)' : ''}.</p>
    </section>
  );
}

/** Everything the analysis of a trace found, ending with the workload it derives. */
export default function TraceResults({ analysis, onUseWorkload, workloadCount }: TraceResultsProps) {
  const p = analysis.profile;
  const parse = analysis.parse;
  const pent = p.pent_up;
  return (
    <div className="trace-results">
      <section aria-labelledby="profile-title">
        <h3 id="profile-title">Profile</h3>
        <p className="muted">
          {parse.format} trace, {parse.lines.toLocaleString('en-US')} lines, {parse.records.toLocaleString('en-US')} I/Os
          {parse.ignored_lines ? `, ${parse.ignored_lines} header or comment lines` : ''}; analysed in {formatNumber(analysis.seconds.total ?? 0)} s
          {analysis.libcachesim ? ' (miss ratios with libCacheSim)' : ''}.
        </p>
        {pent?.understated ? (
          <div className="notice pent-up" role="status" data-testid="pent-up">
            <p>
              <strong>Pent-up demand:</strong> {pent.message}.
            </p>
            <p className="muted">
              {formatNumber(pent.ios_above_target_pct)}% of the I/Os took longer than {formatNumber(pent.latency_target_ms)} ms; size for more than the
              trace shows.
            </p>
          </div>
        ) : pent ? (
          <p className="muted">
            Response times: mean {formatNumber(pent.mean_latency_ms)} ms, within the {formatNumber(pent.latency_target_ms)} ms target most of the time: the
            trace shows the demand, not a throttled version of it.
          </p>
        ) : null}
        {p.warnings?.length || parse.notes?.length ? (
          <ul className="notice">
            {[...(p.warnings ?? []), ...(parse.notes ?? [])].map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
        {parse.malformed_lines ? (
          <details className="options">
            <summary>
              {parse.malformed_lines.toLocaleString('en-US')} line{parse.malformed_lines === 1 ? '' : 's'} could not be read and {parse.malformed_lines === 1 ? 'was' : 'were'}{' '}
              skipped
            </summary>
            <BadLines lines={parse.malformed_samples ?? []} total={parse.malformed_lines} />
          </details>
        ) : null}
        <ProfileStats p={p} />
        <VolumeTable volumes={analysis.volumes ?? []} />
        {p.has_timing && p.series.start_s.length > 1 ? (
          <IntervalChart p={p} />
        ) : (
          <p className="empty">
            {p.has_timing
              ? `The whole trace (${duration(p.duration_s)}) fits in one ${p.interval_s} s interval, so its rates are over its own length: upload it again with a shorter interval for a profile over time.`
              : 'The trace has no timestamps: no profile over time.'}
          </p>
        )}
        <div className="trace-grid">
          <div>
            <PeakTable peaks={p.peaks_by_iops} by="IOPS" />
            <PeakTable peaks={p.peaks_by_mb_s} by="MB/s" />
          </div>
          <div>
            <SizeHistogram p={p} />
            <p className="muted sequential-note">
              <strong>{formatNumber(p.sequential_pct)}% sequential</strong>: I/Os that start where one of the previous {analysis.options.seq_window ?? 8} of
              their stream ended. Sequential runs are prefetched and coalesced; random I/Os each cost a drive seek.
            </p>
          </div>
        </div>
      </section>

      <section aria-labelledby="mrc-title">
        <h3 id="mrc-title">Cache: miss-ratio curves</h3>
        <p className="muted">
          The share of requests (solid) and of requested bytes (dashed, LRU) that miss a cache of each size, block {p.block_kib} KiB
          {analysis.options.warmup_s ? `, after a ${formatNumber(analysis.options.warmup_s)} s warm-up` : ''}.
        </p>
        {analysis.mrc.length ? <MissRatioChart curves={analysis.mrc} footprintGb={p.footprint_gb} /> : <p className="empty">No miss-ratio curves.</p>}
      </section>

      <section aria-labelledby="tiers-title">
        <h3 id="tiers-title">Tiering: fast-tier capacity</h3>
        <TierTableView analysis={analysis} />
      </section>

      <DerivedWorkloadCard analysis={analysis} onUseWorkload={onUseWorkload} workloadCount={workloadCount} />
    </div>
  );
}
