import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import type { ConfigurationInput, CurvesResult, EvaluateRequest, EvaluationResult, MoneyInputs, Relaxation, SizeRequest, SizingResult, Workload } from '@/lib/api-types';

import { evaluateConfiguration } from '../api/evaluate-configuration';
import { getCurvesQueryOptions } from '../api/get-curves';
import { sizeConfiguration } from '../api/size-configuration';

/** What to run: size a family (drive count open) or evaluate a given drive count. */
export type RunInput = {
  kind: 'size' | 'evaluate';
  workloads: Workload[];
  /** The configuration, headroom targets included (a catalog reference carries them too). */
  configuration: ConfigurationInput;
  flashCacheOptionsGb: number[] | null;
  /** Sizing: what the TCO assumes; absent = the API's defaults. */
  money?: MoneyInputs;
  /** Cases the design need not meet (absent or empty: every case decides). */
  relax?: Relaxation[];
  /** Sizing: the chance of meeting every case to size to [%] (the API's `confidence_pct`); absent: the stated inputs. */
  confidencePct?: number;
};

export type RunOutcome =
  | { kind: 'size'; request: SizeRequest; result: EvaluationResult; sizing: SizingResult; configuration: ConfigurationInput }
  | { kind: 'evaluate'; request: EvaluateRequest; result: EvaluationResult; sizing: null; configuration: ConfigurationInput };

/**
 * The first window's curves, which came with the answer, kept as the curves query of the results
 * page would fetch them (`useCurves({ workloads, configuration, window })`): its charts draw at once.
 */
function keepCurves(client: QueryClient | undefined, workloads: Workload[], configuration: ConfigurationInput, curves: CurvesResult | null | undefined) {
  if (!client || !curves) return;
  client.setQueryData(getCurvesQueryOptions({ workloads, configuration, window: curves.window, calibration_margin: 'pessimistic' }).queryKey, curves);
}

/**
 * Size or evaluate, in one request: the server resolves a catalog reference (headroom targets,
 * name and all), and a sizing answer carries the configuration in full. The answer also brings the
 * first window's curves, kept in `client`'s cache for the charts (no second request after it).
 */
export async function run(input: RunInput, signal?: AbortSignal, client?: QueryClient): Promise<RunOutcome> {
  const request = runRequest(input);
  if (request.kind === 'size') {
    const { curves, ...sizing } = await sizeConfiguration(request.body, { signal, withCurves: client !== undefined });
    keepCurves(client, input.workloads, sizing.configuration, curves);
    return { kind: 'size', request: request.body, result: sizing.result, sizing, configuration: sizing.configuration };
  }
  const { curves, ...result } = await evaluateConfiguration(request.body, { signal, withCurves: client !== undefined });
  keepCurves(client, input.workloads, input.configuration, curves);
  return { kind: 'evaluate', request: request.body, result, sizing: null, configuration: input.configuration };
}

/** The one request `input` makes: its body, and the API schema that checks it (`schema`). */
export function runRequest(
  input: RunInput,
): { kind: 'size'; schema: 'SizeRequest'; body: SizeRequest } | { kind: 'evaluate'; schema: 'EvaluateRequest'; body: EvaluateRequest } {
  const { workloads, configuration } = input;
  if (input.kind === 'size') {
    const options = input.flashCacheOptionsGb;
    return {
      kind: 'size',
      schema: 'SizeRequest',
      body: {
        workloads,
        configuration,
        flash_cache_options_gb: options && options.length ? options : null,
        degraded: 'none',
        max_drives: null,
        calibration_margin: 'pessimistic',
        ...(input.money ? { money: input.money } : {}),
        ...(input.relax?.length ? { relax: input.relax } : {}),
        ...(input.confidencePct !== undefined ? { confidence_pct: input.confidencePct } : {}),
      },
    };
  }
  return {
    kind: 'evaluate',
    schema: 'EvaluateRequest',
    body: {
      workloads,
      configuration,
      degraded: 'none',
      adjust: null,
      calibration_margin: 'pessimistic',
      ...(input.relax?.length ? { relax: input.relax } : {}),
    },
  };
}

export const runQueryOptions = (input: RunInput) =>
  queryOptions({
    queryKey: ['sizing', 'run', input] as const,
    queryFn: ({ signal, client }) => run(input, signal, client),
    staleTime: Infinity,
  });

/** The outcome of `input` (null: nothing run yet). */
export function useRun(input: RunInput | null) {
  return useQuery({ ...runQueryOptions(input as RunInput), enabled: input !== null });
}
