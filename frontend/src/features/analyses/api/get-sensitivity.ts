import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { SensitivityRequest, SensitivityResult } from '@/lib/api-types';

/** `POST /api/v1/whatif/sensitivity`: a tornado: each input moved down and up by a step, ranked by how far it moves the result. */
export function getSensitivity(body: SensitivityRequest, { signal }: { signal?: AbortSignal } = {}): Promise<SensitivityResult> {
  return api.post('/api/v1/whatif/sensitivity', { body, signal });
}

export const getSensitivityQueryOptions = (body: SensitivityRequest) =>
  queryOptions({
    queryKey: ['whatif', 'sensitivity', body] as const,
    queryFn: ({ signal }) => getSensitivity(body, { signal }),
    staleTime: Infinity,
  });

/** The answer for `body` (null: nothing asked yet); the previous answer stays on screen while a new one loads. */
export function useSensitivity(body: SensitivityRequest | null) {
  return useQuery({ ...getSensitivityQueryOptions(body as SensitivityRequest), enabled: body !== null, placeholderData: keepPreviousData });
}
