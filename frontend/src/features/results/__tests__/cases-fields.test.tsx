import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import type { ConfigurationInput, Relaxation } from '@/lib/api-types';

import { CasesFields } from '../components/cases-fields';
import { runRequest, type RunInput } from '../hooks/use-run';

function Harness({ initial = [] }: { initial?: Relaxation[] }) {
  const [relax, setRelax] = useState(initial);
  return (
    <>
      <CasesFields value={relax} onChange={setRelax} />
      <output data-testid="relax">{JSON.stringify(relax)}</output>
    </>
  );
}

describe('CasesFields', () => {
  it('judges every case by default; unticking one relaxes it in every window, ticking it again restores it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, true, true, true, true]);
    await user.click(screen.getByRole('checkbox', { name: 'Growth to the horizon' }));
    expect(screen.getByTestId('relax')).toHaveTextContent('[{"case":"horizon","window":null}]');
    await user.click(screen.getByRole('checkbox', { name: 'Growth to the horizon' }));
    expect(screen.getByTestId('relax')).toHaveTextContent('[]');
  });

  it('keeps a relaxation of one window as it is (from a saved request)', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ case: 'cold-cache', window: 'month-end batch' }]} />);
    expect(screen.getByRole('checkbox', { name: 'Cold caches after a restart' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'A rebuild' }));
    expect(screen.getByTestId('relax')).toHaveTextContent(
      '[{"case":"cold-cache","window":"month-end batch"},{"case":"rebuilding","window":null}]',
    );
  });
});

describe('runRequest with relaxations', () => {
  it('sends them to /size and /evaluate, and nothing when none is relaxed', () => {
    const base: Omit<RunInput, 'kind'> = { workloads: [], configuration: { array_id: 'generic' } as ConfigurationInput, flashCacheOptionsGb: null };
    const relax: Relaxation[] = [{ case: 'horizon', window: null }];
    expect(runRequest({ ...base, kind: 'size', relax }).body).toMatchObject({ relax });
    expect(runRequest({ ...base, kind: 'evaluate', relax }).body).toMatchObject({ relax });
    expect('relax' in runRequest({ ...base, kind: 'size' }).body).toBe(false);
  });
});
