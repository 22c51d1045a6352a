import { NumberField } from '@/components';

type ConfidenceFieldProps = {
  /** The chance to size to [%] (the API's `confidence_pct`); null: size at the stated inputs. */
  value: number | null;
  onChange: (value: number | null) => void;
  errors?: readonly string[];
};

/** The chance a sizing asks for when the box is ticked (the field then starts here). */
export const DEFAULT_CONFIDENCE_PCT = 90;

/**
 * Size to a stated confidence: the fewest drives whose chance of meeting every case judged
 * (sampled over the inputs' ranges and the model's error band) reaches the figure. Unticked, the
 * sizing is at the stated inputs. A cleared figure is an error at the field, never "off".
 */
export function ConfidenceField({ value, onChange, errors }: ConfidenceFieldProps) {
  const on = value !== null;
  return (
    <fieldset className="plain confidence-field">
      <legend>Size to a confidence</legend>
      <label className="checkbox">
        <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked ? DEFAULT_CONFIDENCE_PCT : null)} /> Size
        to a stated chance of meeting every case
      </label>
      {on ? (
        <NumberField
          label="Chance of meeting every case"
          unit="%"
          value={value}
          onChange={(v) => onChange(v === null ? Number.NaN : v)}
          errors={errors}
          min={1}
          max={99.9}
          hint="Samples the inputs' ranges and the model's error band (1,000 samples); never fewer drives than sizing at the stated inputs."
        />
      ) : null}
    </fieldset>
  );
}
