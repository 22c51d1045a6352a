/**
 * Names for the generated API schema types (`src/api/schema.d.ts`), for code that shows or edits
 * API data without calling the API itself (components, stores, feature UI). Types only: requests
 * stay in `features/*\/api/*` files. Regenerate the schema with `npm run gen:api`.
 */
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

// Inputs: workloads and configurations
export type Workload = Schemas['Workload'];
export type Phase = Schemas['Phase'];
export type IoSize = Schemas['IoSize'];
export type Skew = Schemas['Skew'];
export type Replication = Schemas['Replication'];
export type ReplicationMode = Schemas['ReplicationMode'];
export type Configuration = Schemas['Configuration'];
export type DrivePool = Schemas['DrivePool'];
export type RaidLayout = Schemas['RaidLayout'];
export type RaidScheme = Schemas['RaidScheme'];
export type PortGroup = Schemas['PortGroup'];
export type PortType = Schemas['PortType'];
export type CacheConfig = Schemas['CacheConfig'];
export type HeadroomTargets = Schemas['HeadroomTargets'];
export type Packaging = Schemas['Packaging'];

// Catalog records
export type DriveSpec = Schemas['DriveSpec'];
export type ArrayModel = Schemas['ArrayModel'];
export type RaidOption = Schemas['RaidOption'];
export type PortOption = Schemas['PortOption'];
export type FlashCacheOption = Schemas['FlashCacheOption'];
export type WorkloadTemplate = Schemas['WorkloadTemplate'];
export type RaidSchemeRecord = Schemas['RaidSchemeRecord'];
export type NodeChoice = Schemas['NodeChoice'];

// Results
export type Explained = Schemas['Explained'];
export type Check = Schemas['Check'];
export type EvaluationResult = Schemas['EvaluationResult'];
export type WindowResult = Schemas['WindowResult'];
export type Verdict = Schemas['Verdict'];
export type CaseOutcome = Schemas['CaseOutcome'];
export type Relaxation = Schemas['Relaxation'];
export type PoolLoad = Schemas['PoolLoad'];
export type PhaseResult = Schemas['PhaseResult'];
export type BillOfMaterials = Schemas['BillOfMaterials'];
export type CapacityResult = Schemas['CapacityResult'];
export type SizingResult = Schemas['SizingResult'];
/** `/size`'s answer: the sizing, with the first window's curves when asked for (`with_curves`). */
export type SizeAnswer = Schemas['SizeAnswer'];
/** `/evaluate`'s answer: the evaluation, with the first window's curves when asked for. */
export type EvaluateAnswer = Schemas['EvaluateAnswer'];
export type CacheOption = Schemas['CacheOption'];
export type QueueDepthCurve = Schemas['QueueDepthCurve'];
export type LatencyCurve = Schemas['LatencyCurve'];
export type HeadroomMark = Schemas['HeadroomMark'];
export type RaidGrid = Schemas['RaidGrid'];
export type RaidGridRow = Schemas['RaidGridRow'];
export type RaidGridRequest = Schemas['RaidGridRequest'];
export type ImportedPhase = Schemas['ImportedPhase'];
export type HostStatsImport = Schemas['HostStatsImport'];
export type HostFormat = Schemas['HostFormat'];
export type DeviceSummary = Schemas['DeviceSummary'];
export type LiveOpticsImport = Schemas['LiveOpticsImport'];
export type RVToolsImport = Schemas['RVToolsImport'];
export type ArrayStatsImport = Schemas['ArrayStatsImport'];
export type LoadSeries = Schemas['LoadSeries'];
export type CapacitySource = Schemas['CapacitySource'];
export type Timeline = Schemas['Timeline'];
export type TimelineRequest = Schemas['TimelineRequest'];
export type GroupBy = Schemas['GroupBy'];
export type DetectedWindow = Schemas['DetectedWindow'];
export type ObservedLoad = Schemas['ObservedLoad'];
export type ObservedComparison = Schemas['ObservedComparison'];
export type SiteFit = Schemas['SiteFit'];
export type SiteFitRow = Schemas['SiteFitRow'];
export type ObservedVsModel = Schemas['ObservedVsModel'];
export type ObservedRequest = Schemas['ObservedRequest'];

