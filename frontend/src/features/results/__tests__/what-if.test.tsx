import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { EvaluateRequest } from '@/lib/api-types';
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
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    requests = [];
    server.use(
      http.post('*/api/v1/evaluate', async ({ request }) => {
        requests.push((await request.json()) as EvaluateRequest);
        return HttpResponse.json(fixtures.evaluate48);
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

  it('waits for the sliders to settle, then evaluates once with every change', async () => {
    renderPanel();
    const iops = screen.getByRole('slider', { name: 'IOPS [x as entered]' });
    const drives = screen.getByRole('slider', { name: 'Drives [whole groups of 16]' });
    fireEvent.change(iops, { target: { value: '1.25' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS - 50));
    fireEvent.change(iops, { target: { value: '1.5' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS - 50));
    fireEvent.change(drives, { target: { value: '112' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS - 1));
    expect(requests).toHaveLength(0);

    act(() => vi.advanceTimersByTime(1));
    await screen.findByText('What-if against the baseline');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.workloads[0]!.phases[0]!.iops).toBe(30000);
    expect('pools' in requests[0]!.configuration && requests[0]!.configuration.pools[0]!.drive_count).toBe(112);
  });

  it('shows the change of each figure against the baseline', async () => {
    renderPanel();
    fireEvent.change(screen.getByRole('slider', { name: 'Drives [whole groups of 16]' }), { target: { value: '48' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS));
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

  it('goes back to the baseline without asking the API', async () => {
    renderPanel();
    fireEvent.change(screen.getByRole('slider', { name: 'Write share [change in percentage points]' }), { target: { value: '10' } });
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS));
    await screen.findByText('What-if against the baseline');
    fireEvent.click(screen.getByRole('button', { name: 'Back to the baseline' }));
    act(() => vi.advanceTimersByTime(WHAT_IF_DEBOUNCE_MS));
    expect(await screen.findByText('Move a slider to see what changes against the baseline.')).toBeInTheDocument();
    expect(requests).toHaveLength(1);
  });
});
