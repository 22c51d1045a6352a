import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { HardwareInput, HardwareRecord } from '@/lib/api-types';

import { HARDWARE_KEY } from './list-hardware';

/** `POST /api/v1/hardware`: a custom drive, controller or array, validated by the engine's models (422 at the fields). */
export function createHardware(body: HardwareInput): Promise<HardwareRecord> {
  return api.post('/api/v1/hardware', { body });
}

export function useCreateHardware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createHardware,
    onSuccess: () => client.invalidateQueries({ queryKey: HARDWARE_KEY }),
  });
}
