import { Figure } from '@/components';
import type { EvaluationResult, SizingResult } from '@/lib/api-types';

import { explainWindowIops, explainWindowLatency } from '../lib/explain';

type VerdictsProps = {
  result: EvaluationResult;
  sizing?: SizingResult | null;
};

function Badge({ passed }: { passed: boolean }) {
  return <span className={passed ? 'badge badge-ok' : 'badge badge-fail'}>{passed ? 'Meets' : 'Fails'}</span>;
}

/** The answer first: overall, then one sentence per window (meets / fails and why). */
export function Verdicts({ result, sizing }: VerdictsProps) {
  const capacity = result.checks.find((c) => c.name === 'capacity');
  return (
    <section className="verdicts" aria-labelledby="verdicts-title">
      <h3 id="verdicts-title" className={result.passed ? 'verdict-overall ok' : 'verdict-overall fail'}>
        {result.passed ? 'Meets every target' : `Does not meet every target: ${result.bottleneck_words}`}
      </h3>
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
                <Figure label={`Front-end IOPS (${w.window})`} figure={explainWindowIops(w)} /> · read{' '}
                <Figure label={`Read latency (${w.window})`} figure={explainWindowLatency(w, 'read')} /> · write{' '}
                <Figure label={`Write latency (${w.window})`} figure={explainWindowLatency(w, 'write')} />
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
