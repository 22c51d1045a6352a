import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { EvaluateAnswer, EvaluateRequest } from '@/lib/api-types';

/**
 * `POST /api/v1/evaluate`: a configuration against every window of the workloads; with `withCurves`,
 * the first window's curves in the same answer.
 */
export function evaluateConfiguration(
  body: EvaluateRequest,
  { signal, withCurves = false }: { signal?: AbortSignal; withCurves?: boolean } = {},
): Promise<EvaluateAnswer> {
  return api.post('/api/v1/evaluate', { body, signal, query: withCurves ? { with_curves: true } : undefined });
}

export const evaluateConfigurationQueryOptions = (body: EvaluateRequest) =>
  queryOptions({
    queryKey: ['sizing', 'evaluate', body] as const,
    queryFn: ({ signal }) => evaluateConfiguration(body, { signal }),
    staleTime: Infinity,
  });

/** Evaluate `body` (null: nothing yet); keeps showing the previous answer while a new one loads. */
export function useEvaluateConfiguration(body: EvaluateRequest | null) {
  return useQuery({
    ...evaluateConfigurationQueryOptions(body as EvaluateRequest),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}