// Requests and answers of the sizing endpoints
export type CatalogReference = Schemas['CatalogReference'];
export type Adjustments = Schemas['Adjustments'];
/** A configuration as the API takes it: in full, or as a catalog reference resolved on the server. */
export type ConfigurationInput = Configuration | CatalogReference;
export type EvaluateRequest = Schemas['EvaluateRequest'];
export type SizeRequest = Schemas['SizeRequest'];
export type CurvesRequest = Schemas['CurvesRequest'];
export type CurvesResult = Schemas['CurvesResult'];
export type CurveName = NonNullable<CurvesRequest['curves']>[number];
export type HitRatioCurve = Schemas['HitRatioCurve'];
export type CompareConfigurations = Schemas['CompareConfigurations'];
export type CompareSchemes = Schemas['CompareSchemes'];
export type CompareResult = Schemas['CompareResult'];
export type CompareItem = Schemas['CompareItem'];
export type Comparison = Schemas['Comparison'];
export type ComparisonColumn = Schemas['ComparisonColumn'];
export type Headline = Schemas['Headline'];
export type SizingSummary = Schemas['SizingSummary'];
export type DegradedMode = Schemas['DegradedMode'];

// Reports
export type ReportCreated = Schemas['ReportCreated'];
export type EvaluateSnapshot = Schemas['EvaluateSnapshot'];
export type SizeSnapshot = Schemas['SizeSnapshot'];
export type CompareSnapshot = Schemas['CompareSnapshot'];
export type CurvesSnapshot = Schemas['CurvesSnapshot'];
export type RecommendSnapshot = Schemas['RecommendSnapshot'];
export type RaidGridSnapshot = Schemas['RaidGridSnapshot'];
export type GrowthSnapshot = Schemas['GrowthSnapshot'];
export type SensitivitySnapshot = Schemas['SensitivitySnapshot'];
export type RangesSnapshot = Schemas['RangesSnapshot'];
export type DegradedSnapshot = Schemas['DegradedSnapshot'];
export type BuildingBlocksSnapshot = Schemas['BuildingBlocksSnapshot'];
export type ReplicationSnapshot = Schemas['ReplicationSnapshot'];
export type ExpandSnapshot = Schemas['ExpandSnapshot'];
export type QuoteCheckSnapshot = Schemas['QuoteCheckSnapshot'];
export type ConsolidateSnapshot = Schemas['ConsolidateSnapshot'];
export type RefreshSnapshot = Schemas['RefreshSnapshot'];
export type ReportSnapshot =
  | EvaluateSnapshot
  | SizeSnapshot
  | CompareSnapshot
  | CurvesSnapshot
  | RecommendSnapshot
  | RaidGridSnapshot
  | GrowthSnapshot
  | SensitivitySnapshot
  | RangesSnapshot
  | DegradedSnapshot
  | BuildingBlocksSnapshot
  | ReplicationSnapshot
  | ExpandSnapshot
  | QuoteCheckSnapshot
  | ConsolidateSnapshot
  | RefreshSnapshot;
export type ReportKind = ReportSnapshot['kind'];
export type FigureChange = Schemas['FigureChange'];
export type ReportDiff = Schemas['ReportDiff'];

// Money over time (models/tco.py)
export type MoneyInputs = Schemas['MoneyInputs'];
export type DataType = Schemas['DataType'];
export type Tco = Schemas['Tco'];
export type MoneyLine = Schemas['MoneyLine'];
export type YearCost = Schemas['YearCost'];
export type RatioCase = Schemas['RatioCase'];
export type RatioFlip = Schemas['RatioFlip'];

/** Whether a configuration input is a full configuration (only those have a controller). */
export function isFullConfiguration(c: ConfigurationInput): c is Configuration {
  return 'controller' in c;
}

// Recommendations
export type RecommendRequest = Schemas['RecommendRequest'];
export type RecommendConstraints = Schemas['RecommendConstraints'];
export type Recommendation = Schemas['Recommendation'];
export type RecommendedConfiguration = Schemas['RecommendedConfiguration'];
export type InfeasibleArray = Schemas['InfeasibleArray'];

