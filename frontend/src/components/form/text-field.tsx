import { Field } from './field';

type TextFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  errors?: readonly string[];
  placeholder?: string;
  className?: string;
  /** A multi-line text area with this many rows. */
  rows?: number;
  maxLength?: number;
  list?: string;
};

export function TextField({ label, value, onChange, hint, errors, placeholder, className, rows, maxLength, list }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} errors={errors} className={className}>
      {(control) =>
        rows ? (
          <textarea
            {...control}
            rows={rows}
            value={value}
            placeholder={placeholder}
            maxLength={maxLength}
            spellCheck={false}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input
            {...control}
            type="text"
            value={value}
            placeholder={placeholder}
            maxLength={maxLength}
            list={list}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}
