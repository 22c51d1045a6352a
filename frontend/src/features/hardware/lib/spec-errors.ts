/**
 * The API's 422 messages for a hardware record, per field of its spec. Field validators answer at
 * `spec.<field>`; the model's cross-field checks answer at `spec` with a message that names the
 * field first ("read_latency_us is required for an SSD/NVMe drive"): those are shown at that
 * field as well as above the form.
 */
import { ApiError } from '@/lib/api-error';
import { fieldErrors, type FieldErrors } from '@/lib/field-errors';

export type SpecErrors = {
  /** Messages for one spec field (its own, and the model's messages that name it). */
  at: (field: string) => string[];
  /** Messages about the record's display name (`name` beside `spec`). */
  name: string[];
  /** Messages about the spec as a whole, or about fields the form does not show. */
  general: string[];
  count: number;
};

export function specErrors(error: unknown, shown: readonly string[]): SpecErrors {
  const api = error instanceof ApiError && error.isValidation ? error : null;
  const all: FieldErrors = fieldErrors(api?.fieldErrors);
  const spec = all.scope('spec');
  const named = (m: string) => shown.find((f) => m.startsWith(`${f} `) || m.startsWith(`${f}:`));
  const here = spec.here();
  const unshown = spec
    .entries()
    .filter(([k]) => k !== '' && !shown.includes(k.split('.')[0]!))
    .map(([k, ms]) => `${k.replace(/_/g, ' ')}: ${ms.join(' ')}`);
  return {
    at: (field) => [
      ...spec.at(field),
      ...spec
        .entries()
        .filter(([k]) => k.startsWith(`${field}.`))
        .flatMap(([k, ms]) => ms.map((m) => `${k.slice(field.length + 1).replace(/_/g, ' ')}: ${m}`)),
      ...here.filter((m) => named(m) === field),
    ],
    name: all.at('name'),
    general: [...here, ...unshown, ...all.here(), ...all.at('kind')],
    count: all.count,
  };
}
