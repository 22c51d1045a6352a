import { useEffect, useRef, useState, type DragEvent } from 'react';

import { ErrorState, Figure, formatNumber, Stat } from '@/components';
import { ApiError } from '@/lib/api-error';
import type { GroupBy, Workload } from '@/lib/api-types';

import { importArrayStats } from '../api/import-array-stats';
import { importHostStatsFile } from '../api/import-host-stats';
import { importLiveOptics } from '../api/import-live-optics';
import { importRVTools } from '../api/import-rvtools';
import { useLineUpTimeline } from '../api/line-up-timeline';
import type { UploadProgress } from '../api/send-upload';
import { browserZone, guessKind, KIND_NAMES, seriesOf, timelineRequest, type ImportItem, type ImportKind, type ImportResult } from '../lib/imports';
import { TimelineChart } from './timeline-chart';

type EngagementImportProps = {
  /** Size (or add) the timeline's workloads. */
  onUse: (workloads: Workload[], how: 'add' | 'replace') => void;
  hasWorkloads: boolean;
};

const ZONES = ['UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Paris', 'America/New_York', 'America/Chicago', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Singapore', 'Australia/Sydney'];

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isValidation) return error.issues.map((i) => i.msg).join(' ');
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function upload(item: ImportItem, groupBy: GroupBy, onProgress: (p: UploadProgress) => void, signal: AbortSignal): Promise<ImportResult> {
  const input = { file: item.file, onProgress, signal };
  switch (item.kind) {
    case 'live-optics':
      return importLiveOptics(input).then((data) => ({ kind: 'live-optics', data }));
    case 'rvtools':
      return importRVTools({ ...input, groupBy }).then((data) => ({ kind: 'rvtools', data }));
    case 'array-stats':
      return importArrayStats(input).then((data) => ({ kind: 'array-stats', data }));
    default:
      return importHostStatsFile(input).then((data) => ({ kind: 'host-stats', data }));
  }
}

/** What an import read, in a line. */
function Summary({ result }: { result: ImportResult }) {
  if (result.kind === 'rvtools') {
    const d = result.data;
    return (
      <>
        {d.vms} VMs, <Figure label="In use" figure={d.in_use_tb} /> in use in {d.groups.length} {d.group_by} group(s); no performance data
      </>
    );
  }
  const windows = result.kind === 'live-optics' ? (result.data.stats?.windows ?? []) : result.data.windows;
  const offered = windows.filter((w) => w.offered);
  const first = offered[0];
  const what =
    result.kind === 'live-optics'
      ? `${result.data.performance}${result.data.stats_sheet ? ` (sheet ${result.data.stats_sheet})` : ''}`
      : `${result.data.format}${result.data.host ? ` on ${result.data.host}` : ''}`;
  return (
    <>
      {what}: {result.data.workloads.length} workload(s)
      {first ? (
        <>
          , {first.name} <Figure label={`${first.name} IOPS`} figure={first.load.iops} />
        </>
      ) : null}
      {result.kind === 'live-optics' && !first
        ? `, ${result.data.workloads[0]?.phases.map((p) => `${p.name} ${formatNumber(p.iops)} IO/s`).join(', ')}`
        : null}
    </>
  );
}

/**
 * Import what an engagement starts with (Live Optics and RVTools workbooks, array exports, host
 * statistics), line the imports up on one clock, see when they peak together, and size the result.
 * Files are dropped (or chosen) together; each is read as the kind its name suggests (changeable).
 */
