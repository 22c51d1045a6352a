import { ErrorState, Figure, Loading } from '@/components';
import type {
  CaseOutcome,
  Confidence,
  ConfidenceRequest,
  ConfigurationInput,
  EvaluationResult,
  SizingResult,
  Verdict,
  Workload,
} from '@/lib/api-types';

import { useConfidence } from '../api/get-confidence';

type VerdictsProps = {
  result: EvaluationResult;
  sizing?: SizingResult | null;
  /** The workloads and the configuration judged: with them, the chance of meeting every target is asked for. */
  workloads?: Workload[];
  configuration?: ConfigurationInput;
  /** A chance computed before (a saved report): shown as it is, not asked again. */
  confidence?: Confidence | null;
};

/** The chance beside the verdict, in the engine's words. */
function ChanceText({ chance }: { chance: Confidence }) {
  return (
    <p className="verdict-chance" data-testid="verdict-chance">
      <strong>Chance of meeting every target: {chance.chance_pct.toLocaleString('en-US', { maximumFractionDigits: 1 })}%</strong>
      {chance.target_pct != null ? ` (sized to ${chance.target_pct}%)` : ''}. {chance.text}
    </p>
  );
}

/** The chance asked of the API for the design judged. */
function ChanceAsked({ body }: { body: ConfidenceRequest }) {
  const query = useConfidence(body);
  if (query.data) return <ChanceText chance={query.data} />;
  if (query.isError) {
    return <ErrorState title="The chance of meeting every target could not be computed" error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <Loading label="Chance of meeting every target: sampling the inputs' ranges and the model's error…" />;
}

function Badge({ passed }: { passed: boolean }) {
  return <span className={passed ? 'badge badge-ok' : 'badge badge-fail'}>{passed ? 'Meets' : 'Fails'}</span>;
}

const STATUS_ORDER: Record<CaseOutcome['status'], number> = {
  fails: 0,
  meets: 1,
  relaxed: 2,
  'not applicable': 3,
};

/** Every case the engine judged (failing first), in its own words. */
function Cases({ verdict }: { verdict: Verdict }) {
  const cases = [...verdict.cases].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  return (
    <details className="verdict-cases" open={!verdict.passed}>
      <summary>Every case judged ({cases.filter((c) => c.status === 'fails').length} failing)</summary>
      <ul data-testid="verdict-cases">
        {cases.map((c) => (
          <li key={`${c.case}|${c.window ?? ''}|${c.load}`} className={`case case-${c.status.replace(' ', '-')}`}>
            <span className="case-status">{c.status}</span> {c.text}
          </li>
        ))}
      </ul>
      {verdict.notes?.length ? (
        <ul className="muted">
          {verdict.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}

/** The answer first: overall (the engine's verdict over every case where it gave one), then one
 * sentence per window (meets / fails and why). */
export function Verdicts({ result, sizing, workloads, configuration, confidence }: VerdictsProps) {
  const capacity = result.checks.find((c) => c.name === 'capacity');
  const verdict = result.verdict;
  const overall = verdict
    ? verdict.headline
    : result.passed
      ? 'Meets every target'
      : `Does not meet every target: ${result.bottleneck_words}`;
  const given = confidence ?? sizing?.confidence ?? null;
  const judged = sizing?.configuration ?? configuration;
  const body: ConfidenceRequest | null =
    verdict && workloads && judged ? { workloads, configuration: judged, relax: verdict.relaxed, samples: 1000, seed: 0 } : null;
  return (
    <section className="verdicts" aria-labelledby="verdicts-title">
      <h3 id="verdicts-title" className={result.passed ? 'verdict-overall ok' : 'verdict-overall fail'}>
        {overall}
      </h3>
      {given ? <ChanceText chance={given} /> : body ? <ChanceAsked body={body} /> : null}
      {verdict ? <Cases verdict={verdict} /> : null}
      {sizing ? <p className="sizing-explanation">{sizing.explanation}</p> : null}
      {sizing && !sizing.feasible && sizing.reasons?.length ? (
        <ul className="reasons">
          {(sizing.reasons ?? []).map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      <ul className="verdict-list">
        {result.windows.map((w) => (
          <li key={w.window} className={w.passed ? 'verdict ok' : 'verdict fail'} data-testid="window-verdict">
            <Badge passed={w.passed} />
            <div>
              <p className="verdict-text">{w.verdict}</p>
              <p className="verdict-figures">
                <Figure label={`Front-end IOPS (${w.window})`} figure={w.explain.frontend_iops} /> · read{' '}
                <Figure label={`Read latency (${w.window})`} figure={w.explain.read_latency_ms} /> · write{' '}
                <Figure label={`Write latency (${w.window})`} figure={w.explain.write_latency_ms} />
              </p>
              {w.failure_verdict ? (
                <p className="verdict-failure" data-testid="failure-verdict">
                  Drive failure: {w.failure_verdict}
                </p>
              ) : null}
              {w.write_burst_s ? (
                <p className="verdict-figures">
                  Write bursts: <Figure
                    label={`NVRAM absorbs a burst of twice the writes (${w.window})`}
                    figure={w.write_burst_s}
                    unbounded="absorbed for as long as they last (the drives destage twice the writes)"
                  />
                </p>
              ) : null}
            </div>
          </li>
        ))}
        {capacity ? (
          <li className={capacity.passed ? 'verdict ok' : 'verdict fail'} data-testid="capacity-verdict">
            <Badge passed={capacity.passed} />
            <div>
              <p className="verdict-text">Capacity: {capacity.text}.</p>
            </div>
          </li>
        ) : null}
      </ul>
      {result.warnings.length ? (
        <div className="notice">
          <p>Warnings</p>
          <ul>
            {result.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
