import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';

import { preloadable } from '../preloadable';

function Chart({ title }: { title: string }) {
  return <p>{title}</p>;
}

describe('preloadable', () => {
  it('draws a component fetched ahead in the first render, never its fallback', async () => {
    let loads = 0;
    const { preload, Component } = preloadable(async () => {
      loads += 1;
      return { default: Chart };
    });
    await preload();
    await preload();
    render(
      <Suspense fallback={<p>Loading charts…</p>}>
        <Component title="Latency vs IOPS" />
      </Suspense>,
    );
    // synchronously there: no fallback committed first (React reveals suspended content at most every 300 ms)
    expect(screen.getByText('Latency vs IOPS')).toBeInTheDocument();
    expect(screen.queryByText('Loading charts…')).toBeNull();
    expect(loads).toBe(1);
  });

  it('suspends behind its fallback when not fetched ahead, then draws', async () => {
    const { Component } = preloadable(async () => ({ default: Chart }));
    render(
      <Suspense fallback={<p>Loading charts…</p>}>
        <Component title="Hit ratio" />
      </Suspense>,
    );
    expect(screen.getByText('Loading charts…')).toBeInTheDocument();
    expect(await screen.findByText('Hit ratio')).toBeInTheDocument();
  });

  it('tries a failed download again on the next preload', async () => {
    let calls = 0;
    const { preload } = preloadable(async () => {
      calls += 1;
      if (calls === 1) throw new Error('offline');
      return { default: Chart };
    });
    await expect(preload()).rejects.toThrow('offline');
    await expect(preload()).resolves.toEqual({ default: Chart });
    expect(calls).toBe(2);
  });
});
