import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { CurvesRequest, EvaluateRequest } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { WhatIfPanel, WHAT_IF_DEBOUNCE_MS } from '../components/what-if-panel';
import { isNeutral, neutralWhatIf, toAdjustments } from '../lib/what-if';

const sized = fixtures.sizeOltp;
const workloads = [fixtures.templates.templates[0]!.workload];

describe('what-if slider positions', () => {
  const base = neutralWhatIf(sized.configuration);

  it('start neutral: the baseline drive count and flash cache, nothing scaled', () => {
    expect(base).toEqual({ growthPctPerYear: null, flashCacheGb: 0, driveCount: 144, writeShiftPp: 0, workingSetScale: 1, iopsScale: 1 });
    expect(isNeutral(base, base)).toBe(true);
  });

  it('become the engine dials, the baseline drive count and flash cache sent as null (as configured)', () => {
    expect(toAdjustments(base, base)).toEqual({
      growth_pct_per_year: null,
      flash_cache_gb: null,
      drive_count: null,
      write_shift_pp: 0,
      working_set_scale: 1,
      iops_scale: 1,
    });
    expect(toAdjustments({ ...base, iopsScale: 1.5, writeShiftPp: 10, driveCount: 160, flashCacheGb: 256 }, base)).toMatchObject({
      iops_scale: 1.5,
      write_shift_pp: 10,
      drive_count: 160,
      flash_cache_gb: 256,
    });
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
    // the baseline as it is, and the dial: the engine applies it
    expect(requests[0]!.workloads).toEqual(workloads);
    expect(requests[0]!.adjust).toMatchObject({ iops_scale: 1.25, drive_count: null });
    await waitFor(() => expect(whatIfCurves()).toHaveLength(1));
    expect(whatIfCurves()[0]).toMatchObject({ curves: ['latency_vs_load'], window: 'business hours' });
    expect(whatIfCurves()[0]!.adjust).toEqual(requests[0]!.adjust);
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
    expect(requests[0]!.adjust).toMatchObject({ iops_scale: 1.25 });
    expect(requests[1]!.adjust).toMatchObject({ iops_scale: 1.5, drive_count: 112 });
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
