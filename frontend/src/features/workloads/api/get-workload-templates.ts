import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, type ApiResponse } from '@/lib/api-client';

/** `GET /api/v1/catalog/workload-templates`: ready workloads (OLTP, mail, VDI...) to start from. */
export type WorkloadTemplateList = ApiResponse<'/api/v1/catalog/workload-templates'>;

export function getWorkloadTemplates({ signal }: { signal?: AbortSignal } = {}): Promise<WorkloadTemplateList> {
  return api.get('/api/v1/catalog/workload-templates', { signal });
}

export const getWorkloadTemplatesQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'workload-templates'] as const,
    queryFn: ({ signal }) => getWorkloadTemplates({ signal }),
    staleTime: Infinity,
  });

export function useWorkloadTemplates() {
  return useQuery(getWorkloadTemplatesQueryOptions());
}
