import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { SizeRequest } from '@/lib/api-types';
import { workflow, workflowStore } from '@/stores/workflow';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { createTestQueryClient } from '@/testing/test-utils';

import { routeObjects } from '../router';
import { href } from '../routes';

function renderApp(path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user };
}

/** The bodies of the `/size` requests from now on (each answered with the OLTP sizing). */
function recordSizes(): SizeRequest[] {
  const sizes: SizeRequest[] = [];
  server.use(
    http.post('*/api/v1/size', async ({ request }) => {
      sizes.push((await request.json()) as SizeRequest);
      return HttpResponse.json(fixtures.sizeOltp);
    }),
  );
  return sizes;
}

const SLOW = { timeout: 15_000 }; // a lazy page's first import (Recharts) can take a while on a busy machine

async function pickOltpOnFas3170(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('option', { name: 'OLTP database' }, SLOW);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Workload template' }), 'oltp-database');
  await user.click(screen.getByRole('button', { name: 'Start from template' }));
  await screen.findByRole('option', { name: 'NetApp' });
  await user.selectOptions(screen.getByRole('combobox', { name: 'Vendor' }), 'NetApp');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Array model' }), 'netapp-fas3170');
  await screen.findByRole('option', { name: /450 GB 15K FC/ });
}

describe('Size page', () => {
  it('sizes the OLTP template on a FAS3170 in RAID-DP and shows the verdicts, bill and charts', { timeout: 60_000 }, async () => {
    const sizes = recordSizes();
    const { user } = renderApp(href.size());
    await pickOltpOnFas3170(user);
    await user.click(screen.getByRole('button', { name: 'Size it' }));

    expect(await screen.findByRole('heading', { level: 2, name: /^Results: FAS3170/ }, SLOW)).toBeInTheDocument();
    expect(sizes[0]!.configuration).toMatchObject({ array_id: 'netapp-fas3170', raid_scheme: 'raid-dp', drive_count: null });
    expect(sizes[0]!.workloads[0]!.name).toBe('OLTP database');
    expect(screen.getByRole('heading', { name: 'Meets every target' })).toBeInTheDocument();
    expect(screen.getByTestId('bill-drives')).toHaveTextContent('144 drives');
    expect(await screen.findByText('Latency vs IOPS (business hours)', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'What if…' }, SLOW)).toBeInTheDocument();
    const saves = screen.getAllByRole('button', { name: 'Save & share' });
    expect(saves).toHaveLength(2); // the sizing, and its RAID grid
    expect(saves[0]).toBeEnabled();
  });

  it("puts the API's 422 messages at the fields and lists them", async () => {
    server.use(
      http.post('*/api/v1/size', () =>
        HttpResponse.json(
          validation422(
            { loc: ['body', 'workloads', 0, 'phases', 0, 'read_pct'], msg: 'Input should be less than or equal to 100' },
            { loc: ['body', 'configuration', 'group_width'], msg: 'netapp-fas3170 allows raid-dp groups of 3-28 drives, got 40' },
          ),
          { status: 422 },
        ),
      ),
    );
    const { user } = renderApp(href.size());
    await pickOltpOnFas3170(user);
    await user.click(screen.getByRole('button', { name: 'Size it' }));

    const summary = await screen.findByRole('alert', { name: '' });
    expect(summary).toHaveTextContent('workload “OLTP database” › phase “online transactions” › reads: Must be at most 100');
    const online = screen.getByRole('group', { name: 'Phase online transactions' });
    expect(within(online).getByRole('spinbutton', { name: 'Reads [%]' })).toHaveAccessibleDescription('Must be at most 100');
    expect(screen.getByRole('combobox', { name: 'RAID group width [drives]' })).toHaveAccessibleDescription(
      'netapp-fas3170 allows raid-dp groups of 3-28 drives, got 40',
    );
    expect(screen.getByText(/2 fields need a fix first/)).toBeInTheDocument();
  });

  it('never sizes with a cleared field: an error at the field, focus on it, no request, and a reload keeps it empty', async () => {
    // issue 17 item 1: capacity 50 and IOPS 30,000 sized, both cleared, sized again -> the old values were used
    const sizes = recordSizes();
    const { user } = renderApp(href.size());
    await pickOltpOnFas3170(user);
    const capacity = screen.getByRole('spinbutton', { name: 'Capacity today [TB]' });
    const iops = within(screen.getByRole('group', { name: 'Phase online transactions' })).getByRole('spinbutton', { name: 'IOPS' });
    await user.clear(capacity);
    await user.type(capacity, '50');
    await user.clear(iops);
    await user.type(iops, '30000');
    await user.click(screen.getByRole('button', { name: 'Size it' }));
    await waitFor(() => expect(sizes).toHaveLength(1));
    expect(sizes[0]!.workloads[0]!.capacity_tb).toBe(50);

    await user.clear(capacity);
    await user.clear(iops);
    await user.click(screen.getByRole('button', { name: 'Size it' }));

    expect(capacity).toHaveAccessibleDescription('Enter a number');
    expect(iops).toHaveAccessibleDescription('Enter a number');
    expect(capacity).toHaveFocus();
    expect(screen.getByText(/2 fields need a fix first/)).toBeInTheDocument();
    expect(sizes).toHaveLength(1);
    // the results on screen are for the old inputs, and say so
    expect(screen.getByText(/These results are for the inputs as they were/)).toBeInTheDocument();
    // what a reload reads back: the cleared fields stay empty (never the old 50 TB)
    const stored = JSON.parse(localStorage.getItem('sizer.workflow.v1')!) as { workloads: { capacity_tb: number | null; phases: { iops: number | null }[] }[] };
    expect(stored.workloads[0]!.capacity_tb).toBeNull();
    expect(stored.workloads[0]!.phases[0]!.iops).toBeNull();
  });

  it('checks a field against the API constraints before any request', async () => {
    const sizes = recordSizes();
    const { user } = renderApp(href.size());
    await pickOltpOnFas3170(user);
    const reads = within(screen.getByRole('group', { name: 'Phase online transactions' })).getByRole('spinbutton', { name: 'Reads [%]' });
    await user.clear(reads);
    await user.type(reads, '120');

    expect(reads).toHaveAccessibleDescription('Must be at most 100'); // Phase.read_pct: maximum 100 in the OpenAPI schema
    await user.click(screen.getByRole('button', { name: 'Size it' }));
    expect(reads).toHaveFocus();
    expect(sizes).toHaveLength(0);
  });
});

