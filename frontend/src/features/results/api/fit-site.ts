import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ObservedRequest, SiteFit } from '@/lib/api-types';

/** `POST /api/v1/import/observed/fit`: the model of the system the statistics came from, fitted to the host's latencies. */
export function fitSite(body: ObservedRequest): Promise<SiteFit> {
  return api.post('/api/v1/import/observed/fit', { body });
}

export function useFitSite() {
  return useMutation({ mutationFn: fitSite });
}
