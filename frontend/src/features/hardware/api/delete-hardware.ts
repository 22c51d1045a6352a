import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { HARDWARE_KEY } from './list-hardware';

/** `DELETE /api/v1/hardware/{id}`: saved reports keep their own copies of the records they used. */
export function deleteHardware(id: string): Promise<void> {
  return api.delete('/api/v1/hardware/{hardware_id}', { path: { hardware_id: id } }) as Promise<void>;
}

export function useDeleteHardware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteHardware,
    onSuccess: () => client.invalidateQueries({ queryKey: HARDWARE_KEY }),
  });
}
