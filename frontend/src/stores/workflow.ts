/**
 * The workflow shared by Size, Compare and Save: the workloads being edited, the configuration
 * builder's choices, the last run (what was sized or evaluated) and the configuration it resolved
 * to (drive count filled in). Persisted to localStorage so a reload or a trip to Compare keeps it.
 *
 * Pages (app/routes) read and write it and pass it to features as props; features never import it.
 */
import type {
  CompareConfigurations,
  CompareSchemes,
  ConfigurationInput,
  EvaluateRequest,
  HeadroomTargets,
  MoneyInputs,
  Relaxation,
  RecommendRequest,
  SizeRequest,
  Workload,
} from '@/lib/api-types';

import { DEFAULT_MONEY } from '@/lib/money';

import { createStore, useStore } from './create-store';

/** The configuration builder's choices (vendor -> array -> drive -> RAID -> cache -> ports -> targets). */
export type ConfigDraft = {
  vendor: string;
  arrayId: string;
  driveId: string;
  raidScheme: string;
  /** Drives per RAID group; null = the array's default for the scheme. */
  groupWidth: number | null;
  flashCacheGb: number;
  /** When sizing: flash-cache sizes to try (drives-vs-cache curve, cheapest kept). Empty = only flashCacheGb. */
  cacheOptionsGb: number[];
  /** Port option name; '' = the array's default. */
  portOption: string;
  /** Custom controller record replacing the array's; '' = the array's own. */
  controllerId: string;
  /** Nodes (HA pairs) of a clustered array; null = the base system, more as the drives need. */
  nodes: number | null;
  headroom: HeadroomTargets;
  /** null = "size it for me" (POST /size); a number = evaluate that many drives (POST /evaluate). */
  driveCount: number | null;
  /** Short-stroking: share of each drive used (0..1); null/absent = full stroke. */
  driveFractionUsed?: number | null;
  /** Fill the pool will run at [%]; null/absent = the capacity fill target. */
  plannedFillPct?: number | null;
  /** KiB the array reads ahead of each sequential stream (catalog reference `prefetch_kib`); null = the catalog's. */
  prefetchKib?: number | null;
};

/** What "Size it" / "Evaluate" was asked to do (the builder's configuration and the workloads). */
export type Run = {
  kind: 'size' | 'evaluate';
  workloads: Workload[];
  /** A catalog reference from the builder (drive_count null when sizing; headroom targets inside). */
  configuration: ConfigurationInput;
  /** Sizing only: flash-cache sizes to try; null = the configuration's own. */
  flashCacheOptionsGb: number[] | null;
  /** Sizing only: what the TCO assumes (currency, discounts, support, energy); absent = the API's defaults. */
  money?: MoneyInputs;
  /** Cases the design need not meet (absent or empty: every case decides, the API's default). */
  relax?: Relaxation[];
  /** Sizing only: the chance of meeting every case to size to [%]; absent = the stated inputs. */
  confidencePct?: number;
};

/**
 * The result's inputs as the API took them: the request that produced the result (what Save
 * stores) and the configuration as evaluated (sized, in full, when it was sized).
 */
export type Resolved =
  | { kind: 'size'; request: SizeRequest; workloads: Workload[]; configuration: ConfigurationInput }
  | { kind: 'evaluate'; request: EvaluateRequest; workloads: Workload[]; configuration: ConfigurationInput };

export type WorkflowState = {
  workloads: Workload[];
  draft: ConfigDraft;
  /** The request behind the results shown on Size (null before the first run). */
  run: Run | null;
  /** The configuration of the last result, drive count filled in (what Compare and Save use). */
  resolved: Resolved | null;
  /** The last comparison asked for on Compare. */
  compare: CompareConfigurations | CompareSchemes | null;
  /** Extra configurations drafted on Compare (the first column is always the resolved one). */
  compareDrafts: ConfigDraft[];
  /** The last recommendation asked for (its results come back when the page is opened again). */
  recommend: RecommendRequest | null;
  /** What money figures assume (currency, discounts, support, energy, rack space), on Size, Compare and Recommend. */
  money: MoneyInputs;
  /** Cases Size is told to let go (none by default: every case decides the verdict). */
  relax: Relaxation[];
  /** The chance of meeting every case Size sizes to [%] (null: at the stated inputs; NaN: cleared, an error). */
  confidencePct: number | null;
};

