import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Recommendation, RecommendRequest } from '@/lib/api-types';

/** `POST /api/v1/recommend`: every catalog family sized for the workloads, filtered and ranked. */
export function recommendConfigurations(body: RecommendRequest, { signal }: { signal?: AbortSignal } = {}): Promise<Recommendation> {
  return api.post('/api/v1/recommend', { body, signal });
}

export const recommendQueryOptions = (body: RecommendRequest) =>
  queryOptions({
    queryKey: ['recommend', body] as const,
    queryFn: ({ signal }) => recommendConfigurations(body, { signal }),
    staleTime: Infinity,
  });

/** The recommendation for `body` (null: none asked for yet). */
export function useRecommendation(body: RecommendRequest | null) {
  return useQuery({ ...recommendQueryOptions(body as RecommendRequest), enabled: body !== null });
}
