import { queryOptions, useQuery } from '@tanstack/react-query';

import type { ConfigurationInput, EvaluateRequest, EvaluationResult, SizeRequest, SizingResult, Workload } from '@/lib/api-types';

import { evaluateConfiguration } from '../api/evaluate-configuration';
import { sizeConfiguration } from '../api/size-configuration';

/** What to run: size a family (drive count open) or evaluate a given drive count. */
export type RunInput = {
  kind: 'size' | 'evaluate';
  workloads: Workload[];
  /** The configuration, headroom targets included (a catalog reference carries them too). */
  configuration: ConfigurationInput;
  flashCacheOptionsGb: number[] | null;
};

export type RunOutcome =
  | { kind: 'size'; request: SizeRequest; result: EvaluationResult; sizing: SizingResult; configuration: ConfigurationInput }
  | { kind: 'evaluate'; request: EvaluateRequest; result: EvaluationResult; sizing: null; configuration: ConfigurationInput };

/**
 * Size or evaluate, in one request: the server resolves a catalog reference (headroom targets,
 * name and all), and a sizing answer carries the configuration in full.
 */
export async function run(input: RunInput, signal?: AbortSignal): Promise<RunOutcome> {
  const { workloads, configuration } = input;
  if (input.kind === 'size') {
    const options = input.flashCacheOptionsGb;
    const request: SizeRequest = {
      workloads,
      configuration,
      flash_cache_options_gb: options && options.length ? options : null,
      degraded: 'none',
      max_drives: null,
    };
    const sizing = await sizeConfiguration(request, { signal });
    return { kind: 'size', request, result: sizing.result, sizing, configuration: sizing.configuration };
  }
  const request: EvaluateRequest = { workloads, configuration, degraded: 'none', adjust: null };
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
