/**
 * API answers recorded from the real backend (engine 0.1.0, catalog 2026.11.0; lists trimmed) for
 * the OLTP template on a NetApp FAS3170 in RAID-DP. Typed as the generated API types. The
 * analyses, traces, hardware and recommend answers come from `scripts/record-fixtures.mjs`.
 */
import type {
  BuildingBlocksResult,
  CompareResult,
  Confidence,
  CompareSnapshot,
  GrowthSnapshot,
  ReportDiff,
  SizeSnapshot,
  Tco,
  CurvesResult,
  DegradedComparison,
  EvaluationResult,
  GrowthProjection,
  HardwareList,
  HostStatsImport,
  MaxWorkloadResult,
  ObservedComparison,
  SiteFit,
  RaidConversion,
  RaidGrid,
  RangesResult,
  Recommendation,
  SensitivityResult,
  SizingResult,
  TraceJob,
  TraceRejection,
} from '@/lib/api-types';
import type { ApiResponse } from '@/lib/api-client';

import arrayFas3170 from '../fixtures/array-fas3170.json';
import arrays from '../fixtures/arrays.json';
import buildingBlocks from '../fixtures/building-blocks.json';
import compareOltp from '../fixtures/compare-oltp.json';
import confidenceOltp from '../fixtures/confidence-oltp.json';
import curvesOltp from '../fixtures/curves-oltp.json';
import degradedOltp from '../fixtures/degraded-oltp.json';
import drives from '../fixtures/drives.json';
import evaluate48 from '../fixtures/evaluate-oltp-48.json';
import growthOltp from '../fixtures/growth-oltp.json';
import hardwareDrive422 from '../fixtures/hardware-drive-422.json';
import hardwareList from '../fixtures/hardware-list.json';
import hardwareSsd422 from '../fixtures/hardware-ssd-422.json';
import hostStatsIostat from '../fixtures/host-stats-iostat.json';
import maxWorkloadOltp from '../fixtures/max-workload-oltp.json';
import observedFas3170 from '../fixtures/observed-fas3170.json';
import siteFitFas3270 from '../fixtures/site-fit-fas3270.json';
import ports from '../fixtures/ports.json';
import raidConversion from '../fixtures/raid-conversion.json';
import raidGridOltp from '../fixtures/raid-grid-oltp.json';
import raidSchemes from '../fixtures/raid-schemes.json';
import rangesOltp from '../fixtures/ranges-oltp.json';
import recommendOltp from '../fixtures/recommend-oltp.json';
import reportCompare from '../fixtures/report-compare.json';
import reportSize from '../fixtures/report-size.json';
import reportGrowth from '../fixtures/report-growth.json';
import reportDiff from '../fixtures/report-diff.json';
import tcoOltp from '../fixtures/tco-oltp-fas3170.json';
import sensitivityOltp from '../fixtures/sensitivity-oltp.json';
import sizeOltp from '../fixtures/size-oltp-fas3170.json';
import traceJobDone from '../fixtures/trace-job-done.json';
import traceRejected from '../fixtures/trace-rejected.json';
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
  raidGridOltp: raidGridOltp as unknown as RaidGrid,
  compareOltp: compareOltp as unknown as CompareResult,
  reportCompare: reportCompare as unknown as CompareSnapshot,
  reportSize: reportSize as unknown as SizeSnapshot,
  /** A growth report (24 months) of the OLTP template on 144 drives, with the money the report priced. */
  reportGrowth: reportGrowth as unknown as GrowthSnapshot,
  /** Two sizings of the OLTP template on a FAS3170 (the second with 20% more IOPS), side by side. */
  reportDiff: reportDiff as unknown as ReportDiff,
  /** The money of the OLTP template sized on a FAS3170 (list prices in USD, 5 years). */
  tcoOltp: tcoOltp as unknown as Tco,
  // analyses of the OLTP template on the sized FAS3170 (POST /whatif/*)
  growthOltp: growthOltp as unknown as GrowthProjection,
  sensitivityOltp: sensitivityOltp as unknown as SensitivityResult,
  maxWorkloadOltp: maxWorkloadOltp as unknown as MaxWorkloadResult,
  rangesOltp: rangesOltp as unknown as RangesResult,
  confidenceOltp: confidenceOltp as unknown as Confidence,
  degradedOltp: degradedOltp as unknown as DegradedComparison,
  /** 20,000 IOPS at 70% reads, RAID 5 (8) -> RAID 10 (8). */
  raidConversion: raidConversion as unknown as RaidConversion,
  /** 50 GB/s of reads from FAS3170 blocks. */
  buildingBlocks: buildingBlocks as unknown as BuildingBlocksResult,
  drives: drives as unknown as ApiResponse<'/api/v1/catalog/drives'>,
  recommendOltp: recommendOltp as unknown as Recommendation,
  /** The synthetic 4,000-I/O trace (scripts/record-fixtures.mjs) analysed to the end. */
  traceJobDone: traceJobDone as unknown as TraceJob,
  /** The 400 of a file with more than half of its lines malformed. */
  traceRejected: traceRejected as unknown as TraceRejection,
  /** A custom SSD, a controller and an array listing the SSD. */
  hardwareList: hardwareList as unknown as HardwareList,
  /** 422: empty name, negative capacity. */
  hardwareDrive422,
  /** 422 at `spec`: an SSD without its 4 KiB IOPS. */
  hardwareSsd422,
  /** The e2e test's iostat day (two disks, peak 10:00, batch 02:00) imported with 2 TB. */
  hostStatsIostat: hostStatsIostat as unknown as HostStatsImport,
  /** Those workloads' observed phases evaluated on a FAS3170 of 48 drives (what you have now). */
  observedFas3170: observedFas3170 as unknown as ObservedComparison,
  siteFitFas3270: siteFitFas3270 as unknown as SiteFit,
};

/** A 422 body the way FastAPI writes it. */
export function validation422(...issues: { loc: (string | number)[]; msg: string; type?: string }[]) {
  return { detail: issues.map((i) => ({ type: i.type ?? 'value_error', ...i })) };
}
