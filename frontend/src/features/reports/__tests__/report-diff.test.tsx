import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { fixtures } from '@/testing/mocks/fixtures';
import { renderWithProviders } from '@/testing/test-utils';

import { ExportLinks } from '../components/export-links';
import { ReportDiffView } from '../components/report-diff';

const diff = fixtures.reportDiff;

describe('ReportDiffView', () => {
  it("sets two reports side by side with the server's changes", async () => {
    renderWithProviders(<ReportDiffView before={diff.before} after={diff.after} reportHref={(id) => `/r/${id}`} />);
    expect(await screen.findByRole('heading', { name: `${diff.changed} of ${diff.changes.length} headline figures differ` })).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('link', { name: diff.before_name })).toHaveAttribute('href', `/r/${diff.before}`);
    const drives = diff.changes.find((c) => c.figure === 'drive_count')!;
    const row = within(table).getByRole('rowheader', { name: 'drive_count' }).closest('tr')!;
    expect(row).toHaveAttribute('data-changed', String(drives.changed));
    expect(row).toHaveTextContent(`+${drives.delta}`);
  });

  it('says when a report does not exist', async () => {
    renderWithProviders(<ReportDiffView before={diff.before} after="gone" reportHref={(id) => `/r/${id}`} />);
    expect(await screen.findByRole('alert')).toHaveTextContent("report 'gone' not found");
  });
});

describe('ExportLinks', () => {
  it('links the proposal, the BOM workbook, CSV and JSON of a saved report', () => {
    renderWithProviders(<ExportLinks reportId="abc" />);
    expect(screen.getByTestId('download-pdf').getAttribute('href')).toMatch(/\/api\/v1\/reports\/abc\/export\?format=pdf$/);
    expect(screen.getByTestId('download-xlsx').getAttribute('href')).toMatch(/format=xlsx$/);
    expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute('download');
  });
});