export const defaultHeadroom: HeadroomTargets = {
  controller_max_pct: null,
  failover_max_pct: 100,
  drive_max_pct: 70,
  port_max_pct: 70,
  capacity_max_fill_pct: 100,
};

export const emptyDraft: ConfigDraft = {
  vendor: '',
  arrayId: '',
  driveId: '',
  raidScheme: '',
  groupWidth: null,
  flashCacheGb: 0,
  cacheOptionsGb: [],
  portOption: '',
  controllerId: '',
  nodes: null,
  headroom: defaultHeadroom,
  driveCount: null,
};

export const initialWorkflow: WorkflowState = {
  workloads: [],
  draft: emptyDraft,
  run: null,
  resolved: null,
  compare: null,
  compareDrafts: [],
  recommend: null,
  money: DEFAULT_MONEY,
  relax: [],
  confidencePct: null,
};

const STORAGE_KEY = 'sizer.workflow.v1';

function revive(raw: unknown): WorkflowState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Partial<WorkflowState>;
  if (!Array.isArray(r.workloads) || typeof r.draft !== 'object' || r.draft === null) return null;
  return {
    workloads: r.workloads,
    draft: { ...emptyDraft, ...r.draft, headroom: { ...defaultHeadroom, ...(r.draft.headroom ?? {}) } },
    run: r.run ?? null,
    resolved: r.resolved ?? null,
    compare: r.compare ?? null,
    compareDrafts: Array.isArray(r.compareDrafts) ? r.compareDrafts.map((d) => ({ ...emptyDraft, ...d })) : [],
    recommend: r.recommend ?? null,
    money: { ...DEFAULT_MONEY, ...(r.money ?? {}) },
    relax: Array.isArray(r.relax) ? r.relax : [],
    confidencePct: typeof r.confidencePct === 'number' && Number.isFinite(r.confidencePct) ? r.confidencePct : null,
  };
}

export const workflowStore = createStore<WorkflowState>(initialWorkflow, { key: STORAGE_KEY, revive });

export function useWorkflow<S>(select: (state: WorkflowState) => S): S {
  return useStore(workflowStore, select);
}

export const workflow = {
  setWorkloads(workloads: Workload[]) {
    workflowStore.set((s) => ({ ...s, workloads }));
  },
  setDraft(draft: ConfigDraft) {
    workflowStore.set((s) => ({ ...s, draft }));
  },
  startRun(run: Run | null) {
    workflowStore.set((s) => ({ ...s, run }));
  },
  resolve(resolved: Resolved | null) {
    workflowStore.set((s) => ({ ...s, resolved }));
  },
  setCompare(compare: WorkflowState['compare']) {
    workflowStore.set((s) => ({ ...s, compare }));
  },
  setRecommend(recommend: RecommendRequest | null) {
    workflowStore.set((s) => ({ ...s, recommend }));
  },
  setMoney(money: MoneyInputs) {
    workflowStore.set((s) => ({ ...s, money }));
  },
  setRelax(relax: Relaxation[]) {
    workflowStore.set((s) => ({ ...s, relax }));
  },
  setConfidencePct(confidencePct: number | null) {
    workflowStore.set((s) => ({ ...s, confidencePct }));
  },
  setCompareDrafts(compareDrafts: ConfigDraft[]) {
    workflowStore.set((s) => ({ ...s, compareDrafts }));
  },
  reset() {
    workflowStore.set(initialWorkflow);
  },
};
