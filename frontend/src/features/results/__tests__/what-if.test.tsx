import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { CurvesRequest, EvaluateRequest } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { WhatIfPanel, WHAT_IF_DEBOUNCE_MS } from '../components/what-if-panel';
import { applyToConfiguration, applyToWorkloads, isNeutral, neutralWhatIf } from '../lib/what-if';

const sized = fixtures.sizeOltp;
const workloads = [fixtures.templates.templates[0]!.workload];

describe('what-if adjustments', () => {
  const base = neutralWhatIf(sized.configuration);

  it('start neutral: the baseline drive count and flash cache, nothing scaled', () => {
    expect(base).toEqual({ growthPctPerYear: null, flashCacheGb: 0, driveCount: 144, writeShiftPp: 0, workingSetScale: 1, iopsScale: 1 });
    expect(isNeutral(base, base)).toBe(true);
    expect(applyToWorkloads(workloads, base)).toEqual(workloads);
  });

  it('scale IOPS and MB/s, shift the write share and scale working sets', () => {
    const [w] = applyToWorkloads(workloads, { ...base, iopsScale: 1.5, writeShiftPp: 10, workingSetScale: 2 });
    const online = w!.phases[0]!;
    expect(online.iops).toBe(30000); // 20,000 x 1.5
    expect(online.read_pct).toBe(70); // 80% reads - 10 pp
    expect(w!.phases[2]!.mb_per_s).toBe(450); // 300 MB/s x 1.5
    expect(w!.working_set_pct).toBe(10); // 5% x 2
    expect(w!.phases[2]!.working_set_gb).toBe(40000);
  });

  it('set the drive count and flash cache of a full configuration or a catalog reference', () => {
    const full = applyToConfiguration(sized.configuration, { ...base, driveCount: 160, flashCacheGb: 256 });
    expect('pools' in full && full.pools[0]!.drive_count).toBe(160);
    expect('cache' in full && full.cache!.flash_cache_gb).toBe(256);
    const ref = applyToConfiguration({ array_id: 'a', drive_count: 48, flash_cache_gb: 0 }, { ...base, driveCount: 64, flashCacheGb: 32 });
    expect(ref).toMatchObject({ array_id: 'a', drive_count: 64, flash_cache_gb: 32 });
  });
});

