import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { GrowthRequest, MaxWorkloadRequest, SensitivityRequest } from '@/lib/api-types';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { DegradedAnalysis, DegradedView } from '../components/degraded-analysis';
import GrowthAnalysis, { GrowthView } from '../components/growth-analysis';
import { MaxWorkloadAnalysis } from '../components/max-workload-analysis';
import RangesAnalysis from '../components/ranges-analysis';
import SensitivityAnalysis, { tornadoRows } from '../components/sensitivity-analysis';
import { signed } from '../lib/format';

const workloads = [fixtures.templates.templates[0]!.workload];
const configuration = fixtures.sizeOltp.configuration;
const props = { workloads, configuration, degraded: 'none' as const };

describe('GrowthAnalysis', () => {
  it('asks for the growth of these workloads on this configuration and marks the break months', async () => {
    let body: GrowthRequest | null = null;
    server.use(
      http.post('*/api/v1/whatif/growth', async ({ request }) => {
        body = (await request.json()) as GrowthRequest;
        return HttpResponse.json(fixtures.growthOltp);
      }),
    );
    renderWithProviders(<GrowthAnalysis {...props} degraded="rebuilding" />);
    expect(await screen.findByTestId('growth-summary')).toHaveTextContent('First break in month 5');
    expect(body!).toMatchObject({ workloads, degraded: 'rebuilding', months: null, step_months: 1 });
    expect((body!.configuration as { name: string }).name).toBe(configuration.name);
    // one line per window, and capacity
    expect(screen.getByText('month 17', { selector: '.badge' })).toHaveClass('badge-fail'); // business hours
    expect(screen.getByText('month 5', { selector: '.badge' })).toHaveClass('badge-fail'); // month-end batch
    expect(screen.getAllByText('holds', { selector: '.badge' })).toHaveLength(2); // nightly export, capacity
    // what breaks first, in the engine's words (binding_words), never its check name
    const batch = screen.getByText('month 5', { selector: '.badge' }).closest('li')!;
    expect(batch).toHaveTextContent('(the read latency of OLTP database, month-end transactions)');
    expect(screen.getByText('month 17', { selector: '.badge' }).closest('li')).toHaveTextContent('(the drives)');
    expect(batch.textContent).not.toMatch(/read latency:|drives:pool|›/);
    expect(screen.getByText(/Capacity: fits through month 36/)).toBeInTheDocument();
    expect(screen.getByText('Busiest component per window, and capacity fill, by month', { selector: 'figcaption' })).toBeInTheDocument();
    expect(screen.getByText('Read latency by month', { selector: 'figcaption' })).toBeInTheDocument();
  });

  it("lists the API's 422 messages", async () => {
    server.use(
      http.post('*/api/v1/whatif/growth', () =>
        HttpResponse.json(validation422({ loc: ['body', 'workloads', 0, 'phases', 0, 'iops'], msg: 'Input should be greater than 0' }), { status: 422 }),
      ),
    );
    renderWithProviders(<GrowthAnalysis {...props} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('workload “OLTP database” › phase “online transactions” › IOPS: Must be more than 0');
  });
});

describe('SensitivityAnalysis', () => {
  it('draws the tornado ranked, largest swing first, and switches to read latency', async () => {
    let body: SensitivityRequest | null = null;
    server.use(
      http.post('*/api/v1/whatif/sensitivity', async ({ request }) => {
        body = (await request.json()) as SensitivityRequest;
        return HttpResponse.json(fixtures.sensitivityOltp);
      }),
    );
    const { user } = renderWithProviders(<SensitivityAnalysis {...props} />);
    expect(await screen.findByTestId('sensitivity-summary')).toHaveTextContent(fixtures.sensitivityOltp.text);
    expect(body!.steps).toMatchObject({ iops_pct: 10, drive_count_pct: 10 });
    expect(screen.getByText(/At the base: headroom used/)).toHaveTextContent('(the drives in month-end batch)');
    const data = screen.getByRole('table');
    const first = within(data).getAllByRole('row')[1]!;
    expect(first).toHaveTextContent(fixtures.sensitivityOltp.bars.find((b) => b.rank === 1)!.label);
    expect(first).toHaveTextContent('points');
    await user.click(screen.getByRole('radio', { name: 'Read latency [ms]' }));
    expect(screen.getByText('Change in read latency, ranked', { selector: 'figcaption' })).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getAllByRole('row')[1]).toHaveTextContent('ms');
  });

  it.each(['headroom', 'latency'] as const)('makes tornado rows of the applicable inputs, largest %s swing first', (metric) => {
    const rows = tornadoRows(fixtures.sensitivityOltp.bars, metric);
    expect(rows.length).toBe(fixtures.sensitivityOltp.bars.filter((b) => b.applicable).length);
    const swings = rows.map((r) => Math.abs((r.high ?? 0) - (r.low ?? 0)));
    expect(swings).toEqual([...swings].sort((a, b) => b - a));
  });

  it('ranks an input that saturates the array first', () => {
    const [a, b] = fixtures.sensitivityOltp.bars;
    const rows = tornadoRows([a!, { ...b!, headroom_high_delta_pts: null, swing_pts: null }], 'headroom');
    expect(rows[0]).toMatchObject({ label: b!.label, high: null });
  });
});

