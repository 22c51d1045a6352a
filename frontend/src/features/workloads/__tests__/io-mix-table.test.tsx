import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import type { IoSize } from '@/lib/api-types';

import { IoMixTable } from '../components/io-mix-table';
import { meanSizeKib, mixSumsTo100, mixTotal, withIoRows } from '../lib/workload-model';
import { blankPhase } from '../lib/workload-model';

function Harness({ initial }: { initial: IoSize[] }) {
  const [rows, setRows] = useState(initial);
  return <IoMixTable label="phase A" rows={rows} onChange={setRows} />;
}

describe('I/O-size mix helpers', () => {
  it('sums the shares and weighs the mean size by them', () => {
    // 4 KiB x 60% + 64 KiB x 40% = 2.4 + 25.6 = 28 KiB
    const rows = [
      { size_kib: 4, pct: 60 },
      { size_kib: 64, pct: 40 },
    ];
    expect(mixTotal(rows)).toBe(100);
    expect(mixSumsTo100(rows)).toBe(true);
    expect(meanSizeKib(rows)).toBeCloseTo(28, 10);
    expect(mixSumsTo100([{ size_kib: 8, pct: 99.995 }])).toBe(true);
    expect(mixSumsTo100([{ size_kib: 8, pct: 90 }])).toBe(false);
  });

  it('keeps a single 100% row as the single-size shorthand and anything else as a mix', () => {
    const phase = blankPhase('w');
    expect(withIoRows(phase, [{ size_kib: 16, pct: 100 }])).toMatchObject({ io_size_kib: 16, io_sizes: [] });
    expect(withIoRows(phase, [{ size_kib: 16, pct: 50 }])).toMatchObject({ io_size_kib: null, io_sizes: [{ size_kib: 16, pct: 50 }] });
  });
});

describe('IoMixTable', () => {
  it('shows the total and the mean size, green at 100%', () => {
    render(
      <Harness
        initial={[
          { size_kib: 4, pct: 60 },
          { size_kib: 64, pct: 40 },
        ]}
      />,
    );
    expect(screen.getByTestId('io-mix-total')).toHaveTextContent('100%');
    expect(screen.getByText('mean 28 KiB')).toBeInTheDocument();
    expect(screen.queryByText(/must add up to 100%/)).not.toBeInTheDocument();
  });

  it('recomputes the total as a share is edited and says when it is not 100', async () => {
    const user = userEvent.setup();
    render(
      <Harness
        initial={[
          { size_kib: 4, pct: 60 },
          { size_kib: 64, pct: 40 },
        ]}
      />,
    );
    const share = screen.getByRole('spinbutton', { name: 'Share of row 2 [%]' });
    await user.clear(share);
    await user.type(share, '30');
    expect(screen.getByTestId('io-mix-total')).toHaveTextContent('90%');
    expect(screen.getByText('The shares add up to 90%: they must add up to 100%.')).toBeInTheDocument();
  });

  it('adds a row holding the missing share, and removes rows', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ size_kib: 8, pct: 70 }]} />);
    await user.click(screen.getByRole('button', { name: 'Add a size' }));
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(4); // head, 2 rows, foot
    expect(screen.getByRole('spinbutton', { name: 'Share of row 2 [%]' })).toHaveValue(30);
    expect(screen.getByRole('spinbutton', { name: 'Size of row 2 [KiB]' })).toHaveValue(4);
    expect(screen.getByTestId('io-mix-total')).toHaveTextContent('100%');
    await user.click(screen.getByRole('button', { name: 'Remove 4 KiB row' }));
    expect(screen.getByTestId('io-mix-total')).toHaveTextContent('70%');
  });

  it('marks the row the API complained about', () => {
    render(
      <IoMixTable
        label="phase A"
        rows={[{ size_kib: 0, pct: 100 }]}
        onChange={() => {}}
        rowErrors={(i, f) => (i === 0 && f === 'size_kib' ? ['Input should be greater than 0'] : [])}
      />,
    );
    const size = screen.getByRole('spinbutton', { name: 'Size of row 1 [KiB]' });
    expect(size).toHaveAttribute('aria-invalid', 'true');
    expect(size).toHaveAccessibleDescription('Input should be greater than 0');
  });
});
