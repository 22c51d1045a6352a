import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import type { LiveOpticsImport, RVToolsImport, Timeline, TimelineRequest } from '@/lib/api-types';
import liveOptics from '@/testing/fixtures/import-live-optics.json';
import rvtools from '@/testing/fixtures/import-rvtools.json';
import timeline from '@/testing/fixtures/import-timeline.json';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { EngagementImport } from '../components/engagement-import';
import { guessKind, timelineRequest, type ImportItem } from '../lib/imports';

// recorded from the real backend by scripts/record_import_fixtures.py
const LIVE_OPTICS = liveOptics as unknown as LiveOpticsImport;
const RVTOOLS = rvtools as unknown as RVToolsImport;
const TIMELINE = timeline as unknown as Timeline;

const xlsx = (name: string) => new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

describe('guessKind', () => {
  it('reads RVTools exports by name, other workbooks as Live Optics, array exports by their words, the rest as host statistics', () => {
    expect(guessKind('RVTools_export_all_2024-01-15.xlsx')).toBe('rvtools');
    expect(guessKind('LiveOptics_Project_12345.xlsx')).toBe('live-optics');
    expect(guessKind('project.xlsx.gz')).toBe('live-optics');
    expect(guessKind('ontap-qos-cluster1.txt')).toBe('array-stats');
    expect(guessKind('powerstore_metrics.csv')).toBe('array-stats');
    expect(guessKind('iostat-dbhost01.txt')).toBe('host-stats');
  });
});

describe('timelineRequest', () => {
  it('makes a layer of each included series, states the zone only where the file does not, and takes RVTools groups as capacity', () => {
    const base = { file: xlsx('a.xlsx'), status: 'done', progress: 1, error: null, include: true } as const;
    const items: ImportItem[] = [
      { ...base, id: 1, kind: 'live-optics', result: { kind: 'live-optics', data: LIVE_OPTICS }, timeZone: 'Europe/Berlin' },
      { ...base, id: 2, kind: 'rvtools', result: { kind: 'rvtools', data: RVTOOLS }, timeZone: 'UTC' },
      {
        ...base,
        id: 3,
        kind: 'live-optics',
        include: false,
        result: { kind: 'live-optics', data: LIVE_OPTICS },
        timeZone: 'UTC',
      },
    ];
    const request = timelineRequest(items)!;
    expect(request.layers.map((l) => l.time_zone)).toEqual(['Europe/Berlin']);
    expect(request.capacity?.map((c) => c.name)).toEqual(['Prod', 'Test']);
    expect(timelineRequest(items.filter((i) => i.kind === 'rvtools'))).toBeNull();
  });
});

describe('EngagementImport', () => {
  it('uploads a Live Optics and an RVTools workbook, lines them up and sizes the timeline workloads', async () => {
    const seen: { path: string; query: string; name: string | null }[] = [];
    let lineUp: TimelineRequest | null = null;
    server.use(
      http.post('*/api/v1/import/live-optics', ({ request }) => {
        const url = new URL(request.url);
        seen.push({ path: url.pathname, query: url.search, name: request.headers.get('x-filename') });
        return HttpResponse.json(LIVE_OPTICS);
      }),
      http.post('*/api/v1/import/rvtools', ({ request }) => {
        const url = new URL(request.url);
        seen.push({ path: url.pathname, query: url.search, name: request.headers.get('x-filename') });
        return HttpResponse.json(RVTOOLS);
      }),
      http.post('*/api/v1/import/timeline', async ({ request }) => {
        lineUp = (await request.json()) as TimelineRequest;
        return HttpResponse.json(TIMELINE);
      }),
    );
    const onUse = vi.fn();
    const { user } = renderWithProviders(<EngagementImport onUse={onUse} hasWorkloads={false} />);

    fireEvent.drop(screen.getByTestId('engagement-drop'), {
      dataTransfer: { files: [xlsx('LiveOptics_project.xlsx'), xlsx('RVTools_export_all.xlsx')] },
    });

    const coincident = await screen.findByTestId('coincident-peak');
    expect(coincident).toHaveTextContent('1,260 IO/s');
    expect(screen.getByTestId('sum-of-peaks')).toHaveTextContent('1,260 IO/s');
    expect(seen.map((s) => [s.path, s.query, s.name]).sort()).toEqual([
      ['/api/v1/import/live-optics', '', 'LiveOptics_project.xlsx'],
      ['/api/v1/import/rvtools', '?group_by=cluster', 'RVTools_export_all.xlsx'],
    ]);
    await waitFor(() => expect(lineUp?.capacity?.map((c) => c.name)).toEqual(['Prod', 'Test']));
    expect(lineUp!.layers).toHaveLength(1);
    const files = screen.getByRole('table', { name: 'Imports' });
    expect(within(files).getByRole('row', { name: 'RVTools_export_all.xlsx' })).toHaveTextContent('no performance data');
    expect(screen.getByRole('table', { name: /Windows found on the sum/ })).toHaveTextContent('peak hour');

    await user.click(screen.getByRole('button', { name: 'Size these workloads' }));
    expect(onUse).toHaveBeenCalledWith(TIMELINE.workloads, 'replace');
  });

  it('shows the sheet and column a workbook lacks, and a zone the timeline refuses', async () => {
    server.use(
      http.post('*/api/v1/import/rvtools', () =>
        HttpResponse.json(
          { detail: [{ loc: ['body', 'file'], msg: "sheet 'vInfo', row 1: no column 'In Use MiB' or 'In Use MB'", type: 'parse_error' }] },
          { status: 422 },
        ),
      ),
      http.post('*/api/v1/import/live-optics', () => HttpResponse.json(LIVE_OPTICS)),
      http.post('*/api/v1/import/timeline', () =>
        HttpResponse.json(
          { detail: [{ loc: ['body', 'layers', '0', 'time_zone'], msg: "not a time zone: 'Mars/Base'", type: 'value_error' }] },
          { status: 422 },
        ),
      ),
    );
    renderWithProviders(<EngagementImport onUse={vi.fn()} hasWorkloads={false} />);
    fireEvent.drop(screen.getByTestId('engagement-drop'), { dataTransfer: { files: [xlsx('RVTools_broken.xlsx'), xlsx('lo.xlsx')] } });

    // (the UI starts a message with a capital letter)
    expect(await screen.findByText("Sheet 'vInfo', row 1: no column 'In Use MiB' or 'In Use MB'")).toBeInTheDocument();
    expect(await screen.findByText("Not a time zone: 'Mars/Base'")).toBeInTheDocument();
  });
});
