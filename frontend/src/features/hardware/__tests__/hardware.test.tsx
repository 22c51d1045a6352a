import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { ArrayInput, ControllerInput, DriveInput, HardwareList, HardwareRecord } from '@/lib/api-types';
import { parseApiError } from '@/lib/api-error';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { HardwareEditor } from '../components/hardware-editor';
import { HardwareList as HardwareListView } from '../components/hardware-list';
import { specErrors } from '../lib/spec-errors';

const records = fixtures.hardwareList.hardware;
const drive = records.find((r) => r.kind === 'drive')!;
const controllers = records.filter((r) => r.kind === 'controller');
const catalogArrays = fixtures.arrays.arrays;

/** A server that keeps the records it is given (POST) and forgets deleted ones. */
function hardwareServer(initial: HardwareRecord[] = records) {
  const state = { records: [...initial], posted: [] as unknown[], deleted: [] as string[] };
  server.use(
    http.get('*/api/v1/hardware', () => HttpResponse.json({ hardware: state.records } satisfies HardwareList)),
    http.post('*/api/v1/hardware', async ({ request }) => {
      const body = (await request.json()) as DriveInput | ControllerInput | ArrayInput;
      state.posted.push(body);
      const record = { ...drive, id: 'new-id', kind: body.kind, name: body.name ?? ('model' in body.spec ? body.spec.model : body.spec.name), spec: body.spec } as HardwareRecord;
      state.records.push(record);
      return HttpResponse.json(record, { status: 201 });
    }),
    http.delete('*/api/v1/hardware/:id', ({ params }) => {
      state.deleted.push(String(params.id));
      state.records = state.records.filter((r) => r.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

describe('HardwareList', () => {
  it('lists the custom drives, controllers and arrays with their record ids', async () => {
    renderWithProviders(<HardwareListView />);
    const drives = await screen.findByRole('region', { name: 'Drives' });
    expect(within(drives).getByRole('rowheader', { name: 'Lab SSD 3.84 TB' })).toBeInTheDocument();
    expect(within(drives).getByText(drive.id)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Controllers' })).getByRole('rowheader', { name: 'Lab controller' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Arrays' })).getByRole('rowheader', { name: 'Lab FAS' })).toBeInTheDocument();
  });

  it('deletes a record only after a confirmation', async () => {
    const state = hardwareServer();
    const { user } = renderWithProviders(<HardwareListView />);
    await user.click(await screen.findByRole('button', { name: 'Delete Lab controller' }));
    expect(state.deleted).toEqual([]);
    const yes = screen.getByRole('button', { name: 'Yes, delete Lab controller' });
    expect(yes).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    await user.click(screen.getByRole('button', { name: 'Delete Lab controller' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete Lab controller' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Lab controller' })).not.toBeInTheDocument());
    expect(state.deleted).toEqual([controllers[0]!.id]);
  });
});

describe('HardwareEditor', () => {
  function renderEditor() {
    return renderWithProviders(
      <>
        <HardwareEditor arrays={catalogArrays} drives={[...fixtures.drives.drives, { ...drive.spec, id: drive.id } as never]} controllers={controllers as never} />
        <HardwareListView />
      </>,
    );
  }

  it("puts the API's 422 messages at the drive's fields", async () => {
    server.use(http.post('*/api/v1/hardware', () => HttpResponse.json(fixtures.hardwareDrive422, { status: 422 })));
    const { user } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add the drive' }));
    expect(await screen.findByRole('textbox', { name: 'Drive name' })).toHaveAccessibleDescription('String should have at least 1 character');
    expect(screen.getByRole('spinbutton', { name: 'Capacity [GB]' })).toHaveAccessibleDescription(/Input should be greater than 0/);
  });

  it('shows a message about the whole spec at the field it names, and above the form', async () => {
    server.use(http.post('*/api/v1/hardware', () => HttpResponse.json(fixtures.hardwareSsd422, { status: 422 })));
    const { user } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add the drive' }));
    expect(await screen.findByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveAccessibleDescription(
      /read_iops_4k is required for an SSD\/NVMe drive/,
    );
    expect(screen.getByRole('alert', { name: '' })).toHaveTextContent('The API refused this drive');
  });

  it('adds a drive: hard-disk fields for a hard disk, the record listed afterwards', async () => {
    const state = hardwareServer();
    const { user } = renderEditor();
    await user.type(screen.getByRole('textbox', { name: 'Drive name' }), '18 TB NL-SAS');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'hdd');
    expect(screen.queryByRole('spinbutton', { name: /Read latency/ })).not.toBeInTheDocument();
    await user.type(screen.getByRole('spinbutton', { name: 'Capacity [GB]' }), '18000');
    await user.type(screen.getByRole('spinbutton', { name: 'Media rate [MB/s]' }), '270');
    await user.type(screen.getByRole('spinbutton', { name: 'Spindle speed [rpm]' }), '7200');
    await user.click(screen.getByRole('button', { name: 'Add the drive' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Added the drive 18 TB NL-SAS');
    expect(state.posted[0]).toEqual({
      kind: 'drive',
      name: null,
      spec: { name: '18 TB NL-SAS', kind: 'hdd', interface: 'SAS', source: 'user-defined', capacity_gb: 18000, media_rate_mb_s: 270, rpm: 7200 },
    });
    expect(await screen.findByRole('rowheader', { name: '18 TB NL-SAS' })).toBeInTheDocument();
  });

  it('adds a controller with the engine’s defaults filled in', async () => {
    const state = hardwareServer();
    const { user } = renderEditor();
    await user.click(screen.getByRole('radio', { name: 'Controller' }));
    await user.type(screen.getByRole('textbox', { name: 'Controller model' }), 'X900');
    await user.click(screen.getByRole('button', { name: 'Add the controller' }));
    await screen.findByText(/Added the controller/);
    expect(state.posted[0]).toMatchObject({ kind: 'controller', spec: { model: 'X900', count: 2, ha_mode: 'active-active', cpu_us_write: 80 } });
  });

  it('adds an array made from a catalog one, with a custom drive and a custom controller', async () => {
    const state = hardwareServer();
    const { user } = renderEditor();
    await user.click(screen.getByRole('radio', { name: 'Array' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Start from' }), 'netapp-fas3170');
    const model = screen.getByRole('textbox', { name: 'Model' });
    await user.clear(model);
    await user.type(model, 'FAS3170 with SSD');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Controllers' }), controllers[0]!.id);
    await user.click(screen.getByRole('checkbox', { name: /Lab SSD 3.84 TB/ }));
    await user.click(screen.getByRole('button', { name: 'Add the array' }));
    await screen.findByText(/Added the array/);
    const sent = state.posted[0] as ArrayInput;
    const base = catalogArrays.find((a) => a.id === 'netapp-fas3170')!;
    expect(sent.spec).toMatchObject({ model: 'FAS3170 with SSD', vendor: 'NetApp', raid: base.raid, packaging: base.packaging, controller: controllers[0]!.spec });
    expect(sent.spec.drives).toEqual([...base.drives!, drive.id]);
    expect('id' in sent.spec).toBe(false);
  });
});

describe('specErrors', () => {
  it('gives each field its messages, nested ones and the model’s messages that name it', () => {
    const error = parseApiError(422, {
      detail: [
        { loc: ['body', 'spec', 'drives', 2], msg: "unknown drive id 'x'", type: 'value_error' },
        { loc: ['body', 'spec'], msg: 'Value error, rpm is required for a hard disk', type: 'value_error' },
        { loc: ['body', 'spec', 'packaging', 'drives_per_shelf'], msg: 'too small', type: 'value_error' },
      ],
    });
    const e = specErrors(error, ['drives', 'rpm']);
    expect(e.at('drives')).toEqual(["2: unknown drive id 'x'"]);
    expect(e.at('rpm')).toEqual(['rpm is required for a hard disk']);
    expect(e.general).toEqual(['rpm is required for a hard disk', 'packaging.drives per shelf: too small']);
  });
});