describe('WhatIfPanel', () => {
  let requests: EvaluateRequest[];
  let curveRequests: CurvesRequest[];
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    requests = [];
    curveRequests = [];
    server.use(
      http.post('*/api/v1/evaluate', async ({ request }) => {
        requests.push((await request.json()) as EvaluateRequest);
        return HttpResponse.json(fixtures.evaluate48);
      }),
      http.post('*/api/v1/curves', async ({ request }) => {
        curveRequests.push((await request.json()) as CurvesRequest);
        return HttpResponse.json(fixtures.curvesOltp);
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function renderPanel() {
    return renderWithProviders(
      <WhatIfPanel
        workloads={workloads}
        configuration={sized.configuration}
        baseline={sized.result}
        groupWidth={16}
        maxDrives={840}
        flashSizes={[256, 512]}
      />,
    );
  }

  const whatIfCurves = () => curveRequests.filter((r) => r.curves);

  it('asks for the evaluation and the latency curve at once on a single step, and only that curve', async () => {
    renderPanel();
    fireEvent.change(screen.getByRole('slider', { name: 'IOPS [x as entered]' }), { target: { value: '1.25' } });
    await screen.findByText('What-if against the baseline');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.workloads[0]!.phases[0]!.iops).toBe(25000);
    await waitFor(() => expect(whatIfCurves()).toHaveLength(1));
    expect(whatIfCurves()[0]).toMatchObject({ curves: ['latency_vs_load'], window: 'business hours' });
    expect(whatIfCurves()[0]!.workloads).toEqual(requests[0]!.workloads);
  });

  it('asks at the start of a drag, then once with every change when it pauses', async () => {
    renderPanel();
    const iops = screen.getByRole('slider', { name: 'IOPS [x as entered]' });
    const drives = screen.getByRole('slider', { name: 'Drives [whole groups of 16]' });
    fireEvent.change(iops, { target: { value: '1.25' } }); // after a quiet spell: at once
    fireEvent.change(iops, { target: { value: '1.5' } }); // then a drag: waits for it to pause
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS - 20));
    fireEvent.change(drives, { target: { value: '112' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS - 1));
    expect(screen.getByRole('region', { name: 'What if…' })).toHaveAttribute('data-whatif-state', 'loading');

    act(() => vi.advanceTimersByTime(1));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[0]!.workloads[0]!.phases[0]!.iops).toBe(25000);
    expect(requests[1]!.workloads[0]!.phases[0]!.iops).toBe(30000);
    expect('pools' in requests[1]!.configuration && requests[1]!.configuration.pools[0]!.drive_count).toBe(112);
    await waitFor(() => expect(screen.getByRole('region', { name: 'What if…' })).toHaveAttribute('data-whatif-state', 'ready'));
  });

  it('cancels the requests of a what-if the sliders have left before it was answered', async () => {
    const signals: AbortSignal[] = [];
    server.use(
      http.post('*/api/v1/evaluate', async ({ request }) => {
        signals.push(request.signal);
        requests.push((await request.json()) as EvaluateRequest);
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        return HttpResponse.json(fixtures.evaluate48);
      }),
    );
    renderPanel();
    const iops = screen.getByRole('slider', { name: 'IOPS [x as entered]' });
    fireEvent.change(iops, { target: { value: '1.25' } });
    await waitFor(() => expect(signals).toHaveLength(1));
    fireEvent.change(iops, { target: { value: '1.5' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS));
    await waitFor(() => expect(signals).toHaveLength(2));
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
  });

  it('draws the bars from the evaluation without waiting for the curve, then the curve for the same what-if', async () => {
    let answerCurve: () => void = () => undefined;
    server.use(
      http.post('*/api/v1/curves', async ({ request }) => {
        const body = (await request.json()) as CurvesRequest;
        if (body.curves) await new Promise<void>((resolve) => (answerCurve = resolve));
        return HttpResponse.json(fixtures.curvesOltp);
      }),
    );
    renderPanel();
    fireEvent.change(screen.getByRole('slider', { name: 'Drives [whole groups of 16]' }), { target: { value: '48' } });
    const panel = screen.getByRole('region', { name: 'What if…' });
    const key = panel.getAttribute('data-whatif-for');
    await waitFor(() => expect(screen.getByTestId('what-if-bars')).toHaveAttribute('data-drawn-for', key));
    expect(screen.getByRole('row', { name: /Drives incl\. spares/ })).toHaveTextContent('−100');
    // the baseline curve stays on screen, dimmed, until the what-if curve arrives
    expect(screen.getByTestId('what-if-latency')).toHaveAttribute('data-drawn-for', '');
    expect(screen.getByTestId('what-if-latency')).toHaveClass('is-updating');
    expect(screen.getByText('What-if latency vs IOPS (business hours): the baseline')).toBeInTheDocument();
    expect(panel).toHaveAttribute('data-whatif-state', 'loading');

    answerCurve();
    await waitFor(() => expect(screen.getByTestId('what-if-latency')).toHaveAttribute('data-drawn-for', key));
    expect(screen.getByText('What-if latency vs IOPS (business hours)')).toBeInTheDocument();
    expect(panel).toHaveAttribute('data-whatif-state', 'ready');
  });

  it('shows the change of each figure against the baseline', async () => {
    renderPanel();
    fireEvent.change(screen.getByRole('slider', { name: 'Drives [whole groups of 16]' }), { target: { value: '48' } });
    const verdict = await screen.findByText(/^Fails:/);
    expect(verdict).toHaveTextContent('(changed)');
    const row = screen.getByRole('row', { name: /Drives incl\. spares/ });
    // 150 -> 48 drives + 2 spares = 50
    expect(row).toHaveTextContent('150');
    expect(row).toHaveTextContent('50');
    expect(row).toHaveTextContent('−100');
    expect(screen.getByRole('slider', { name: 'Drives [whole groups of 16]' })).toHaveAttribute('aria-valuetext', '48');
    expect(screen.getByText('(baseline 144)')).toBeInTheDocument();
  });

  it('draws the baseline before any slider moves, so that a step updates the drawings', async () => {
    renderPanel();
    const panel = screen.getByRole('region', { name: 'What if…' });
    expect(panel).toHaveAttribute('data-whatif-state', 'baseline');
    expect(screen.getByTestId('what-if-bars')).toHaveAttribute('data-drawn-for', panel.getAttribute('data-whatif-for'));
    expect(await screen.findByText('What-if latency vs IOPS (business hours): the baseline')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('goes back to the baseline without asking the API', async () => {
    renderPanel();
    fireEvent.change(screen.getByRole('slider', { name: 'Write share [change in percentage points]' }), { target: { value: '10' } });
    await screen.findByText('What-if against the baseline');
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS));
    fireEvent.click(screen.getByRole('button', { name: 'Back to the baseline' }));
    expect(await screen.findByText('Move a slider to see what changes against the baseline.')).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(whatIfCurves()).toHaveLength(1);
  });
});
