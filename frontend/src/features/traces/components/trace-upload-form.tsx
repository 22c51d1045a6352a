import { useRef, useState } from 'react';

import { ErrorState, Field, FormErrors, NumberField, SelectField, TextField } from '@/components';
import { ApiError, fieldPath } from '@/lib/api-error';
import type { TraceFormat } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';

import { useUploadTrace, type TraceUploadOptions, type UploadProgress } from '../api/upload-trace';
import { bytes, rejectionOf } from '../lib/format';
import { BadLines } from './bad-lines';

type TraceUploadFormProps = {
  /** Called with the job id once the server has accepted the upload. */
  onCreated: (jobId: string) => void;
};

const FORMATS: { value: '' | TraceFormat; label: string }[] = [
  { value: '', label: 'Detect from the first lines' },
  { value: 'csv', label: 'Plain CSV: time_s,op,offset,size[,latency_ms]' },
  { value: 'msr', label: 'MSR Cambridge / SNIA CSV' },
  { value: 'blkparse', label: 'blkparse text' },
  { value: 'fio', label: 'fio iolog (v2/v3)' },
  { value: 'alibaba', label: 'Alibaba Cloud block trace' },
  { value: 'tencent', label: 'Tencent CBS trace' },
  { value: 'spc', label: 'SNIA SPC / UMass trace' },
];

const BLOCKS = [4, 8, 16, 32, 64, 128, 256, 512, 1024] as const;
type BlockKib = (typeof BLOCKS)[number];

/** The names in a comma-separated list, or null (every volume) for none. */
export function volumeList(text: string): string[] | null {
  const names = text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return names.length ? names : null;
}

