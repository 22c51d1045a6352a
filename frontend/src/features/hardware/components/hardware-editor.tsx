import { useEffect, useRef, useState } from 'react';

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
  /** A saved record to edit instead of adding one (its kind stays). */
  editing?: HardwareRecord | null;
  /** The edit is saved or cancelled. */
  onEditDone?: () => void;
};

const KINDS: { value: HardwareKind; label: string }[] = [
  { value: 'drive', label: 'Drive' },
  { value: 'controller', label: 'Controller' },
  { value: 'array', label: 'Array' },
];

function usage(record: HardwareRecord): string {
  return record.kind === 'drive'
    ? 'Choose it on Size with an array that lists it (a custom array) or takes any drive (Generic).'
    : record.kind === 'controller'
      ? 'Choose it on Size under “Controllers” to replace an array’s own.'
      : 'Choose it on Size under its vendor.';
}

/** Add a custom drive, controller or array, or edit a saved one. */
export function HardwareEditor({ arrays, drives, controllers, editing = null, onEditDone }: HardwareEditorProps) {
  const [kind, setKind] = useState<HardwareKind>('drive');
  const [done, setDone] = useState<{ record: HardwareRecord; verb: 'Added' | 'Saved' } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // an edit starts here: bring the form into view, its heading read first
  const editingId = editing?.id;
  useEffect(() => {
    if (editingId) {
      setDone(null);
      heading.current?.focus();
    }
  }, [editingId]);

  const finishEdit = (record: HardwareRecord) => {
    setDone({ record, verb: 'Saved' });
    onEditDone?.();
  };
  const added = (record: HardwareRecord) => setDone({ record, verb: 'Added' });

  return (
    <section className="card hardware-editor" aria-labelledby="hardware-new-title">
      <h2 id="hardware-new-title" ref={heading} tabIndex={-1}>
        {editing ? `Edit the ${editing.kind} “${editing.name}”` : 'Add hardware'}
      </h2>
      {editing ? (
        <p className="muted">
          Record <code>{editing.id}</code>. Configurations that name it get the new figures the next time they are evaluated; saved reports keep the
          copy they were made with.
        </p>
      ) : (
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
                    setDone(null);
                  }}
                />{' '}
                {k.label}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {editing?.kind === 'drive' ? <DriveForm key={editing.id} record={editing} onSaved={finishEdit} onCancel={onEditDone} /> : null}
      {editing?.kind === 'controller' ? <ControllerForm key={editing.id} record={editing} onSaved={finishEdit} onCancel={onEditDone} /> : null}
      {editing?.kind === 'array' ? (
        <ArrayForm key={editing.id} record={editing} arrays={arrays} drives={drives} controllers={controllers} onSaved={finishEdit} onCancel={onEditDone} />
      ) : null}
      {!editing && kind === 'drive' ? <DriveForm onSaved={added} /> : null}
      {!editing && kind === 'controller' ? <ControllerForm onSaved={added} /> : null}
      {!editing && kind === 'array' ? <ArrayForm arrays={arrays} drives={drives} controllers={controllers} onSaved={added} /> : null}
      {done && !editing ? (
        <p className="notice created" role="status">
          {done.verb} the {done.record.kind} <strong>{done.record.name}</strong> (record <code>{done.record.id}</code>). {usage(done.record)}
        </p>
      ) : null}
    </section>
  );
}
