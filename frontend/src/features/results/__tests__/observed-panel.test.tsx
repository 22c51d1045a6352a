import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { CatalogReference, ObservedRequest } from '@/lib/api-types';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { ObservedPanel } from '../components/observed-panel';
import { hasObserved } from '../lib/observed';

const workloads = fixtures.hostStatsIostat.workloads;
const current: CatalogReference = { array_id: 'netapp-fas3170', raid_scheme: 'raid-dp', drive_count: 48, flash_cache_gb: 0, hypothetical: false };

describe('ObservedPanel', () => {
  it('sets the host-observed latency of each window beside the prediction for the system it came from', async () => {
    const bodies: ObservedRequest[] = [];
    server.use(
      http.post('*/api/v1/import/observed', async ({ request }) => {
        bodies.push((await request.json()) as ObservedRequest);
        return HttpResponse.json(fixtures.observedFas3170);
      }),
    );
    renderWithProviders(<ObservedPanel workloads={workloads} configuration={current} />);

    const table = await screen.findByRole('table', { name: 'Observed on the host vs predicted by the model' });
    const peak = within(table).getByRole('row', { name: /dbhost01 \/ peak hour/ });
    // host 12 ms at 1,260 I/O per s; the model 6.37 ms on 48 x 15K FC: (6.37 - 12) / 12 = -46.9 %
    expect(within(peak).getAllByRole('cell').map((c) => c.textContent)).toEqual(
      expect.arrayContaining(['1,260', '12 ms', '-46.9 %', '4 ms']),
    );
    expect(within(peak).getByRole('button', { name: /6\.37 ms/ })).toBeInTheDocument();
    expect(screen.getByText(/predicts well under the read latency the host saw in dbhost01\/peak hour/)).toBeInTheDocument();
    expect(bodies[0]).toEqual({ workloads, configuration: current });
  });

  it('asks for the configuration first, and shows why one cannot be evaluated', async () => {
    const { rerender } = renderWithProviders(<ObservedPanel workloads={workloads} configuration={null} />);
    expect(screen.getByText('Choose the configuration the statistics came from.')).toBeInTheDocument();

    server.use(
      http.post('*/api/v1/import/observed', () =>
        HttpResponse.json(validation422({ loc: ['body', 'configuration', 'drive_count'], msg: 'give the drive count of the system you have' }), {
          status: 422,
        }),
      ),
    );
    rerender(<ObservedPanel workloads={workloads} configuration={{ array_id: 'netapp-fas3170', flash_cache_gb: 0, hypothetical: false }} />);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('configuration.drive_count: Give the drive count of the system you have'));
  });

  it('knows which workloads carry observations', () => {
    expect(hasObserved(workloads)).toBe(true);
    expect(hasObserved([{ ...workloads[0]!, phases: workloads[0]!.phases.map((p) => ({ ...p, observed: null })) }])).toBe(false);
  });
});
