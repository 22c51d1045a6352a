import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import type { Workload } from '@/lib/api-types';
import { parseApiError } from '@/lib/api-error';
import { fieldErrors, type FieldErrors } from '@/lib/field-errors';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { WorkloadsEditor } from '../components/workloads-editor';
import { normalizeWorkload } from '../lib/workload-model';

const oltp = normalizeWorkload(fixtures.templates.templates[0]!.workload);

function Harness({ initial = [], errors = fieldErrors(null) }: { initial?: Workload[]; errors?: FieldErrors }) {
  const [workloads, setWorkloads] = useState(initial);
  return (
    <>
      <WorkloadsEditor workloads={workloads} onChange={setWorkloads} errors={errors} />
      <output data-testid="state">{JSON.stringify(workloads.map((w) => ({ name: w.name, phases: w.phases.length })))}</output>
      <output data-testid="streams">
        {JSON.stringify(workloads.flatMap((w) => w.phases.map((p) => [p.name, p.sequential_streams ?? null, p.readahead_kib ?? null])))}
      </output>
    </>
  );
}

describe('WorkloadsEditor', () => {
  it('starts from a template: the workload with its phases grouped by window', async () => {
    const { user } = renderWithProviders(<Harness />);
    expect(screen.getByText(/No workload yet/)).toBeInTheDocument();
    await screen.findByRole('option', { name: 'OLTP database' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Workload template' }), 'oltp-database');
    expect(screen.getByText(/A 20 TB transactional database/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start from template' }));

    const workload = screen.getByRole('region', { name: 'Workload OLTP database' });
    expect(within(workload).getByRole('spinbutton', { name: 'Capacity today [TB]' })).toHaveValue(20);
    expect(within(workload).getAllByRole('region', { name: /^Window / }).map((r) => r.getAttribute('aria-label'))).toEqual([
      'Window business hours',
      'Window nightly export',
      'Window month-end batch',
    ]);
    const night = within(workload).getByRole('region', { name: 'Window nightly export' });
    expect(within(night).getAllByRole('group', { name: /^Phase / })).toHaveLength(3);
  });

  it('keeps an emptied working set % as an empty field in its mode, never switching to the whole capacity', async () => {
    const pct = { ...oltp, working_set_gb: null, working_set_pct: 5 };
    const { user } = renderWithProviders(<Harness initial={[pct]} />);
    const field = screen.getByRole('spinbutton', { name: 'Working set [% of capacity]' });
    await user.clear(field);
    expect(screen.getByRole('spinbutton', { name: 'Working set [% of capacity]' })).toHaveValue(null);
    expect(screen.getByRole('combobox', { name: 'Working set' })).toHaveValue('pct');
  });

  it('keeps an emptied zipf exponent in its mode (a field never changes another field\'s mode)', async () => {
    const zipf = { ...oltp, skew: { zipf_alpha: 0.9, io_pct: null, data_pct: null } };
    const { user } = renderWithProviders(<Harness initial={[zipf]} />);
    await user.clear(screen.getByRole('spinbutton', { name: 'Zipf alpha' }));
    expect(screen.getByRole('combobox', { name: 'Access skew' })).toHaveValue('zipf');
    expect(screen.getByRole('spinbutton', { name: 'Zipf alpha' })).toHaveValue(null);
  });

  it('keeps the focus in a phase whose window is renamed (the phase is not remounted)', async () => {
    const { user } = renderWithProviders(<Harness initial={[oltp]} />);
    const business = screen.getByRole('region', { name: 'Window business hours' });
    const window = within(business).getByRole('combobox', { name: 'Window' });
    await user.clear(window);
    await user.type(window, 'daytime');
    await user.tab(); // commits the window name, focus moves to the next field of the same phase
    const renamed = screen.getByRole('region', { name: 'Window daytime' });
    expect(within(renamed).getByRole('combobox', { name: 'Rate given as' })).toHaveFocus();
  });

  it('keeps an I/O-size row whose size is selected and deleted', async () => {
    const { user } = renderWithProviders(<Harness initial={[oltp]} />);
    const business = screen.getByRole('region', { name: 'Window business hours' });
    const size = within(business).getByRole('spinbutton', { name: 'Size of row 1 [KiB]' });
    await user.tripleClick(size);
    await user.keyboard('{Backspace}');
    expect(within(business).getByRole('spinbutton', { name: 'Size of row 1 [KiB]' })).toHaveValue(null);
    expect(within(business).getByRole('spinbutton', { name: 'Share of row 1 [%]' })).toHaveValue(100);
  });

  it('adds a blank workload and a phase in a new window', async () => {
    const { user } = renderWithProviders(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add a blank workload' }));
    await user.click(screen.getByRole('button', { name: 'Add a window' }));
    expect(screen.getByTestId('state')).toHaveTextContent('[{"name":"Workload","phases":2}]');
    expect(screen.getByRole('region', { name: 'Window window' })).toBeInTheDocument();
  });

  it('states the stream count and the host readahead of a phase, and clears them back to unstated', async () => {
    const { user } = renderWithProviders(<Harness initial={[oltp]} />);
    const scan = screen.getByRole('group', { name: 'Phase export table scan' });
    const streams = within(scan).getByRole('spinbutton', { name: 'Sequential streams' });
    const readahead = within(scan).getByRole('spinbutton', { name: 'Host readahead per stream [KiB]' });
    const stated = () => (JSON.parse(screen.getByTestId('streams').textContent ?? '[]') as unknown[][]).find((p) => p[0] === 'export table scan');
    await user.clear(streams);
    await user.type(streams, '16');
    await user.type(readahead, '4096');
    expect(stated()).toEqual(['export table scan', 16, 4096]);
    await user.clear(readahead);
    expect(stated()).toEqual(['export table scan', 16, null]);
  });

  it('shows a readahead the API refuses at its field', () => {
    const error = parseApiError(
      422,
      validation422({ loc: ['body', 'workloads', 0, 'phases', 2, 'readahead_kib'], msg: 'Input should be greater than or equal to 4' }),
    );
    renderWithProviders(<Harness initial={[oltp]} errors={fieldErrors(error.fieldErrors).scope('workloads')} />);
    const scan = screen.getByRole('group', { name: 'Phase export table scan' });
    expect(within(scan).getByRole('spinbutton', { name: 'Host readahead per stream [KiB]' })).toHaveAccessibleDescription(/Must be at least 4$/);
  });

  it("shows the API's 422 messages at the fields they name", () => {
    const error = parseApiError(
      422,
      validation422(
        { loc: ['body', 'workloads', 0, 'capacity_tb'], msg: 'Input should be greater than 0' },
        { loc: ['body', 'workloads', 0, 'phases', 2, 'read_pct'], msg: 'Input should be less than or equal to 100' },
        { loc: ['body', 'workloads', 0, 'phases', 3], msg: 'Value error, io_sizes percentages must sum to 100, got 90' },
      ),
    );
    renderWithProviders(<Harness initial={[oltp]} errors={fieldErrors(error.fieldErrors).scope('workloads')} />);

    const capacity = screen.getByRole('spinbutton', { name: 'Capacity today [TB]' });
    expect(capacity).toHaveAttribute('aria-invalid', 'true');
    expect(capacity).toHaveAccessibleDescription('Must be more than 0');

    const scan = screen.getByRole('group', { name: 'Phase export table scan' });
    expect(within(scan).getByRole('spinbutton', { name: 'Reads [%]' })).toHaveAccessibleDescription('Must be at most 100');
    // the other phases' read shares are not marked
    const online = screen.getByRole('group', { name: 'Phase online transactions' });
    expect(within(online).getByRole('spinbutton', { name: 'Reads [%]' })).not.toHaveAttribute('aria-invalid');

    const dump = screen.getByRole('group', { name: 'Phase export dump write' });
    expect(within(dump).getByText('I/O sizes percentages must sum to 100, got 90')).toBeInTheDocument();
  });

  it('imports an Iometer specification as a phase of the chosen window', async () => {
    let seen: unknown;
    server.use(
      http.post('*/api/v1/import/iometer', async ({ request }) => {
        seen = await request.json();
        return HttpResponse.json({
          imported: { name: '8K random', source_format: 'iometer', read_pct: 70, random_pct: 100, io_sizes: [{ size_kib: 8, pct: 100 }], warnings: ['no rate: IOPS left at 0'] },
          phase: { name: '8K random', window: 'business hours', iops: 0, mb_per_s: null, read_pct: 70, random_pct: 100, io_sizes: [], io_size_kib: 8, read_latency_target_ms: null, working_set_gb: null, write_overwrite_pct: 0 },
        });
      }),
    );
    const { user } = renderWithProviders(<Harness initial={[oltp]} />);
    await user.click(screen.getByText('Import a phase from Iometer or fio'));
    await user.type(screen.getByRole('textbox', { name: 'Iometer specification (.icf lines)' }), '8192,100,70,100,0,1,0,0');
    await user.click(screen.getByRole('button', { name: 'Import as a phase' }));

    expect(await screen.findByRole('group', { name: 'Phase 8K random' })).toBeInTheDocument();
    expect(seen).toEqual({ text: '8192,100,70,100,0,1,0,0', window: 'business hours' });
    expect(screen.getByText('no rate: IOPS left at 0')).toBeInTheDocument();
    const business = screen.getByRole('region', { name: 'Window business hours' });
    expect(within(business).getAllByRole('group', { name: /^Phase / })).toHaveLength(2);
  });

  it('shows the import error the API gives for bad text', async () => {
    server.use(
      http.post('*/api/v1/import/fio', () =>
        HttpResponse.json(validation422({ loc: ['body', 'text'], msg: 'line 2: unknown rw mode "sideways"' }), { status: 422 }),
      ),
    );
    const { user } = renderWithProviders(<Harness initial={[oltp]} />);
    await user.click(screen.getByText('Import a phase from Iometer or fio'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Format' }), 'fio');
    const text = screen.getByRole('textbox', { name: 'fio job or JSON output' });
    await user.type(text, '[job]{enter}rw=sideways');
    await user.click(screen.getByRole('button', { name: 'Import as a phase' }));
    expect(await screen.findByText('Line 2: unknown rw mode "sideways"')).toBeInTheDocument();
    expect(text).toHaveAttribute('aria-invalid', 'true');
  });
});
