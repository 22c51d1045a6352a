import { NumberField } from '@/components';

import type { SpecErrors } from '../lib/spec-errors';

export type NumberSpec<K extends string> = {
  key: K;
  label: string;
  unit?: string;
  hint?: string;
  /** Whole numbers only. */
  integer?: boolean;
  /** Empty allowed (sent as null). */
  optional?: boolean;
};

type SpecFieldsProps<K extends string> = {
  fields: readonly NumberSpec<K>[];
  values: Partial<Record<K, number | null | undefined>>;
  onChange: (key: K, value: number | null) => void;
  errors: SpecErrors;
  className?: string;
};

/** Number inputs for some fields of a spec, each with the API's messages for it. */
export function SpecFields<K extends string>({ fields, values, onChange, errors, className = 'grid grid-4' }: SpecFieldsProps<K>) {
  return (
    <div className={className}>
      {fields.map((f) => (
        <NumberField
          key={f.key}
          label={f.label}
          unit={f.unit}
          hint={f.hint}
          value={values[f.key] ?? null}
          optional={f.optional}
          min={0}
          step={f.integer ? 1 : 'any'}
          errors={errors.at(f.key)}
          onChange={(v) => onChange(f.key, v === null ? null : f.integer ? Math.round(v) : v)}
        />
      ))}
    </div>
  );
}
