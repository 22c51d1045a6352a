import { useSyncExternalStore } from 'react';

export type Store<T> = {
  get: () => T;
  set: (next: T | ((prev: T) => T)) => void;
  subscribe: (listener: () => void) => () => void;
};

type Persist<T> = {
  /** localStorage key; bump its version when the shape changes. */
  key: string;
  /** Checks what was stored; return null to start from the initial state. */
  revive: (raw: unknown) => T | null;
};

function readStorage<T>(persist: Persist<T> | undefined): T | null {
  if (!persist || typeof localStorage === 'undefined') return null;
  try {
    const text = localStorage.getItem(persist.key);
    return text === null ? null : persist.revive(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * A tiny external store (no library): state, setter, subscription; optionally persisted to
 * localStorage so the workflow survives a reload and carries across pages.
 */
export function createStore<T>(initial: T, persist?: Persist<T>): Store<T> {
  let state = readStorage(persist) ?? initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (prev: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      if (persist && typeof localStorage !== 'undefined') {
        try {
          localStorage.setItem(persist.key, JSON.stringify(value));
        } catch {
          // storage full or disabled: the state still lives in memory
        }
      }
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Subscribe a component to a slice of a store (re-renders only when the slice changes). */
export function useStore<T, S>(store: Store<T>, select: (state: T) => S): S {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.get()),
    () => select(store.get()),
  );
}
