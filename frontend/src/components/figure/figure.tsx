import { type CSSProperties, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

/**
 * A figure and the math behind it: the shape of the engine's `Explained` (models/explain.py).
 * Generated API types for explained figures are structurally assignable to this.
 */
export type FigureExplanation = {
  /** The figure; null when unbounded (a saturated resource). */
  value: number | null;
  unit: string;
  /** Symbolic formula, names as in docs/nomenclature.md. */
  formula: string;
  /** The same formula with the numbers filled in. */
  text: string;
  /** The inputs by name (the API may leave them out when there are none). */
  inputs?: Record<string, number | string | null>;
  /** Model reference or published source. */
  source?: string | null;
};

/** One formatter for every figure: `toLocaleString` builds a new one per call (slow in long tables and chart ticks). */
const THOUSANDS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * Human format, the same rules as the engine's `fmt`: thousands separators from 1,000 up, one
 * decimal from 100 up, otherwise `digits` significant digits; '∞' for null.
 */
export function formatNumber(x: number | null, digits = 3): string {
  if (x === null) return '∞';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : 'NaN';
  const ax = Math.abs(x);
  if (ax >= 1000) return THOUSANDS.format(Math.round(x));
  if (ax >= 100) return String(Number(x.toFixed(1)));
  if (ax === 0) return '0';
  return String(Number(x.toPrecision(digits)));
}

/** Units whose missing figure means an unbounded one (a saturated resource); any other missing figure is unknown. */
const SATURATING_UNITS = new Set(['%', 'ms']);

/**
 * A figure with its unit for people: `1,234 W`; a missing value reads "saturated" for a
 * utilization or latency (unbounded) and "unknown" for anything else (never "∞ W").
 */
export function figureText(figure: Pick<FigureExplanation, 'value' | 'unit'>, digits = 3): string {
  if (figure.value === null || !Number.isFinite(figure.value)) return SATURATING_UNITS.has(figure.unit) ? 'saturated' : 'unknown';
  const shown = formatNumber(figure.value, digits);
  return figure.unit ? `${shown} ${figure.unit}` : shown;
}

function formatInput(v: number | string | null): string {
  if (v === null) return '—';
  return typeof v === 'number' ? formatNumber(v) : v;
}

type FigureProps = {
  /** What the figure is, e.g. "Back-end IOPS"; titles the explanation. */
  label: string;
  figure: FigureExplanation;
  /** Significant digits for small values. */
  digits?: number;
  /** What a missing value means where it is not "saturated" or "unknown", e.g. a limit never reached. */
  unbounded?: string;
};

/**
 * A number with its unit that opens its explanation (formula, the formula with numbers, inputs,
 * source) on click, Enter or Space. Escape or a click outside closes it and gives focus back.
 */
export function Figure({ label, figure, digits = 3, unbounded }: FigureProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const popoverId = `${id}-explanation`;
  const titleId = `${id}-title`;
  const rootRef = useRef<HTMLSpanElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);
  const known = figure.value !== null && Number.isFinite(figure.value);
  const withUnit = !known && unbounded ? unbounded : figureText(figure, digits);
  const inputs = Object.entries(figure.inputs ?? {});

  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  // Place the popover under the button (above it when there is no room), inside the viewport.
  useLayoutEffect(() => {
    if (!open) return;
    function place() {
      const button = buttonRef.current;
      const popover = popoverRef.current;
      if (!button || !popover) return;
      const b = button.getBoundingClientRect();
      const width = popover.offsetWidth;
      const height = popover.offsetHeight;
      const margin = 8;
      const left = Math.max(margin, Math.min(b.left, window.innerWidth - width - margin));
      const below = b.bottom + 4;
      const top = below + height > window.innerHeight - margin && b.top - height - 4 > margin ? b.top - height - 4 : below;
      setPosition({ top, left });
    }
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open]);

  useEffect(() => {
    if (!open) return;
    popoverRef.current?.focus();
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node;
      if (!rootRef.current?.contains(target) && !popoverRef.current?.contains(target)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  const popover = (
    <div
      ref={popoverRef}
      id={popoverId}
      className="figure-popover"
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      style={
        {
          '--figure-top': `${position?.top ?? 0}px`,
          '--figure-left': `${position?.left ?? 0}px`,
        } as CSSProperties
      }
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (next && !popoverRef.current?.contains(next) && !rootRef.current?.contains(next)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          close();
        }
      }}
    >
      <p className="figure-title" id={titleId}>
        {label} = {withUnit}
      </p>
      <dl className="figure-math">
        <dt>Formula</dt>
        <dd>
          <code>{figure.formula}</code>
        </dd>
        <dt>With numbers</dt>
        <dd>
          <code>{figure.text}</code>
        </dd>
      </dl>
      {inputs.length > 0 ? (
        <table className="figure-inputs">
          <caption>Inputs</caption>
          <tbody>
            {inputs.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{formatInput(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {figure.source ? <p className="figure-source">Source: {figure.source}</p> : null}
      <button type="button" className="figure-close" onClick={close}>
        Close
      </button>
    </div>
  );

  return (
    <span className="figure" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="figure-value"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        aria-haspopup="dialog"
        aria-label={`${withUnit}, show how ${label} is calculated`}
        onClick={() => setOpen((o) => !o)}
      >
        {known ? (
          <>
            <span className="figure-number">{formatNumber(figure.value, digits)}</span>
            {figure.unit ? <span className="figure-unit"> {figure.unit}</span> : null}
          </>
        ) : (
          <span className="figure-number">{withUnit}</span>
        )}
      </button>
      {/* In a portal, so a figure can sit inside a paragraph or a table cell. */}
      {open ? createPortal(popover, document.body) : null}
    </span>
  );
}
