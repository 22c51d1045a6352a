/**
 * Moves focus to the first invalid control (`aria-invalid="true"`) inside `root`, in document
 * order, opening a collapsed `<details>` around it and scrolling it to the middle of the window, so
 * the sticky action bar at the bottom never covers it. Returns the control, or null when none.
 */
export function focusFirstInvalid(root: HTMLElement | null): HTMLElement | null {
  const control = root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? null;
  if (!control) return null;
  for (let d = control.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
  control.scrollIntoView?.({ block: 'center' });
  control.focus({ preventScroll: true });
  return control;
}
