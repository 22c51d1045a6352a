import { queryOptions, useQuery } from '@tanstack/react-query';

import { env } from '@/config/env';

/** The recommendation operation as the server's OpenAPI document describes it, or null when absent. */
export type RecommendAvailability = { available: false } | { available: true; summary: string | null; description: string | null };

type OpenApiDocument = { paths?: Record<string, Record<string, { summary?: string; description?: string }>> };

export const RECOMMEND_PATH = '/api/v1/recommend';

/**
 * Whether the server offers `POST /api/v1/recommend`, read from its live OpenAPI document (the
 * generated types cannot know about routes added after the UI was built). Asking the route itself
 * would log a 404 in the browser console.
 */
export async function getRecommendAvailability({ signal }: { signal?: AbortSignal } = {}): Promise<RecommendAvailability> {
  const base = env.API_BASE_URL || window.location.origin;
  const res = await fetch(`${base}/openapi.json`, { signal, headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`Could not read the API description (${res.status})`);
  const doc = (await res.json()) as OpenApiDocument;
  const op = doc.paths?.[RECOMMEND_PATH]?.post;
  return op ? { available: true, summary: op.summary ?? null, description: op.description ?? null } : { available: false };
}

export const getRecommendAvailabilityQueryOptions = () =>
  queryOptions({
    queryKey: ['recommend', 'availability'] as const,
    queryFn: ({ signal }) => getRecommendAvailability({ signal }),
    staleTime: 60_000,
  });

export function useRecommendAvailability() {
  return useQuery(getRecommendAvailabilityQueryOptions());
}
