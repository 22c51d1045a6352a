import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorState } from '@/components';
import { useDrives, useHardwareChoices } from '@/features/configurations';
import { HardwareEditor, HardwareList, useHardwareList } from '@/features/hardware';

import { href } from '../routes';

export default function HardwarePage() {
  const choices = useHardwareChoices();
  const drives = useDrives();
  const list = useHardwareList();
  const [editingId, setEditingId] = useState<string | null>(null);
  // a record deleted while it is edited ends the edit
  const editing = list.data?.hardware.find((r) => r.id === editingId) ?? null;

  return (
    <article className="page hardware-page">
      <h1>Custom hardware</h1>
      <p className="lead">
        Drives, controllers and arrays the catalog does not have, checked by the engine’s models when saved. Use them on{' '}
        <Link to={href.size()}>Size</Link>: a custom array under its vendor, a custom controller in place of an array’s own, a custom
        drive in a custom array or the Generic one. Edit a record to correct its figures; saved reports keep copies of the records they used.
      </p>
      {choices.catalog.isError ? <ErrorState title="The array catalog could not be loaded" error={choices.catalog.error} /> : null}
      <HardwareEditor
        arrays={choices.arrays}
        drives={[...(drives.data?.drives ?? []), ...choices.custom.drives]}
        controllers={choices.custom.controllers}
        editing={editing}
        onEditDone={() => setEditingId(null)}
      />
      <section aria-labelledby="hardware-list-title">
        <h2 id="hardware-list-title">Your hardware</h2>
        <HardwareList onEdit={(r) => setEditingId(r.id)} editingId={editing?.id ?? null} />
      </section>
    </article>
  );
}