describe('MaxWorkloadAnalysis', () => {
  it('shows each window’s maximum scale and what binds, the system’s binding window marked', async () => {
    let body: MaxWorkloadRequest | null = null;
    server.use(
      http.post('*/api/v1/whatif/max-workload', async ({ request }) => {
        body = (await request.json()) as MaxWorkloadRequest;
        return HttpResponse.json(fixtures.maxWorkloadOltp);
      }),
    );
    renderWithProviders(<MaxWorkloadAnalysis {...props} degraded="controller-failed" />);
    expect(await screen.findByTestId('max-workload-summary')).toHaveTextContent(fixtures.maxWorkloadOltp.text);
    expect(body!.degraded).toBe('controller-failed');
    const batch = screen.getByRole('row', { name: /month-end batch/ });
    expect(batch).toHaveTextContent('binds the system');
    // what binds in the engine's words (binding_words), never the check's internal name
    expect(within(batch).getByText('the read latency of OLTP database, month-end transactions')).toBeInTheDocument();
    expect(batch.textContent).not.toMatch(/read latency:|›/);
    expect(batch).toHaveTextContent('1.09 x');
    // max IOPS = IOPS today x max scale, with its math in the engine's words: 21,907 x 1.087 = 23,821
    await userEvent.setup().click(within(batch).getByRole('button', { name: /23,821 IOPS, show how Max IOPS \(month-end batch\) is calculated/ }));
    const dialog = screen.getByRole('dialog', { name: /Max IOPS \(month-end batch\)/ });
    expect(dialog).toHaveTextContent('max IOPS = IOPS today x max scale');
    expect(dialog).toHaveTextContent('max IOPS = 21,907 x 1.09 = 23,821');
    expect(dialog).toHaveTextContent('Source: bisection on the load scale until a latency target or headroom limit fails');
  });
});

describe('RangesAnalysis', () => {
  it('shows the bands, the ranking and the note on skew', async () => {
    renderWithProviders(<RangesAnalysis {...props} tracesHref="/traces" />);
    expect(await screen.findByTestId('ranges-summary')).toHaveTextContent(fixtures.rangesOltp.text);
    const bands = screen.getByRole('table', { name: /Bands/ });
    expect(within(bands).getByRole('row', { name: /Sustainable load/ })).toHaveTextContent('0.733x – 1.48x (expected 1.09x)');
    // what binds at the expected values, in the engine's words (Outcome.binding_words)
    expect(within(bands).getByRole('row', { name: /Headroom used/ })).toHaveTextContent('the drives in month-end batch');
    const note = screen.getByTestId('skew-note');
    expect(note).toHaveTextContent('skew alone can move what an array sustains several-fold');
    expect(note).toHaveTextContent('from 0.733 x to 1.48 x today');
    expect(within(note).getByRole('link', { name: 'analyse a trace' })).toHaveAttribute('href', '/traces');
    expect(screen.getByText('Uncertainties ranked by their swing', { selector: 'figcaption' })).toBeInTheDocument();
  });

  it('asks for a Monte Carlo band with its samples', async () => {
    const bodies: { method?: string; samples?: number }[] = [];
    server.use(
      http.post('*/api/v1/whatif/ranges', async ({ request }) => {
        bodies.push((await request.json()) as { method?: string });
        return HttpResponse.json(fixtures.rangesOltp);
      }),
    );
    const { user } = renderWithProviders(<RangesAnalysis {...props} />);
    await screen.findByTestId('ranges-summary');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Method' }), 'monte-carlo');
    expect(screen.getByRole('spinbutton', { name: 'Samples' })).toHaveValue(64);
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ method: 'monte-carlo', samples: 64 }));
  });
});

