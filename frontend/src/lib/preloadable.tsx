import { lazy, type ComponentType } from 'react';

/**
 * A component whose code is its own chunk, fetched ahead by `preload()` and drawn without
 * suspending once it is here.
 *
 * `React.lazy` suspends on its first render even when the chunk was fetched ahead (it calls the
 * import again, a promise that resolves a tick later), and React reveals content that suspended
 * behind a fallback at most every 300 ms: after a preload, charts that came with the answer still
 * waited for that throttle. Once `preload()` has resolved, `Component` is the module's own
 * component, rendered at once; before that it is the lazy one (wrap it in `Suspense`).
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = null; // a failed download is tried again by the next preload or render
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  function Component(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { preload, Component };
}
