import { renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';
import { healthOk } from '@/testing/mocks/handlers';
import { createTestQueryClient, renderWithProviders } from '@/testing/test-utils';

import { useHealth } from '../api/get-health';
import { HealthStatus } from '../components/health-status';

describe('useHealth', () => {
  it('returns the typed health body from GET /api/v1/health', async () => {
    const client = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useHealth(), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual(healthOk);
  });
});

describe('HealthStatus', () => {
  it('shows a loading line, then "API ok" with the engine and catalog versions', async () => {
    renderWithProviders(<HealthStatus />);
    expect(screen.getByRole('status')).toHaveTextContent('Checking the API…');
    expect(await screen.findByText('API ok · engine 0.1.0 · catalog 2025-06-01')).toBeInTheDocument();
  });

  it('names the database when the API answers 503 degraded', async () => {
    server.use(
      http.get('*/api/v1/health', () =>
        HttpResponse.json({ ...healthOk, status: 'degraded', database: 'unavailable' }, { status: 503 }),
      ),
    );
    renderWithProviders(<HealthStatus />);
    expect(
      await screen.findByText('API degraded · engine 0.1.0 · catalog 2025-06-01 · database unavailable'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the API error detail and recovers on retry', async () => {
    server.use(
      http.get('*/api/v1/health', () => HttpResponse.json({ detail: 'Database is not reachable' }, { status: 503 }), {
        once: true,
      }),
    );
    const { user } = renderWithProviders(<HealthStatus />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The API is not reachable');
    expect(alert).toHaveTextContent('Database is not reachable');

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/API ok/)).toBeInTheDocument();
  });

  it('says so when the server cannot be reached at all', async () => {
    server.use(http.get('*/api/v1/health', () => HttpResponse.error()));
    renderWithProviders(<HealthStatus />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach the API');
  });
});
