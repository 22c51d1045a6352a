import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { ConfidenceRequest } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { BillSummary } from '../components/bill-summary';
import { CapacityWaterfall } from '../components/capacity-waterfall';
import { UtilizationPanel, windowRows } from '../components/utilization-panel';
import { Verdicts } from '../components/verdicts';

const sized = fixtures.sizeOltp; // 144 drives, meets every window
const failing = fixtures.evaluate48; // 48 drives: two windows and the capacity fail

describe('Verdicts', () => {
  it('says the configuration meets every target, with one sentence per window', () => {
    render(<Verdicts result={sized.result} sizing={sized} />);
    expect(screen.getByRole('heading', { name: 'Meets every target' })).toBeInTheDocument();
    expect(screen.getByText(/is the fewest that meets every window; with one group fewer/)).toBeInTheDocument();
    const windows = screen.getAllByTestId('window-verdict');
    expect(windows).toHaveLength(3);
    expect(windows[0]).toHaveTextContent('Meets');
    expect(windows[0]).toHaveTextContent(sized.result.windows[0]!.verdict);
    expect(screen.getByTestId('capacity-verdict')).toHaveTextContent('Meets');
  });

  it("shows each window's totals with the engine's explanation", async () => {
    const user = userEvent.setup();
    render(<Verdicts result={sized.result} sizing={sized} />);
    // nightly export: reads 3,000 x 75% = 2,250 at 5.64 ms and 1,144 x 100% at 1.33 ms:
    // (2,250 x 5.644 + 1,144 x 1.327) / 3,394 = 4.19 ms
    await user.click(screen.getByRole('button', { name: /^4\.19 ms/ }));
    const dialog = screen.getByRole('dialog', { name: /Read latency \(nightly export\)/ });
    expect(dialog).toHaveTextContent('R_read = sum(phase reads x phase R_read) / sum(phase reads)');
    expect(dialog).toHaveTextContent(
      'R_read = IOPS-weighted mean of 5.64 ms (OLTP database/overnight transactions), 1.33 ms (OLTP database/export table scan) = 4.19 ms',
    );
    await user.click(screen.getByRole('button', { name: /^4,431 IOPS/ }));
    expect(screen.getByRole('dialog', { name: /Front-end IOPS \(nightly export\)/ })).toHaveTextContent(
      'IOPS = 3,000 (OLTP database/overnight transactions) + 1,144 (OLTP database/export table scan) + 286.1 (OLTP database/export dump write) = 4,431',
    );
  });

  it('says which windows fail and why', () => {
    render(<Verdicts result={failing} />);
    // the engine's words for `read latency:OLTP database/online transactions (business hours)`
    expect(
      screen.getByRole('heading', {
        name: 'Does not meet every target: the read latency of OLTP database, online transactions (business hours)',
      }),
    ).toBeInTheDocument();
    const [business, night, monthEnd] = screen.getAllByTestId('window-verdict');
    expect(business).toHaveTextContent(/^Fails/);
    expect(business).toHaveTextContent('business hours: fails:');
    expect(business).toHaveTextContent('drives of pool busy 107.5 %, over the limit of 70 %');
    expect(night).toHaveTextContent(/^Meets/);
    expect(monthEnd).toHaveTextContent(/^Fails/);
    expect(screen.getByTestId('capacity-verdict')).toHaveTextContent('Fails');
    expect(screen.getByTestId('capacity-verdict')).toHaveTextContent('over the limit of 100 %');
  });

  it("leads with the engine's verdict over every case, failing cases first, relaxed ones named", () => {
    // the engine's verdict (models.verdict) as the API sends it: the headline names what was relaxed
    const verdict = {
      passed: false,
      headline:
        'Does not meet every target: nightly export fails while a drive rebuilds at month 36; not sized for cold caches after a restart in month-end batch.',
      horizon_months: 36,
      relaxed: [{ case: 'cold-cache' as const, window: 'month-end batch' }],
      notes: [],
      cases: [
        { case: 'healthy' as const, window: 'nightly export', load: 'at month 36', status: 'meets' as const, text: 'nightly export (at month 36): meets every target.' },
        { case: 'cold-cache' as const, window: 'month-end batch', load: 'at month 36', status: 'relaxed' as const, text: 'month-end batch: relaxed by the request.' },
        { case: 'rebuilding' as const, window: 'nightly export', load: 'at month 36', status: 'fails' as const, text: 'nightly export (at month 36): fails: degraded RAID group busy 114.6 %, over the limit of 100 %.' },
      ],
    };
    render(<Verdicts result={{ ...sized.result, passed: false, verdict }} sizing={sized} />);
    expect(screen.getByRole('heading', { name: verdict.headline })).toBeInTheDocument();
    const cases = within(screen.getByTestId('verdict-cases')).getAllByRole('listitem');
    expect(cases.map((c) => c.textContent)).toEqual([
      'fails nightly export (at month 36): fails: degraded RAID group busy 114.6 %, over the limit of 100 %.',
      'meets nightly export (at month 36): meets every target.',
      'relaxed month-end batch: relaxed by the request.',
    ]);
  });

  it('asks for the chance of meeting every target of the design judged, with the cases it relaxed, and shows it beside the verdict', async () => {
    const asked: ConfidenceRequest[] = [];
    server.use(
      http.post('*/api/v1/whatif/confidence', async ({ request }) => {
        asked.push((await request.json()) as ConfidenceRequest);
        return HttpResponse.json({ ...fixtures.confidenceOltp, chance_pct: 87.4, text: 'Meets every target in every case judged in 87.4% of 1000 samples.' });
      }),
    );
    const workloads = [fixtures.templates.templates[0]!.workload];
    const relaxed = [{ case: 'horizon' as const, window: null }];
    const verdict = { passed: true, headline: 'Meets every target healthy; not sized for growth to the horizon.', horizon_months: null, cases: [], relaxed, notes: [] };
    const result = { ...sized.result, verdict };
    renderWithProviders(<Verdicts result={result} sizing={sized} workloads={workloads} configuration={sized.configuration} />);
    expect(screen.getByText(/sampling the inputs' ranges and the model's error/)).toBeInTheDocument();
    const chance = await screen.findByTestId('verdict-chance');
    expect(chance).toHaveTextContent('Chance of meeting every target: 87.4%. Meets every target in every case judged in 87.4% of 1000 samples.');
    // the sized configuration (not the family), the cases the verdict relaxed, 1,000 seeded samples
    expect(asked).toHaveLength(1);
    expect(asked[0]!.configuration).toEqual(sized.configuration);
    expect(asked[0]!.relax).toEqual(relaxed);
    expect(asked[0]!.samples).toBe(1000);
  });

  it('shows the chance a sizing to a confidence carries, without asking again', () => {
    const confidence = { ...fixtures.confidenceOltp, chance_pct: 90.8, target_pct: 90, drive_count: 384, text: 'Meets every target in every case judged in 90.8% of 1000 samples.' };
    render(<Verdicts result={sized.result} sizing={{ ...sized, confidence }} />);
    expect(screen.getByTestId('verdict-chance')).toHaveTextContent('Chance of meeting every target: 90.8% (sized to 90%).');
  });

  it('shows a saturated latency as unbounded', () => {
    render(<Verdicts result={failing} />);
    const business = screen.getAllByTestId('window-verdict')[0]!;
    expect(within(business).getByRole('button', { name: /^saturated, show how Read latency \(business hours\)/ })).toBeInTheDocument();
  });
});

