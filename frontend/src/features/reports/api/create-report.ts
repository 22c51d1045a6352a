import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { ReportCreated } from '@/lib/api-types';
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

/** What a report stores: the request behind a result, as the analysis takes it (the server recomputes the result). */
export type ReportInput =
  | Schemas['EvaluateReportInput']
  | Schemas['SizeReportInput']
  | Schemas['CompareReportInput']
  | Schemas['CurvesReportInput']
  | Schemas['RecommendReportInput']
  | Schemas['RaidGridReportInput']
  | Schemas['GrowthReportInput']
  | Schemas['SensitivityReportInput']
  | Schemas['RangesReportInput']
  | Schemas['DegradedReportInput']
  | Schemas['BuildingBlocksReportInput']
  | Schemas['ReplicationReportInput']
  | Schemas['ExpandReportInput']
  | Schemas['QuoteCheckReportInput']
  | Schemas['ConsolidateReportInput']
  | Schemas['RefreshReportInput'];

/** `POST /api/v1/reports`: save a snapshot; 201 with its id, share URL and owner token. */
export function createReport(body: ReportInput): Promise<ReportCreated> {
  return api.post('/api/v1/reports', { body });
}

export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