describe('Compare page', () => {
  it('asks to size first when there is nothing to compare', async () => {
    renderApp(href.compare());
    expect(await screen.findByText(/Nothing to compare yet/)).toBeInTheDocument();
  });

  it('compares the sized configuration in RAID-DP and RAID 10 with one click', async () => {
    const w = fixtures.reportSize.inputs.workloads;
    workflow.resolve({ kind: 'size', request: fixtures.reportSize.inputs as SizeRequest, workloads: w, configuration: fixtures.sizeOltp.configuration });
    let body: Record<string, unknown> = {};
    server.use(
      http.post('*/api/v1/compare', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(fixtures.compareOltp);
      }),
    );
    const { user } = renderApp(href.compare());
    const button = await screen.findByRole('button', { name: 'Compare NetApp RAID-DP with RAID 10' });
    await waitFor(() => expect(button).toBeEnabled());
    // the FAS3170 offers RAID-DP only: RAID 10 goes to an array that offers it, and the page says so first
    expect(screen.getByTestId('peer-note')).toHaveTextContent('The FAS3170 (HA pair) does not offer RAID 10');
    // a scheme the array does not offer carries the engine's label (hypothetical_label), not a UI copy
    const second = screen.getByRole('combobox', { name: 'Second scheme' });
    const raid10 = within(second).getAllByRole('option').find((o) => o.getAttribute('value') === 'raid10')!;
    expect(raid10).toHaveTextContent(`· ${fixtures.raidSchemes.hypothetical_label}`);
    expect(fixtures.raidSchemes.hypothetical_label).toBe('hypothetical: not offered by this array');
    await user.click(button);
    expect(await screen.findByRole('heading', { name: 'Side by side' })).toBeInTheDocument();
    expect(body.schemes).toEqual(['raid-dp', 'raid10']);
    expect(body).toMatchObject({ unsupported: 'peer', peer_array_id: 'generic' });
    expect((body.base as { pools: { drive_count: number | null }[] }).pools[0]!.drive_count).toBeNull();
    expect(screen.getByRole('table').querySelectorAll('td[data-best]').length).toBeGreaterThan(0);
    expect(screen.getByRole('textbox', { name: 'Report name' })).toHaveValue('OLTP database: raid-dp 16 vs raid10 8');
  });
});

