import { Field } from './field';

export type SelectOption = { value: string; label: string; disabled?: boolean };
export type SelectGroup = { label: string; options: SelectOption[] };

type SelectFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (SelectOption | SelectGroup)[];
  hint?: string;
  errors?: readonly string[];
  /** A first, empty choice, e.g. "Choose an array…". */
  placeholder?: string;
  disabled?: boolean;
  className?: string;
};

const isGroup = (o: SelectOption | SelectGroup): o is SelectGroup => 'options' in o;

export function SelectField({
  label,
  value,
  onChange,
  options,
  hint,
  errors,
  placeholder,
  disabled,
  className,
}: SelectFieldProps) {
  return (
    <Field label={label} hint={hint} errors={errors} className={className}>
      {(control) => (
        <select {...control} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          {placeholder !== undefined ? (
            <option value="" disabled>
              {placeholder}
            </option>
          ) : null}
          {options.map((o) =>
            isGroup(o) ? (
              <optgroup key={o.label} label={o.label}>
                {o.options.map((x) => (
                  <option key={x.value} value={x.value} disabled={x.disabled}>
                    {x.label}
                  </option>
                ))}
              </optgroup>
            ) : (
              <option key={o.value} value={o.value} disabled={o.disabled}>
                {o.label}
              </option>
            ),
          )}
        </select>
      )}
    </Field>
  );
}
