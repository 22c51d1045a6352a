import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import type { Workload } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { WorkloadsEditor } from '../components/workloads-editor';

function Harness() {
  const [workloads, setWorkloads] = useState<Workload[]>([]);
  return (
    <>
      <WorkloadsEditor workloads={workloads} onChange={setWorkloads} errors={fieldErrors(null)} />
      <output data-testid="state">
        {JSON.stringify(workloads.map((w) => ({ name: w.name, phases: w.phases.map((p) => [p.window, p.iops, p.observed?.read_latency_ms]) })))}
      </output>
    </>
  );
}

const iostatFile = () => new File(['Linux 5.15.0 (dbhost01) 01/15/2024\n'], 'iostat-dbhost01.txt', { type: 'text/plain' });

describe('ImportHostStats', () => {
  it('reads a dropped file into workloads whose phases are the busy windows, with the observed latency', async () => {
    // (the body is the File itself, streamed by the browser: the e2e test sends a real one)
    const requests: { url: URL; type: string | null; name: string | null }[] = [];
    server.use(
      http.post('*/api/v1/import/host-stats', ({ request }) => {
        requests.push({ url: new URL(request.url), type: request.headers.get('content-type'), name: request.headers.get('x-filename') });
        return HttpResponse.json(fixtures.hostStatsIostat);
      }),
    );
    const { user } = renderWithProviders(<Harness />);
    fireEvent.drop(screen.getByTestId('host-stats-drop'), { dataTransfer: { files: [iostatFile()] } });

    const summary = await screen.findByText(/from dbhost01: 2024-01-15 00:00 to 2024-01-16 00:00, 600 s samples/);
    expect(summary).toHaveTextContent(/^iostat from dbhost01/);
    expect(requests[0]!.type).toBe('application/octet-stream');
    expect([...requests[0]!.url.searchParams]).toEqual([]); // the server's defaults first
    expect(requests[0]!.name).toBe('iostat-dbhost01.txt');
    const windows = screen.getByRole('table', { name: /Windows found/ });
    expect(within(windows).getByRole('rowheader', { name: 'peak hour ✓' })).toBeInTheDocument();
    expect(within(windows).getByRole('rowheader', { name: 'nightly batch ✓' })).toBeInTheDocument();
    expect(screen.getByText(/phases are 100 % random/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use these workloads' }));
    expect(screen.getByTestId('state')).toHaveTextContent(
      '[{"name":"dbhost01","phases":[["peak hour",1260,12],["nightly batch",735,6]]}]',
    );
    const workload = screen.getByRole('region', { name: 'Workload dbhost01' });
    const peak = within(workload).getByRole('group', { name: 'Phase peak hour' });
    expect(within(peak).getByText(/^Observed on the host \(iostat on dbhost01/)).toHaveTextContent(
      '1,260 IOPS mean, 66.7 % reads, latency 12 / 4 ms (read / write), queue 11.8.',
    );
  });

  it('asks again with the devices, one workload per device and the rate chosen', async () => {
    const urls: URL[] = [];
    server.use(
      http.post('*/api/v1/import/host-stats', ({ request }) => {
        urls.push(new URL(request.url));
        return HttpResponse.json(fixtures.hostStatsIostat);
      }),
    );
    const { user } = renderWithProviders(<Harness />);
    await user.upload(screen.getByLabelText('Host statistics file'), iostatFile());
    await screen.findByRole('table', { name: /Devices/ });

    await user.click(screen.getByRole('checkbox', { name: 'Use sda' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.getAll('devices')).toEqual(['sdb']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Workloads' }), 'separate');
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('merge')).toBe('false'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Phase rate' }), 'peak');
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('rate')).toBe('peak'));
    expect(urls.at(-1)!.searchParams.getAll('devices')).toEqual(['sdb']);
  });

  it('shows the line and column of a file it cannot read at the file field', async () => {
    server.use(
      http.post('*/api/v1/import/host-stats', () =>
        HttpResponse.json(
          validation422({
            loc: ['body', 'file'],
            msg: "line 12, column 5 (w/s): not a number: 'abc'",
            type: 'parse_error',
          }),
          { status: 422 },
        ),
      ),
    );
    const { user } = renderWithProviders(<Harness />);
    await user.upload(screen.getByLabelText('Host statistics file'), iostatFile());
    await waitFor(() =>
      expect(screen.getByLabelText('Host statistics file')).toHaveAccessibleDescription(
        expect.stringContaining("Line 12, column 5 (w/s): not a number: 'abc'"),
      ),
    );
  });
});
