import { describe, expect, it } from 'vitest';

import { tick } from '../chart-parts';
import { labelWidth, ticksThatFit } from '../ticks';

describe('ticksThatFit', () => {
  it('keeps five steps where the labels fit and takes fewer at phone width, never overlapping', () => {
    // 0-50,000 IOPS: five steps of 10,000 (six labels of up to 6 characters, 54 px each) need 5 x 54 = 270 px
    expect(ticksThatFit(0, 50_000, 600, tick)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    // 200 px (the what-if chart on a 390 px phone): 40 px a step is too tight; steps of 20,000 give 66.7 px
    const narrow = ticksThatFit(0, 50_000, 200, tick);
    expect(narrow).toEqual([0, 20_000, 40_000, 60_000]);
    expect(200 / (narrow.length - 1)).toBeGreaterThanOrEqual(labelWidth(Math.max(...narrow.map((t) => tick(t).length))));
  });

  it('keeps five steps before the width is known', () => {
    expect(ticksThatFit(0, 50_000, 0, tick)).toHaveLength(6);
  });
});
