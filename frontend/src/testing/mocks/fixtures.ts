/**
 * API answers recorded from the real backend (engine 0.1.0, catalog 2026.11.0; lists trimmed) for
 * the OLTP template on a NetApp FAS3170 in RAID-DP. Typed as the generated API types.
 */
import type {
  CompareResult,
  CurvesResult,
  EvaluationResult,
  ReportSnapshot,
  SizingResult,
} from '@/lib/api-types';
import type { ApiResponse } from '@/lib/api-client';

import arrayFas3170 from '../fixtures/array-fas3170.json';
import arrays from '../fixtures/arrays.json';
import compareOltp from '../fixtures/compare-oltp.json';
import curvesOltp from '../fixtures/curves-oltp.json';
import evaluate48 from '../fixtures/evaluate-oltp-48.json';
import ports from '../fixtures/ports.json';
import raidSchemes from '../fixtures/raid-schemes.json';
import reportCompare from '../fixtures/report-compare.json';
import reportSize from '../fixtures/report-size.json';
import sizeOltp from '../fixtures/size-oltp-fas3170.json';
import templates from '../fixtures/workload-templates.json';

export const fixtures = {
  templates: templates as unknown as ApiResponse<'/api/v1/catalog/workload-templates'>,
  arrays: arrays as unknown as ApiResponse<'/api/v1/catalog/arrays'>,
  arrayFas3170: arrayFas3170 as unknown as ApiResponse<'/api/v1/catalog/arrays/{array_id}'>,
  raidSchemes: raidSchemes as unknown as ApiResponse<'/api/v1/catalog/raid-schemes'>,
  ports: ports as unknown as ApiResponse<'/api/v1/catalog/ports'>,
  sizeOltp: sizeOltp as unknown as SizingResult,
  evaluate48: evaluate48 as unknown as EvaluationResult,
  curvesOltp: curvesOltp as unknown as CurvesResult,
  compareOltp: compareOltp as unknown as CompareResult,
  reportCompare: reportCompare as unknown as ReportSnapshot,
  reportSize: reportSize as unknown as ReportSnapshot,
};

/** A 422 body the way FastAPI writes it. */
export function validation422(...issues: { loc: (string | number)[]; msg: string; type?: string }[]) {
  return { detail: issues.map((i) => ({ type: i.type ?? 'value_error', ...i })) };
}
