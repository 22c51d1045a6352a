import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { fixtures } from '@/testing/mocks/fixtures';

import { CompareTable } from '../components/compare-table';
import { bestOf, comparisonRows, type Row } from '../lib/rows';
import { shortNames } from '../lib/short-names';

const row = (better: Row['better'], values: (number | boolean | null)[]): Row => ({
  key: 'k',
  label: 'k',
  unit: '',
  better,
  cells: values.map((value) => ({ value })),
});

describe('bestOf', () => {
  it('picks the lowest or highest known value, ties share it', () => {
    expect(bestOf(row('lower', [150, 199, 150]))).toEqual([0, 2]);
    expect(bestOf(row('higher', [47.2, 36]))).toEqual([0]);
  });

  it('never lets an unknown (saturated) value win, and needs two known values', () => {
    expect(bestOf(row('lower', [null, 7.3]))).toEqual([]);
    expect(bestOf(row('lower', [null, 7.3, 3.6]))).toEqual([2]);
  });

  it('marks best only where the difference matters (the engine rule: 0.1 ms and 5%, 1 point of busy time)', () => {
    const rule = [
      { unit: 'ms', absolute: 0.1, relative: 0.05 },
      { unit: '%', absolute: 1, relative: 0 },
    ];
    const ms = (values: number[]): Row => ({ ...row('lower', values), unit: 'ms' });
    const pct = (values: number[]): Row => ({ ...row('lower', values), unit: '%' });
    expect(bestOf(ms([2.0, 2.0007]), rule)).toEqual([]); // 0.0007 ms matters to nobody
    expect(bestOf(ms([10.0, 10.6]), rule)).toEqual([0]);
    expect(bestOf(pct([21.7, 22.5, 30]), rule)).toEqual([0, 1]); // within a point of the best: both
  });

  it('highlights nothing when every value is the same', () => {
    expect(bestOf(row('lower', [33.4, 33.4]))).toEqual([]);
    expect(bestOf(row('pass', [true, true]))).toEqual([]);
    expect(bestOf(row('pass', [true, false]))).toEqual([0]);
    expect(bestOf(row(null, [1, 2]))).toEqual([]);
  });
});

describe('shortNames', () => {
  it('keeps the parts that tell configurations apart', () => {
    expect(shortNames(['FAS3170, 450 GB, raid-dp 16, moderate layout (raid-dp)', 'FAS3170, 450 GB, raid10 8 (raid10)'])).toEqual([
      'raid-dp 16, moderate layout (raid-dp)',
      'raid10 8 (raid10)',
    ]);
    expect(shortNames(['A, b', 'A, b'])).toEqual(['A, b #1', 'A, b #2']);
  });
});

describe('CompareTable', () => {
  it('puts RAID-DP and RAID 10 side by side and highlights the best value of each row', () => {
    render(<CompareTable result={fixtures.compareOltp} />);
    const table = screen.getByRole('table');
    const heads = within(table).getAllByRole('columnheader').map((th) => th.textContent);
    expect(heads[1]).toMatch(/^raid-dp 16/);
    expect(heads[2]).toMatch(/^raid10 8/);

    const [dp, r10] = fixtures.compareOltp.comparison.columns.map((c) => c.headline);
    const drives = table.querySelector('tr[data-row="drives_total"]')!;
    const cells = within(drives as HTMLElement).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent(String(dp!.drives_total));
    expect(cells[1]).toHaveTextContent(String(r10!.drives_total));
    const fewer = dp!.drives_total < r10!.drives_total ? 0 : 1;
    expect(cells[fewer]).toHaveAttribute('data-best', 'true');
    expect(cells[fewer]).toHaveTextContent('(best)');
    expect(cells[1 - fewer]).not.toHaveAttribute('data-best');

    // read latency in business hours: lower wins
    const latency = table.querySelector('tr[data-row="business hours:read"]') as HTMLElement;
    const lat = within(latency).getAllByRole('cell');
    const faster = (dp!.windows[0]!.read_latency_ms ?? Infinity) < (r10!.windows[0]!.read_latency_ms ?? Infinity) ? 0 : 1;
    expect(lat[faster]).toHaveAttribute('data-best', 'true');

    // both meet every target: no winner
    const passed = within(table.querySelector('tr[data-row="passed"]') as HTMLElement).getAllByRole('cell');
    expect(passed.filter((c) => c.hasAttribute('data-best'))).toHaveLength(0);

    // the bottleneck in the engine's words, never its internal check name ("drives:pool")
    const bottleneck = within(table.querySelector('tr[data-row="bottleneck"]') as HTMLElement).getAllByRole('cell');
    expect(bottleneck[0]).toHaveTextContent('the drives (month-end batch)');
    expect(bottleneck[1]).toHaveTextContent('the controllers (month-end batch)');
    expect(table).not.toHaveTextContent('drives:pool');
  });

  it("says a column's every other difference once, above the table; its head points there", () => {
    const note = 'The FAS3170 (HA pair) does not offer RAID 10: this column puts the same drives in the Generic array. Every other difference: CPU cores per controller 4 -> 16; flash cache 1,024 -> 512 GB.';
    const items = fixtures.compareOltp.items.map((item, i) => (i === 1 ? { ...item, note } : item));
    render(<CompareTable result={{ ...fixtures.compareOltp, items }} />);
    expect(screen.getByTestId('compare-note')).toHaveTextContent(note);
    const heads = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(heads[2]).toHaveTextContent('see the note above the table');
    expect(heads[2]).not.toHaveTextContent('Every other difference');
  });

  it("heads its columns with what tells the engine's words for each configuration apart", () => {
    const words = ['Ceph (3 nodes), 3.84 TB SSD, erasure 4+2', 'Ceph (3 nodes), 3.84 TB SSD, 3 copies'];
    const items = fixtures.compareOltp.items.map((item, i) => ({ ...item, configuration_words: words[i]! }));
    render(<CompareTable result={{ ...fixtures.compareOltp, items }} />);
    const heads = within(screen.getByRole('table')).getAllByRole('columnheader').map((th) => th.textContent);
    expect(heads[1]).toMatch(/^erasure 4\+2/);
    expect(heads[2]).toMatch(/^3 copies/);
  });

  it('shows the differences against the first configuration', () => {
    render(<CompareTable result={fixtures.compareOltp} />);
    const d = fixtures.compareOltp.comparison.columns[1]!.delta.drives_total;
    const drives = screen.getByRole('table').querySelector('tr[data-row="drives_total"]') as HTMLElement;
    expect(within(drives).getAllByRole('cell')[1]).toHaveTextContent(`(${d > 0 ? '+' : '−'}${Math.abs(d)})`);
  });
});

