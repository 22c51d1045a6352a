import { useState, type FormEvent, type ReactNode } from 'react';

import { NumberField, SelectField, TextField } from '@/components';
import type {
  CatalogReference,
  ConsolidateRequest,
  ExpandRequest,
  QuoteCheckRequest,
  RefreshRequest,
  ReplicationRequest,
  Workload,
} from '@/lib/api-types';
import type { FieldErrors } from '@/lib/field-errors';

/** A catalog array as the forms offer it (the page builds these from the catalog). */
export type ArrayChoice = { id: string; label: string; drives: string[]; raid: string[] };
export type DriveChoice = { id: string; label: string };

type Common = {
  workloads: Workload[];
  arrays: ArrayChoice[];
  drives: DriveChoice[];
  pending?: boolean;
  /** The API's messages scoped to the request body. */
  errors: FieldErrors;
};

function Form({ title, onSubmit, pending, submit, children }: { title: string; onSubmit: () => void; pending?: boolean; submit: string; children: ReactNode }) {
  return (
    <form
      className="card plan-form"
      aria-label={title}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h2>{title}</h2>
      {children}
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Working…' : submit}
      </button>
    </form>
  );
}

/** A catalog reference to an array (the server fills in its defaults: drive, scheme, ports). */
const ref = (array_id: string, drive_count: number | null = null, name?: string) =>
  ({ array_id, drive_count, ...(name ? { name } : {}) }) as CatalogReference;

const arrayOptions = (arrays: ArrayChoice[]) => arrays.map((a) => ({ value: a.id, label: a.label }));
const driveOptions = (drives: DriveChoice[]) => drives.map((d) => ({ value: d.id, label: d.label }));
const windowsOf = (workloads: Workload[]) => [...new Set(workloads.flatMap((w) => w.phases.map((p) => p.window)))];

/** A vendor's bill of materials: model, array, drives, RAID, shelves, cache, controllers, release. */
export function QuoteForm({ workloads, arrays, drives, pending, errors, onSubmit }: Common & { onSubmit: (r: QuoteCheckRequest) => void }) {
  const [model, setModel] = useState('');
  const [arrayId, setArrayId] = useState('');
  const [driveId, setDriveId] = useState('');
  const [count, setCount] = useState<number | null>(null);
  const [raid, setRaid] = useState('');
  const [shelves, setShelves] = useState<number | null>(null);
  const [flash, setFlash] = useState<number | null>(0);
  const [controllers, setControllers] = useState<number | null>(null);
  const [release, setRelease] = useState('');
  const [text, setText] = useState('');
  const q = errors.scope('quote');
  const array = arrays.find((a) => a.id === arrayId);
  const fields = (): NonNullable<QuoteCheckRequest['quote']> => ({
    model,
    array_id: arrayId || null,
    drive_id: driveId,
    drive_count: count as number,
    raid_scheme: (raid || null) as NonNullable<QuoteCheckRequest['quote']>['raid_scheme'],
    shelves,
    flash_cache_gb: flash as number,
    controllers,
    software_release: release || null,
  });
  return (
    <Form
      title="The vendor's quote"
      submit="Check the quote"
      pending={pending}
      onSubmit={() => onSubmit(text.trim() ? { workloads, text, calibration_margin: 'pessimistic' } : { workloads, quote: fields(), calibration_margin: 'pessimistic' })}
    >
      <TextField
        label="Or paste the quote as text"
        value={text}
        onChange={setText}
        rows={4}
        maxLength={4000}
        placeholder={'NetApp FAS8040, 2 controllers\n6 x DS2246 shelves\n144 x 900GB 10K SAS\nRAID-DP, 1 TB Flash Cache'}
        hint="One item a line; when given, the fields below are not used"
        errors={errors.at('text')}
      />
      <div className="grid grid-3">
        <TextField label="Model as quoted" value={model} onChange={setModel} errors={q.at('model')} maxLength={120} />
        <SelectField
          label="Catalog array"
          value={arrayId}
          onChange={setArrayId}
          options={[{ value: '', label: 'Not in the catalog (estimate)' }, ...arrayOptions(arrays)]}
          errors={q.at('array_id')}
        />
        <SelectField
          label="Drive"
          value={driveId}
          onChange={setDriveId}
          placeholder="Choose a drive"
          options={driveOptions(drives)}
          errors={q.at('drive_id')}
        />
        <NumberField label="Drives quoted" unit="with spares" value={count} min={1} step={1} onChange={setCount} errors={q.at('drive_count')} />
        <SelectField
          label="RAID"
          value={raid}
          onChange={setRaid}
          options={[{ value: '', label: "The array's default" }, ...(array?.raid ?? []).map((r) => ({ value: r, label: r }))]}
          errors={q.at('raid_scheme')}
        />
        <NumberField label="Shelves quoted" value={shelves} optional min={0} step={1} onChange={setShelves} errors={q.at('shelves')} />
        <NumberField label="Flash cache" unit="GB" value={flash} min={0} onChange={setFlash} errors={q.at('flash_cache_gb')} />
        <NumberField label="Controllers quoted" value={controllers} optional min={1} step={1} onChange={setControllers} errors={q.at('controllers')} />
        <TextField label="Software release" value={release} onChange={setRelease} errors={q.at('software_release')} maxLength={80} />
      </div>
    </Form>
  );
}

