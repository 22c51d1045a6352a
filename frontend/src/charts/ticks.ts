/** Round axis ticks: 1, 2, 2.5, 5 x 10^k steps for linear axes, decades (and 2, 5) for log axes. */

export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const r = raw / magnitude;
  const nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Ticks from 0 (or below min when negative) to at least max. */
export function linearTicks(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, min);
  if (!(max > lo)) return [lo, lo + 1];
  const step = niceStep(max - lo, count);
  const start = Math.floor(lo / step) * step;
  const out: number[] = [];
  for (let v = start; v < max + step * 0.999; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** Log ticks between min and max (> 0): powers of 2 when the data are powers of 2, else 1-2-5 decades. */
export function logTicks(min: number, max: number, values: number[] = []): number[] {
  if (!(min > 0) || !(max > 0)) return [];
  const powersOfTwo = values.length > 0 && values.every((v) => v > 0 && Number.isInteger(Math.log2(v)));
  if (powersOfTwo) return [...new Set(values)].sort((a, b) => a - b);
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e += 1) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= min * 0.999 && v <= max * 1.001) out.push(Number(v.toPrecision(12)));
    }
  }
  return out.length >= 2 ? out : [min, max];
}

/** `x` rounded up to 1, 2, 2.5 or 5 x 10^k (an axis maximum that reads well). */
export function niceCeil(x: number): number {
  if (!(x > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(x));
  const r = x / magnitude;
  const nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Width of an axis label of `chars` characters at the charts' 12 px font, with a gap to its neighbour [px] (estimate). */
export const labelWidth = (chars: number) => chars * 7 + 12;

/**
 * Linear ticks whose labels fit `widthPx` side by side: the most of 5, 4, 3 or 2 steps whose
 * labels (as `label` writes them) do not overlap; 5 steps before the width is known (0).
 */
export function ticksThatFit(min: number, max: number, widthPx: number, label: (t: number) => string): number[] {
  let ticks = linearTicks(min, max, 5);
  if (!(widthPx > 0)) return ticks;
  for (const count of [5, 4, 3, 2]) {
    ticks = linearTicks(min, max, count);
    const widest = labelWidth(Math.max(...ticks.map((t) => label(t).length)));
    if (ticks.length < 2 || widthPx / (ticks.length - 1) >= widest) return ticks;
  }
  return ticks;
}