describe('DegradedAnalysis', () => {
  it('puts normal, drive failed, rebuilding and controller down side by side with the rebuild exposure', async () => {
    renderWithProviders(<DegradedAnalysis workloads={workloads} configuration={configuration} />);
    // the engine's summary in words: no internal check names, no "inf"
    const summary = await screen.findByTestId('degraded-summary');
    expect(summary).toHaveTextContent('Worst: normal operation.');
    expect(summary).toHaveTextContent('with a drive failed: fails; nearest its limit: the read latency of OLTP database, online transactions in business hours, saturated (it cannot keep up)');
    expect(summary.textContent).not.toMatch(/inf|drives:|drive-failed|controller-failed/);
    const table = screen.getByRole('table', { name: 'Degraded modes side by side' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Figure',
      'Normal operationworst',
      'A drive failed',
      'Rebuilding',
      'A controller (node) down',
    ]);
    // nearest limit per mode in the engine's words (Outcome.binding_words)
    const nearest = within(table).getByRole('row', { name: /Nearest limit/ });
    expect(nearest).toHaveTextContent('the read latency of OLTP database, online transactions in business hours');
    expect(nearest.textContent).not.toMatch(/read latency:|drives:|›/);
    const verdicts = within(table).getByRole('row', { name: /Verdict/ });
    expect(within(verdicts).getAllByText(/Meets|Fails/).map((b) => b.textContent)).toEqual(['Fails', 'Fails', 'Fails', 'Fails']);
    const rebuild = screen.getByTestId('rebuild-exposure');
    expect(within(rebuild).getByRole('button', { name: /12.5 h, show how Rebuild time/ })).toBeInTheDocument();
    expect(within(rebuild).getByRole('button', { name: /0.0428 %, show how Further failure/ })).toBeInTheDocument();
  });

  it('marks a read latency by its target, not by the window: a met target is a tick in a failing window', () => {
    const recorded = fixtures.degradedOltp;
    const modes = recorded.modes.map((m) =>
      m.outcome
        ? { ...m, outcome: { ...m.outcome, windows: m.outcome.windows.map((w, i) => ({ ...w, passed: false, read_latency_met: i === 0 ? true : i === 1 ? false : null })) } }
        : m,
    );
    render(<DegradedView result={{ ...recorded, modes }} />);
    const table = screen.getByRole('table', { name: 'Degraded modes side by side' });
    const [first, second, third] = recorded.modes[0]!.outcome!.windows.map((w) => within(table).getByRole('row', { name: new RegExp(`^${w.window}: read latency`) }));
    expect(within(first!).getAllByTitle('meets its read latency target')).toHaveLength(4);
    expect(within(second!).getAllByTitle('misses its read latency target')).toHaveLength(4);
    expect(within(third!).queryByText(/✓|✗/)).toBeNull(); // no target stated: no mark
  });
});

describe('format', () => {
  it('writes signed changes in words', () => {
    expect(signed(12.6, 'points')).toBe('+12.6 points');
    expect(signed(-7.5)).toBe('−7.5');
    expect(signed(null)).toBe('saturates');
  });
});

describe('GrowthView', () => {
  it('says what the projection rests on and how far off its class has been, beside its verdict', () => {
    const parts = Object.fromEntries(['drives', 'controller', 'cache', 'ports'].map((p) => [p, { status: 'estimate' as const, sources: [], note: null, figures: {} }]));
    const projection = {
      ...fixtures.growthOltp,
      calibration: { parts: parts as never, estimated: ['drives', 'controller', 'cache', 'ports'], text: 'every part: estimate', margins: [] },
      model_error: { system_class: 'hdd' as const, label: 'HDD arrays', median_pct: 6, p90_pct: 15.7, rows: 80, basis: 'make validate', text: 'HDD arrays: off by 6% (median) and 15.7% (90th percentile)' },
    };
    render(<GrowthView projection={projection} />);
    const note = screen.getByRole('region', { name: 'How calibrated this answer is' });
    expect(note).toHaveTextContent('HDD arrays: off by 6% (median) and 15.7% (90th percentile)');
    expect(within(note).getByTestId('calibration-controller')).toHaveTextContent('controller: estimate');
  });
});
