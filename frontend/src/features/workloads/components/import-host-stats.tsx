import { useEffect, useRef, useState, type DragEvent } from 'react';

import { ErrorState, Field, formatNumber, NumberField, SelectField } from '@/components';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { DetectedWindow, DeviceSummary, HostStatsImport, Workload } from '@/lib/api-types';

import { useImportHostStats, type HostStatsQuery } from '../api/import-host-stats';

type ImportHostStatsProps = {
  /** Add the imported workloads to the ones being edited, or replace them. */
  onUse: (workloads: Workload[], how: 'add' | 'replace') => void;
  hasWorkloads: boolean;
};

const FORMAT_NAMES: Record<HostStatsImport['format'], string> = {
  iostat: 'iostat',
  sar: 'sar / sadf',
  perfmon: 'Windows performance monitor',
  esxtop: 'esxtop batch',
};

const num = (x: number | null | undefined, unit = '') => (x == null ? '–' : `${formatNumber(x)}${unit}`);

/**
 * Drop (or choose) iostat, sar/sadf, perfmon or esxtop output: the server detects the format and
 * answers workloads whose phases are the busy windows it found. Choosing devices, one workload or
 * one per device, the rate statistic or the capacity asks again with the same file.
 */
export function ImportHostStats({ onUse, hasWorkloads }: ImportHostStatsProps) {
  const [file, setFile] = useState<File | null>(null);
  const [query, setQuery] = useState<HostStatsQuery>({});
  const [dragging, setDragging] = useState(false);
  const [result, setResult] = useState<HostStatsImport | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const mutation = useImportHostStats();
  const { mutate, reset } = mutation;

  useEffect(() => {
    if (!file) return;
    const abort = new AbortController();
    mutate({ file, query, signal: abort.signal }, { onSuccess: setResult });
    return () => abort.abort();
  }, [file, query, mutate]);

  function choose(next: File | null) {
    reset();
    setResult(null);
    setQuery({});
    setFile(next);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    const dropped = e.dataTransfer.files?.[0];
    if (dropped) choose(dropped);
  }

  const error = mutation.error instanceof ApiError ? mutation.error : null;
  const issues = error?.isValidation ? error.issues : [];
  const fileErrors = issues.filter((i) => fieldPath(i.loc) === 'file' || fieldPath(i.loc) === '').map((i) => i.msg);
  const optionErrors = (name: string) => issues.filter((i) => fieldPath(i.loc) === name).map((i) => i.msg);
  const aborted = mutation.error instanceof DOMException && mutation.error.name === 'AbortError';
  const selected = result ? result.devices.filter((d) => d.selected).map((d) => d.name) : [];

  function toggle(device: DeviceSummary) {
    const next = device.selected ? selected.filter((n) => n !== device.name) : [...selected, device.name];
    if (next.length) setQuery({ ...query, devices: next });
  }

  return (
    <details className="card import-host-stats" open={file !== null || undefined}>
      <summary>Import host statistics: iostat, sar, perfmon, esxtop</summary>
      <p className="muted">
        Statistics the host already collects become workloads: the busiest hour, the nightly batch and month-end are found in the
        series and become windows, each with its own rates, and the latency the host saw comes along as evidence.
      </p>
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        data-testid="host-stats-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Field
          label="Host statistics file"
          hint={file ? `${file.name}${mutation.isPending ? ': reading…' : ''}` : 'Drop a file here or choose one: iostat -x, sar -d, sadf -d, typeperf/relog CSV, esxtop -b'}
          errors={fileErrors}
        >
          {(control) => (
            <input
              {...control}
              ref={input}
              type="file"
              accept=".txt,.log,.csv,.tsv,.gz,.out,text/plain,text/csv,application/gzip"
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
            />
          )}
        </Field>
      </div>
      {error && !error.isValidation ? <ErrorState title="The import failed" error={error} /> : null}
      {mutation.isError && !error && !aborted ? <ErrorState title="The import failed" error={mutation.error} /> : null}

      {result ? (
        <div className="host-stats-result" aria-busy={mutation.isPending}>
          <p className="host-stats-summary" role="status">
            <strong>{FORMAT_NAMES[result.format]}</strong>
            {result.host ? ` from ${result.host}` : ''}: {result.start} to {result.end}, {num(result.interval_s)} s samples kept at{' '}
            {num(result.resolution_s)} s ({result.variant}).
          </p>

          <div className="grid grid-4">
            <SelectField
              label="Workloads"
              value={query.merge === false ? 'separate' : 'merge'}
              onChange={(v) => setQuery({ ...query, merge: v === 'separate' ? false : null })}
              options={[
                { value: 'merge', label: 'One for the chosen devices' },
                { value: 'separate', label: 'One per device' },
              ]}
            />
            <SelectField
              label="Phase rate"
              value={query.rate ?? 'p95'}
              onChange={(v) => setQuery({ ...query, rate: v as HostStatsQuery['rate'] })}
              hint="Of the interval totals inside each window"
              errors={optionErrors('rate')}
              options={[
                { value: 'p95', label: '95th percentile' },
                { value: 'mean', label: 'Mean' },
                { value: 'peak', label: 'Peak' },
              ]}
            />
            <NumberField
              label="Capacity"
              unit="TB"
              value={query.capacity_tb ?? null}
              optional
              min={0}
              placeholder={formatNumber(result.workloads.reduce((s, w) => s + w.capacity_tb, 0))}
              hint="The statistics rarely tell: give the data's size"
              errors={optionErrors('capacity_tb')}
              onChange={(v) => setQuery({ ...query, capacity_tb: v })}
            />
          </div>
          {optionErrors('devices').length ? <p className="field-error">{optionErrors('devices').join(' ')}</p> : null}

          <DevicesTable devices={result.devices} onToggle={toggle} />
          <WindowsTable windows={result.windows} />

          {result.notes.length ? (
            <div className="notice">
              <p>Read with these assumptions:</p>
              <ul>
                {result.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {result.unknown_counter_count ? (
            <details className="unknown-counters">
              <summary>
                {result.unknown_counter_count} {result.unknown_counter_count === 1 ? 'counter' : 'counters'} not used
              </summary>
              <ul>
                {result.unknown_counters.map((c) => (
                  <li key={c}>
                    <code>{c}</code>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}

          <div className="row-actions">
            <button type="button" className="primary" disabled={mutation.isPending} onClick={() => onUse(result.workloads, hasWorkloads ? 'add' : 'replace')}>
              {hasWorkloads ? 'Add these workloads' : 'Use these workloads'}
            </button>
            {hasWorkloads ? (
              <button type="button" disabled={mutation.isPending} onClick={() => onUse(result.workloads, 'replace')}>
                Replace the workloads
              </button>
            ) : null}
            <button type="button" className="link-button" onClick={() => choose(null)}>
              Clear
            </button>
          </div>
        </div>
      ) : null}
    </details>
  );
}

function DevicesTable({ devices, onToggle }: { devices: DeviceSummary[]; onToggle: (d: DeviceSummary) => void }) {
  return (
    <div className="table-scroll">
      <table className="data-table host-devices">
        <caption>Devices (whole series)</caption>
        <thead>
          <tr>
            <th scope="col">Use</th>
            <th scope="col">Device</th>
            <th scope="col">Kind</th>
            <th scope="col">Mean IOPS</th>
            <th scope="col">p95 IOPS</th>
            <th scope="col">Reads</th>
            <th scope="col">MB/s</th>
            <th scope="col">Read / write size [KiB]</th>
            <th scope="col">Read / write latency [ms]</th>
            <th scope="col">Busy</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((d) => (
            <tr key={d.name}>
              <td>
                <input type="checkbox" checked={d.selected} onChange={() => onToggle(d)} aria-label={`Use ${d.name}`} />
              </td>
              <th scope="row">{d.name}</th>
              <td>{d.kind}</td>
              <td>{num(d.mean_iops)}</td>
              <td>{num(d.p95_iops)}</td>
              <td>{num(d.read_pct, ' %')}</td>
              <td>{num(d.mean_mb_s)}</td>
              <td>
                {num(d.read_size_kib)} / {num(d.write_size_kib)}
              </td>
              <td>
                {num(d.read_latency_ms)} / {num(d.write_latency_ms)}
              </td>
              <td>{num(d.utilization_pct, ' %')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WindowsTable({ windows }: { windows: DetectedWindow[] }) {
  const shown = windows.filter((w) => w.kind !== 'daily-peak');
  const daily = windows.filter((w) => w.kind === 'daily-peak');
  return (
    <div className="table-scroll">
      <table className="data-table host-windows">
        <caption>Windows found (the offered ones become phases)</caption>
        <thead>
          <tr>
            <th scope="col">Window</th>
            <th scope="col">When</th>
            <th scope="col">Phase IOPS</th>
            <th scope="col">Mean IOPS</th>
            <th scope="col">Reads</th>
            <th scope="col">Read / write size [KiB]</th>
            <th scope="col">Observed latency [ms]</th>
            <th scope="col">Queue</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {[...shown, ...daily].map((w) => (
            <tr key={`${w.kind}-${w.name}`} className={w.offered ? 'offered' : 'muted'}>
              <th scope="row">
                {w.name}
                {w.offered ? ' ✓' : ''}
              </th>
              <td>
                {w.start} to {w.end}
              </td>
              <td title={w.load.iops.text}>{num(w.load.iops.value)}</td>
              <td>{num(w.load.mean_iops)}</td>
              <td>{num(w.load.read_pct, ' %')}</td>
              <td>
                {num(w.load.read_size_kib)} / {num(w.load.write_size_kib)}
              </td>
              <td>
                {num(w.load.read_latency_ms)} / {num(w.load.write_latency_ms)}
              </td>
              <td>{num(w.load.queue_length)}</td>
              <td className="small">{w.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
