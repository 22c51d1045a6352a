import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { parseApiError } from '@/lib/api-error';
import { fieldErrors, type FieldErrors } from '@/lib/field-errors';
import { defaultHeadroom, emptyDraft, type ConfigDraft } from '@/stores/workflow';
import { validation422 } from '@/testing/mocks/fixtures';
import { renderWithProviders } from '@/testing/test-utils';

import { ConfigurationBuilder } from '../components/configuration-builder';
import { customHeadroom, draftToReference } from '../lib/draft';

function Harness({ initial = emptyDraft, errors = fieldErrors(null) }: { initial?: ConfigDraft; errors?: FieldErrors }) {
  const [draft, setDraft] = useState(initial);
  return (
    <>
      <ConfigurationBuilder draft={draft} onChange={setDraft} errors={errors} />
      <output data-testid="reference">{JSON.stringify(draftToReference(draft))}</output>
    </>
  );
}

const reference = () => JSON.parse(screen.getByTestId('reference').textContent ?? '{}') as Record<string, unknown>;

describe('ConfigurationBuilder', () => {
  it('goes vendor -> array -> the array defaults (drive, RAID scheme, width, ports)', async () => {
    const { user } = renderWithProviders(<Harness />);
    await screen.findByRole('option', { name: 'NetApp' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Vendor' }), 'NetApp');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Array model' }), 'netapp-fas3170');
    await screen.findByRole('option', { name: /450 GB 15K FC/ });
    expect(screen.getByRole('combobox', { name: 'Drive' })).toHaveDisplayValue(/450 GB 15K FC/);
    expect(screen.getByRole('combobox', { name: 'RAID scheme' })).toHaveDisplayValue(/RAID-DP/);
    expect(screen.getByRole('combobox', { name: 'RAID group width [drives]' })).toHaveDisplayValue('16 (default)');
    expect(reference()).toMatchObject({ array_id: 'netapp-fas3170', raid_scheme: 'raid-dp', group_width: null, drive_count: null, flash_cache_gb: 0 });
    expect(screen.getByText(/2 x FAS3170 controller/)).toBeInTheDocument();
  });

  it('sizes by default and evaluates a fixed count when one is given', async () => {
    const { user } = renderWithProviders(<Harness initial={{ ...emptyDraft, vendor: 'NetApp', arrayId: 'netapp-fas3170', raidScheme: 'raid-dp' }} />);
    expect(screen.getByRole('radio', { name: /Size it for me/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /A fixed drive count/ }));
    const count = screen.getByRole('spinbutton', { name: 'Drives (excluding spares)' });
    await user.clear(count);
    await user.type(count, '64');
    expect(reference()).toMatchObject({ drive_count: 64 });
  });

  it('offers every flash-cache option for a drives-vs-cache sizing', async () => {
    const { user } = renderWithProviders(<Harness initial={{ ...emptyDraft, vendor: 'NetApp', arrayId: 'netapp-fas3170', raidScheme: 'raid-dp' }} />);
    const box = await screen.findByRole('checkbox', { name: /Also size with every flash-cache option/ });
    await user.click(box);
    expect(box).toBeChecked();
  });

  it("shows the API's messages at the reference fields, and the rest above", () => {
    const error = parseApiError(
      422,
      validation422(
        { loc: ['body', 'configuration', 'group_width'], msg: 'netapp-fas3170 allows raid-dp groups of 3-28 drives, got 40' },
        { loc: ['body', 'configuration'], msg: '2000 drives + 72 spares exceed the FAS3170 maximum of 840' },
      ),
    );
    renderWithProviders(
      <Harness
        initial={{ ...emptyDraft, vendor: 'NetApp', arrayId: 'netapp-fas3170', raidScheme: 'raid-dp' }}
        errors={fieldErrors(error.fieldErrors).scope('configuration')}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'RAID group width [drives]' })).toHaveAccessibleDescription(
      'netapp-fas3170 allows raid-dp groups of 3-28 drives, got 40',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('2000 drives + 72 spares exceed the FAS3170 maximum of 840');
  });

  it('sends headroom targets only when they differ from the defaults', () => {
    expect(customHeadroom(emptyDraft)).toBeNull();
    expect(customHeadroom({ ...emptyDraft, headroom: { ...defaultHeadroom, drive_max_pct: 60 } })).toMatchObject({ drive_max_pct: 60 });
  });
});
