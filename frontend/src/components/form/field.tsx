import { useId, type ReactNode } from 'react';

export type FieldProps = {
  label: ReactNode;
  /** Short help under the control. */
  hint?: ReactNode;
  /** Messages for this field (e.g. the API's 422 messages for its path); shown and announced. */
  errors?: readonly string[];
  /** Renders the control with the ids it must carry (`id`, `aria-describedby`, `aria-invalid`). */
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode;
  className?: string;
};

/**
 * A labelled form control with its hint and error messages wired up for assistive technology.
 * The control comes from `children`, so any input, select or textarea fits.
 */
export function Field({ label, hint, errors = [], children, className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, errors.length ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={['field', errors.length ? 'field-invalid' : '', className ?? ''].join(' ').trim()}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(errors.length ? { 'aria-invalid': true as const } : {}),
      })}
      {hint ? (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      {errors.length ? (
        <span className="field-error" id={errorId}>
          {errors.join(' ')}
        </span>
      ) : null}
    </div>
  );
}
