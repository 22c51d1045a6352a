import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Confidence, ConfidenceRequest } from '@/lib/api-types';

/** `POST /api/v1/whatif/confidence`: the chance of meeting every target in every case judged, over the inputs' ranges and the model's error band. */
export function getConfidence(body: ConfidenceRequest, { signal }: { signal?: AbortSignal } = {}): Promise<Confidence> {
  return api.post('/api/v1/whatif/confidence', { body, signal });
}

export const confidenceQueryOptions = (body: ConfidenceRequest) =>
  queryOptions({
    queryKey: ['whatif', 'confidence', body] as const,
    queryFn: ({ signal }) => getConfidence(body, { signal }),
    staleTime: Infinity,
  });

/** The chance for `body` (null: nothing to ask). */
export function useConfidence(body: ConfidenceRequest | null) {
  return useQuery({ ...confidenceQueryOptions(body as ConfidenceRequest), enabled: body !== null });
}
