import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

/** A fresh client per test, without retries, so error states show at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

type Options = Omit<RenderOptions, 'wrapper'> & { route?: string; queryClient?: QueryClient };

/** Render inside the app's providers (query client, router at `route`). */
export function renderWithProviders(ui: ReactElement, { route = '/', queryClient, ...options }: Options = {}) {
  const client = queryClient ?? createTestQueryClient();
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </QueryClientProvider>
    );
  }
  return { user: userEvent.setup(), queryClient: client, ...render(ui, { wrapper: Wrapper, ...options }) };
}