/** Upload a block I/O trace with its analysis options; shows the upload's progress and the API's refusals. */
export function TraceUploadForm({ onCreated }: TraceUploadFormProps) {
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<'' | TraceFormat>('');
  const [intervalS, setIntervalS] = useState<number | null>(null);
  const [block, setBlock] = useState('');
  const [warmup, setWarmup] = useState<number | null>(null);
  const [latency, setLatency] = useState<number | null>(null);
  const [capacity, setCapacity] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [policies, setPolicies] = useState(false);
  const [volumes, setVolumes] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [missingFile, setMissingFile] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const upload = useUploadTrace();

  const error = upload.error instanceof ApiError ? upload.error : null;
  const rejection = rejectionOf(upload.error);
  const errors = fieldErrors(error?.isValidation ? error.fieldErrors : null);
  const known = new Set(['format', 'interval_s', 'block_kib', 'warmup_s', 'latency_target_ms', 'capacity_gb', 'name', 'policies', 'volumes', 'file']);
  const other = error?.isValidation ? error.issues.filter((i) => !known.has(fieldPath(i.loc))).map((i) => `${fieldPath(i.loc) || 'the upload'}: ${i.msg}`) : [];
  const cancelled = upload.error instanceof DOMException && upload.error.name === 'AbortError';

  function submit() {
    if (!file) {
      setMissingFile(true);
      return;
    }
    const options: TraceUploadOptions = {
      format: format || null,
      interval_s: intervalS,
      block_kib: block ? (Number(block) as BlockKib) : null, // one of BLOCKS: the select offers no other
      warmup_s: warmup,
      latency_target_ms: latency,
      capacity_gb: capacity,
      name: name.trim() || null,
      policies: policies ? ['arc', 's3fifo'] : null,
      volumes: volumeList(volumes),
    };
    abort.current = new AbortController();
    setProgress({ loaded: 0, total: file.size });
    upload.mutate(
      { file, options, onProgress: setProgress, signal: abort.current.signal },
      { onSuccess: (created) => onCreated(created.id) },
    );
  }

  const pct = progress && progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0;

  return (
    <form
      className="card trace-upload"
      aria-labelledby="trace-upload-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="trace-upload-title">Upload a trace</h2>
      <p className="muted">
        A block I/O trace (MSR/SNIA CSV, blkparse text, fio iolog, the Alibaba Cloud or Tencent CBS block traces, SNIA SPC/UMass, or
        plain CSV <code>time_s,op,offset,size</code> with an optional latency in ms), gzip-compressed or not. It is analysed on the server; this page follows the analysis and survives a reload.
      </p>
      <Field
        label="Trace file"
        hint={file ? `${file.name}, ${bytes(file.size)}` : 'Up to 2 GB'}
        errors={[...(missingFile ? ['Choose a trace file first.'] : []), ...errors.at('file')]}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            accept=".csv,.txt,.log,.trace,.gz,.blktrace,text/csv,text/plain,application/gzip"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setMissingFile(false);
            }}
          />
        )}
      </Field>
      <div className="grid grid-4 trace-options">
        <SelectField label="Format" value={format} onChange={(v) => setFormat(v as '' | TraceFormat)} options={FORMATS} errors={errors.at('format')} />
        <NumberField
          label="Interval"
          unit="s"
          value={intervalS}
          optional
          min={1}
          max={3600}
          placeholder="60"
          hint="Profile resolution, 1 s to 1 h"
          errors={errors.at('interval_s')}
          onChange={setIntervalS}
        />
        <SelectField
          label="Cache block"
          value={block}
          onChange={setBlock}
          options={[{ value: '', label: '4 KiB (default)' }, ...BLOCKS.slice(1).map((b) => ({ value: String(b), label: `${b} KiB` }))]}
          errors={errors.at('block_kib')}
        />
        <NumberField
          label="Cache warm-up"
          unit="s"
          value={warmup}
          optional
          min={0}
          placeholder="0"
          hint="Left out of the miss ratios"
          errors={errors.at('warmup_s')}
          onChange={setWarmup}
        />
        <NumberField
          label="Latency target"
          unit="ms"
          value={latency}
          optional
          min={0}
          placeholder="10"
          hint="For the pent-up demand check"
          errors={errors.at('latency_target_ms')}
          onChange={setLatency}
        />
        <NumberField
          label="Volume capacity"
          unit="GB"
          value={capacity}
          optional
          min={0}
          hint="Empty: the highest address written"
          errors={errors.at('capacity_gb')}
          onChange={setCapacity}
        />
        <TextField label="Workload name" value={name} onChange={setName} placeholder="trace" maxLength={80} errors={errors.at('name')} />
        <TextField
          label="Volumes"
          value={volumes}
          onChange={setVolumes}
          placeholder="all"
          hint="Comma-separated: a volume (usr/0, 1063) or a host (usr)"
          errors={[...errors.at('volumes'), ...(rejection?.volumes ? [`The trace holds ${rejection.volumes.join(', ')}`] : [])]}
        />
      </div>
      <label className="checkbox" htmlFor="trace-policies">
        <input id="trace-policies" type="checkbox" checked={policies} onChange={(e) => setPolicies(e.target.checked)} /> Also simulate ARC and
        S3-FIFO caches (libCacheSim): about doubles the analysis time
      </label>
      <div className="row-actions">
        <button type="submit" className="primary" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload and analyse'}
        </button>
        {upload.isPending ? (
          <button type="button" onClick={() => abort.current?.abort()}>
            Cancel the upload
          </button>
        ) : null}
      </div>
      {upload.isPending && progress ? (
        <div className="progress-block">
          <label htmlFor="trace-upload-progress">
            Uploading {file?.name}: {pct}% ({bytes(progress.loaded)} of {bytes(progress.total)})
          </label>
          <progress id="trace-upload-progress" value={pct} max={100} />
        </div>
      ) : null}
      {cancelled ? <p className="notice">The upload was cancelled.</p> : null}
      {rejection ? (
        <div className="error-state trace-rejection" role="alert">
          <p className="error-title">
            {rejection.volumes ? 'The volume filter matches none of the volumes in this trace' : 'This file is not a trace the reader understands'}
          </p>
          <p className="error-message">{rejection.detail}</p>
          {rejection.format || rejection.lines ? (
            <p>
              {rejection.format ? `Read as ${rejection.format}` : null}
              {rejection.lines ? `: ${rejection.malformed_lines ?? 0} of ${rejection.lines} lines malformed` : null}.
            </p>
          ) : null}
          <BadLines lines={rejection.bad_lines ?? []} total={rejection.malformed_lines} />
        </div>
      ) : null}
      {other.length ? <FormErrors title="The upload was refused" messages={other} /> : null}
      {upload.isError && !rejection && !error?.isValidation && !cancelled ? <ErrorState title="The upload failed" error={upload.error} /> : null}
    </form>
  );
}
