import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { fixtures, validation422 } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderWithProviders } from '@/testing/test-utils';

import { TraceUploadForm } from '../components/trace-upload-form';
import { rejectionOf } from '../lib/format';

const CSV = 'time_s,op,offset,size\n0.0,R,0,4096\n0.1,W,4096,8192\n';

function file(text = CSV, name = 'small.csv') {
  return new File([text], name, { type: 'text/csv' });
}

describe('TraceUploadForm', () => {
  it('sends the file as the multipart field "file" with the options as query parameters', async () => {
    let url = '';
    let type = '';
    server.use(
      http.post('*/api/v1/traces', ({ request }) => {
        url = request.url;
        type = request.headers.get('content-type') ?? '';
        return HttpResponse.json({ id: 'job-1', status: 'queued' }, { status: 202 });
      }),
    );
    const onCreated = vi.fn();
    const { user } = renderWithProviders(<TraceUploadForm onCreated={onCreated} />);

    await user.upload(screen.getByLabelText('Trace file'), file());
    await user.type(screen.getByRole('spinbutton', { name: 'Interval [s]' }), '10');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Cache block' }), '8');
    await user.type(screen.getByRole('spinbutton', { name: 'Latency target [ms]' }), '5');
    await user.type(screen.getByRole('textbox', { name: 'Workload name' }), 'db01');
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));

    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith('job-1'));
    const query = new URL(url).searchParams;
    expect(query.get('interval_s')).toBe('10');
    expect(query.get('block_kib')).toBe('8');
    expect(query.get('latency_target_ms')).toBe('5');
    expect(query.get('name')).toBe('db01');
    expect(query.has('warmup_s')).toBe(false); // empty fields are left to the server's defaults
    expect(query.has('policies')).toBe(false); // LRU only unless asked
    expect(type).toMatch(/^multipart\/form-data/); // the form itself: see upload-trace.test.ts
  });

  it('asks for the ARC and S3-FIFO curves only when the box is ticked', async () => {
    let url = '';
    server.use(
      http.post('*/api/v1/traces', ({ request }) => {
        url = request.url;
        return HttpResponse.json({ id: 'job-2', status: 'queued' }, { status: 202 });
      }),
    );
    const onCreated = vi.fn();
    const { user } = renderWithProviders(<TraceUploadForm onCreated={onCreated} />);

    await user.upload(screen.getByLabelText('Trace file'), file());
    await user.click(screen.getByRole('checkbox', { name: /Also simulate ARC and S3-FIFO/ }));
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));

    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith('job-2'));
    expect(new URL(url).searchParams.getAll('policies')).toEqual(['arc', 's3fifo']);
  });

  it('sends a volume filter and shows the volumes present when it matches none', async () => {
    let url = '';
    server.use(
      http.post('*/api/v1/traces', ({ request }) => {
        url = request.url;
        return HttpResponse.json(
          { detail: 'the volume filter mail matches none of the volumes in the trace: usr/0, web/0', volumes: ['usr/0', 'web/0'], bad_lines: [] },
          { status: 400 },
        );
      }),
    );
    const { user } = renderWithProviders(<TraceUploadForm onCreated={vi.fn()} />);
    await user.upload(screen.getByLabelText('Trace file'), file());
    await user.type(screen.getByRole('textbox', { name: 'Volumes' }), 'mail, web');
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));

    const alert = await screen.findByRole('alert');
    expect(new URL(url).searchParams.getAll('volumes')).toEqual(['mail', 'web']);
    expect(alert).toHaveTextContent('The volume filter matches none of the volumes in this trace');
    expect(screen.getByRole('textbox', { name: 'Volumes' })).toHaveAccessibleDescription(/The trace holds usr\/0, web\/0/);
  });

  it('asks for a file before uploading anything', async () => {
    const { user } = renderWithProviders(<TraceUploadForm onCreated={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));
    expect(screen.getByLabelText('Trace file')).toHaveAccessibleDescription(/Choose a trace file first/);
  });

  it('shows a refused upload with its bad lines, line numbers and text as in the file', async () => {
    server.use(http.post('*/api/v1/traces', () => HttpResponse.json(fixtures.traceRejected, { status: 400 })));
    const { user } = renderWithProviders(<TraceUploadForm onCreated={vi.fn()} />);
    await user.upload(screen.getByLabelText('Trace file'), file('junk', 'broken.csv'));
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This file is not a trace the reader understands');
    expect(alert).toHaveTextContent(fixtures.traceRejected.detail);
    const table = within(alert).getByRole('table', { name: /Lines that could not be read \(the first 10 of 29\)/ });
    const first = fixtures.traceRejected.bad_lines![0]!;
    expect(within(table).getByRole('rowheader', { name: String(first.line) })).toBeInTheDocument();
    expect(within(table).getByText(first.text)).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + fixtures.traceRejected.bad_lines!.length);
  });

  it("puts the API's 422 messages at the option they name", async () => {
    server.use(
      http.post('*/api/v1/traces', () =>
        HttpResponse.json(validation422({ loc: ['query', 'block_kib'], msg: 'Value error, block_kib must be a power of two from 4 to 1024' }), {
          status: 422,
        }),
      ),
    );
    const { user } = renderWithProviders(<TraceUploadForm onCreated={vi.fn()} />);
    await user.upload(screen.getByLabelText('Trace file'), file());
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));
    expect(await screen.findByRole('combobox', { name: 'Cache block' })).toHaveAccessibleDescription(
      'Cache block must be a power of two from 4 to 1024',
    );
  });
});

describe('rejectionOf', () => {
  it('reads a 400 body with bad lines, and nothing else', async () => {
    const { parseApiError } = await import('@/lib/api-error');
    expect(rejectionOf(parseApiError(400, fixtures.traceRejected))?.bad_lines).toHaveLength(10);
    expect(rejectionOf(parseApiError(400, { detail: 'the upload is empty' }))?.bad_lines).toEqual([]);
    expect(rejectionOf(parseApiError(404, { detail: 'x' }))).toBeNull();
    expect(rejectionOf(new Error('x'))).toBeNull();
  });
});
