/**
 * Explanations for window totals the engine reports as plain numbers, built from the same inputs
 * and formulas as the engine, so every number on screen can show its math. The bill's come from
 * the engine (`bill.explain`, `models/bill.py`).
 */
import { formatNumber, type FigureExplanation } from '@/components';
import type { WindowResult } from '@/lib/api-types';

const f = formatNumber;

export function explained(
  value: number | null,
  unit: string,
  formula: string,
  text: string,
  inputs: Record<string, number | string | null> = {},
  source?: string,
): FigureExplanation {
  return { value, unit, formula, text, inputs, source: source ?? null };
}

/** Front-end IOPS of a window: the sum of its phases. */
export function explainWindowIops(w: WindowResult): FigureExplanation {
  const parts = w.phases.map((p) => `${f(p.iops)} (${p.workload}/${p.phase})`);
  return explained(w.frontend_iops, 'IOPS', 'IOPS = sum of the phases running in the window', `IOPS = ${parts.join(' + ') || '0'} = ${f(w.frontend_iops)}`, Object.fromEntries(w.phases.map((p) => [`${p.workload}/${p.phase}`, p.iops])));
}

/** Front-end MB/s of a window. */
export function explainWindowMbs(w: WindowResult): FigureExplanation {
  const parts = w.phases.map((p) => f(p.mb_per_s));
  return explained(w.frontend_mb_s, 'MB/s', 'MB/s = sum over phases of IOPS x mean I/O size', `MB/s = ${parts.join(' + ') || '0'} = ${f(w.frontend_mb_s)}`, Object.fromEntries(w.phases.map((p) => [`${p.workload}/${p.phase}`, p.mb_per_s])));
}

/** The window's IOPS-weighted read latency. */
export function explainWindowLatency(w: WindowResult, kind: 'read' | 'write'): FigureExplanation {
  const value = kind === 'read' ? w.read_latency_ms : w.write_latency_ms;
  const per = w.phases.map((p) => [`${p.workload}/${p.phase}`, kind === 'read' ? p.read_latency_ms.value : p.write_latency_ms.value] as const);
  return explained(
    value,
    'ms',
    `R_${kind} = sum(phase ${kind}s x phase R_${kind}) / sum(phase ${kind}s)`,
    value === null ? `R_${kind} is unbounded: a resource is saturated` : `R_${kind} = IOPS-weighted mean of ${per.map(([n, v]) => `${f(v)} ms (${n})`).join(', ')} = ${f(value)} ms`,
    Object.fromEntries(per),
  );
}
