import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { SaveShare } from '../components/save-share';

const inputs = fixtures.reportSize.inputs;

describe('SaveShare', () => {
  it('saves the request behind the result and shows the link to the report', async () => {
    let body: unknown;
    let deleted: string | null = null;
    server.use(
      http.post('*/api/v1/reports', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { id: 'abc', kind: 'size', share_url: '/r/abc', owner_token: 'secret', engine_version: '0.1.0', catalog_version: '2026.11.0', changes: [] },
          { status: 201 },
        );
      }),
      http.delete('*/api/v1/reports/abc', ({ request }) => {
        deleted = request.headers.get('X-Owner-Token');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderWithProviders(
      <SaveShare input={{ kind: 'size', inputs } as never} defaultName="OLTP on FAS3170" reportHref={(id) => `/r/${id}`} />,
    );
    await user.click(screen.getByRole('button', { name: 'Save & share' }));
    const link = await screen.findByTestId('share-link');
    expect(link).toHaveAttribute('href', '/r/abc');
    expect(link).toHaveTextContent(`${window.location.origin}/r/abc`);
    expect(body).toEqual({ kind: 'size', inputs, name: 'OLTP on FAS3170' });

    await user.click(screen.getByText(/Owner token/));
    expect(screen.getByText('secret')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete this report' }));
    expect(await screen.findByRole('button', { name: 'Deleted' })).toBeDisabled();
    expect(deleted).toBe('secret');
  });

  it('says why a save failed', async () => {
    server.use(http.post('*/api/v1/reports', () => HttpResponse.json({ detail: 'database unavailable' }, { status: 503 })));
    const { user } = renderWithProviders(<SaveShare input={{ kind: 'size', inputs } as never} defaultName="x" reportHref={(id) => `/r/${id}`} />);
    await user.click(screen.getByRole('button', { name: 'Save & share' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('database unavailable');
  });
});
