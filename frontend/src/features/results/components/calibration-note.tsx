import type { EvaluationResult } from '@/lib/api-types';

type CalibrationNoteProps = {
  result: EvaluationResult;
};

const PARTS = ['drives', 'controller', 'cache', 'ports'] as const;

/**
 * What the answer rests on and how far off it may be: each part's status and sources (the engine's
 * words), and the expected error of this class of system from the validation tables.
 */
export function CalibrationNote({ result }: CalibrationNoteProps) {
  const calibration = result.calibration;
  const error = result.model_error;
  if (!calibration && !error) return null;
  return (
    <section className="calibration-note notice" aria-labelledby="calibration-title" data-testid="calibration-note">
      <p id="calibration-title">How calibrated this answer is</p>
      {error ? (
        <p data-testid="model-error">
          {error.text}. <span className="muted">Basis: {error.basis}.</span>
        </p>
      ) : null}
      {calibration?.margins?.length ? (
        <div data-testid="calibration-margins">
          <p>Conservative by default (estimated parts at the pessimistic end of the error band):</p>
          <ul>
            {calibration.margins.map((m) => (
              <li key={m.part}>{m.text}</li>
            ))}
          </ul>
          {calibration.margin_cost ? <p>{calibration.margin_cost}</p> : null}
        </div>
      ) : null}
      {calibration ? (
        <ul className="calibration-parts">
          {PARTS.map((name) => {
            const part = calibration.parts[name];
            return (
              <li key={name} data-testid={`calibration-${name}`} className={calibration.estimated.includes(name) ? 'estimate' : undefined}>
                <strong>{name}</strong>: {part.status}
                {part.sources?.length ? ` [${part.sources.join('] [')}]` : ''}
                {part.note ? <span className="muted"> ({part.note})</span> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