export function EngagementImport({ onUse, hasWorkloads }: EngagementImportProps) {
  const [items, setItems] = useState<ImportItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const [groupBy, setGroupBy] = useState<GroupBy>('cluster');
  const nextId = useRef(1);
  const controllers = useRef(new Map<number, AbortController>());
  const lineUp = useLineUpTimeline();
  const { mutate, reset } = lineUp;

  function patch(id: number, update: Partial<ImportItem>) {
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...update } : i)));
  }

  function start(item: ImportItem, by: GroupBy = groupBy) {
    controllers.current.get(item.id)?.abort();
    const abort = new AbortController();
    controllers.current.set(item.id, abort);
    patch(item.id, { status: 'uploading', progress: 0, result: null, error: null });
    upload(
      item,
      by,
      (p) => patch(item.id, { progress: p.total ? p.loaded / p.total : 0, status: p.loaded >= p.total ? 'reading' : 'uploading' }),
      abort.signal,
    ).then(
      (result) => patch(item.id, { status: 'done', progress: 1, result }),
      (error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        patch(item.id, { status: 'failed', error: messageOf(error) });
      },
    );
  }

  function add(files: FileList | File[]) {
    const added = Array.from(files).map<ImportItem>((file) => ({
      id: nextId.current++,
      file,
      kind: guessKind(file.name),
      status: 'uploading',
      progress: 0,
      result: null,
      error: null,
      timeZone: browserZone(),
      include: true,
    }));
    setItems((list) => [...list, ...added]);
    added.forEach((item) => start(item));
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files?.length) add(e.dataTransfer.files);
  }

  const request = timelineRequest(items);
  const requestKey = JSON.stringify(request ? [request.layers.map((l) => [l.series.name, l.series.start, l.time_zone]), (request.capacity ?? []).length, items.map((i) => i.id)] : null);
  useEffect(() => {
    if (!request) {
      reset();
      return;
    }
    const abort = new AbortController();
    mutate({ body: request, signal: abort.signal });
    return () => abort.abort();
    // the request is rebuilt from items on every render; its key says when it changed
  }, [requestKey, mutate, reset]);

  const timeline = request ? lineUp.data : undefined;
  const timelineError = lineUp.error instanceof ApiError ? lineUp.error : null;
  const onlyCapacity = !request && items.some((i) => i.result?.kind === 'rvtools');

  return (
    <section className="card engagement-import" aria-labelledby="engagement-import-title">
      <h2 id="engagement-import-title">Files of the engagement</h2>
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        data-testid="engagement-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label className="field">
          <span className="field-label">Collector workbooks and statistics</span>
          <input
            type="file"
            multiple
            accept=".xlsx,.gz,.txt,.log,.csv,.tsv,.out,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/plain,text/csv,application/gzip"
            onChange={(e) => {
              if (e.target.files?.length) add(e.target.files);
              e.target.value = '';
            }}
          />
          <span className="hint">
            Drop files here or choose them: Live Optics and RVTools workbooks (.xlsx), ONTAP statistics or qos output, PowerStore or generic CSV
            exports, iostat/sar/perfmon/esxtop files. Gzip is fine.
          </span>
        </label>
      </div>

      {items.length ? (
        <div className="table-scroll">
          <table className="data-table engagement-files">
            <caption>Imports</caption>
            <thead>
              <tr>
                <th scope="col">Use</th>
                <th scope="col">File</th>
                <th scope="col">Read as</th>
                <th scope="col">Status</th>
                <th scope="col">What it says</th>
                <th scope="col">Time zone of its clock</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const series = seriesOf(item.result);
                return (
                  <tr key={item.id} aria-label={item.file.name}>
                    <td>
                      <input
                        type="checkbox"
                        checked={item.include}
                        aria-label={`Use ${item.file.name}`}
                        onChange={() => patch(item.id, { include: !item.include })}
                      />
                    </td>
                    <th scope="row">{item.file.name}</th>
                    <td>
                      <select
                        aria-label={`Read ${item.file.name} as`}
                        value={item.kind}
                        onChange={(e) => {
                          const next = { ...item, kind: e.target.value as ImportKind };
                          patch(item.id, { kind: next.kind });
                          start(next);
                        }}
                      >
                        {(Object.keys(KIND_NAMES) as ImportKind[]).map((k) => (
                          <option key={k} value={k}>
                            {KIND_NAMES[k]}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {item.status === 'uploading' || item.status === 'reading' ? (
                        <span className="upload-progress">
                          <progress max={1} value={item.status === 'reading' ? undefined : item.progress} aria-label={`Upload of ${item.file.name}`} />{' '}
                          {item.status === 'reading' ? 'reading…' : `${Math.round(item.progress * 100)} %`}
                        </span>
                      ) : item.status === 'failed' ? (
                        <span className="field-error" role="alert">
                          {item.error}
                        </span>
                      ) : (
                        'read'
                      )}
                    </td>
                    <td className="small">{item.result ? <Summary result={item.result} /> : null}</td>
                    <td>
                      {series?.zone ? (
                        <span>{series.zone} (stated by the file)</span>
                      ) : item.result?.kind === 'rvtools' ? (
                        <span className="muted">no clock (capacity only)</span>
                      ) : (
                        <>
                          <input
                            type="text"
                            list="engagement-zones"
                            aria-label={`Time zone of ${item.file.name}`}
                            value={item.timeZone}
                            onChange={(e) => patch(item.id, { timeZone: e.target.value })}
                          />
                        </>
                      )}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => {
                          controllers.current.get(item.id)?.abort();
                          setItems((list) => list.filter((i) => i.id !== item.id));
                        }}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <datalist id="engagement-zones">
            {ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </div>
      ) : null}

      {items.some((i) => i.kind === 'rvtools') ? (
        <label className="field engagement-group-by">
          <span className="field-label">RVTools capacity by</span>
          <select
            value={groupBy}
            onChange={(e) => {
              const by = e.target.value as GroupBy;
              setGroupBy(by);
              items.filter((i) => i.kind === 'rvtools').forEach((i) => start(i, by));
            }}
          >
            <option value="cluster">Cluster</option>
            <option value="datastore">Datastore</option>
            <option value="folder">Folder</option>
            <option value="host">Host</option>
          </select>
        </label>
      ) : null}

      {onlyCapacity ? (
        <p className="notice">RVTools has no performance data: add a Live Optics, array or host statistics import to line up and size.</p>
      ) : null}
      {timelineError ? (
        <div className="field-error" role="alert">
          {timelineError.isValidation ? timelineError.issues.map((i) => <p key={i.msg}>{i.msg}</p>) : timelineError.message}
        </div>
      ) : lineUp.isError ? (
        <ErrorState title="The timeline failed" error={lineUp.error} />
      ) : null}

      {timeline ? (
        <section className="engagement-timeline" aria-labelledby="engagement-timeline-title" aria-busy={lineUp.isPending}>
          <h2 id="engagement-timeline-title">One timeline</h2>
          <p className="muted">
            {timeline.layers.length} import(s) on one clock ({timeline.clock}), {timeline.start} to {timeline.end}, summed per{' '}
            {formatNumber(timeline.interval_s / 60)}-minute interval; the busy windows are found on the sum.
          </p>
          <dl className="stat-grid">
            <Stat label="Coincident peak" testId="coincident-peak">
              <Figure label="Coincident peak" figure={timeline.coincident_peak} />
            </Stat>
            <Stat label="Sum of peaks" testId="sum-of-peaks">
              <Figure label="Sum of peaks" figure={timeline.sum_of_peaks} />
            </Stat>
            <Stat label="Sum of peaks / coincident">
              <Figure label="Diversity" figure={timeline.diversity} />
            </Stat>
            <Stat label="Capacity">
              <Figure label="Capacity" figure={timeline.capacity_tb} />
            </Stat>
          </dl>
          <TimelineChart timeline={timeline} />
          <div className="table-scroll">
            <table className="data-table timeline-windows">
              <caption>Windows found on the sum (each import&apos;s rate in them)</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">When</th>
                  <th scope="col">Sum</th>
                  {timeline.layers.map((l) => (
                    <th key={l.name} scope="col">
                      {l.name}
                    </th>
                  ))}
                  <th scope="col">Busy together</th>
                </tr>
              </thead>
              <tbody>
                {timeline.shares.map((s) => (
                  <tr key={s.window}>
                    <th scope="row">{s.window}</th>
                    <td>
                      {s.start} to {s.end}
                    </td>
                    <td>{formatNumber(s.total_iops)}</td>
                    {timeline.layers.map((l) => (
                      <td key={l.name}>{formatNumber(s.layers[l.name] ?? 0)}</td>
                    ))}
                    <td>{s.together.join(', ') || '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {timeline.notes.length ? (
            <div className="notice">
              <ul>
                {timeline.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="row-actions">
            <button type="button" className="primary" disabled={lineUp.isPending} onClick={() => onUse(timeline.workloads, hasWorkloads ? 'add' : 'replace')}>
              {hasWorkloads ? 'Add these workloads and size' : 'Size these workloads'}
            </button>
            {hasWorkloads ? (
              <button type="button" disabled={lineUp.isPending} onClick={() => onUse(timeline.workloads, 'replace')}>
                Replace the workloads and size
              </button>
            ) : null}
          </div>
        </section>
      ) : null}
    </section>
  );
}
