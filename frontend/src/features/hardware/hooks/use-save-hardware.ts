import { useState } from 'react';

import type { HardwareInput, HardwareRecord } from '@/lib/api-types';

import { useCreateHardware } from '../api/create-hardware';
import { useUpdateHardware } from '../api/update-hardware';

/**
 * The request behind a hardware form: POST a new record, or PUT the one being edited. One pending
 * and error state for the form, whichever it is. `changed(field, draft)` tells whether a field was
 * edited since the last save, so its error messages (about the old value) can go.
 */
export function useSaveHardware(editing: HardwareRecord | null | undefined) {
  const create = useCreateHardware();
  const update = useUpdateHardware();
  const current = editing ? update : create;
  const [sent, setSent] = useState<Record<string, unknown> | null>(null);
  return {
    isPending: current.isPending,
    isError: current.isError,
    error: current.error,
    save(body: HardwareInput, onSuccess: (record: HardwareRecord) => void, draft?: object) {
      setSent(draft ? { ...(draft as Record<string, unknown>) } : null);
      if (editing) update.mutate({ id: editing.id, body }, { onSuccess });
      else create.mutate(body, { onSuccess });
    },
    changed(field: string, draft: object): boolean {
      if (sent === null || !(field in sent)) return false;
      return JSON.stringify(sent[field]) !== JSON.stringify((draft as Record<string, unknown>)[field]);
    },
  };
}