describe('Report page', () => {
  it('renders a saved comparison cold, with export links', async () => {
    const report = fixtures.reportCompare;
    renderApp(href.report(report.id));
    expect(await screen.findByRole('heading', { level: 1, name: report.name })).toBeInTheDocument();
    expect(screen.getByText(/Comparison report · read-only snapshot/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export JSON' })).toHaveAttribute('href', expect.stringContaining(`/api/v1/reports/${report.id}/export?format=json`));
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', expect.stringContaining('format=csv'));
    const drives = screen.getByRole('table', { name: 'Configurations side by side' }).querySelector('tr[data-row="drives_total"]') as HTMLElement;
    const r = report.kind === 'compare' ? report.result : null;
    expect(within(drives).getAllByRole('cell')[0]).toHaveTextContent(String(r!.comparison.columns[0]!.headline.drives_total));
    expect(screen.getByRole('heading', { name: 'Inputs' })).toBeInTheDocument();
  });

  it('renders a saved sizing with its verdicts and bill', async () => {
    const report = fixtures.reportSize;
    renderApp(href.report(report.id));
    expect(await screen.findByRole('heading', { level: 1, name: report.name })).toBeInTheDocument();
    expect(screen.getByText(/Sizing report/)).toBeInTheDocument();
    expect(screen.getByTestId('bill-drives')).toHaveTextContent('144 drives');
    expect(screen.getAllByTestId('window-verdict')).toHaveLength(3);
    // the inputs say the configuration in the engine's words (configuration_words), not a UI rewording
    const inputs = screen.getByRole('region', { name: 'Configuration 1' });
    expect(within(inputs).getByText('FAS3170 (HA pair), 450 GB 15K FC, raid-dp 16')).toBeInTheDocument();
  });

  it("says a hypothetical configuration is one in the engine's words", async () => {
    const report = { ...fixtures.reportSize, configuration_words: ['FAS3170 (HA pair), 450 GB 15K FC, raid6 14, hypothetical: not offered by this array'] };
    server.use(http.get(`*/api/v1/reports/${report.id}`, () => HttpResponse.json(report)));
    renderApp(href.report(report.id));
    const inputs = await screen.findByRole('region', { name: 'Configuration 1' });
    expect(inputs).toHaveTextContent('raid6 14, hypothetical: not offered by this array');
  });

  it('renders a saved growth analysis with its money, downloads and a way to diff it', async () => {
    const report = fixtures.reportGrowth;
    renderApp(href.report(report.id));
    expect(await screen.findByRole('heading', { level: 1, name: report.name })).toBeInTheDocument();
    expect(screen.getByText(/Growth report/)).toBeInTheDocument();
    expect(await screen.findByTestId('growth-summary', {}, SLOW)).toHaveTextContent(report.result.text);
    expect(screen.getByTestId('tco-panel')).toHaveTextContent(report.tco![0]!.configuration);
    expect(screen.getByTestId('download-pdf').getAttribute('href')).toContain(`/api/v1/reports/${report.id}/export?format=pdf`);
    expect(screen.getByTestId('download-xlsx').getAttribute('href')).toContain('format=xlsx');
    expect(screen.getByRole('link', { name: 'Compare with another report' })).toHaveAttribute('href', href.diff(report.id));
  });
});

describe('Two reports side by side', () => {
  it('diffs the two reports the link names', async () => {
    const d = fixtures.reportDiff;
    renderApp(href.diff(d.before, d.after));
    expect(await screen.findByTestId('report-diff')).toHaveTextContent(`${d.changed} of ${d.changes.length} headline figures differ`);
    expect(screen.getByRole('link', { name: d.after_name })).toHaveAttribute('href', href.report(d.after));
  });

  it('takes two share links and diffs them', async () => {
    const d = fixtures.reportDiff;
    const { user } = renderApp(href.diff());
    await user.type(await screen.findByLabelText('First report (id or link)'), `http://localhost/r/${d.before}`);
    await user.type(screen.getByLabelText('Second report (id or link)'), d.after);
    await user.click(screen.getByRole('button', { name: 'Compare the two reports' }));
    expect(await screen.findByTestId('report-diff')).toBeInTheDocument();
  });
});

describe('Recommend page', () => {
  it('asks for workloads first', async () => {
    renderApp(href.recommend());
    expect(await screen.findByText(/No workloads yet/)).toBeInTheDocument();
  });

  it('ranks configurations and opens one in Size', async () => {
    workflow.setWorkloads(fixtures.reportSize.inputs.workloads);
    const rec = fixtures.sizeOltp;
    server.use(
      http.post('*/api/v1/recommend', () =>
        HttpResponse.json({
          engine_version: '0.1.0',
          catalog_version: '2026.11.0',
          configurations: [
            {
              rank: 1, array_id: 'netapp-fas3170', vendor: 'NetApp', model: 'FAS3170 (HA pair)', drive_id: 'hdd-15k-fc-450', drive_name: '450 GB 15K FC',
              drive_kind: 'hdd', raid_scheme: 'raid-dp', group_width: 16, flash_cache_gb: 0, drive_count: 144, spares: 6, shelves: 11, rack_units: 39,
              power_w: 4450, cost_usd: 538000, usable_tb: 47.2, read_latency_ms: 9.2, headroom_pct: 5, binding_constraint: 'drives busy in month-end batch',
              on_pareto_front: true, scalar_fallback: false, configuration: rec.configuration, headline: fixtures.compareOltp.comparison.columns[0]!.headline,
            },
          ],
          pareto_front: [],
          pareto_objectives: ['cost', 'read-latency'],
          infeasible: [{ array_id: 'netapp-fas2050', vendor: 'NetApp', model: 'FAS2050 (HA pair)', families: 8, binding_constraint: 'controllers busy', closest: 'x', reasons: [] }],
          reasons: [],
          notes: [],
          stats: { families: 120, candidates: 5000, modelled_candidates: 5000, feasible_families: 60, batch_seconds: 0.5, candidates_per_second: 10000, total_seconds: 0.8, confirmed: 10, scalar_fallbacks: 0 },
        }),
      ),
    );
    const { user, router } = renderApp(href.recommend());
    await user.click(await screen.findByRole('button', { name: 'Recommend' }));
    const row = await screen.findByRole('row', { name: /FAS3170/ });
    expect(row).toHaveTextContent('538,000 USD');
    expect(row).toHaveTextContent('★');
    expect(screen.getByText('1 arrays cannot meet the workloads')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: /Open FAS3170/ }));
    expect(router.state.location.pathname).toBe('/size');
    expect(await screen.findByRole('radio', { name: /A fixed drive count/ })).toBeChecked();
    expect(screen.getByRole('spinbutton', { name: 'Drives (excluding spares)' })).toHaveValue(144);
  });

  it('says so plainly when the server has no recommendations (no made-up data)', async () => {
    workflow.setWorkloads(fixtures.reportSize.inputs.workloads);
    server.use(http.post('*/api/v1/recommend', () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 })));
    const { user } = renderApp(href.recommend());
    await user.click(await screen.findByRole('button', { name: 'Recommend' }));
    expect(await screen.findByText('Not available yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('Analyses page', () => {
  it('runs the calculators without a configuration, and asks to size one for the rest', async () => {
    renderApp(href.analyses());
    expect(await screen.findByText(/need a configuration/)).toBeInTheDocument();
    expect(screen.queryByTestId('growth-analysis')).not.toBeInTheDocument();
    expect(await screen.findByTestId('converted-iops')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Building blocks' })).toBeInTheDocument();
  });

  it('analyses the configuration last sized: growth, sensitivity, maximum workload, ranges, degraded modes', async () => {
    const w = fixtures.reportSize.inputs.workloads;
    workflow.resolve({ kind: 'size', request: fixtures.reportSize.inputs as SizeRequest, workloads: w, configuration: fixtures.sizeOltp.configuration });
    const { user } = renderApp(href.analyses());
    expect(await screen.findByTestId('growth-summary', {}, SLOW)).toHaveTextContent('First break in month 5');
    expect(await screen.findByTestId('sensitivity-summary', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByTestId('max-workload-summary')).toBeInTheDocument();
    expect(await screen.findByTestId('ranges-summary', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByTestId('degraded-summary')).toBeInTheDocument();
    // the conversion starts from the configuration's scheme
    expect(screen.getByRole('combobox', { name: 'From: RAID scheme' })).toHaveValue('raid-dp');
    expect(screen.getByRole('combobox', { name: 'Array' })).toHaveValue('netapp-fas3170');
    // one mode for the analyses that take one
    const bodies: { degraded?: string }[] = [];
    server.use(
      http.post('*/api/v1/whatif/max-workload', async ({ request }) => {
        bodies.push((await request.json()) as { degraded?: string });
        return HttpResponse.json(fixtures.maxWorkloadOltp);
      }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Evaluate the analyses with' }), 'drive-failed');
    await waitFor(() => expect(bodies.at(-1)?.degraded).toBe('drive-failed'));
  });
});

describe('Traces page', () => {
  it('uploads a trace and follows its job at /traces/{id}', async () => {
    server.use(http.post('*/api/v1/traces', () => HttpResponse.json({ id: fixtures.traceJobDone.id, status: 'queued' }, { status: 202 })));
    const { user, router } = renderApp(href.traces());
    await user.upload(await screen.findByLabelText('Trace file', {}, SLOW), new File(['time_s,op,offset,size\n0,R,0,4096\n'], 't.csv'));
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(href.trace(fixtures.traceJobDone.id)));
    expect(await screen.findByRole('heading', { name: 'Profile' }, SLOW)).toBeInTheDocument();
  });

  it('puts the derived workload into the workflow and opens Size', async () => {
    workflow.setWorkloads(fixtures.reportSize.inputs.workloads);
    const { user, router } = renderApp(href.trace(fixtures.traceJobDone.id));
    await user.click(await screen.findByRole('button', { name: 'Use as workload' }, SLOW));
    expect(router.state.location.pathname).toBe('/size');
    expect(workflowStore.get().workloads).toEqual([fixtures.traceJobDone.result!.derived.workload]);
    expect(await screen.findByRole('region', { name: `Workload ${fixtures.traceJobDone.result!.derived.workload.name}` }, SLOW)).toBeInTheDocument();
  });
});

describe('Hardware page', () => {
  it('lists the custom hardware beside the form to add more', async () => {
    renderApp(href.hardware());
    expect(await screen.findByRole('heading', { level: 1, name: 'Custom hardware' })).toBeInTheDocument();
    expect(await screen.findByRole('rowheader', { name: 'Lab SSD 3.84 TB' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add the drive' })).toBeInTheDocument();
  });
});

describe('Recommend page, chart', () => {
  it('draws cost against read latency above the ranked table', async () => {
    workflow.setWorkloads(fixtures.reportSize.inputs.workloads);
    server.use(http.post('*/api/v1/recommend', () => HttpResponse.json(fixtures.recommendOltp)));
    const { user } = renderApp(href.recommend());
    await user.click(await screen.findByRole('button', { name: 'Recommend' }));
    expect(await screen.findByTestId('pareto-chart', {}, SLOW)).toBeInTheDocument();
  });
});
