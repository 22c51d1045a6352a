import { useId, useState } from 'react';

import { FormErrors, NumberField, SelectField, TextField, type SelectGroup } from '@/components';
import type { ArrayModel, ArrayRecord, ControllerRecord, CustomArraySpec, DriveSpec, HardwareRecord, RaidScheme } from '@/lib/api-types';

import { useSaveHardware } from '../hooks/use-save-hardware';
import { specErrors } from '../lib/spec-errors';

type ArrayFormProps = {
  /** Arrays to start from (catalog and custom). */
  arrays: ArrayModel[];
  /** Every drive (catalog and custom), for names and choices. */
  drives: DriveSpec[];
  /** Custom controllers that can replace the base's. */
  controllers: ControllerRecord[];
  /** The saved array to edit (PUT), its own spec the base; none: a new one made from a base (POST). */
  record?: ArrayRecord | null;
  onSaved: (record: HardwareRecord) => void;
  onCancel?: () => void;
};

type Draft = {
  baseId: string;
  vendor: string;
  model: string;
  family: string;
  era: number | null;
  controllerId: string;
  drives: string[];
  defaultDrive: string;
  defaultDriveCount: number | null;
  maxDrives: number | null;
  defaultRaid: string;
  source: string;
};

const SHOWN = ['vendor', 'model', 'family', 'era', 'controller', 'drives', 'default_drive', 'default_drive_count', 'max_drives', 'default_raid', 'source'];

/** A draft from `base`: a copy named "(custom)", or the saved array itself (`edit`). */
function fromBase(base: ArrayModel, edit = false): Draft {
  return {
    baseId: base.id,
    vendor: base.vendor,
    model: edit ? base.model : `${base.model} (custom)`,
    family: base.family,
    era: base.era,
    controllerId: '',
    drives: [...(base.drives ?? [])],
    defaultDrive: base.default_drive ?? '',
    defaultDriveCount: base.default_drive_count,
    maxDrives: base.max_drives,
    defaultRaid: base.default_raid,
    source: edit ? base.source : 'user-defined',
  };
}

function groups(arrays: ArrayModel[]): SelectGroup[] {
  const vendors = [...new Set(arrays.map((a) => a.vendor))].sort((a, b) => a.localeCompare(b));
  return vendors.map((v) => ({
    label: v,
    options: arrays.filter((a) => a.vendor === v).map((a) => ({ value: a.id, label: `${a.model} (${a.era})` })),
  }));
}

/**
 * A custom array, made from one that exists: its RAID options, ports, packaging, flash cache and
 * reserves are copied; the name, controller, drives and limits are yours. Editing a saved array
 * starts from the array itself.
 */
