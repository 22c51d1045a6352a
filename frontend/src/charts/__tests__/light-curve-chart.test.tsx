import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { LightCurveChart, monotonePath } from '../light-curve-chart';

/** The y of every point a path's commands go through or pull towards (M/L ends, C controls and ends). */
function pathYs(d: string): number[] {
  return [...d.matchAll(/-?\d+(?:\.\d+)?,(-?\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
}

describe('monotonePath', () => {
  it('goes through every point, starting with a move and one cubic per interval', () => {
    const d = monotonePath([
      [0, 100],
      [10, 90],
      [20, 50],
      [30, 0],
    ]);
    expect(d.startsWith('M0,100C')).toBe(true);
    expect(d.match(/C/g)).toHaveLength(3);
    expect(d.endsWith(',30,0')).toBe(true);
  });

  it('never overshoots monotone data (a hockey stick stays within its points)', () => {
    const ys = [200, 198, 195, 190, 180, 160, 120, 40, 0];
    const d = monotonePath(ys.map((y, i) => [i * 10, y]));
    for (const y of pathYs(d)) {
      expect(y).toBeLessThanOrEqual(200);
      expect(y).toBeGreaterThanOrEqual(0);
    }
  });

  it('draws one point as a move and two as a straight line', () => {
    expect(monotonePath([[1, 2]])).toBe('M1,2');
    expect(monotonePath([[1, 2], [3, 4]])).toBe('M1,2L3,4');
  });
});

describe('LightCurveChart', () => {
  it('draws each series, breaks a line at a gap, and labels markers and lines', () => {
    const { container } = render(
      <LightCurveChart
        title="Latency vs IOPS"
        summary="Read latency against IOPS."
        series={[
          { name: 'What-if', points: [{ x: 0, y: 1 }, { x: 10, y: 2 }, { x: 20, y: null }, { x: 30, y: 5 }, { x: 40, y: 9 }] },
          { name: 'Baseline', dashed: true, color: '#7c8794', points: [{ x: 0, y: 1 }, { x: 40, y: 8 }] },
        ]}
        xLabel="Front-end IOPS"
        yLabel="Latency [ms]"
        yMax={10}
        markers={[{ x: 10, y: 2, label: 'what-if: 10 IOPS, 2 ms' }]}
        lines={[{ x: 45, label: 'saturation' }]}
      />,
    );
    expect(screen.getByRole('img', { name: 'Read latency against IOPS.' })).toBeInTheDocument();
    expect(container.querySelectorAll('path.light-line[data-series="What-if"]')).toHaveLength(2);
    expect(container.querySelector('path.light-line[data-series="Baseline"]')).toHaveAttribute('stroke-dasharray', '6 4');
    expect(screen.getByText('what-if: 10 IOPS, 2 ms')).toBeInTheDocument();
    expect(screen.getByText('saturation')).toBeInTheDocument();
    expect(container.querySelector('.light-chart > svg')).toHaveTextContent('Front-end IOPS');
    // the legend names both series; the data table has every point
    expect(container.querySelector('.light-legend')).toHaveTextContent('What-ifBaseline');
    expect(screen.getAllByRole('row')).toHaveLength(1 + 5 + 2);
  });
});
