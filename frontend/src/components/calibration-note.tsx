import { useId } from 'react';

import type { ModelError, ResultCalibration } from '@/lib/api-types';

type CalibrationNoteProps = {
  /** The note's heading (default: of the answer as a whole). */
  title?: string;
  /** Any answer that says what it rests on: an evaluation, an analysis, a plan's evaluation. */
  result: { calibration?: ResultCalibration | null; model_error?: ModelError | null };
};

const PARTS = ['drives', 'controller', 'cache', 'ports'] as const;

/**
 * What the answer rests on and how far off it may be: each part's status and sources (the engine's
 * words), and the expected error of this class of system from the validation tables.
 */
export function CalibrationNote({ result, title = 'How calibrated this answer is' }: CalibrationNoteProps) {
  const titleId = useId();
  const calibration = result.calibration;
  const error = result.model_error;
  if (!calibration && !error) return null;
  return (
    <section className="calibration-note notice" aria-labelledby={titleId} data-testid="calibration-note">
      <p id={titleId}>{title}</p>
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
