import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';

import type { ArrayInput, ArrayRecord, ControllerInput, DriveInput, DriveRecord, HardwareList, HardwareRecord } from '@/lib/api-types';
import { parseApiError } from '@/lib/api-error';
import { fixtures } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { HardwareEditor } from '../components/hardware-editor';
import { HardwareList as HardwareListView } from '../components/hardware-list';
import { ownerTokenOf, rememberOwnerToken } from '../lib/owner-tokens';
import { specErrors } from '../lib/spec-errors';

const records = fixtures.hardwareList.hardware;
const drive = records.find((r) => r.kind === 'drive')!;
const controllers = records.filter((r) => r.kind === 'controller');
const catalogArrays = fixtures.arrays.arrays;

/** A server that keeps the records it is given (POST), replaces edited ones (PUT) and forgets deleted ones. */
function hardwareServer(initial: HardwareRecord[] = records) {
  const state = {
    records: [...initial],
    posted: [] as unknown[],
    put: [] as { id: string; body: DriveInput | ControllerInput | ArrayInput }[],
    deleted: [] as string[],
    /** The X-Owner-Token header of each PUT and DELETE, in order. */
    tokens: [] as (string | null)[],
  };
  server.use(
    http.get('*/api/v1/hardware', () => HttpResponse.json({ hardware: state.records } satisfies HardwareList)),
    http.post('*/api/v1/hardware', async ({ request }) => {
      const body = (await request.json()) as DriveInput | ControllerInput | ArrayInput;
      state.posted.push(body);
      const record = { ...drive, id: 'new-id', kind: body.kind, name: body.name ?? ('model' in body.spec ? body.spec.model : body.spec.name), spec: body.spec } as HardwareRecord;
      state.records.push(record);
      return HttpResponse.json({ ...record, owner_token: 'token-of-new-id' }, { status: 201 });
    }),
    http.put('*/api/v1/hardware/:id', async ({ params, request }) => {
      const body = (await request.json()) as DriveInput | ControllerInput | ArrayInput;
      state.put.push({ id: String(params.id), body });
      state.tokens.push(request.headers.get('X-Owner-Token'));
      const old = state.records.find((r) => r.id === params.id)!;
      const record = { ...old, name: body.name ?? ('model' in body.spec ? body.spec.model : body.spec.name), spec: { ...body.spec, id: old.id } } as HardwareRecord;
      state.records = state.records.map((r) => (r.id === params.id ? record : r));
      return HttpResponse.json(record);
    }),
    http.delete('*/api/v1/hardware/:id', ({ params, request }) => {
      state.deleted.push(String(params.id));
      state.tokens.push(request.headers.get('X-Owner-Token'));
      state.records = state.records.filter((r) => r.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

/** This browser created every fixture record: it kept their owner tokens. */
function ownAllFixtureRecords() {
  for (const r of records) rememberOwnerToken(r.id, `token-of-${r.id}`);
}

describe('HardwareList', () => {
  beforeEach(ownAllFixtureRecords);

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
    expect(state.tokens).toEqual([`token-of-${controllers[0]!.id}`]);
    expect(ownerTokenOf(controllers[0]!.id)).toBeUndefined();
  });

  it("lists only this browser's records as yours; those another browser created are apart, folded and read-only", async () => {
    localStorage.clear();
    rememberOwnerToken(drive.id, 'token-of-the-drive');
    renderWithProviders(<HardwareListView onEdit={() => undefined} />);
    const [yourControllers, otherControllers] = await screen.findAllByRole('region', { name: 'Controllers', hidden: true });
    expect(within(yourControllers!).getByText('None yet.')).toBeInTheDocument();
    const others = screen.getByTestId('hardware-others');
    expect(others).not.toHaveAttribute('open');
    expect(within(others).getByText(/^Saved in other browsers \(\d+\): read-only/)).toBeInTheDocument();
    expect(others).toContainElement(otherControllers!);
    expect(within(otherControllers!).queryByRole('button', { name: 'Delete Lab controller', hidden: true })).not.toBeInTheDocument();
    expect(within(otherControllers!).getAllByText('Read-only').length).toBe(controllers.length);
    expect(screen.getByRole('button', { name: 'Edit Lab SSD 3.84 TB' })).toBeEnabled();
  });
});

describe('HardwareEditor', () => {
  beforeEach(ownAllFixtureRecords);

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
    expect(await screen.findByRole('textbox', { name: 'Drive name' })).toHaveAccessibleDescription('Must not be empty');
    expect(screen.getByRole('spinbutton', { name: 'Capacity [GB]' })).toHaveAccessibleDescription(/Must be more than 0/);
  });

  it('drops a field\'s message once the field is changed, keeping the others until the next save (issue 17 item 9)', async () => {
    server.use(http.post('*/api/v1/hardware', () => HttpResponse.json(fixtures.hardwareDrive422, { status: 422 })));
    const { user } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add the drive' }));
    const name = await screen.findByRole('textbox', { name: 'Drive name' });
    await user.type(name, 'Lab SSD');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('spinbutton', { name: 'Capacity [GB]' })).toHaveAccessibleDescription(/Must be more than 0/);
  });

  it('shows a message about the whole spec at the field it names, and above the form', async () => {
    server.use(http.post('*/api/v1/hardware', () => HttpResponse.json(fixtures.hardwareSsd422, { status: 422 })));
    const { user } = renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add the drive' }));
    expect(await screen.findByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveAccessibleDescription(
      /Required for an SSD\/NVMe drive/,
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
    // the owner token of the new record is kept: this browser may edit and delete it
    expect(ownerTokenOf('new-id')).toBe('token-of-new-id');
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

describe('editing a record', () => {
  beforeEach(ownAllFixtureRecords);
  /** The hardware page's wiring: Edit in the list opens the record in the editor. */
  function EditablePage() {
    const [editing, setEditing] = useState<HardwareRecord | null>(null);
    return (
      <>
        <HardwareEditor
          arrays={catalogArrays}
          drives={[...fixtures.drives.drives, { ...drive.spec, id: drive.id } as never]}
          controllers={controllers as never}
          editing={editing}
          onEditDone={() => setEditing(null)}
        />
        <HardwareListView onEdit={setEditing} editingId={editing?.id ?? null} />
      </>
    );
  }

  it('fills the form from the drive, saves it with PUT and lists the new figures', async () => {
    const state = hardwareServer();
    const { user, queryClient } = renderWithProviders(<EditablePage />);
    queryClient.setQueryData(['sizing', 'evaluate', { configuration: { drive_id: drive.id } }], fixtures.evaluate48);
    await user.click(await screen.findByRole('button', { name: 'Edit Lab SSD 3.84 TB' }));

    const form = screen.getByRole('form', { name: 'Edit drive' });
    expect(screen.getByRole('heading', { name: 'Edit the drive “Lab SSD 3.84 TB”' })).toHaveFocus();
    expect(within(form).getByRole('textbox', { name: 'Drive name' })).toHaveValue('Lab SSD 3.84 TB');
    expect(within(form).getByRole('combobox', { name: 'Kind' })).toHaveValue('ssd');
    expect(within(form).getByRole('spinbutton', { name: 'Capacity [GB]' })).toHaveValue(3840);
    expect(within(form).getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveValue(300000);
    expect(screen.queryByRole('radio', { name: 'Drive' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Lab SSD 3.84 TB' })).toBeDisabled();

    const name = within(form).getByRole('textbox', { name: 'Drive name' });
    await user.clear(name);
    await user.type(name, 'Lab SSD 7.68 TB');
    const capacity = within(form).getByRole('spinbutton', { name: 'Capacity [GB]' });
    await user.clear(capacity);
    await user.type(capacity, '7680');
    await user.click(within(form).getByRole('button', { name: 'Save the drive' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Saved the drive Lab SSD 7.68 TB');
    expect(state.put).toHaveLength(1);
    expect(state.put[0]!.id).toBe(drive.id);
    expect(state.tokens).toEqual([`token-of-${drive.id}`]);
    // the spec as it was, with the two changes (empty optional figures are left out: null on the server)
    const { id: _id, ...spec } = (drive as DriveRecord).spec;
    const given = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== null));
    expect(state.put[0]!.body).toEqual({ kind: 'drive', name: null, spec: { ...given, name: 'Lab SSD 7.68 TB', capacity_gb: 7680 } });
    // the list and every engine answer that may name the drive are asked again
    expect(await screen.findByRole('rowheader', { name: 'Lab SSD 7.68 TB' })).toBeInTheDocument();
    expect(queryClient.getQueryState(['sizing', 'evaluate', { configuration: { drive_id: drive.id } }])!.isInvalidated).toBe(true);
    expect(screen.getByRole('heading', { name: 'Add hardware' })).toBeInTheDocument();
  });

  it("puts the API's 422 messages at the edited drive's fields and stays in the edit", async () => {
    const state = hardwareServer();
    server.use(http.put('*/api/v1/hardware/:id', () => HttpResponse.json(fixtures.hardwareSsd422, { status: 422 })));
    const { user } = renderWithProviders(<EditablePage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Lab SSD 3.84 TB' }));
    const form = screen.getByRole('form', { name: 'Edit drive' });
    await user.clear(within(form).getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' }));
    await user.click(within(form).getByRole('button', { name: 'Save the drive' }));

    expect(await within(form).findByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveAccessibleDescription(
      /Required for an SSD\/NVMe drive/,
    );
    expect(within(form).getByRole('spinbutton', { name: 'Random 4 KiB reads [IOPS]' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('form', { name: 'Edit drive' })).toBeInTheDocument();
    expect(state.posted).toEqual([]);
  });

  it('keeps the controller figures the form does not show', async () => {
    const state = hardwareServer();
    const { user } = renderWithProviders(<EditablePage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Lab controller' }));
    const form = screen.getByRole('form', { name: 'Edit controller' });
    expect(within(form).getByRole('textbox', { name: 'Controller model' })).toHaveValue('Lab controller');
    const cores = within(form).getByRole('spinbutton', { name: 'CPU cores per controller' });
    expect(cores).toHaveValue(16);
    await user.clear(cores);
    await user.type(cores, '24');
    await user.click(within(form).getByRole('button', { name: 'Save the controller' }));

    await screen.findByText(/Saved the controller/);
    expect(state.put[0]!.body).toEqual({ kind: 'controller', name: null, spec: { ...controllers[0]!.spec, cores: 24 } });
  });

  it('edits an array from its own spec: no base to start from, the rest of the spec kept', async () => {
    const state = hardwareServer();
    const array = records.find((r): r is ArrayRecord => r.kind === 'array')!;
    const { user } = renderWithProviders(<EditablePage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Lab FAS' }));
    const form = screen.getByRole('form', { name: 'Edit array' });
    expect(within(form).queryByRole('combobox', { name: 'Start from' })).not.toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Model' })).toHaveValue('Lab FAS');
    const most = within(form).getByRole('spinbutton', { name: 'Drives at most' });
    await user.clear(most);
    await user.type(most, '420');
    await user.click(within(form).getByRole('button', { name: 'Save the array' }));

    await screen.findByText(/Saved the array/);
    const { id: _id, ...spec } = array.spec;
    expect(state.put[0]!.body).toEqual({ kind: 'array', name: null, spec: { ...spec, max_drives: 420 } });
  });

  it('cancels an edit without asking the API', async () => {
    const state = hardwareServer();
    const { user } = renderWithProviders(<EditablePage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Lab controller' }));
    await user.click(within(screen.getByRole('form', { name: 'Edit controller' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: 'Add hardware' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'New drive' })).toBeInTheDocument();
    expect(state.put).toEqual([]);
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
    expect(e.at('drives')).toEqual(["2: Unknown drive id 'x'"]);
    expect(e.at('rpm')).toEqual(['Required for a hard disk']);
    expect(e.general).toEqual(['rpm: Required for a hard disk', 'packaging.drives per shelf: Too small']);
  });
});
