import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ReportCreated } from '@/lib/api-types';
import type { components } from '@/api/schema';

/** What a report stores: the request behind a result (the server recomputes the result). */
export type ReportInput =
  | components['schemas']['EvaluateReportInput']
  | components['schemas']['SizeReportInput']
  | components['schemas']['CompareReportInput']
  | components['schemas']['CurvesReportInput'];

/** `POST /api/v1/reports`: save a snapshot; 201 with its id, share URL and owner token. */
export function createReport(body: ReportInput): Promise<ReportCreated> {
  return api.post('/api/v1/reports', { body });
}

export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
