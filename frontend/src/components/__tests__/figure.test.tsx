import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { Figure, figureText, formatNumber, type FigureExplanation } from '../figure/figure';

// RAID 6 back-end IOPS: 8,000 x 0.7 + 8,000 x 0.3 x 6 = 5,600 + 14,400 = 20,000.
const backendIops: FigureExplanation = {
  value: 20000,
  unit: 'IOPS',
  formula: 'BE = R + W x P',
  text: 'BE = 8,000 x 0.7 + 8,000 x 0.3 x 6 = 20,000',
  inputs: { 'front-end IOPS': 8000, 'read ratio': 0.7, 'write penalty': 6, raid: 'RAID 6' },
  source: 'small-write cost of RAID 6',
};

function renderFigure() {
  return render(
    <p>
      The array needs <Figure label="Back-end IOPS" figure={backendIops} /> from its drives.
    </p>,
  );
}

describe('Figure', () => {
  it('shows the number with its unit and keeps the explanation closed', () => {
    renderFigure();
    const button = screen.getByRole('button', { name: /20,000 IOPS/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens its explanation (formula, numbers, inputs, source) on click', async () => {
    const user = userEvent.setup();
    renderFigure();
    await user.click(screen.getByRole('button', { name: /20,000 IOPS/ }));

    const dialog = screen.getByRole('dialog', { name: 'Back-end IOPS = 20,000 IOPS' });
    expect(dialog).toHaveTextContent('BE = R + W x P');
    expect(dialog).toHaveTextContent('BE = 8,000 x 0.7 + 8,000 x 0.3 x 6 = 20,000');
    expect(screen.getByRole('rowheader', { name: 'front-end IOPS' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '8,000' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'RAID 6' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Source: small-write cost of RAID 6');
    expect(screen.getByRole('button', { name: /20,000 IOPS/ })).toHaveAttribute('aria-expanded', 'true');
  });

  it('opens with Enter from the keyboard, closes with Escape and gives focus back', async () => {
    const user = userEvent.setup();
    renderFigure();
    await user.tab();
    const button = screen.getByRole('button', { name: /20,000 IOPS/ });
    expect(button).toHaveFocus();

    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: /Back-end IOPS/ });
    expect(dialog).toHaveFocus();
    expect(dialog).toHaveTextContent('BE = R + W x P');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('opens with Space and closes with its Close button', async () => {
    const user = userEvent.setup();
    renderFigure();
    await user.tab();
    await user.keyboard(' ');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a click outside', async () => {
    const user = userEvent.setup();
    renderFigure();
    await user.click(screen.getByRole('button', { name: /20,000 IOPS/ }));
    await user.click(screen.getByText(/from its drives/));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows an unbounded utilization as saturated and a missing price as unknown', () => {
    render(<Figure label="Headroom" figure={{ ...backendIops, value: null, unit: '%' }} />);
    expect(screen.getByRole('button', { name: /^saturated, show how Headroom/ })).toBeInTheDocument();
    render(<Figure label="List cost" figure={{ ...backendIops, value: null, unit: 'USD' }} />);
    expect(screen.getByRole('button', { name: /^unknown, show how List cost/ })).toHaveTextContent(/^unknown$/);
  });
});

describe('formatNumber', () => {
  it('follows the engine: separators from 1,000, one decimal from 100, else 3 significant digits', () => {
    expect(formatNumber(12345.6)).toBe('12,346');
    expect(formatNumber(123.456)).toBe('123.5');
    expect(formatNumber(120.0)).toBe('120');
    expect(formatNumber(1.23456)).toBe('1.23');
    expect(formatNumber(0.0012345)).toBe('0.00123');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(null)).toBe('∞');
  });
});

describe('figureText', () => {
  it('says unknown for a missing power or price, never "∞ W" (issue 17 item 6)', () => {
    expect(figureText({ value: null, unit: 'W' })).toBe('unknown');
    expect(figureText({ value: null, unit: 'USD' })).toBe('unknown');
  });

  it('says saturated for a missing utilization or latency, and the number with its unit otherwise', () => {
    expect(figureText({ value: null, unit: '%' })).toBe('saturated');
    expect(figureText({ value: null, unit: 'ms' })).toBe('saturated');
    expect(figureText({ value: 1234.4, unit: 'W' })).toBe('1,234 W');
  });
});

describe('Figure without a value', () => {
  const never: FigureExplanation = {
    value: null,
    unit: 's',
    formula: 'T = NVRAM / ((2 - x) W): a burst of twice the writes fills the write cache',
    text: 'T = 1,024 MiB / ((2 - 3.1) x 12 MiB/s): the drives destage even twice the writes',
    inputs: { destage_x: 3.1 },
    source: null,
  };

  it('reads "unknown" for a unit that does not saturate, or what the caller says a missing value means', () => {
    const { rerender } = render(<Figure label="Write bursts" figure={never} />);
    expect(screen.getByRole('button', { name: /^unknown, show how Write bursts is calculated/ })).toBeInTheDocument();
    rerender(<Figure label="Write bursts" figure={never} unbounded="absorbed for as long as they last" />);
    const button = screen.getByRole('button', { name: /^absorbed for as long as they last, show how Write bursts/ });
    expect(button).toHaveTextContent('absorbed for as long as they last');
  });
});
