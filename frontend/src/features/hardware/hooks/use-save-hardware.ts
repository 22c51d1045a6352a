import type { HardwareInput, HardwareRecord } from '@/lib/api-types';

import { useCreateHardware } from '../api/create-hardware';
import { useUpdateHardware } from '../api/update-hardware';

/**
 * The request behind a hardware form: POST a new record, or PUT the one being edited. One pending
 * and error state for the form, whichever it is.
 */
export function useSaveHardware(editing: HardwareRecord | null | undefined) {
  const create = useCreateHardware();
  const update = useUpdateHardware();
  const current = editing ? update : create;
  return {
    isPending: current.isPending,
    isError: current.isError,
    error: current.error,
    save(body: HardwareInput, onSuccess: (record: HardwareRecord) => void) {
      if (editing) update.mutate({ id: editing.id, body }, { onSuccess });
      else create.mutate(body, { onSuccess });
    },
  };
}