describe('comparisonRows percentiles and cold cache', () => {
  it('puts p95, p99 and the cold-cache read latency of every window side by side', () => {
    const base = fixtures.compareOltp;
    const name = base.items[0]!.result.windows[0]!.window;
    const items = base.items.map((item, i) => ({
      ...item,
      result: {
        ...item.result,
        windows: item.result.windows.map((w) =>
          w.window === name
            ? {
                ...w,
                read_p95_latency_ms: 5 + i,
                read_p99_latency_ms: 9 + i,
                cold_cache: i === 0 ? null : { ...coldCase, read_latency_ms: 12 },
              }
            : w,
        ),
      },
    }));
    const rows = comparisonRows({ ...base, items });
    const p95 = rows.find((r) => r.key === `${name}:read_p95`)!;
    const p99 = rows.find((r) => r.key === `${name}:read_p99`)!;
    const cold = rows.find((r) => r.key === `${name}:read_cold`)!;
    expect(p95.cells.map((c) => c.value)).toEqual(items.map((_, i) => 5 + i));
    expect(p99.cells.map((c) => c.value)).toEqual(items.map((_, i) => 9 + i));
    // the first has no cold case (same as warm): its warm mean stands; the others read 12 ms cold
    expect(cold.cells[0]!.value).toBe(items[0]!.result.windows[0]!.read_latency_ms);
    expect(cold.cells.slice(1).every((c) => c.value === 12)).toBe(true);
    expect(bestOf(p99)).toEqual([0]);
  });
});

const coldCase = {
  phases: [],
  drive_utilization_pct: {},
  controller_utilization_pct: 10,
  read_latency_ms: 12,
  bottleneck: 'drives:pool',
  passed: true,
  verdict: 'ok',
};

describe('comparisonRows: every resource that binds', () => {
  it('shows the parity drives, back-end bus, cluster network and flash wear where a column has them', () => {
    const base = fixtures.compareOltp;
    const window = base.comparison.columns[0]!.headline.windows[0]!.window;
    // the engine's headline of a RAID-DP column whose dedicated parity drives are 66.9% busy
    const columns = base.comparison.columns.map((c, i) => ({
      ...c,
      headline: {
        ...c.headline,
        windows: c.headline.windows.map((w) =>
          w.window === window ? { ...w, parity_busy_pct: i === 0 ? 66.9 : null, years_to_wear_out: i === 0 ? null : 7.5 } : w,
        ),
      },
    }));
    const rows = comparisonRows({ ...base, comparison: { ...base.comparison, columns } });
    const parity = rows.find((r) => r.key === `${window}:parity`);
    expect(parity?.cells.map((c) => c.value)).toEqual([66.9, null]);
    // a column without parity drives says so, never "saturated"
    expect(parity?.cells[1]?.missing).toBe('none (no parity drives)');
    expect(parity?.label).toBe('Parity drives busy (busiest pool)');
    expect(rows.find((r) => r.key === `${window}:wear`)?.cells.map((c) => c.value)).toEqual([null, 7.5]);
    // no column has a back-end bus or a cluster network: no empty row
    expect(rows.some((r) => r.key === `${window}:bus` || r.key === `${window}:network`)).toBe(false);
  });
});

describe('failures tolerated', () => {
  it("puts the engine's drive failures a group survives beside each configuration, more being better", () => {
    const recorded = fixtures.compareOltp;
    const columns = recorded.comparison.columns.map((c, i) => ({ ...c, headline: { ...c.headline, failures_tolerated: i === 0 ? 2 : 1 } }));
    const rows = comparisonRows({ ...recorded, comparison: { ...recorded.comparison, columns } });
    const tolerated = rows.find((r) => r.key === 'failures_tolerated')!;
    expect(tolerated.label).toBe('Drive failures tolerated (per group)');
    expect(tolerated.cells.map((c) => c.value)).toEqual(columns.map((_, i) => (i === 0 ? 2 : 1)));
    expect(bestOf(tolerated, recorded.comparison.significance)).toEqual([0]);
  });
});
