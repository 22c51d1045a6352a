import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import type { MoneyInputs } from '@/lib/api-types';
import { fieldErrors } from '@/lib/field-errors';
import { DEFAULT_MONEY } from '@/lib/money';
import { fixtures } from '@/testing/mocks/fixtures';
import { renderWithProviders } from '@/testing/test-utils';

import { MoneyFields } from '../money-fields';
import { TcoCompare } from '../tco-compare';
import { TcoPanel } from '../tco-panel';

const tco = fixtures.tcoOltp;

describe('TcoPanel', () => {
  it("shows the engine's TCO, its three-ratio table and the priced bill", async () => {
    const { user } = renderWithProviders(<TcoPanel tco={tco} />);
    expect(screen.getByRole('heading', { name: 'Money over 5 years (USD)' })).toBeInTheDocument();
    // the figure as the engine formats it: 1,380,496 USD
    expect(screen.getByTestId('tco-total')).toHaveTextContent(tco.total.text.split(' = ').at(-1)!.replace(' USD', ''));
    const rows = within(screen.getByTestId('ratio-table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-case'))).toEqual(['pessimistic', 'expected', 'claimed']);
    expect(rows[0]).toHaveTextContent('pessimistic (no reduction), 1:1');
    // the math of a figure opens on demand
    await user.click(within(rows[0]!).getAllByRole('button')[1]!);
    expect(await screen.findByText(tco.ratios[0]!.tco.text)).toBeInTheDocument();
    await user.click(screen.getByText(/Bill of materials, priced/));
    expect(screen.getByText(tco.lines[0]!.description)).toBeInTheDocument();
  });

  it('names the configuration that flips when the ratio drops', () => {
    const flip = { cheapest: { claimed: 'A', expected: 'A', pessimistic: 'B' }, flips: true, words: 'The choice flips as the ratio drops: A, then B.' };
    renderWithProviders(<TcoCompare items={[{ label: 'A', tco }, { label: 'B', tco }]} flip={flip} />);
    expect(screen.getByTestId('ratio-flip')).toHaveTextContent('The choice flips as the ratio drops');
    expect(screen.getByTestId('ratio-flip')).toHaveClass('notice');
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Figure', 'A', 'B']);
  });
});

function Harness({ onValue }: { onValue: (m: MoneyInputs) => void }) {
  const [value, setValue] = useState<MoneyInputs>(DEFAULT_MONEY);
  return (
    <MoneyFields
      value={value}
      onChange={(m) => {
        setValue(m);
        onValue(m);
      }}
      errors={fieldErrors({ 'money.currency': ['no exchange rate for XAU in the table of 2025-02-28'] }).scope('money')}
    />
  );
}

describe('MoneyFields', () => {
  it("edits the money inputs and shows the API's message at the field it names", async () => {
    let last: MoneyInputs = DEFAULT_MONEY;
    const { user } = renderWithProviders(<Harness onValue={(m) => (last = m)} />);
    expect(screen.getByText(/no exchange rate for XAU/)).toBeInTheDocument();
    const currency = screen.getByLabelText('Currency');
    await user.clear(currency);
    await user.type(currency, 'eur');
    expect(last.currency).toBe('EUR');
    await user.type(screen.getByLabelText(/Discount on drives/), '40');
    expect(last.line_discount_pct).toEqual({ drives: 40 });
    await user.clear(screen.getByLabelText(/Discount on drives/));
    expect(last.line_discount_pct).toEqual({});
  });
});
