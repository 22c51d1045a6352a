import { queryOptions, useQuery } from '@tanstack/react-query';

import {
  isFullConfiguration,
  type Configuration,
  type ConfigurationInput,
  type EvaluateRequest,
  type EvaluationResult,
  type HeadroomTargets,
  type SizeRequest,
  type SizingResult,
  type Workload,
} from '@/lib/api-types';

import { evaluateConfiguration } from '../api/evaluate-configuration';
import { sizeConfiguration } from '../api/size-configuration';

/** What to run: size a family (drive count open) or evaluate a given drive count. */
export type RunInput = {
  kind: 'size' | 'evaluate';
  workloads: Workload[];
  configuration: ConfigurationInput;
  flashCacheOptionsGb: number[] | null;
  /** Headroom targets other than the defaults (null = defaults). */
  headroom: HeadroomTargets | null;
};

export type RunOutcome =
  | { kind: 'size'; request: SizeRequest; result: EvaluationResult; sizing: SizingResult; configuration: Configuration }
  | { kind: 'evaluate'; request: EvaluateRequest; result: EvaluationResult; sizing: null; configuration: ConfigurationInput };

/** The configuration with every pool's drive count open (a family to size). */
function asFamily(c: Configuration): Configuration {
  return { ...c, pools: c.pools.map((p) => ({ ...p, drive_count: null })) };
}

/**
 * Size or evaluate. A catalog reference carries no headroom targets, so custom targets take two
 * steps: the server resolves the reference (a sizing answer carries the full configuration), then
 * the full configuration with the targets is sized or evaluated.
 */
export async function run(input: RunInput, signal?: AbortSignal): Promise<RunOutcome> {
  const { workloads, headroom } = input;
  const reference = !isFullConfiguration(input.configuration);
  const sizeRequest = (configuration: ConfigurationInput): SizeRequest => ({
    workloads,
    configuration,
    flash_cache_options_gb: input.flashCacheOptionsGb && input.flashCacheOptionsGb.length ? input.flashCacheOptionsGb : null,
    degraded: 'none',
    max_drives: null,
  });

  if (input.kind === 'size') {
    let request = sizeRequest(input.configuration);
    let sizing = await sizeConfiguration(request, { signal });
    if (headroom && reference) {
      request = sizeRequest({ ...asFamily(sizing.configuration), headroom });
      sizing = await sizeConfiguration(request, { signal });
    }
    return { kind: 'size', request, result: sizing.result, sizing, configuration: sizing.configuration };
  }

  let configuration = input.configuration;
  if (headroom && !isFullConfiguration(configuration)) {
    const count = configuration.drive_count ?? null;
    const resolved = await sizeConfiguration(
      { ...sizeRequest({ ...configuration, drive_count: null }), flash_cache_options_gb: null },
      { signal },
    );
    configuration = {
      ...resolved.configuration,
      name: configuration.name ?? resolved.configuration.name.replace(/^([^,]+), /, `$1, ${count} x `),
      headroom,
      pools: resolved.configuration.pools.map((p) => ({ ...p, drive_count: count })),
    };
  }
  const request: EvaluateRequest = { workloads, configuration, degraded: 'none' };
  const result = await evaluateConfiguration(request, { signal });
  return { kind: 'evaluate', request, result, sizing: null, configuration };
}

export const runQueryOptions = (input: RunInput) =>
  queryOptions({
    queryKey: ['sizing', 'run', input] as const,
    queryFn: ({ signal }) => run(input, signal),
    staleTime: Infinity,
  });

/** The outcome of `input` (null: nothing run yet). */
export function useRun(input: RunInput | null) {
  return useQuery({ ...runQueryOptions(input as RunInput), enabled: input !== null });
}