/** Candidate families to buy, arrays already owned, and what to minimise. */
export function ConsolidateForm({ workloads, arrays, pending, errors, onSubmit }: Common & { onSubmit: (r: ConsolidateRequest) => void }) {
  const [candidates, setCandidates] = useState<string[]>([]);
  const [owned, setOwned] = useState<{ array_id: string; drive_count: number | null }[]>([]);
  const [objective, setObjective] = useState<'cost' | 'arrays' | 'rack_units'>('cost');
  const [fixedOnly, setFixedOnly] = useState(false);
  return (
    <Form
      title="Arrays to consolidate onto"
      submit="Consolidate"
      pending={pending}
      onSubmit={() =>
        onSubmit({
          workloads,
          calibration_margin: 'pessimistic',
          candidates: candidates.map((id) => ref(id)),
          fixed: owned.map((o, i) => ref(o.array_id, o.drive_count, `owned ${i + 1}`)),
          options: { objective, fixed_only: fixedOnly } as ConsolidateRequest['options'],
        })
      }
    >
      <fieldset className="plan-candidates">
        <legend>Candidate families (new arrays, sized for what they carry)</legend>
        {arrays.map((a) => (
          <label key={a.id} className="checkbox">
            <input
              type="checkbox"
              checked={candidates.includes(a.id)}
              onChange={(e) => setCandidates(e.target.checked ? [...candidates, a.id] : candidates.filter((c) => c !== a.id))}
            />
            {a.label}
          </label>
        ))}
        {errors.at('candidates').map((m) => (
          <p key={m} className="field-error">
            {m}
          </p>
        ))}
      </fieldset>
      <fieldset>
        <legend>Already owned (placements on them cost nothing)</legend>
        {owned.map((o, i) => (
          <div className="grid grid-3" key={i}>
            <SelectField
              label={`Owned array ${i + 1}`}
              value={o.array_id}
              onChange={(v) => setOwned(owned.map((x, j) => (j === i ? { ...x, array_id: v } : x)))}
              options={arrayOptions(arrays)}
              errors={errors.scope(`fixed.${i}`).at('array_id')}
            />
            <NumberField
              label={`Drives in owned array ${i + 1}`}
              value={o.drive_count}
              min={1}
              step={1}
              onChange={(v) => setOwned(owned.map((x, j) => (j === i ? { ...x, drive_count: v } : x)))}
              errors={errors.scope(`fixed.${i}`).at('drive_count')}
            />
            <button type="button" onClick={() => setOwned(owned.filter((_, j) => j !== i))}>
              Remove owned array {i + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setOwned([...owned, { array_id: arrays[0]?.id ?? '', drive_count: null }])}>
          Add an owned array
        </button>
      </fieldset>
      <div className="grid grid-3">
        <SelectField
          label="Minimise"
          value={objective}
          onChange={(v) => setObjective(v as typeof objective)}
          options={[
            { value: 'cost', label: 'List cost' },
            { value: 'arrays', label: 'Arrays' },
            { value: 'rack_units', label: 'Rack units' },
          ]}
        />
        <label className="checkbox">
          <input type="checkbox" checked={fixedOnly} onChange={(e) => setFixedOnly(e.target.checked)} />
          Only the arrays already owned
        </label>
      </div>
      {errors.scope('options').entries().map(([k, m]) => (
        <p key={k} className="field-error">
          {k}: {m.join('; ')}
        </p>
      ))}
    </Form>
  );
}

/** Async (snapshot) or sync replication, the windows' durations, the link, the DR array. */
export function ReplicationForm({ workloads, arrays, pending, errors, onSubmit }: Common & { onSubmit: (r: ReplicationRequest) => void }) {
  const windows = windowsOf(workloads);
  const [mode, setMode] = useState<'async' | 'sync'>('async');
  const [rpo, setRpo] = useState<number | null>(15);
  const [interval, setIntervalMinutes] = useState<number | null>(5);
  const [hours, setHours] = useState<Record<string, number | null>>(Object.fromEntries(windows.map((w) => [w, 8])));
  const [distance, setDistance] = useState<number | null>(0);
  const [link, setLink] = useState<number | null>(null);
  const [dr, setDr] = useState('');
  const p = errors.scope('plan');
  return (
    <Form
      title="Replication"
      submit="Size the replication"
      pending={pending}
      onSubmit={() =>
        onSubmit({
          workloads,
          calibration_margin: 'pessimistic',
          plan: {
            mode,
            rpo_minutes: mode === 'async' ? rpo : null,
            interval_minutes: mode === 'async' ? interval : null,
            window_hours: mode === 'async' ? (hours as Record<string, number>) : {},
            distance_km: distance as number,
            link_mbit_s: link,
          } as ReplicationRequest['plan'], // the server's defaults for the rest (efficiency, fibre, round trips)
          dr: dr ? ref(dr) : null,
        })
      }
    >
      <div className="grid grid-3">
        <SelectField
          label="Mode"
          value={mode}
          onChange={(v) => setMode(v as 'async' | 'sync')}
          options={[
            { value: 'async', label: 'Asynchronous (snapshots)' },
            { value: 'sync', label: 'Synchronous' },
          ]}
        />
        {mode === 'async' ? (
          <>
            <NumberField label="RPO" unit="min" value={rpo} min={0} onChange={setRpo} errors={p.at('rpo_minutes')} />
            <NumberField label="Snapshot interval" unit="min" value={interval} min={0} onChange={setIntervalMinutes} errors={p.at('interval_minutes')} />
            {windows.map((w) => (
              <NumberField
                key={w}
                label={`Hours of ${w}`}
                unit="h"
                value={hours[w] ?? null}
                min={0}
                onChange={(v) => setHours({ ...hours, [w]: v })}
                errors={p.scope('window_hours').at(w)}
              />
            ))}
          </>
        ) : (
          <NumberField label="Distance" unit="km" value={distance} min={0} onChange={setDistance} errors={p.at('distance_km')} />
        )}
        <NumberField label="WAN link" unit="Mbit/s" value={link} optional min={0} hint="Empty: the rate sized here" onChange={setLink} errors={p.at('link_mbit_s')} />
        <SelectField
          label="DR array"
          value={dr}
          onChange={setDr}
          options={[{ value: '', label: 'Do not size one' }, ...arrayOptions(arrays)]}
          errors={errors.scope('dr').at('array_id')}
        />
      </div>
      {p.here().map((m) => (
        <p key={m} className="field-error">
          {m}
        </p>
      ))}
    </Form>
  );
}

/** The installed system and what is added: shelves, a group of other drives, flash cache. */
export function ExpandForm({ workloads, arrays, drives, pending, errors, onSubmit }: Common & { onSubmit: (r: ExpandRequest) => void }) {
  const [arrayId, setArrayId] = useState(arrays[0]?.id ?? '');
  const [count, setCount] = useState<number | null>(null);
  const [shelves, setShelves] = useState<number | null>(1);
  const [groupDrive, setGroupDrive] = useState('');
  const [groupCount, setGroupCount] = useState<number | null>(null);
  const [flash, setFlash] = useState<number | null>(0);
  const x = errors.scope('expansion');
  return (
    <Form
      title="The installed system and the expansion"
      submit="Evaluate the expansion"
      pending={pending}
      onSubmit={() =>
        onSubmit({
          workloads,
          calibration_margin: 'pessimistic',
          configuration: ref(arrayId, count),
          expansion: {
            shelves: shelves ?? 0,
            groups: groupDrive ? [{ drive_id: groupDrive, count: groupCount as number, workloads: [] }] : [],
            flash_cache_gb: flash ?? 0,
            nodes: 0,
          } as ExpandRequest['expansion'],
        })
      }
    >
      <div className="grid grid-3">
        <SelectField label="Installed array" value={arrayId} onChange={setArrayId} options={arrayOptions(arrays)} errors={errors.scope('configuration').at('array_id')} />
        <NumberField label="Installed drives" value={count} optional min={1} step={1} hint="Empty: the entry configuration" onChange={setCount} errors={errors.scope('configuration').at('drive_count')} />
        <NumberField label="Shelves added" value={shelves} min={0} step={1} onChange={setShelves} errors={x.at('shelves')} />
        <SelectField
          label="New group's drive"
          value={groupDrive}
          onChange={setGroupDrive}
          options={[{ value: '', label: 'No new group' }, ...driveOptions(drives)]}
          errors={x.scope('groups.0').at('drive_id')}
        />
        <NumberField label="New group's drives" value={groupCount} optional min={1} step={1} onChange={setGroupCount} errors={x.scope('groups.0').at('count')} />
        <NumberField label="Flash cache added" unit="GB" value={flash} min={0} onChange={setFlash} errors={x.at('flash_cache_gb')} />
      </div>
      {x.here().map((m) => (
        <p key={m} className="field-error">
          {m}
        </p>
      ))}
    </Form>
  );
}

/** Today's system and the successor family. */
export function RefreshForm({ workloads, arrays, pending, errors, onSubmit }: Common & { onSubmit: (r: RefreshRequest) => void }) {
  const [current, setCurrent] = useState(arrays[0]?.id ?? '');
  const [count, setCount] = useState<number | null>(null);
  const [successor, setSuccessor] = useState(arrays[1]?.id ?? arrays[0]?.id ?? '');
  return (
    <Form
      title="Today's system and its successor"
      submit="Size the successor"
      pending={pending}
      onSubmit={() => onSubmit({ workloads, current: ref(current, count), successor: ref(successor), calibration_margin: 'pessimistic' })}
    >
      <div className="grid grid-3">
        <SelectField label="Today's array" value={current} onChange={setCurrent} options={arrayOptions(arrays)} errors={errors.scope('current').at('array_id')} />
        <NumberField label="Today's drives" value={count} optional min={1} step={1} hint="Empty: the entry configuration" onChange={setCount} errors={errors.scope('current').at('drive_count')} />
        <SelectField label="Successor" value={successor} onChange={setSuccessor} options={arrayOptions(arrays)} errors={errors.scope('successor').at('array_id')} />
      </div>
    </Form>
  );
}
