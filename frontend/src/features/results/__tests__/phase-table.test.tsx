import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Explained, WindowResult } from '@/lib/api-types';
import { fixtures } from '@/testing/mocks/fixtures';

import { PhaseTable } from '../components/phase-table';

const ms = (value: number): Explained => ({ value, unit: 'ms', formula: 'p', text: `${value} ms`, inputs: {}, source: null });

/** A window of the sized OLTP result with percentiles and a cold-cache case added. */
function withTails(): WindowResult {
  const w = fixtures.sizeOltp.result.windows[0]!;
  const phase = { ...w.phases[0]!, read_p95_latency_ms: ms(9.5), read_p99_latency_ms: ms(17.25) };
  return {
    ...w,
    phases: [phase, ...w.phases.slice(1)],
    read_p99_latency_ms: 17.25,
    cold_cache: {
      phases: [{ workload: phase.workload, phase: phase.phase, hit_pct: 12, warm_hit_pct: 40, read_latency_ms: 8.5, read_p99_latency_ms: 31, metadata_reads_per_miss: 0 }],
      drive_utilization_pct: { pool: 96 },
      controller_utilization_pct: 20,
      read_latency_ms: 8.5,
      read_p95_latency_ms: 18,
      read_p99_latency_ms: 31,
      bottleneck: 'drives:pool',
      passed: false,
      verdict: 'business hours with cold caches: fails: drives of pool busy 96 %.',
    },
  };
}

describe('PhaseTable', () => {
  it('shows each phase p95 and p99 read latency beside the mean', () => {
    render(<PhaseTable window={withTails()} />);
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'p95 / p99' })).toBeInTheDocument();
    expect(within(table).getByText('9.5')).toBeInTheDocument();
    expect(within(table).getByText('17.3')).toBeInTheDocument();
  });

  it('shows the cold-cache case where it differs from the warm one', () => {
    render(<PhaseTable window={withTails()} />);
    const note = screen.getByLabelText(/Cold cache in/);
    expect(note).toHaveTextContent('read latency 8.5 ms');
    expect(note).toHaveTextContent('p99 31 ms (warm 17.3 ms)');
    expect(note).toHaveTextContent('12% (warm 40%)');
    expect(note).toHaveTextContent('fails: drives of pool busy 96 %');
  });

  it('says nothing of a cold cache when the window has none', () => {
    render(<PhaseTable window={fixtures.sizeOltp.result.windows[0]!} />);
    expect(screen.queryByLabelText(/Cold cache in/)).toBeNull();
  });
});
