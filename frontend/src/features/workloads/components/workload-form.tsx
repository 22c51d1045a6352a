import { NumberField, SelectField, TextField } from '@/components';
import type { Phase, Workload } from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';

import { blankPhase, uniqueName } from '../lib/workload-model';
import { ImportPhase } from './import-phase';
import { PhaseEditor } from './phase-editor';

type WorkloadFormProps = {
  workload: Workload;
  onChange: (workload: Workload) => void;
  onRemove?: () => void;
  /** Errors scoped to this workload (`workloads.i`). */
  errors: FieldErrors;
  /** Every window name in use across all workloads (for the window pickers). */
  windows: string[];
  windowListId: string;
};

type WorkingSetMode = 'all' | 'gb' | 'pct';
type SkewMode = 'uniform' | 'zipf' | 'rule';

function workingSetMode(w: Workload): WorkingSetMode {
  if (w.working_set_gb != null) return 'gb';
  if (w.working_set_pct != null) return 'pct';
  return 'all';
}

function skewMode(w: Workload): SkewMode {
  if (w.skew?.io_pct != null || w.skew?.data_pct != null) return 'rule';
  if (w.skew?.zipf_alpha != null) return 'zipf';
  return 'uniform';
}

/** One workload: capacity and growth, data reduction, working set and skew, replication, phases by window. */
export function WorkloadForm({ workload, onChange, onRemove, errors, windows, windowListId }: WorkloadFormProps) {
  const set = (patch: Partial<Workload>) => onChange({ ...workload, ...patch });
  const wsMode = workingSetMode(workload);
  const sMode = skewMode(workload);
  const skew = workload.skew ?? { zipf_alpha: null, io_pct: null, data_pct: null };
  const repl = workload.replication ?? { mode: 'none', io_amplification: 1, capacity_amplification: 1, sync_latency_ms: 0 };

  // phases grouped by window, in first-seen order, keeping each phase's index for updates and errors
  const groups = new Map<string, { phase: Phase; index: number }[]>();
  workload.phases.forEach((phase, index) => {
    const list = groups.get(phase.window) ?? [];
    list.push({ phase, index });
    groups.set(phase.window, list);
  });

  function setPhase(index: number, phase: Phase) {
    set({ phases: workload.phases.map((p, i) => (i === index ? phase : p)) });
  }
  function addPhase(window: string) {
    const name = uniqueName('phase', workload.phases.map((p) => p.name));
    set({ phases: [...workload.phases, blankPhase(window, name)] });
  }
  function addWindow() {
    const window = uniqueName('window', windows);
    addPhase(window);
  }

  return (
    <section className="card workload" aria-label={`Workload ${workload.name}`}>
      <div className="card-head">
        <h3>{workload.name}</h3>
        {onRemove ? (
          <button type="button" className="link-button" onClick={onRemove}>
            Remove workload
          </button>
        ) : null}
      </div>
      {errors.here().length ? (
        <p className="field-error" role="alert">
          {errors.here().join(' ')}
        </p>
      ) : null}

      <fieldset className="plain">
        <legend>Capacity</legend>
        <div className="grid grid-4">
          <TextField label="Workload name" value={workload.name} onChange={(name) => set({ name })} errors={errors.at('name')} maxLength={80} />
          <NumberField label="Capacity today" unit="TB" value={workload.capacity_tb} min={0} onChange={(v) => set({ capacity_tb: v ?? 0 })} errors={errors.at('capacity_tb')} />
          <NumberField label="Growth" unit="%/year" value={workload.growth_pct_per_year} min={0} onChange={(v) => set({ growth_pct_per_year: v ?? 0 })} errors={errors.at('growth_pct_per_year')} />
          <NumberField label="Horizon" unit="years" value={workload.horizon_years} min={0} max={20} onChange={(v) => set({ horizon_years: v ?? 0 })} errors={errors.at('horizon_years')} />
          <NumberField label="Deduplication ratio" unit=":1" value={workload.dedupe_ratio} min={1} onChange={(v) => set({ dedupe_ratio: v ?? 1 })} errors={errors.at('dedupe_ratio')} />
          <NumberField label="Compression ratio" unit=":1" value={workload.compression_ratio} min={1} onChange={(v) => set({ compression_ratio: v ?? 1 })} errors={errors.at('compression_ratio')} />
          <NumberField label="Snapshot reserve" unit="%" value={workload.snapshot_reserve_pct} min={0} max={100} onChange={(v) => set({ snapshot_reserve_pct: v ?? 0 })} errors={errors.at('snapshot_reserve_pct')} />
          <NumberField
            label="Snapshot change rate"
            unit="%/day"
            value={workload.snapshot_change_pct_per_day ?? 0}
            min={0}
            max={100}
            onChange={(v) => set({ snapshot_change_pct_per_day: v ?? 0 })}
            errors={errors.at('snapshot_change_pct_per_day')}
          />
          <NumberField
            label="Snapshot retention"
            unit="days"
            value={workload.snapshot_retention_days ?? 0}
            min={0}
            onChange={(v) => set({ snapshot_retention_days: v ?? 0 })}
            errors={errors.at('snapshot_retention_days')}
          />
        </div>
      </fieldset>

      <fieldset className="plain">
        <legend>Working set and skew</legend>
        <div className="grid grid-4">
          <SelectField
            label="Working set"
            value={wsMode}
            onChange={(m) =>
              set(
                m === 'gb'
                  ? { working_set_gb: workload.working_set_gb ?? Math.round(workload.capacity_tb * 100), working_set_pct: null }
                  : m === 'pct'
                    ? { working_set_pct: workload.working_set_pct ?? 10, working_set_gb: null }
                    : { working_set_gb: null, working_set_pct: null },
              )
            }
            options={[
              { value: 'all', label: 'Whole capacity' },
              { value: 'gb', label: 'Size in GB' },
              { value: 'pct', label: '% of capacity' },
            ]}
          />
          {wsMode === 'gb' ? (
            <NumberField label="Working set" unit="GB" value={workload.working_set_gb} min={0} onChange={(v) => set({ working_set_gb: v })} errors={errors.at('working_set_gb')} />
          ) : null}
          {wsMode === 'pct' ? (
            <NumberField label="Working set" unit="% of capacity" value={workload.working_set_pct} min={0} max={100} onChange={(v) => set({ working_set_pct: v })} errors={errors.at('working_set_pct')} />
          ) : null}
          <SelectField
            label="Access skew"
            value={sMode}
            onChange={(m) =>
              set({
                skew:
                  m === 'zipf'
                    ? { zipf_alpha: skew.zipf_alpha ?? 0.9, io_pct: null, data_pct: null }
                    : m === 'rule'
                      ? { zipf_alpha: null, io_pct: skew.io_pct ?? 80, data_pct: skew.data_pct ?? 20 }
                      : { zipf_alpha: null, io_pct: null, data_pct: null },
              })
            }
            options={[
              { value: 'uniform', label: 'Uniform' },
              { value: 'zipf', label: 'Zipf exponent' },
              { value: 'rule', label: 'x% of I/O to y% of data' },
            ]}
            errors={errors.at('skew')}
          />
          {sMode === 'zipf' ? (
            <NumberField label="Zipf alpha" value={skew.zipf_alpha} min={0} max={3} onChange={(v) => set({ skew: { ...skew, zipf_alpha: v } })} errors={errors.at('skew.zipf_alpha')} />
          ) : null}
          {sMode === 'rule' ? (
            <>
              <NumberField label="Hot I/O" unit="%" value={skew.io_pct} min={0} max={100} onChange={(v) => set({ skew: { ...skew, io_pct: v } })} errors={errors.at('skew.io_pct')} />
              <NumberField label="Goes to data" unit="%" value={skew.data_pct} min={0} max={100} onChange={(v) => set({ skew: { ...skew, data_pct: v } })} errors={errors.at('skew.data_pct')} />
            </>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="plain">
        <legend>Replication</legend>
        <div className="grid grid-4">
          <SelectField
            label="Replication"
            value={repl.mode ?? 'none'}
            onChange={(mode) => set({ replication: { ...repl, mode: mode as typeof repl.mode } })}
            options={[
              { value: 'none', label: 'None' },
              { value: 'async', label: 'Asynchronous' },
              { value: 'sync', label: 'Synchronous' },
              { value: 'cdp', label: 'Continuous data protection' },
            ]}
            errors={errors.at('replication.mode')}
          />
          {repl.mode !== 'none' ? (
            <>
              <NumberField label="Write amplification" unit="x" value={repl.io_amplification} min={1} max={3} onChange={(v) => set({ replication: { ...repl, io_amplification: v ?? 1 } })} errors={errors.at('replication.io_amplification')} />
              <NumberField label="Capacity amplification" unit="x" value={repl.capacity_amplification} min={1} max={3} onChange={(v) => set({ replication: { ...repl, capacity_amplification: v ?? 1 } })} errors={errors.at('replication.capacity_amplification')} />
            </>
          ) : null}
          {repl.mode === 'sync' ? (
            <NumberField label="Added write latency" unit="ms" value={repl.sync_latency_ms} min={0} onChange={(v) => set({ replication: { ...repl, sync_latency_ms: v ?? 0 } })} errors={errors.at('replication.sync_latency_ms')} />
          ) : null}
        </div>
      </fieldset>

      <div className="windows">
        <h4>Phases by window</h4>
        <p className="muted">
          Phases in the same window run at the same time, across workloads; every window is checked on its own.
        </p>
        {errors.at('phases').length ? <p className="field-error">{errors.at('phases').join(' ')}</p> : null}
        {[...groups.entries()].map(([window, phases]) => (
          // keyed by its first phase, not its name: renaming a window keeps its phases mounted (focus stays)
          <section key={phases[0]!.index} className="window-group" aria-label={`Window ${window}`}>
            <h5>
              Window <q>{window}</q>
            </h5>
            {phases.map(({ phase, index }) => (
              <PhaseEditor
                key={index}
                phase={phase}
                workloadName={workload.name}
                onChange={(p) => setPhase(index, p)}
                onRemove={workload.phases.length > 1 ? () => set({ phases: workload.phases.filter((_, i) => i !== index) }) : undefined}
                errors={errors.scope(`phases.${index}`)}
                windowListId={windowListId}
              />
            ))}
            <button type="button" onClick={() => addPhase(window)}>
              Add a phase to <q>{window}</q>
            </button>
          </section>
        ))}
        <div className="row-actions">
          <button type="button" onClick={addWindow}>
            Add a window
          </button>
        </div>
        <ImportPhase
          windows={windows}
          onImport={(phase) => {
            const name = uniqueName(phase.name, workload.phases.map((p) => p.name));
            set({ phases: [...workload.phases, { ...phase, name }] });
          }}
        />
      </div>
    </section>
  );
}
