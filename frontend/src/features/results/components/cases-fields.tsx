import type { Relaxation } from '@/lib/api-types';

type Case = Relaxation['case'];

/** The cases a design is judged in besides healthy operation (the engine's models.cases), in words. */
const CASES: { value: Case; label: string }[] = [
  { value: 'drive-failed', label: 'A drive failed' },
  { value: 'rebuilding', label: 'A rebuild' },
  { value: 'failover', label: 'A controller or node failover' },
  { value: 'cold-cache', label: 'Cold caches after a restart' },
  { value: 'horizon', label: 'Growth to the horizon' },
];

type CasesFieldsProps = {
  /** The relaxations asked for (the API's `relax`). */
  value: Relaxation[];
  onChange: (value: Relaxation[]) => void;
};

/**
 * What the design must meet besides healthy operation: every case by default; unticking one
 * relaxes it in every window (the verdict's headline then names it). Relaxations of one window,
 * from a saved request, are kept as they are.
 */
export function CasesFields({ value, onChange }: CasesFieldsProps) {
  const relaxedEverywhere = (c: Case) => value.some((r) => r.case === c && !r.window);
  return (
    <fieldset className="plain cases-fields">
      <legend>Size and judge for</legend>
      <p className="muted">
        Healthy operation always; each case below too unless unticked (the verdict then says what the design was not sized for).
      </p>
      <div className="checkbox-row">
        {CASES.map((c) => (
          <label key={c.value} className="checkbox">
            <input
              type="checkbox"
              checked={!relaxedEverywhere(c.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? value.filter((r) => !(r.case === c.value && !r.window))
                    : [...value, { case: c.value, window: null }],
                )
              }
            />{' '}
            {c.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
