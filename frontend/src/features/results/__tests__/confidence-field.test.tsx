import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import type { ConfigurationInput } from '@/lib/api-types';
import { validateRequest } from '@/lib/validate';

import { ConfidenceField } from '../components/confidence-field';
import { runRequest, type RunInput } from '../hooks/use-run';

function Harness() {
  const [pct, setPct] = useState<number | null>(null);
  return (
    <>
      <ConfidenceField value={pct} onChange={setPct} />
      <output data-testid="pct">{String(pct)}</output>
    </>
  );
}

describe('ConfidenceField', () => {
  it('is off by default; ticked it asks for 90%, takes another figure, and unticked it sizes at the stated inputs again', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByTestId('pct')).toHaveTextContent('null');
    expect(screen.queryByLabelText(/Chance of meeting every case/)).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: /Size to a stated chance/ }));
    const field = screen.getByLabelText(/Chance of meeting every case \[%\]/);
    expect(field).toHaveValue(90);
    await user.clear(field);
    expect(screen.getByTestId('pct')).toHaveTextContent('NaN'); // cleared: no number, never "off"
    await user.type(field, '95');
    expect(screen.getByTestId('pct')).toHaveTextContent('95');
    await user.click(screen.getByRole('checkbox', { name: /Size to a stated chance/ }));
    expect(screen.getByTestId('pct')).toHaveTextContent('null');
  });
});

describe('runRequest with a confidence', () => {
  const base: Omit<RunInput, 'kind'> = { workloads: [], configuration: { array_id: 'generic' } as ConfigurationInput, flashCacheOptionsGb: null };

  it("sends /size's confidence_pct, and none when not asked", () => {
    expect(runRequest({ ...base, kind: 'size', confidencePct: 90 }).body).toMatchObject({ confidence_pct: 90 });
    expect('confidence_pct' in runRequest({ ...base, kind: 'size' }).body).toBe(false);
  });

  it('a cleared or out-of-range figure is an error at confidence_pct before any request', () => {
    const cleared = runRequest({ ...base, kind: 'size', confidencePct: Number.NaN });
    expect(validateRequest(cleared.schema, cleared.body).map((i) => i.loc.join('.'))).toContain('body.confidence_pct');
    const hundred = runRequest({ ...base, kind: 'size', confidencePct: 100 });
    expect(validateRequest(hundred.schema, hundred.body).map((i) => i.loc.join('.'))).toContain('body.confidence_pct');
  });
});
