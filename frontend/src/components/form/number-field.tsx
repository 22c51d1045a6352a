import { useEffect, useState } from 'react';

import { Field } from './field';

type NumberFieldProps = {
  label: string;
  /** The number, or null when empty. */
  value: number | null | undefined;
  onChange: (value: number | null) => void;
  unit?: string;
  hint?: string;
  errors?: readonly string[];
  min?: number;
  max?: number;
  step?: number | 'any';
  /**
   * The field may be empty: emptied, it reports null. A required field emptied reports NaN, so
   * the form holds "no number" (never the last one typed) and the checks flag it at the field.
   */
  optional?: boolean;
  placeholder?: string;
  className?: string;
  disabled?: boolean;
};

function show(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : String(value);
}

/**
 * A labelled number input. It keeps its own text while typing ("1." or "" are fine mid-edit) and
 * reports a number when the text is one; emptied it reports null (optional) or NaN (required).
 * Range checks come from the API's constraints (checked in the browser and by the server): their
 * messages come in `errors`.
 */
export function NumberField({
  label,
  value,
  onChange,
  unit,
  hint,
  errors,
  min,
  max,
  step = 'any',
  optional = false,
  placeholder,
  className,
  disabled,
}: NumberFieldProps) {
  const [text, setText] = useState(() => show(value));

  // Follow outside changes (a template, an import, a reset) unless the text already means that number.
  useEffect(() => {
    setText((current) => {
      const parsed = current.trim() === '' ? null : Number(current);
      const wanted = value === undefined || value === null || Number.isNaN(value) ? null : value;
      return parsed === wanted ? current : show(value);
    });
  }, [value]);

  return (
    <Field label={unit ? `${label} [${unit}]` : label} hint={hint} errors={errors} className={className}>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="decimal"
          value={text}
          min={min}
          max={max}
          step={step}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            if (next.trim() === '') {
              onChange(optional ? null : Number.NaN);
              return;
            }
            const n = Number(next);
            if (Number.isFinite(n)) onChange(n);
          }}
        />
      )}
    </Field>
  );
}
