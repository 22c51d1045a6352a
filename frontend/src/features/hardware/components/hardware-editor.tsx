import { useState } from 'react';

import type { ArrayModel, ControllerRecord, DriveSpec, HardwareKind, HardwareRecord } from '@/lib/api-types';

import { ArrayForm } from './array-form';
import { ControllerForm } from './controller-form';
import { DriveForm } from './drive-form';

type HardwareEditorProps = {
  /** Arrays to start a custom array from (catalog and custom). */
  arrays: ArrayModel[];
  /** Every drive (catalog and custom). */
  drives: DriveSpec[];
  controllers: ControllerRecord[];
};

const KINDS: { value: HardwareKind; label: string }[] = [
  { value: 'drive', label: 'Drive' },
  { value: 'controller', label: 'Controller' },
  { value: 'array', label: 'Array' },
];

/** Add a custom drive, controller or array. */
export function HardwareEditor({ arrays, drives, controllers }: HardwareEditorProps) {
  const [kind, setKind] = useState<HardwareKind>('drive');
  const [created, setCreated] = useState<HardwareRecord | null>(null);

  return (
    <section className="card hardware-editor" aria-labelledby="hardware-new-title">
      <h2 id="hardware-new-title">Add hardware</h2>
      <fieldset className="plain">
        <legend>What to add</legend>
        <div className="radio-row">
          {KINDS.map((k) => (
            <label key={k.value}>
              <input
                type="radio"
                name="hardware-kind"
                checked={kind === k.value}
                onChange={() => {
                  setKind(k.value);
                  setCreated(null);
                }}
              />{' '}
              {k.label}
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'drive' ? <DriveForm onCreated={setCreated} /> : null}
      {kind === 'controller' ? <ControllerForm onCreated={setCreated} /> : null}
      {kind === 'array' ? <ArrayForm arrays={arrays} drives={drives} controllers={controllers} onCreated={setCreated} /> : null}
      {created ? (
        <p className="notice created" role="status">
          Added the {created.kind} <strong>{created.name}</strong> (record <code>{created.id}</code>).{' '}
          {created.kind === 'drive'
            ? 'Choose it on Size with an array that lists it (a custom array) or takes any drive (Generic).'
            : created.kind === 'controller'
              ? 'Choose it on Size under “Controllers” to replace an array’s own.'
              : 'Choose it on Size under its vendor.'}
        </p>
      ) : null}
    </section>
  );
}
