import { useState } from 'react';

import { FormErrors, SelectField, TextField } from '@/components';
import type { CustomDriveSpec, DriveKind, DriveRecord, HardwareRecord } from '@/lib/api-types';

import { useSaveHardware } from '../hooks/use-save-hardware';
import { specErrors } from '../lib/spec-errors';
import { SpecFields, type NumberSpec } from './spec-fields';

type NumberKey =
  | 'capacity_gb'
  | 'media_rate_mb_s'
  | 'rpm'
  | 'avg_read_seek_ms'
  | 'avg_write_seek_ms'
  | 'track_to_track_ms'
  | 'read_iops_4k'
  | 'write_iops_4k'
  | 'read_latency_us'
  | 'write_latency_us'
  | 'overhead_ms'
  | 'seq_write_mb_s'
  | 'right_sized_gib'
  | 'power_w'
  | 'price_usd';

type DraftDrive = { name: string; kind: DriveKind; interface: string; source: string } & Partial<Record<NumberKey, number | null>>;

const COMMON: NumberSpec<NumberKey>[] = [
  { key: 'capacity_gb', label: 'Capacity', unit: 'GB', hint: 'Marketed, decimal' },
  { key: 'media_rate_mb_s', label: 'Media rate', unit: 'MB/s', hint: 'Sustained transfer' },
];
const HDD: NumberSpec<NumberKey>[] = [
  { key: 'rpm', label: 'Spindle speed', unit: 'rpm', integer: true, optional: true },
  { key: 'avg_read_seek_ms', label: 'Average read seek', unit: 'ms', optional: true },
  { key: 'avg_write_seek_ms', label: 'Average write seek', unit: 'ms', optional: true },
  { key: 'track_to_track_ms', label: 'Track-to-track seek', unit: 'ms', optional: true },
];
const FLASH: NumberSpec<NumberKey>[] = [
  { key: 'read_iops_4k', label: 'Random 4 KiB reads', unit: 'IOPS', optional: true, hint: 'At high queue depth' },
  { key: 'write_iops_4k', label: 'Random 4 KiB writes', unit: 'IOPS', optional: true, hint: 'Steady state' },
  { key: 'read_latency_us', label: 'Read latency', unit: 'µs', optional: true, hint: 'Queue depth 1, 4 KiB' },
  { key: 'write_latency_us', label: 'Write latency', unit: 'µs', optional: true, hint: 'Queue depth 1, 4 KiB' },
];
const MORE: NumberSpec<NumberKey>[] = [
  { key: 'power_w', label: 'Power', unit: 'W', optional: true },
  { key: 'price_usd', label: 'List price', unit: 'USD', optional: true },
  { key: 'overhead_ms', label: 'Command overhead', unit: 'ms', optional: true, hint: 'Default 0.2' },
  { key: 'seq_write_mb_s', label: 'Sequential writes', unit: 'MB/s', optional: true },
  { key: 'right_sized_gib', label: 'Right-sized', unit: 'GiB', optional: true, hint: 'Usable after the array’s right-sizing' },
];

const INTERFACES = ['SAS', 'NL-SAS', 'SATA', 'FC', 'NVMe'];

export const EMPTY_DRIVE: DraftDrive = { name: '', kind: 'ssd', interface: 'SAS', source: 'user-defined' };

const NUMBERS = [...COMMON, ...HDD, ...FLASH, ...MORE];
const SHOWN = ['name', 'kind', 'interface', 'source', ...NUMBERS.map((f) => f.key)];

/** The form's draft of a saved drive: its spec as it is. */
function fromRecord(r: DriveRecord): DraftDrive {
  const d: DraftDrive = { name: r.spec.name, kind: r.spec.kind, interface: r.spec.interface, source: r.spec.source };
  for (const f of NUMBERS) d[f.key] = r.spec[f.key] ?? null;
  return d;
}

function toSpec(d: DraftDrive): CustomDriveSpec {
  const spec: Record<string, unknown> = { name: d.name, kind: d.kind, interface: d.interface, source: d.source || 'user-defined' };
  const numbers = [...COMMON, ...(d.kind === 'hdd' ? HDD : FLASH), ...MORE];
  for (const f of numbers) {
    const v = d[f.key];
    if (v !== undefined && (v !== null || !f.optional)) spec[f.key] = v;
  }
  return spec as CustomDriveSpec;
}

type DriveFormProps = {
  /** The saved drive to edit (PUT); none: a new one (POST). */
  record?: DriveRecord | null;
  onSaved: (record: HardwareRecord) => void;
  onCancel?: () => void;
};

/** A custom drive: the figures the engine models a drive with (seek and rotation for hard disks, IOPS and latency for flash). */
export function DriveForm({ record, onSaved, onCancel }: DriveFormProps) {
  const [d, setD] = useState<DraftDrive>(() => (record ? fromRecord(record) : EMPTY_DRIVE));
  const save = useSaveHardware(record);
  const errors = specErrors(save.error, SHOWN, (field) => save.changed(field, d));
  const set = (key: NumberKey, value: number | null) => setD((x) => ({ ...x, [key]: value }));

  return (
    <form
      className="hardware-form"
      aria-label={record ? 'Edit drive' : 'New drive'}
      onSubmit={(e) => {
        e.preventDefault();
        save.save(
          { kind: 'drive', name: null, spec: toSpec(d) },
          (saved) => {
            if (!record) setD(EMPTY_DRIVE);
            onSaved(saved);
          },
          d,
        );
      }}
    >
      <div className="grid grid-4">
        <TextField label="Drive name" value={d.name} onChange={(name) => setD((x) => ({ ...x, name }))} maxLength={120} errors={[...errors.at('name'), ...errors.name]} />
        <SelectField
          label="Kind"
          value={d.kind}
          onChange={(kind) => setD((x) => ({ ...x, kind: kind as DriveKind, interface: kind === 'nvme' ? 'NVMe' : x.interface === 'NVMe' ? 'SAS' : x.interface }))}
          options={[
            { value: 'hdd', label: 'Hard disk' },
            { value: 'ssd', label: 'SSD' },
            { value: 'nvme', label: 'NVMe SSD' },
          ]}
          errors={errors.at('kind')}
        />
        <SelectField
          label="Interface"
          value={d.interface}
          onChange={(v) => setD((x) => ({ ...x, interface: v }))}
          options={INTERFACES.map((i) => ({ value: i, label: i }))}
          errors={errors.at('interface')}
        />
        <TextField label="Source" value={d.source} onChange={(source) => setD((x) => ({ ...x, source }))} hint="Datasheet, test, estimate" errors={errors.at('source')} />
      </div>
      <SpecFields fields={[...COMMON, ...(d.kind === 'hdd' ? HDD : FLASH)]} values={d} onChange={set} errors={errors} />
      <details className="options">
        <summary>Power, price and more</summary>
        <SpecFields fields={MORE} values={d} onChange={set} errors={errors} />
      </details>
      <FormErrors title="The API refused this drive" messages={errors.general} />
      <div className="row-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : record ? 'Save the drive' : 'Add the drive'}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {save.isError && errors.count === 0 ? <FormErrors title="The drive could not be saved" messages={[(save.error as Error).message]} /> : null}
    </form>
  );
}
