import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { createTestQueryClient } from '@/testing/test-utils';

import { routeObjects } from '../router';
import { href, navItems } from '../routes';

function renderApp(path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('app routes', () => {
  it('puts Size, Analyses, Compare, Recommend, Plan, Import, Traces and Hardware in the main navigation', () => {
    expect(navItems).toEqual([
      { to: '/size', label: 'Size' },
      { to: '/analyses', label: 'Analyses' },
      { to: '/compare', label: 'Compare' },
      { to: '/recommend', label: 'Recommend' },
      { to: '/plan', label: 'Plan' },
      { to: '/import', label: 'Import' },
      { to: '/traces', label: 'Traces' },
      { to: '/hardware', label: 'Hardware' },
    ]);
  });

  it('renders the home page with the API status inside the shell', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Storage Sizer' })).toBeInTheDocument();
    expect(await screen.findByText(/API ok · engine 0\.1\.0/)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Size', 'Analyses', 'Compare', 'Recommend', 'Plan', 'Import', 'Traces', 'Hardware']);
  });

  it('navigates to Size from the nav and marks it current', async () => {
    const user = userEvent.setup();
    const router = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Storage Sizer' });
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Size' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Size' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/size');
    expect(screen.getByRole('link', { name: 'Size' })).toHaveAttribute('aria-current', 'page');
  });

  it.each([
    ['/compare', 'Compare'],
    ['/recommend', 'Recommend'],
    ['/analyses', 'Analyses'],
    ['/traces', 'Traces'],
    ['/import', 'Import an engagement'],
    ['/hardware', 'Custom hardware'],
  ])('has a page at %s', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('says when there is no report with the id', async () => {
    renderApp(href.report('abc123'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Report not found' })).toBeInTheDocument();
    expect(screen.getByText('abc123')).toBeInTheDocument();
  });

  it('answers an unknown address with a not-found page', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', '/');
  });
});
