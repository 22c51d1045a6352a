import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { forgetOwnerToken, ownerHeaders } from '../lib/owner-tokens';
import { HARDWARE_KEY } from './list-hardware';

/**
 * `DELETE /api/v1/hardware/{id}` with the owner token this browser kept (403 without it; 409 for a drive a custom
 * array still uses). Saved reports keep their own copies of the records they used.
 */
export async function deleteHardware(id: string): Promise<void> {
  await api.delete('/api/v1/hardware/{hardware_id}', { path: { hardware_id: id }, headers: ownerHeaders(id) });
  forgetOwnerToken(id);
}

export function useDeleteHardware() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteHardware,
    onSuccess: () => client.invalidateQueries({ queryKey: HARDWARE_KEY }),
  });
}
