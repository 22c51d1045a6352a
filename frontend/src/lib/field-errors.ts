/**
 * Per-field messages (the API's 422 `loc` paths, dotted: `workloads.0.phases.1.read_pct`) scoped
 * to a part of a form, so each component asks only for its own fields.
 *
 *   const errors = fieldErrors(apiError?.fieldErrors).scope('workloads.0');
 *   errors.at('capacity_tb')      // messages for workloads.0.capacity_tb
 *   errors.scope('phases.1')      // the errors of one phase
 *   errors.here()                 // messages about workloads.0 as a whole (model validators)
 */
export type FieldErrors = {
  /** Messages for exactly `path` (relative to the scope). */
  at: (path: string | number) => string[];
  /** The errors under `path`. */
  scope: (path: string | number) => FieldErrors;
  /** Messages about the scope itself. */
  here: () => string[];
  /** Every (relative path, messages) pair under the scope. */
  entries: () => [string, string[]][];
  readonly count: number;
};

export function fieldErrors(map: Record<string, string[]> | undefined | null, prefix = ''): FieldErrors {
  const all = map ?? {};
  const full = (path: string | number) => (prefix ? `${prefix}.${path}` : String(path));
  const inside = Object.entries(all).filter(([k]) => !prefix || k === prefix || k.startsWith(`${prefix}.`));
  return {
    at: (path) => all[full(path)] ?? [],
    scope: (path) => fieldErrors(all, full(path)),
    here: () => (prefix ? (all[prefix] ?? []) : (all[''] ?? [])),
    entries: () => inside.map(([k, v]) => [prefix ? k.slice(prefix.length + 1) : k, v]),
    count: inside.reduce((n, [, v]) => n + v.length, 0),
  };
}

export const noFieldErrors: FieldErrors = fieldErrors({});

/**
 * A field path in words: `workloads.0.phases.1.read_pct` -> `workload 1 › phase 2 › read pct`
 * (with names when given: `workload "OLTP" › phase "online" › read pct`).
 */
export function describePath(path: string, names: { workloads?: { name: string; phases: { name: string }[] }[] } = {}): string {
  if (!path) return 'the request';
  const parts = path.split('.');
  const out: string[] = [];
  let workload: { name: string; phases: { name: string }[] } | undefined;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    const next = parts[i + 1];
    const index = next !== undefined && /^\d+$/.test(next) ? Number(next) : null;
    if (part === 'workloads' && index !== null) {
      workload = names.workloads?.[index];
      out.push(workload ? `workload “${workload.name}”` : `workload ${index + 1}`);
      i += 1;
    } else if (part === 'phases' && index !== null) {
      const phase = workload?.phases[index];
      out.push(phase ? `phase “${phase.name}”` : `phase ${index + 1}`);
      i += 1;
    } else if (index !== null) {
      out.push(`${part.replace(/_/g, ' ')} ${index + 1}`);
      i += 1;
    } else {
      out.push(part.replace(/_/g, ' '));
    }
  }
  return out.join(' › ');
}
