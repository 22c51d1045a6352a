import { CommitTextField, formatNumber, NumberField, SelectField, TextField } from '@/components';
import type { ObservedLoad, Phase } from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';

import { ioRows, withIoRows } from '../lib/workload-model';
import { IoMixTable } from './io-mix-table';

type PhaseEditorProps = {
  phase: Phase;
  onChange: (phase: Phase) => void;
  onRemove?: () => void;
  /** Errors scoped to this phase (`workloads.i.phases.j`). */
  errors: FieldErrors;
  /** id of the datalist of known window names. */
  windowListId: string;
  workloadName: string;
};

/** One phase: name, window, rate (IOPS or MB/s), read and random shares, I/O-size mix, targets. */
export function PhaseEditor({ phase, onChange, onRemove, errors, windowListId, workloadName }: PhaseEditorProps) {
  const byMbs = phase.iops === 0 && phase.mb_per_s !== null && phase.mb_per_s !== undefined;
  const set = (patch: Partial<Phase>) => onChange({ ...phase, ...patch });
  const title = `${workloadName}, phase ${phase.name}`;
  const mixErrors = [...errors.here(), ...errors.at('io_sizes'), ...errors.at('io_size_kib')];

  return (
    <fieldset className="phase card-inner">
      <legend>Phase {phase.name}</legend>
      <div className="phase-body">
      <div className="grid grid-3">
        <TextField label="Phase name" value={phase.name} onChange={(name) => set({ name })} errors={errors.at('name')} maxLength={80} />
        <CommitTextField
          label="Window"
          value={phase.window}
          onCommit={(window) => set({ window })}
          errors={errors.at('window')}
          list={windowListId}
          maxLength={80}
        />
        <SelectField
          label="Rate given as"
          value={byMbs ? 'mbs' : 'iops'}
          onChange={(v) =>
            v === 'mbs'
              ? set({ iops: 0, mb_per_s: phase.mb_per_s ?? 100 })
              : set({ iops: phase.iops || 1000, mb_per_s: null })
          }
          options={[
            { value: 'iops', label: 'IOPS' },
            { value: 'mbs', label: 'MB/s (streaming)' },
          ]}
        />
        {byMbs ? (
          <NumberField
            label="Throughput"
            unit="MB/s"
            value={phase.mb_per_s}
            min={0}
            onChange={(v) => set({ mb_per_s: v ?? 0 })}
            errors={errors.at('mb_per_s')}
          />
        ) : (
          <NumberField label="IOPS" value={phase.iops} min={0} onChange={(v) => set({ iops: v ?? 0 })} errors={errors.at('iops')} />
        )}
        <NumberField label="Reads" unit="%" value={phase.read_pct} min={0} max={100} onChange={(v) => set({ read_pct: v ?? 0 })} errors={errors.at('read_pct')} />
        <NumberField
          label="Random"
          unit="%"
          value={phase.random_pct}
          min={0}
          max={100}
          onChange={(v) => set({ random_pct: v ?? 0 })}
          errors={errors.at('random_pct')}
        />
        <NumberField
          label="Read latency target"
          unit="ms"
          value={phase.read_latency_target_ms}
          optional
          min={0}
          placeholder="none"
          onChange={(v) => set({ read_latency_target_ms: v })}
          errors={errors.at('read_latency_target_ms')}
        />
        <NumberField
          label="Working set (this phase)"
          unit="GB"
          value={phase.working_set_gb}
          optional
          min={0}
          placeholder="workload's"
          onChange={(v) => set({ working_set_gb: v })}
          errors={errors.at('working_set_gb')}
        />
        <NumberField
          label="Overwrites absorbed in cache"
          unit="%"
          value={phase.write_overwrite_pct}
          min={0}
          max={100}
          onChange={(v) => set({ write_overwrite_pct: v ?? 0 })}
          errors={errors.at('write_overwrite_pct')}
        />
        <NumberField
          label="Outstanding I/Os (queue depth)"
          value={phase.concurrency}
          optional
          min={0}
          placeholder="not stated"
          hint="Stated, it lets the drives reorder up to that many commands (shorter seeks, fewer drives); unstated, sizing assumes one command per drive."
          onChange={(v) => set({ concurrency: v })}
          errors={errors.at('concurrency')}
        />
        <NumberField
          label="Sequential streams"
          value={phase.sequential_streams}
          optional
          min={1}
          step={1}
          placeholder="many"
          hint="1 = a single stream the drives read without seeking; unstated or more, each readahead pays a seek."
          onChange={(v) => set({ sequential_streams: v })}
          errors={errors.at('sequential_streams')}
        />
        <NumberField
          label="Host readahead per stream"
          unit="KiB"
          value={phase.readahead_kib}
          optional
          min={4}
          max={65536}
          placeholder="the array's prefetch"
          hint="What each stream keeps requested ahead of itself at the host (a file system's or client's readahead); each request costs one seek at the drives when streams interleave."
          onChange={(v) => set({ readahead_kib: v })}
          errors={errors.at('readahead_kib')}
        />
      </div>
      <IoMixTable
        label={title}
        rows={ioRows(phase)}
        onChange={(rows) => onChange(withIoRows(phase, rows))}
        errors={mixErrors}
        rowErrors={(i, f) => errors.at(`io_sizes.${i}.${f}`)}
      />
      </div>
      {phase.observed ? <ObservedNote observed={phase.observed} /> : null}
      {onRemove ? (
        <button type="button" className="link-button phase-remove" onClick={onRemove} aria-label={`Remove this phase (${phase.name})`}>
          Remove this phase
        </button>
      ) : null}
    </fieldset>
  );
}

/** What the host measured in this phase's window: evidence shown beside the inputs, never an input. */
function ObservedNote({ observed: o }: { observed: ObservedLoad }) {
  const ms = (x: number | null | undefined) => (x == null ? '–' : formatNumber(x));
  return (
    <p className="observed-note muted">
      Observed on the host ({o.source}): {formatNumber(o.iops)} IOPS mean, {formatNumber(o.read_pct)} % reads, latency {ms(o.read_latency_ms)} /{' '}
      {ms(o.write_latency_ms)} ms (read / write){o.queue_length != null ? `, queue ${formatNumber(o.queue_length)}` : ''}.
    </p>
  );
}