export function ArrayForm({ arrays, drives, controllers, record, onSaved, onCancel }: ArrayFormProps) {
  const [draft, setD] = useState<Draft | null>(() => (record ? fromBase(record.spec, true) : null));
  const first = arrays.find((a) => a.id === 'generic') ?? arrays[0];
  const d = draft ?? (first ? fromBase(first) : null);
  const save = useSaveHardware(record);
  const errors = specErrors(save.error, SHOWN, (field) => (d ? save.changed(field, d) : false));
  const drivesId = useId();
  const base = record ? record.spec : arrays.find((a) => a.id === d?.baseId);
  if (!d || !base) return <p className="empty">The catalog's arrays are needed to start from.</p>;

  const set = (patch: Partial<Draft>) => setD({ ...d, ...patch });
  const custom = drives.filter((x) => x.source === 'user-defined');
  const offered = [...new Set([...(base.drives ?? []), ...custom.map((x) => x.id), ...d.drives])];
  const driveName = (id: string) => drives.find((x) => x.id === id)?.name ?? id;
  const controller = controllers.find((c) => c.id === d.controllerId);

  function submit() {
    if (!d || !base) return;
    const { id: _id, ...rest } = base;
    const spec: CustomArraySpec = {
      ...rest,
      vendor: d.vendor,
      model: d.model,
      family: d.family,
      era: d.era as number,
      controller: controller ? controller.spec : base.controller,
      drives: d.drives,
      default_drive: d.defaultDrive || null,
      default_drive_count: d.defaultDriveCount as number,
      max_drives: d.maxDrives as number,
      default_raid: d.defaultRaid as RaidScheme,
      source: d.source || 'user-defined',
    };
    save.save(
      { kind: 'array', name: null, spec },
      (saved) => {
      if (!record) setD(fromBase(base));
      onSaved(saved);
    },
      d,
    );
  }

  return (
    <form
      className="hardware-form"
      aria-label={record ? 'Edit array' : 'New array'}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="grid grid-4">
        {record ? null : (
          <SelectField
            label="Start from"
            value={d.baseId}
            options={groups(arrays)}
            hint="RAID options, ports, packaging, flash cache and reserves are copied from it"
            onChange={(id) => {
              const a = arrays.find((x) => x.id === id);
              if (a) setD(fromBase(a));
            }}
          />
        )}
        <TextField label="Vendor" value={d.vendor} onChange={(vendor) => set({ vendor })} maxLength={80} errors={errors.at('vendor')} />
        <TextField label="Model" value={d.model} onChange={(model) => set({ model })} maxLength={120} errors={[...errors.at('model'), ...errors.name]} />
        <TextField label="Family" value={d.family} onChange={(family) => set({ family })} maxLength={80} errors={errors.at('family')} />
        <NumberField label="Year" value={d.era} min={1990} max={2100} step={1} errors={errors.at('era')} onChange={(era) => set({ era: era === null ? null : Math.round(era) })} />
        <SelectField
          label="Controllers"
          value={d.controllerId}
          options={[
            { value: '', label: `${record ? 'As now' : 'As the base'}: ${base.controller.count} x ${base.controller.model}` },
            ...controllers.map((c) => ({ value: c.id, label: `Custom: ${c.spec.count} x ${c.name}` })),
          ]}
          errors={errors.at('controller')}
          onChange={(controllerId) => set({ controllerId })}
        />
        <NumberField
          label="Drives in the entry configuration"
          value={d.defaultDriveCount}
          min={1}
          step={1}
          errors={errors.at('default_drive_count')}
          onChange={(v) => set({ defaultDriveCount: v === null ? null : Math.round(v) })}
        />
        <NumberField label="Drives at most" value={d.maxDrives} min={1} step={1} errors={errors.at('max_drives')} onChange={(v) => set({ maxDrives: v === null ? null : Math.round(v) })} />
        <SelectField
          label="Default RAID scheme"
          value={d.defaultRaid}
          options={base.raid.map((r) => ({ value: r.scheme, label: r.scheme }))}
          errors={errors.at('default_raid')}
          onChange={(defaultRaid) => set({ defaultRaid })}
        />
        <SelectField
          label="Default drive"
          value={d.defaultDrive}
          options={[{ value: '', label: 'None' }, ...d.drives.map((id) => ({ value: id, label: driveName(id) }))]}
          errors={errors.at('default_drive')}
          onChange={(defaultDrive) => set({ defaultDrive })}
        />
        <TextField label="Source" value={d.source} onChange={(source) => set({ source })} errors={errors.at('source')} />
      </div>
      <fieldset className="plain drive-choices" aria-describedby={`${drivesId}-hint`}>
        <legend>Supported drives</legend>
        <p className="field-hint" id={`${drivesId}-hint`}>
          {base.any_drive ? `${record ? 'It' : 'The base'} takes any drive; listing some is optional.` : 'The drives this array can be built with (custom drives marked).'}
        </p>
        <div className="checkbox-grid">
          {offered.map((id) => (
            <label key={id} className="checkbox">
              <input
                type="checkbox"
                checked={d.drives.includes(id)}
                onChange={(e) =>
                  set({
                    drives: e.target.checked ? [...d.drives, id] : d.drives.filter((x) => x !== id),
                    defaultDrive: !e.target.checked && d.defaultDrive === id ? '' : d.defaultDrive,
                  })
                }
              />{' '}
              {driveName(id)}
              {custom.some((x) => x.id === id) ? <span className="muted"> · custom</span> : null}
            </label>
          ))}
        </div>
        {errors.at('drives').length ? <p className="field-error">{errors.at('drives').join(' ')}</p> : null}
      </fieldset>
      <FormErrors title="The API refused this array" messages={errors.general} />
      <div className="row-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : record ? 'Save the array' : 'Add the array'}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {save.isError && errors.count === 0 ? <FormErrors title="The array could not be saved" messages={[(save.error as Error).message]} /> : null}
    </form>
  );
}
