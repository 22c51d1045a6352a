import '@testing-library/jest-dom/vitest';

import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { initialWorkflow, workflowStore } from '@/stores/workflow';

import { server } from './mocks/server';

// findBy*/waitFor: a busy CI machine can take more than the default second to render a page
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: give charts (ResponsiveContainer) a size and a ResizeObserver.
class ResizeObserverStub {
  private readonly callback: ResizeObserverCallback;
  constructor(callback: ResizeObserverCallback) {
    this.callback = callback;
  }
  observe(target: Element) {
    this.callback([{ target, contentRect: { width: 600, height: 260 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  workflowStore.set(initialWorkflow);
  if (typeof localStorage !== 'undefined') localStorage.clear();
});
afterAll(() => server.close());
