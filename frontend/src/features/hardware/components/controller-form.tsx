import { useState } from 'react';

import { FormErrors, SelectField, TextField } from '@/components';
import type { ControllerRecord, ControllerSpec, HaMode, HardwareRecord } from '@/lib/api-types';

import { useSaveHardware } from '../hooks/use-save-hardware';
import { specErrors } from '../lib/spec-errors';
import { SpecFields, type NumberSpec } from './spec-fields';

type NumberKey =
  | 'count'
  | 'cores'
  | 'dram_cache_gb'
  | 'nvram_mb'
  | 'max_iops'
  | 'max_mb_s'
  | 'cpu_us_read_hit'
  | 'cpu_us_read_miss'
  | 'cpu_us_write'
  | 'cpu_us_per_kib'
  | 'write_ack_ms'
  | 'cache_hit_ms';

type DraftController = { model: string; ha_mode: HaMode; source: string } & Partial<Record<NumberKey, number | null>>;

const MAIN: NumberSpec<NumberKey>[] = [
  { key: 'count', label: 'Controllers (nodes)', integer: true, hint: 'In the whole system' },
  { key: 'cores', label: 'CPU cores per controller' },
  { key: 'dram_cache_gb', label: 'DRAM read cache per controller', unit: 'GB' },
  { key: 'nvram_mb', label: 'NVRAM per controller', unit: 'MB' },
  { key: 'max_iops', label: 'IOPS ceiling per controller', optional: true, hint: 'Empty: CPU-bound only' },
  { key: 'max_mb_s', label: 'MB/s ceiling per controller', optional: true },
];
const CPU: NumberSpec<NumberKey>[] = [
  { key: 'cpu_us_read_hit', label: 'CPU per cached read', unit: 'µs' },
  { key: 'cpu_us_read_miss', label: 'CPU per read from drives', unit: 'µs' },
  { key: 'cpu_us_write', label: 'CPU per write', unit: 'µs', hint: 'Incl. mirroring' },
  { key: 'cpu_us_per_kib', label: 'CPU per KiB moved', unit: 'µs' },
  { key: 'write_ack_ms', label: 'Write acknowledgement', unit: 'ms' },
  { key: 'cache_hit_ms', label: 'Read from DRAM', unit: 'ms' },
];

/** The engine's defaults (ControllerSpec), shown so the form starts from a working controller. */
export const EMPTY_CONTROLLER: DraftController = {
  model: '',
  ha_mode: 'active-active',
  source: 'user-defined',
  count: 2,
  cores: 8,
  dram_cache_gb: 32,
  nvram_mb: 512,
  max_iops: null,
  max_mb_s: null,
  cpu_us_read_hit: 20,
  cpu_us_read_miss: 60,
  cpu_us_write: 80,
  cpu_us_per_kib: 0.5,
  write_ack_ms: 0.3,
  cache_hit_ms: 0.2,
};

const SHOWN = ['model', 'ha_mode', 'source', ...[...MAIN, ...CPU].map((f) => f.key)];

/** The form's draft of a saved controller: the figures it shows (the rest of the spec is kept as it is). */
function fromRecord(r: ControllerRecord): DraftController {
  const c: DraftController = { model: r.spec.model, ha_mode: r.spec.ha_mode, source: r.spec.source };
  for (const f of [...MAIN, ...CPU]) c[f.key] = r.spec[f.key] ?? null;
  return c;
}

const HA_MODES: { value: HaMode; label: string }[] = [
  { value: 'active-active', label: 'Active-active' },
  { value: 'active-passive', label: 'Active-passive' },
  { value: 'single', label: 'Single controller' },
  { value: 'scale-out', label: 'Scale-out nodes' },
];

type ControllerFormProps = {
  /** The saved controller to edit (PUT); none: a new one (POST). */
  record?: ControllerRecord | null;
  onSaved: (record: HardwareRecord) => void;
  onCancel?: () => void;
};

/** A custom controller (per controller figures and how many the system has); it can replace an array's own in the builder. */
export function ControllerForm({ record, onSaved, onCancel }: ControllerFormProps) {
  const [c, setC] = useState<DraftController>(() => (record ? fromRecord(record) : EMPTY_CONTROLLER));
  const save = useSaveHardware(record);
  const errors = specErrors(save.error, SHOWN, (field) => save.changed(field, c));
  const set = (key: NumberKey, value: number | null) => setC((x) => ({ ...x, [key]: value }));

  return (
    <form
      className="hardware-form"
      aria-label={record ? 'Edit controller' : 'New controller'}
      onSubmit={(e) => {
        e.preventDefault();
        // an edit keeps the figures the form does not show (e.g. the CPU multipliers)
        const spec = { ...record?.spec, ...c, source: c.source || 'user-defined' } as ControllerSpec;
        save.save(
          { kind: 'controller', name: null, spec },
          (saved) => {
          if (!record) setC(EMPTY_CONTROLLER);
          onSaved(saved);
        },
          c,
        );
      }}
    >
      <div className="grid grid-4">
        <TextField label="Controller model" value={c.model} onChange={(model) => setC((x) => ({ ...x, model }))} maxLength={120} errors={[...errors.at('model'), ...errors.name]} />
        <SelectField label="High availability" value={c.ha_mode} onChange={(v) => setC((x) => ({ ...x, ha_mode: v as HaMode }))} options={HA_MODES} errors={errors.at('ha_mode')} />
        <TextField label="Source" value={c.source} onChange={(source) => setC((x) => ({ ...x, source }))} hint="Datasheet, test, estimate" errors={errors.at('source')} />
      </div>
      <SpecFields fields={MAIN} values={c} onChange={set} errors={errors} />
      <details className="options">
        <summary>CPU costs and latencies</summary>
        <SpecFields fields={CPU} values={c} onChange={set} errors={errors} />
      </details>
      <FormErrors title="The API refused this controller" messages={errors.general} />
      <div className="row-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : record ? 'Save the controller' : 'Add the controller'}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {save.isError && errors.count === 0 ? <FormErrors title="The controller could not be saved" messages={[(save.error as Error).message]} /> : null}
    </form>
  );
}
