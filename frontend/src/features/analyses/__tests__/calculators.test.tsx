import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { BuildingBlocksRequest, RaidConversionRequest } from '@/lib/api-types';
import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { BuildingBlocksCalculator } from '../components/building-blocks-calculator';
import { RaidConversionCalculator } from '../components/raid-conversion-calculator';

const schemes = fixtures.raidSchemes.raid_schemes;

describe('RaidConversionCalculator', () => {
  it('converts as the inputs change: the back-end arithmetic, with the shortcuts beside it', async () => {
    const bodies: RaidConversionRequest[] = [];
    server.use(
      http.post('*/api/v1/whatif/raid-conversion', async ({ request }) => {
        bodies.push((await request.json()) as RaidConversionRequest);
        return HttpResponse.json(fixtures.raidConversion);
      }),
    );
    const { user } = renderWithProviders(<RaidConversionCalculator schemes={schemes} />);
    // RAID 5 (8) -> RAID 10 (8), 20,000 IOPS at 70% reads: 38,000 back-end I/Os -> 29,231 IOPS
    const answer = await screen.findByTestId('converted-iops');
    expect(within(answer).getByRole('button', { name: /29,231 IOPS, show how Converted IOPS is calculated/ })).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ measured_iops: 20000, read_pct: 70, from_raid: { scheme: 'raid5', group_width: 8 }, to_raid: { scheme: 'raid10', group_width: 8 } });
    expect(screen.getByRole('button', { name: /38,000 IOPS, show how Back-end IOPS/ })).toBeInTheDocument();
    const shortcuts = screen.getByRole('table', { name: 'The shortcuts, against the back-end arithmetic' });
    expect(within(shortcuts).getByRole('row', { name: /divide by the write penalty/ })).toHaveTextContent('+36.8 %');
    expect(within(shortcuts).getByRole('row', { name: /RAID doesn't matter/ })).toHaveTextContent('−31.6 %');

    // a scheme change takes the scheme's typical width
    await user.selectOptions(screen.getByRole('combobox', { name: 'From: RAID scheme' }), 'raid6');
    expect(screen.getByRole('spinbutton', { name: 'From: group width [drives]' })).toHaveValue(8);
    await waitFor(() => expect(bodies.at(-1)!.from_raid).toMatchObject({ scheme: 'raid6', group_width: 8 }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'To: RAID scheme' }), 'erasure');
    await waitFor(() => expect(bodies.at(-1)!.to_raid).toMatchObject({ scheme: 'erasure', group_width: 6, ec_parity: 2, ec_data: 4 }));
  });

  it("puts the API's message at the side it is about", async () => {
    server.use(
      http.post('*/api/v1/whatif/raid-conversion', () =>
        HttpResponse.json(validation422({ loc: ['body', 'from_raid'], msg: 'Value error, raid5 group width must be between 3 and 32 drives, got 2' }), {
          status: 422,
        }),
      ),
    );
    renderWithProviders(<RaidConversionCalculator schemes={schemes} />);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'From: RAID scheme' })).toHaveAccessibleDescription(
        /raid5 group width must be between 3 and 32 drives, got 2/,
      ),
    );
  });

  it('starts from the configuration’s scheme when given one', async () => {
    renderWithProviders(<RaidConversionCalculator schemes={schemes} from={{ scheme: 'raid-dp', groupWidth: 16 }} to={{ scheme: 'raid10', groupWidth: 8 }} />);
    expect(screen.getByRole('combobox', { name: 'From: RAID scheme' })).toHaveValue('raid-dp');
    expect(screen.getByRole('spinbutton', { name: 'From: group width [drives]' })).toHaveValue(16);
    await screen.findByTestId('converted-iops');
  });
});

describe('BuildingBlocksCalculator', () => {
  const arrays = fixtures.arrays.arrays;

  it('sizes blocks of a catalog array for a target: blocks, racks, rack units, power, GB/s per U', async () => {
    let body: BuildingBlocksRequest | null = null;
    server.use(
      http.post('*/api/v1/whatif/building-blocks', async ({ request }) => {
        body = (await request.json()) as BuildingBlocksRequest;
        return HttpResponse.json(fixtures.buildingBlocks);
      }),
    );
    const { user } = renderWithProviders(<BuildingBlocksCalculator arrays={arrays} drives={fixtures.drives.drives} initialArrayId="netapp-fas3170" />);
    expect(screen.getByRole('combobox', { name: 'Array' })).toHaveValue('netapp-fas3170');
    await user.click(screen.getByRole('button', { name: 'Size the building blocks' }));
    const result = await screen.findByTestId('building-blocks-result');
    expect(body!).toMatchObject({ target: { read_gb_s: 50 }, catalog: { array_id: 'netapp-fas3170', drive_id: null, raid_scheme: null }, block: null });
    expect(result).toHaveTextContent('31 blocks in 8 racks (read bandwidth binds)');
    expect(result).toHaveTextContent('279 U');
    expect(result).toHaveTextContent('35.3 kW');
    expect(within(result).getByRole('button', { name: /0.181 GB\/s per U, show how Performance density/ })).toBeInTheDocument();
    expect(within(result).getByRole('row', { name: /read bandwidth/ })).toHaveTextContent('binds');
  });

  it('sends figures of one’s own as the block', async () => {
    let body: BuildingBlocksRequest | null = null;
    server.use(
      http.post('*/api/v1/whatif/building-blocks', async ({ request }) => {
        body = (await request.json()) as BuildingBlocksRequest;
        return HttpResponse.json(fixtures.buildingBlocks);
      }),
    );
    const { user } = renderWithProviders(<BuildingBlocksCalculator arrays={arrays} />);
    await user.click(screen.getByRole('radio', { name: 'Figures of my own' }));
    const reads = screen.getByRole('spinbutton', { name: 'Reads per block [GB/s]' });
    await user.clear(reads);
    await user.type(reads, '12');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Drive kind' }), 'nvme');
    await user.click(screen.getByRole('button', { name: 'Size the building blocks' }));
    await screen.findByTestId('building-blocks-result');
    expect(body!.catalog).toBeNull();
    // the drives' kind sets the class of system an IOPS target is judged in
    expect(body!.block).toMatchObject({ name: 'My block', read_gb_s: 12, rack_units: 4, drive_kind: 'nvme' });
  });

  it("shows the API's messages at the target", async () => {
    server.use(
      http.post('*/api/v1/whatif/building-blocks', () =>
        HttpResponse.json(validation422({ loc: ['body', 'target'], msg: 'Value error, give at least one target: read or write bandwidth, IOPS, usable or raw capacity' }), {
          status: 422,
        }),
      ),
    );
    const { user } = renderWithProviders(<BuildingBlocksCalculator arrays={arrays} />);
    await user.click(screen.getByRole('button', { name: 'Size the building blocks' }));
    expect(await screen.findByText('Give at least one target: read or write bandwidth, IOPS, usable or raw capacity', { selector: '.field-error' })).toBeInTheDocument();
  });
});
