import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { parseApiError } from '@/lib/api-error';
import { fieldErrors, type FieldErrors } from '@/lib/field-errors';
import { defaultHeadroom, emptyDraft, type ConfigDraft } from '@/stores/workflow';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
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

  it('sends the array prefetch per stream only when stated, and shows its 422 at the field', async () => {
    const error = parseApiError(
      422,
      validation422({
        loc: ['body', 'configuration', 'prefetch_kib'],
        msg: 'Value error, prefetch_kib: 8192 KiB is more than this architecture can read ahead (max_prefetch_kib 4096)',
      }),
    );
    const { user } = renderWithProviders(
      <Harness
        initial={{ ...emptyDraft, vendor: 'NetApp', arrayId: 'netapp-fas3170', raidScheme: 'raid-dp' }}
        errors={fieldErrors(error.fieldErrors).scope('configuration')}
      />,
    );
    const prefetch = screen.getByRole('spinbutton', { name: 'Array prefetch per stream [KiB]' });
    expect(prefetch).toHaveAccessibleDescription(/8192 KiB is more than this architecture can read ahead/);
    expect(reference()).not.toHaveProperty('prefetch_kib');
    await user.type(prefetch, '2048');
    expect(reference()).toMatchObject({ prefetch_kib: 2048 });
    await user.clear(prefetch);
    expect(reference()).not.toHaveProperty('prefetch_kib');
  });

  it('sends headroom targets only when they differ from the defaults', () => {
    expect(customHeadroom(emptyDraft)).toBeNull();
    expect(customHeadroom({ ...emptyDraft, headroom: { ...defaultHeadroom, drive_max_pct: 60 } })).toMatchObject({ drive_max_pct: 60 });
  });
});

describe('ConfigurationBuilder with custom hardware', () => {
  const records = fixtures.hardwareList.hardware;
  const ssd = records.find((r) => r.kind === 'drive')!;
  const controller = records.find((r) => r.kind === 'controller')!;
  const array = records.find((r) => r.kind === 'array')!;

  it('offers a custom array under its vendor, with its drives (custom ones included) by record id', async () => {
    const { user } = renderWithProviders(<Harness />);
    await screen.findByRole('option', { name: 'Lab' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Vendor' }), 'Lab');
    expect(screen.getByRole('combobox', { name: 'Array model' })).toHaveDisplayValue('Lab FAS (2008) · custom');
    const option = await screen.findByRole('option', { name: /Lab SSD 3.84 TB · SAS SSD · custom/ });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Drive' }), option);
    expect(reference()).toMatchObject({ array_id: array.id, drive_id: ssd.id, raid_scheme: 'raid-dp' });
    // the catalog drives the custom array lists are offered too
    expect(screen.getByRole('option', { name: /450 GB 15K FC/ })).toBeInTheDocument();
  });

  it('puts custom drives into an array that takes any drive, and a custom controller in place of the array’s own', async () => {
    server.use(
      http.get('*/api/v1/catalog/arrays/:id', () =>
        HttpResponse.json({
          ...fixtures.arrayFas3170,
          array: { ...fixtures.arrayFas3170.array, id: 'generic', vendor: 'Generic', any_drive: true },
        }),
      ),
      http.get('*/api/v1/catalog/arrays', () =>
        HttpResponse.json({ ...fixtures.arrays, arrays: [...fixtures.arrays.arrays, { ...fixtures.arrayFas3170.array, id: 'generic', vendor: 'Generic', model: 'Generic dual-controller array', any_drive: true }] }),
      ),
    );
    const { user } = renderWithProviders(<Harness />);
    await screen.findByRole('option', { name: 'Generic' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Vendor' }), 'Generic');
    await screen.findByRole('option', { name: /Lab SSD 3.84 TB/ });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Controllers' }), controller.id);
    expect(reference()).toMatchObject({ array_id: 'generic', controller_id: controller.id });
    expect(screen.getByRole('option', { name: /Custom: 2 x Lab controller/ })).toBeInTheDocument();
  });

  it('offers the node counts of a clustered family in the engine\'s words and sends one only when chosen', async () => {
    // the server's answer for a family of 1 to 3 HA pairs: the counts and their labels (models.cluster.node_label)
    const clustered = {
      ...fixtures.arrayFas3170,
      array: {
        ...fixtures.arrayFas3170.array,
        scale_out: { unit: 'HA pair', drives_per_node: 840, fixed_drives_per_node: false, controllers_per_node: 2, min_nodes: 1, max_nodes: 3 },
      },
      node_choices: [
        { nodes: 1, label: '1 HA pair (2 controllers)' },
        { nodes: 2, label: '2 HA pairs (4 controllers)' },
        { nodes: 3, label: '3 HA pairs (6 controllers)' },
      ],
    };
    server.use(http.get('*/api/v1/catalog/arrays/:id', () => HttpResponse.json(clustered)));
    const { user } = renderWithProviders(<Harness initial={{ ...emptyDraft, vendor: 'NetApp', arrayId: 'netapp-fas3170', raidScheme: 'raid-dp' }} />);
    const nodes = await screen.findByRole('combobox', { name: 'Nodes [HA pairs]' });
    expect('nodes' in reference()).toBe(false);
    expect(screen.getAllByRole('option', { name: /HA pairs? \(\d+ controllers\)/ })).toHaveLength(3);
    await user.selectOptions(nodes, '3');
    expect(nodes).toHaveDisplayValue('3 HA pairs (6 controllers)');
    expect(reference()).toMatchObject({ nodes: 3 });
  });

  it('leaves controller_id out of the reference while the array’s own controllers are used', () => {
    expect('controller_id' in draftToReference({ ...emptyDraft, arrayId: 'a' })).toBe(false);
    expect(draftToReference({ ...emptyDraft, arrayId: 'a', controllerId: 'c1' }).controller_id).toBe('c1');
  });
});