// What-if analyses (POST /whatif/*)
export type Outcome = Schemas['Outcome'];
export type WindowOutcome = Schemas['WindowOutcome'];
export type GrowthRequest = Schemas['GrowthRequest'];
export type GrowthProjection = Schemas['GrowthProjection'];
export type GrowthPoint = Schemas['GrowthPoint'];
export type WindowBreak = Schemas['WindowBreak'];
export type SensitivityRequest = Schemas['SensitivityRequest'];
export type SensitivityResult = Schemas['SensitivityResult'];
export type SensitivitySteps = Schemas['SensitivitySteps'];
export type TornadoBar = Schemas['TornadoBar'];
export type MaxWorkloadRequest = Schemas['MaxWorkloadRequest'];
export type MaxWorkloadResult = Schemas['MaxWorkloadResult'];
export type WindowCapability = Schemas['WindowCapability'];
export type RangesRequest = Schemas['RangesRequest'];
export type RangesResult = Schemas['RangesResult'];
export type ConfidenceRequest = Schemas['ConfidenceRequest'];
export type Confidence = Schemas['Confidence'];
export type Band = Schemas['Band'];
export type WindowBand = Schemas['WindowBand'];
export type BandMethod = Schemas['BandMethod'];
export type Uncertainty = Schemas['Uncertainty'];
export type UncertaintyRange = Schemas['Range'];
export type DegradedRequest = Schemas['DegradedRequest'];
export type DegradedComparison = Schemas['DegradedComparison'];
export type ModeResult = Schemas['ModeResult'];
export type RebuildExposure = Schemas['RebuildExposure'];
export type RaidConversionRequest = Schemas['RaidConversionRequest'];
export type RaidConversion = Schemas['RaidConversion'];
export type ConversionShortcut = Schemas['ConversionShortcut'];
export type BuildingBlocksRequest = Schemas['BuildingBlocksRequest'];
export type BuildingBlocksResult = Schemas['BuildingBlocksResult'];
export type BuildingBlock = Schemas['BuildingBlock'];
export type BlockKind = Schemas['BlockKind'];
export type CatalogBlock = Schemas['CatalogBlock'];
export type BlockTarget = Schemas['BlockTarget'];
export type BlockSizing = Schemas['BlockSizing'];
export type BlockNeed = Schemas['BlockNeed'];
export type DerivedBlock = Schemas['DerivedBlock'];

// Trace analysis (POST /traces, GET /traces/{id})
export type TraceJob = Schemas['TraceJob'];
export type TraceJobCreated = Schemas['TraceJobCreated'];
export type TraceStatus = TraceJob['status'];
export type TraceRejection = Schemas['TraceRejection'];
export type BadLine = Schemas['BadLine'];
export type TraceFormat = Schemas['TraceFormat'];
export type TraceOptions = Schemas['TraceOptions'];
export type TraceAnalysis = Schemas['TraceAnalysis'];
export type TraceProfile = Schemas['TraceProfile'];
export type VolumeSummary = Schemas['VolumeSummary'];
export type IntervalSeries = Schemas['IntervalSeries'];
export type PeakWindow = Schemas['PeakWindow'];
export type PentUpDemand = Schemas['PentUpDemand'];
export type SizeBin = Schemas['SizeBin'];
export type MissRatioCurve = Schemas['MissRatioCurve'];
export type TierTable = Schemas['TierTable'];
export type TierRow = Schemas['TierRow'];
export type TierCapture = Schemas['TierCapture'];
export type DerivedWorkload = Schemas['DerivedWorkload'];
export type SkewFit = Schemas['SkewFit'];
export type ParseReport = Schemas['ParseReport'];

// Custom hardware (/hardware)
export type DriveKind = Schemas['DriveKind'];
export type HaMode = Schemas['HaMode'];
export type ControllerSpec = Schemas['ControllerSpec'];
export type CustomDriveSpec = Schemas['CustomDriveSpec'];
export type CustomArraySpec = Schemas['CustomArraySpec'];
export type DriveInput = Schemas['DriveInput'];
export type ControllerInput = Schemas['ControllerInput'];
export type ArrayInput = Schemas['ArrayInput'];
export type HardwareInput = DriveInput | ControllerInput | ArrayInput;
export type DriveRecord = Schemas['DriveRecord'];
export type ControllerRecord = Schemas['ControllerRecord'];
export type ArrayRecord = Schemas['ArrayRecord'];
export type HardwareRecord = DriveRecord | ControllerRecord | ArrayRecord;
export type HardwareList = Schemas['HardwareList'];
/** A record as created: with its owner token, which alone edits or deletes it (shown once). */
export type HardwareCreated = Schemas['DriveCreated'] | Schemas['ControllerCreated'] | Schemas['ArrayCreated'];
export type HardwareKind = HardwareRecord['kind'];

// The installed base (models/plan): replication and DR, expansion, quote checks, consolidation, refresh
export type ReplicationRequest = Schemas['ReplicationRequest'];
export type ReplicationPlan = Schemas['ReplicationPlan'];
export type ReplicationResult = Schemas['ReplicationResult'];
export type ExpandRequest = Schemas['ExpandRequest'];
export type Expansion = Schemas['Expansion'];
export type ExpansionResult = Schemas['ExpansionResult'];
export type QuoteCheckRequest = Schemas['QuoteCheckRequest'];
export type Quote = Schemas['Quote'];
export type QuoteCheck = Schemas['QuoteCheck'];
export type ConsolidateRequest = Schemas['ConsolidateRequest'];
export type Consolidation = Schemas['Consolidation'];
export type RefreshRequest = Schemas['RefreshRequest'];
export type RefreshResult = Schemas['RefreshResult'];
