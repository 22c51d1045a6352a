/**
 * The API's 422 messages for a hardware record, per field of its spec. Field validators answer at
 * `spec.<field>`; the model's cross-field checks answer at `spec` with a message that names the
 * field first ("read_latency_us is required for an SSD/NVMe drive"): those are shown at that
 * field as well as above the form.
 */
import { ApiError, fieldPath } from '@/lib/api-error';
import { fieldErrors, fieldWords, type FieldErrors } from '@/lib/field-errors';

export type SpecErrors = {
  /** Messages for one spec field (its own, and the model's messages that name it). */
  at: (field: string) => string[];
  /** Messages about the record's display name (`name` beside `spec`). */
  name: string[];
  /** Messages about the spec as a whole, or about fields the form does not show. */
  general: string[];
  count: number;
};

/** `changed(field)`: the field was edited since the failed save; its messages are about the old value and go. */
export function specErrors(error: unknown, shown: readonly string[], changed: (field: string) => boolean = () => false): SpecErrors {
  const api = error instanceof ApiError && error.isValidation ? error : null;
  const all: FieldErrors = fieldErrors(api?.fieldErrors);
  const spec = all.scope('spec');
  const named = (m: string) => shown.find((f) => m.startsWith(`${f} `) || m.startsWith(`${f}:`));
  // the API's own words name the field ("rpm is required ..."); people read the plain message
  const aboutSpec = (api?.issues ?? []).filter((i) => fieldPath(i.loc) === 'spec');
  const unshown = spec
    .entries()
    .filter(([k]) => k !== '' && !shown.includes(k.split('.')[0]!))
    .map(([k, ms]) => `${k.replace(/_/g, ' ')}: ${ms.join(' ')}`);
  return {
    at: (field) => changed(field) ? [] : [
      ...spec.at(field),
      ...spec
        .entries()
        .filter(([k]) => k.startsWith(`${field}.`))
        .flatMap(([k, ms]) => ms.map((m) => `${k.slice(field.length + 1).replace(/_/g, ' ')}: ${m}`)),
      ...aboutSpec.filter((i) => named((i.raw ?? i.msg).replace(/^Value error, /, '')) === field).map((i) => i.msg),
    ],
    name: all.at('name'),
    general: [
      ...aboutSpec.flatMap((i) => {
        const field = named((i.raw ?? i.msg).replace(/^Value error, /, ''));
        if (field && changed(field)) return [];
        return [field ? `${fieldWords(field)}: ${i.msg}` : i.msg];
      }),
      ...unshown,
      ...all.here(),
      ...all.at('kind'),
    ],
    count: all.count,
  };
}