describe('BillSummary with the engine\'s explanations', () => {
  it('shows the formula and numbers the API sends for a figure (the bill of a catalog reference)', async () => {
    const user = userEvent.setup();
    // recorded: evaluate 48 drives of a FAS3170 given by reference (no packaging on the client)
    const explain = {
      power_w: { value: 2050, unit: 'W', formula: 'power = controllers + shelves x shelf power + drives x drive power', text: 'power = 800 + 4 x 100 + 50 x 17 W = 2,050 W', inputs: {}, source: null },
    };
    render(<BillSummary bill={{ ...failing.bill, power_w: 2050, explain }} packaging={null} />);
    await user.click(within(screen.getByTestId('bill-power')).getByRole('button'));
    expect(screen.getByRole('dialog')).toHaveTextContent('power = 800 + 4 x 100 + 50 x 17 W = 2,050 W');
  });
});

describe('BillSummary', () => {
  it('lists drives, spares, shelves, rack units, power and cost, each opening its math', async () => {
    const user = userEvent.setup();
    const config = sized.configuration;
    render(<BillSummary bill={sized.result.bill} packaging={config.packaging} sizingText={sized.explanation} />);
    expect(screen.getByTestId('bill-drives')).toHaveTextContent('144 drives');
    expect(screen.getByTestId('bill-spares')).toHaveTextContent(`${sized.result.bill.spares} spares`);
    expect(screen.getByTestId('bill-cost')).toHaveTextContent('538,000 USD');

    await user.click(within(screen.getByTestId('bill-shelves')).getByRole('button'));
    const dialog = screen.getByRole('dialog', { name: /Shelves = 11 shelves/ });
    // shelves = ceil(max(0, 144 + 6 - 0) / 14) = ceil(10.7) = 11
    expect(dialog).toHaveTextContent('shelves = ceil(max(0, 150 - 0) / 14) = 11');
  });
});

