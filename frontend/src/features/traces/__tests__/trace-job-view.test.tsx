import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { formatNumber } from '@/components';
import type { TraceJob } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { TraceJobView } from '../components/trace-job-view';
import { traceOwnerTokens } from '../lib/owner-tokens';

const done = fixtures.traceJobDone;
const id = done.id;
const running: TraceJob = { ...done, status: 'running', percent: 42, records: 1680, records_per_s: 12500, result: null };

function renderJob(props: Partial<Parameters<typeof TraceJobView>[0]> = {}) {
  const onUseWorkload = vi.fn();
  const onDeleted = vi.fn();
  const view = renderWithProviders(
    <TraceJobView jobId={id} onUseWorkload={onUseWorkload} onDeleted={onDeleted} workloadCount={0} {...props} />,
  );
  return { ...view, onUseWorkload, onDeleted };
}

describe('TraceJobView', () => {
  it('polls a running job, showing percent and records/s, until its analysis is in', async () => {
    let calls = 0;
    server.use(
      http.get(`*/api/v1/traces/${id}`, () => {
        calls += 1;
        return HttpResponse.json(calls < 2 ? running : done);
      }),
    );
    renderJob();
    const bar = await screen.findByRole('progressbar', { name: /Analysing synthetic.csv: 42% · 1,680 records · 12,500 records\/s/ });
    expect(bar).toHaveAttribute('value', '42');
    expect(screen.getByRole('button', { name: 'Cancel the analysis' })).toBeEnabled();
    // the next poll brings the analysis
    expect(await screen.findByRole('heading', { name: 'Profile' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(calls).toBe(2);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('cancels a running job (DELETE with its owner token) and says so once the server has stopped it', async () => {
    let cancelled = false;
    traceOwnerTokens.remember(id, 'token-from-the-upload');
    server.use(
      http.get(`*/api/v1/traces/${id}`, () =>
        HttpResponse.json(cancelled ? { ...running, status: 'cancelled', cancel_requested: true } : running),
      ),
      http.delete(`*/api/v1/traces/${id}`, ({ request }) => {
        if (request.headers.get('X-Owner-Token') !== 'token-from-the-upload') return HttpResponse.json({ detail: 'no' }, { status: 403 });
        cancelled = true;
        return HttpResponse.json({ ...running, cancel_requested: true }, { status: 202 });
      }),
    );
    const { user } = renderJob();
    await user.click(await screen.findByRole('button', { name: 'Cancel the analysis' }));
    expect(await screen.findByRole('button', { name: 'Cancelling…' })).toBeDisabled();
    expect(await screen.findByText(/The analysis was cancelled after 1,680 records/, {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('shows the profile, the miss-ratio curves, the tier table and the pent-up demand of a finished job', async () => {
    renderJob();
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    const p = done.result!.profile;
    expect(screen.getByTestId('trace-read-pct')).toHaveTextContent(`${formatNumber(p.read_pct)}%`);
    expect(screen.getByTestId('trace-sequential')).toHaveTextContent(`${formatNumber(p.sequential_pct)}%`);
    expect(screen.getByText('IOPS and MB/s per 10 s interval', { selector: 'figcaption' })).toBeInTheDocument();
    expect(screen.getByText('Miss ratio vs cache size', { selector: 'figcaption' })).toBeInTheDocument();
    // LRU with its byte curve, and the other policies
    for (const name of ['LRU: requests', 'LRU: bytes', 'ARC: requests', 'S3-FIFO: requests']) {
      expect(screen.getAllByText(name).length).toBeGreaterThan(0);
    }
    const tiers = screen.getByTestId('tier-table');
    expect(within(tiers).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['50% of I/O', '80% of I/O', '90% of I/O', '95% of I/O']),
    );
    expect(within(tiers).getByRole('rowheader', { name: '4 KiB' })).toBeInTheDocument();
    expect(screen.getByTestId('pent-up')).toHaveTextContent('Pent-up demand');
    expect(within(screen.getByTestId('size-histogram')).getByRole('rowheader', { name: '64 KiB' })).toBeInTheDocument();
  });

  it('hands the derived workload over: "Use as workload" replaces, "Add" keeps the others', async () => {
    const { user, onUseWorkload } = renderJob({ workloadCount: 2 });
    await user.click(await screen.findByRole('button', { name: 'Use as workload' }));
    expect(onUseWorkload).toHaveBeenLastCalledWith(done.result!.derived.workload, 'replace');
    await user.click(screen.getByRole('button', { name: 'Add to the 2 workloads on Size' }));
    expect(onUseWorkload).toHaveBeenLastCalledWith(done.result!.derived.workload, 'add');
  });

  it('shows why a job failed, with its bad lines', async () => {
    server.use(
      http.get(`*/api/v1/traces/${id}`, () =>
        HttpResponse.json({
          ...done,
          status: 'failed',
          result: null,
          error: 'not a valid csv trace: 60 of 100 lines are malformed',
          bad_lines: [{ line: 7, text: 'garbage' }],
        }),
      ),
    );
    renderJob();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('not a valid csv trace: 60 of 100 lines are malformed');
    expect(within(alert).getByRole('cell', { name: 'garbage' })).toBeInTheDocument();
  });

  it('says when the job does not exist (deleted, or a wrong link)', async () => {
    renderWithProviders(<TraceJobView jobId="nope" onUseWorkload={vi.fn()} onDeleted={vi.fn()} workloadCount={0} />);
    expect(await screen.findByText(/There is no trace analysis/)).toBeInTheDocument();
  });

  it('deletes a finished job and its upload (204)', async () => {
    server.use(http.delete(`*/api/v1/traces/${id}`, () => new HttpResponse(null, { status: 204 })));
    const { user, onDeleted } = renderJob();
    await user.click(await screen.findByRole('button', { name: 'Delete this trace and its analysis' }));
    await vi.waitFor(() => expect(onDeleted).toHaveBeenCalled());
  });
});
