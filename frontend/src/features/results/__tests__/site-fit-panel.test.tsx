import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import type { CatalogReference, ObservedRequest } from '@/lib/api-types';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { SiteFitPanel } from '../components/site-fit-panel';

const workloads = fixtures.hostStatsIostat.workloads;
const current: CatalogReference = { array_id: 'netapp-fas3270', raid_scheme: 'raid-dp', drive_count: 144, flash_cache_gb: 0, hypothetical: false };

describe('SiteFitPanel', () => {
  it('fits the model to the system the statistics came from and offers its parts and working sets', async () => {
    const bodies: ObservedRequest[] = [];
    server.use(
      http.post('*/api/v1/import/observed/fit', async ({ request }) => {
        bodies.push((await request.json()) as ObservedRequest);
        return HttpResponse.json(fixtures.siteFitFas3270);
      }),
    );
    const onUseWorkloads = vi.fn();
    const onSave = vi.fn(() => Promise.resolve(['FAS3270 controller, fitted to site 2026-11-28']));
    renderWithProviders(<SiteFitPanel workloads={workloads} configuration={current} onUseWorkloads={onUseWorkloads} onSave={onSave} />);

    await userEvent.click(screen.getByRole('button', { name: 'Fit the model to this system' }));

    // the engine's words: the three factors and the error before and after
    expect(await screen.findByText(/CPU costs x 1\.75, drive times x 1\.6, working sets x 1\.04/)).toHaveTextContent('35% off the host');
    const table = screen.getByRole('table', { name: 'Host latency beside the fitted model' });
    const peak = within(table).getByRole('row', { name: /dbhost01 \/ peak hour/ });
    // host 10.72 ms, fitted 10.22 ms: (10.22 - 10.72) / 10.72 = -4.67 %
    expect(within(peak).getAllByRole('cell').map((c) => c.textContent)).toEqual(expect.arrayContaining(['10.7 ms', '10.2 ms', '-4.67 %']));
    expect(bodies[0]).toEqual({ workloads, configuration: current });

    await userEvent.click(screen.getByRole('button', { name: 'Size with the fitted working sets' }));
    expect(onUseWorkloads).toHaveBeenCalledWith(fixtures.siteFitFas3270.workloads);
    await userEvent.click(screen.getByRole('button', { name: 'Keep the fitted controller and drives as my hardware' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Kept as your hardware: FAS3270 controller, fitted to site 2026-11-28');
    expect(onSave).toHaveBeenCalledWith(fixtures.siteFitFas3270);
  });

  it('says why a site cannot be fitted, in the engine words', async () => {
    server.use(
      http.post('*/api/v1/import/observed/fit', () =>
        HttpResponse.json(validation422({ loc: ['body', 'configuration'], msg: 'cost factor ends on its bound (10): the host statistics cannot place it' }), {
          status: 422,
        }),
      ),
    );
    renderWithProviders(<SiteFitPanel workloads={workloads} configuration={current} onUseWorkloads={vi.fn()} onSave={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Fit the model to this system' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cost factor ends on its bound (10)'));
  });
});
