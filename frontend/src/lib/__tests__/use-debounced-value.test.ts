import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useLeadingDebounce } from '../use-debounced-value';

describe('useLeadingDebounce', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('settles a change after a quiet spell at once, in the same render', () => {
    const { result } = renderHook(() => useLeadingDebounce(0, 60));
    act(() => result.current[2](1));
    expect(result.current[0]).toBe(1);
    expect(result.current[1]).toBe(1);
  });

  it('settles changes in quick succession once, 60 ms after the last', () => {
    const { result } = renderHook(() => useLeadingDebounce(0, 60));
    act(() => result.current[2](1));
    act(() => vi.advanceTimersByTime(20));
    act(() => result.current[2](2));
    act(() => vi.advanceTimersByTime(40));
    act(() => result.current[2](3));
    act(() => vi.advanceTimersByTime(59));
    expect(result.current[0]).toBe(3);
    expect(result.current[1]).toBe(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current[1]).toBe(3);
    // quiet again: the next change settles at once
    act(() => vi.advanceTimersByTime(60));
    act(() => result.current[2](4));
    expect(result.current[1]).toBe(4);
  });
});
