import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { HardwareInput, HardwareRecord } from '@/lib/api-types';

import { ownerHeaders } from '../lib/owner-tokens';
import { HARDWARE_KEY } from './list-hardware';

/**
 * `PUT /api/v1/hardware/{id}`: a record's new spec (its kind stays), validated as a new one is (422
 * at the fields), with the owner token this browser kept (403 without it). Saved reports keep the copy they
 * were made with.
 */
export function updateHardware({ id, body }: { id: string; body: HardwareInput }): Promise<HardwareRecord> {
  return api.put('/api/v1/hardware/{hardware_id}', { path: { hardware_id: id }, body, headers: ownerHeaders(id) });
}

/** Engine answers cached by request body: a request naming the record by id now means its new figures. */
const ANSWERS_USING_HARDWARE = [['sizing'], ['whatif'], ['recommend']] as const;

export function useUpdateHardware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateHardware,
    onSuccess: () =>
      Promise.all([HARDWARE_KEY, ...ANSWERS_USING_HARDWARE].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}
