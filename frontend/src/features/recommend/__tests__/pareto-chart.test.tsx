import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { fixtures } from '@/testing/mocks/fixtures';
import { renderWithProviders } from '@/testing/test-utils';

import ParetoChart, { paretoPoints } from '../components/pareto-chart';

const recommendation = fixtures.recommendOltp;

describe('paretoPoints', () => {
  it('names each configuration once, ranked and front together, front flags kept', () => {
    const { points, unplotted } = paretoPoints(recommendation);
    const front = points.filter((p) => p.c.on_pareto_front);
    expect(front.length).toBe(recommendation.pareto_front.length);
    expect(points.length + unplotted).toBe(new Set([...recommendation.configurations, ...recommendation.pareto_front].map((c) => `${c.array_id}|${c.drive_id}|${c.raid_scheme}|${c.group_width}|${c.flash_cache_gb}|${c.drive_count}`)).size);
    for (const p of points) {
      expect(p.x).toBe(p.c.cost_usd);
      expect(p.y).toBe(p.c.read_latency_ms);
    }
  });
});

describe('ParetoChart', () => {
  it('plots cost against read latency, the Pareto front highlighted, and opens a point in Size', async () => {
    const onUse = vi.fn();
    const { user, container } = renderWithProviders(<ParetoChart recommendation={recommendation} onUse={onUse} />);
    const chart = screen.getByTestId('pareto-chart');
    expect(within(chart).getByText('List cost vs read latency', { selector: 'figcaption' })).toBeInTheDocument();
    expect(within(chart).getByRole('img')).toHaveAccessibleName(new RegExp(`${recommendation.pareto_front.length} on the Pareto front`));
    expect(within(chart).getByText('On the Pareto front')).toBeInTheDocument();

    // from the keyboard: the data table under the chart
    const first = recommendation.pareto_front[0]!;
    await user.click(screen.getByText(/Data of “List cost vs read latency”/));
    await user.click(screen.getByRole('button', { name: new RegExp(`^Open ${first.vendor} ${first.model}, ${first.drive_count} x`) }));
    expect(onUse).toHaveBeenLastCalledWith(expect.objectContaining({ array_id: first.array_id, drive_id: first.drive_id, raid_scheme: first.raid_scheme }));

    // with the mouse: a dot of the front
    await waitFor(() => expect(container.querySelectorAll('.recharts-scatter-symbol').length).toBeGreaterThan(0));
    fireEvent.click(container.querySelectorAll('.recharts-scatter .recharts-scatter-symbol')[container.querySelectorAll('.recharts-scatter .recharts-scatter-symbol').length - 1]!);
    expect(onUse).toHaveBeenCalledTimes(2);
  });
});
