import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { fixtures } from '@/testing/mocks/fixtures';

import { RecommendResults } from '../components/recommend-results';

describe('RecommendResults', () => {
  it("states each configuration's class error and its estimated parts beside its figures", () => {
    const first = fixtures.recommendOltp.configurations[0]!;
    const estimate = { status: 'estimate' as const, sources: [], note: null, figures: {} };
    const configured = {
      ...first,
      calibration: {
        parts: { drives: estimate, controller: estimate, cache: estimate, ports: estimate },
        estimated: ['controller'],
        text: 'controller: estimate',
        margins: [{ part: 'controller', status: 'estimate' as const, factor: 1.157, band_pct: 15.7, basis: 'HDD rows', text: 'controller x 1.16' }],
      },
      model_error: { system_class: 'hdd' as const, label: 'HDD arrays', median_pct: 6, p90_pct: 15.7, rows: 80, basis: 'make validate', text: 'HDD arrays: off by 6% (median)' },
    };
    render(<RecommendResults recommendation={{ ...fixtures.recommendOltp, configurations: [configured] }} />);

    const row = screen.getAllByRole('row')[1]!;
    const cell = within(row).getByTitle('HDD arrays: off by 6% (median)');
    expect(cell).toHaveTextContent('15.7 % (p90, HDD arrays); estimates: controller; sized at the pessimistic end');
  });
});