describe('UtilizationPanel', () => {
  it('draws a bar per component against its headroom target, per window', () => {
    render(<UtilizationPanel result={sized.result} />);
    const business = screen.getByRole('group', { name: 'Utilization in business hours' });
    expect(within(business).getByText('Controllers')).toBeInTheDocument();
    expect(within(business).getByText('After a controller failover')).toBeInTheDocument();
    expect(within(business).getByText('Front-end ports')).toBeInTheDocument();
    expect(within(business).getByRole('button', { name: /^57\.4 %, show how Drives busy \(business hours\)/ })).toBeInTheDocument();
    expect(within(business).getAllByText(/within target of/)).toHaveLength(4);
  });

  it('takes each limit from the window checks (50% for an HA pair, 70% for drives)', () => {
    const rows = windowRows(sized.result.windows[0]!);
    expect(rows.map((r) => [r.key, r.limit])).toEqual([
      ['controllers', 50],
      ['failover', 100],
      ['ports', 70],
      ['drives:pool', 70],
    ]);
  });

  it('draws the parity drives, back-end bus and cluster network beside the data drives', () => {
    const w = sized.result.windows[0]!;
    const pool = w.pools[0]!;
    const pct = (value: number) => ({ ...pool.drive_utilization_pct, value });
    const window = {
      ...w,
      pools: [{ ...pool, parity_utilization_pct: pct(66.9) }],
      backend_bus_utilization_pct: pct(12.5),
      cluster_network_utilization_pct: pct(31),
      checks: [
        ...w.checks,
        { name: `parity drives:${pool.pool}`, value: 66.9, limit: 70, unit: '%', margin: 3.1, passed: true, text: 'parity drives busy 66.9 %' },
        { name: 'back-end bus', value: 12.5, limit: 60, unit: '%', margin: 47.5, passed: true, text: 'back-end bus busy 12.5 %' },
      ],
    };
    expect(windowRows(window).map((r) => [r.key, r.figure.value, r.limit])).toEqual([
      ['controllers', w.controller_utilization_pct.value, 50],
      ['failover', w.failover_utilization_pct!.value, 100],
      ['ports', w.port_utilization_pct.value, 70],
      ['bus', 12.5, 60],
      ['network', 31, 70],
      [`drives:${pool.pool}`, pool.drive_utilization_pct.value, 70],
      [`parity drives:${pool.pool}`, 66.9, 70],
    ]);
  });

  it('marks components past their target and saturated ones', () => {
    render(<UtilizationPanel result={failing} />);
    const business = screen.getByRole('group', { name: 'Utilization in business hours' });
    expect(within(business).getByText(/saturated of 70%/)).toBeInTheDocument();
  });
});

describe('CapacityWaterfall', () => {
  it('steps from raw to effective, each step opening its formula, with the need marked', async () => {
    const user = userEvent.setup();
    render(<CapacityWaterfall capacity={sized.result.capacity} />);
    const labels = screen.getAllByRole('listitem').map((li) => li.querySelector('.waterfall-label')?.textContent);
    expect(labels).toEqual(['Raw (with the spares)', 'Right-sized (spares set aside)', 'After RAID', 'Usable (after reserves)', 'Effective (after data reduction)']);
    await user.click(screen.getByRole('button', { name: /^67\.5 TB, show how Raw/ }));
    expect(screen.getByRole('dialog')).toHaveTextContent('raw = (144 + 6) x 450 GB = 67.5 TB');
    expect(screen.getByText(/Needed at the horizon/)).toHaveTextContent('73.2% of usable');
  });
});
