import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/health`: API status, database, engine and catalog versions. */
export type Health = ApiResponse<'/api/v1/health', 'get'>;

function isHealth(body: unknown): body is Health {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return ['status', 'database', 'engine_version', 'catalog_version'].every((k) => typeof b[k] === 'string');
}

/** The health body; the API answers 503 with the same body when the database is down. */
export async function getHealth({ signal }: { signal?: AbortSignal } = {}): Promise<Health> {
  try {
    return await api.get('/api/v1/health', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 503 && isHealth(error.body)) return error.body;
    throw error;
  }
}

export const getHealthQueryOptions = () =>
  queryOptions({
    queryKey: ['system', 'health'] as const,
    queryFn: ({ signal }) => getHealth({ signal }),
    staleTime: 30_000,
  });

type UseHealthOptions = {
  /** Re-check every `refetchInterval` ms (off by default). */
  refetchInterval?: number | false;
};

export function useHealth({ refetchInterval = false }: UseHealthOptions = {}) {
  return useQuery({ ...getHealthQueryOptions(), refetchInterval });
}
