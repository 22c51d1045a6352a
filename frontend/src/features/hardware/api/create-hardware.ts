import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { HardwareCreated, HardwareInput } from '@/lib/api-types';

import { rememberOwnerToken } from '../lib/owner-tokens';
import { HARDWARE_KEY } from './list-hardware';

/**
 * `POST /api/v1/hardware`: a custom drive, controller or array, validated by the engine's models (422 at the fields).
 * The answer carries the record's owner token (shown once): kept in this browser to edit or delete it later.
 */
export async function createHardware(body: HardwareInput): Promise<HardwareCreated> {
  const created = await api.post('/api/v1/hardware', { body });
  rememberOwnerToken(created.id, created.owner_token);
  return created;
}

export function useCreateHardware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createHardware,
    onSuccess: () => client.invalidateQueries({ queryKey: HARDWARE_KEY }),
  });
}
