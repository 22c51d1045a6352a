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

// Catalog records
export type DriveSpec = Schemas['DriveSpec'];
export type ArrayModel = Schemas['ArrayModel'];
export type RaidOption = Schemas['RaidOption'];
export type PortOption = Schemas['PortOption'];
export type FlashCacheOption = Schemas['FlashCacheOption'];
export type WorkloadTemplate = Schemas['WorkloadTemplate'];
export type RaidSchemeRecord = Schemas['RaidSchemeRecord'];

// Results
export type Explained = Schemas['Explained'];
export type Check = Schemas['Check'];
export type EvaluationResult = Schemas['EvaluationResult'];
export type WindowResult = Schemas['WindowResult'];
export type PoolLoad = Schemas['PoolLoad'];
export type PhaseResult = Schemas['PhaseResult'];
export type BillOfMaterials = Schemas['BillOfMaterials'];
export type CapacityResult = Schemas['CapacityResult'];
export type SizingResult = Schemas['SizingResult'];
export type CacheOption = Schemas['CacheOption'];
export type QueueDepthCurve = Schemas['QueueDepthCurve'];
export type LatencyCurve = Schemas['LatencyCurve'];
export type ImportedPhase = Schemas['ImportedPhase'];
