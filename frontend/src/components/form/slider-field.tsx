import { useId } from 'react';

type SliderFieldProps = {
  label: string;
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  step: number;
  /** How the value reads beside the slider, e.g. `v => `${v}%``. */
  format?: (value: number) => string;
  /** The baseline, marked under the track and shown as the change. */
  baseline?: number;
  disabled?: boolean;
};

/** A labelled range input with its current value (and the change from the baseline) beside it. */
export function SliderField({ label, value, onChange, min, max, step, format = String, baseline, disabled }: SliderFieldProps) {
  const id = useId();
  const outId = `${id}-value`;
  const changed = baseline !== undefined && Math.abs(value - baseline) > 1e-9;
  const markPct = baseline === undefined || max === min ? null : ((baseline - min) / (max - min)) * 100;
  return (
    <div className="slider-field">
      <div className="slider-head">
        <label htmlFor={id}>{label}</label>
        <output id={outId} htmlFor={id} className={changed ? 'slider-value slider-changed' : 'slider-value'}>
          {format(value)}
          {changed && baseline !== undefined ? <span className="slider-baseline"> (baseline {format(baseline)})</span> : null}
        </output>
      </div>
      <div className="slider-track">
        <input
          id={id}
          type="range"
          min={min}
          max={max}
          step={step}
          value={value}
          disabled={disabled}
          aria-valuetext={format(value)}
          onChange={(e) => onChange(Number(e.target.value))}
        />
        {markPct !== null ? (
          <span className="slider-mark" style={{ left: `${Math.min(100, Math.max(0, markPct))}%` }} aria-hidden="true" />
        ) : null}
      </div>
    </div>
  );
}
