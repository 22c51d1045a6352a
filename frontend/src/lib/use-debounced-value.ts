import { useCallback, useEffect, useRef, useState } from 'react';

/** `value`, updated only after it has stopped changing for `delayMs` (e.g. slider drags -> requests). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * State with a settled copy that follows it on the leading and the trailing edge: a change after
 * `delayMs` of quiet settles at once (in the same render), a change within `delayMs` of the last
 * one settles `delayMs` after the changes stop. One slider step asks the API at once; a drag asks
 * once at its start and once where it pauses.
 *
 *   const [w, settled, setW] = useLeadingDebounce(initial, 60);
 */
export function useLeadingDebounce<T>(initial: T, delayMs: number): [value: T, settled: T, set: (next: T) => void] {
  const [state, setState] = useState({ value: initial, settled: initial });
  const lastChange = useRef(Number.NEGATIVE_INFINITY);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const set = useCallback(
    (next: T) => {
      const now = performance.now();
      const quiet = now - lastChange.current >= delayMs;
      lastChange.current = now;
      clearTimeout(timer.current);
      if (quiet) {
        setState({ value: next, settled: next });
        return;
      }
      setState((s) => ({ ...s, value: next }));
      timer.current = setTimeout(() => setState((s) => ({ ...s, settled: next })), delayMs);
    },
    [delayMs],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [state.value, state.settled, set];
}
