import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-error';
import { fixtures } from '@/testing/mocks/fixtures';

import { uploadTrace } from '../api/upload-trace';
import { traceOwnerTokens } from '../lib/owner-tokens';

/** A stand-in XMLHttpRequest: records what is sent and answers as told. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  body: unknown;
  headers: Record<string, string> = {};
  status = 0;
  statusText = '';
  responseText = '';
  private listeners: Record<string, (() => void)[]> = {};
  upload = {
    progress: [] as ((e: { lengthComputable: boolean; loaded: number; total: number }) => void)[],
    addEventListener: (_: string, f: (e: { lengthComputable: boolean; loaded: number; total: number }) => void) => this.upload.progress.push(f),
  };
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  addEventListener(type: string, f: () => void) {
    (this.listeners[type] ??= []).push(f);
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.listeners.abort?.forEach((f) => f());
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.listeners.load?.forEach((f) => f());
  }
}

describe('uploadTrace', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the file as the multipart field "file", reports upload progress and resolves with the job', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress = vi.fn();
    const file = new File(['time_s,op,offset,size\n'], 'db01.csv', { type: 'text/csv' });
    const done = uploadTrace({ file, options: { interval_s: 10, block_kib: null, name: 'db01' }, onProgress: progress });
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(new URL(xhr.url).pathname).toBe('/api/v1/traces');
    expect(new URL(xhr.url).search).toBe('?interval_s=10&name=db01');
    const sent = (xhr.body as FormData).get('file') as File;
    expect(sent.name).toBe('db01.csv');
    expect(await sent.text()).toBe('time_s,op,offset,size\n');
    xhr.upload.progress.forEach((f) => f({ lengthComputable: true, loaded: 11, total: 22 }));
    expect(progress).toHaveBeenCalledWith({ loaded: 11, total: 22 });
    xhr.answer(202, { id: 'abc', status: 'queued', owner_token: 'token-of-abc' });
    await expect(done).resolves.toEqual({ id: 'abc', status: 'queued', owner_token: 'token-of-abc' });
    expect(traceOwnerTokens.of('abc')).toBe('token-of-abc'); // cancelling the job needs it
  });

  it('rejects with the API error, the rejection body kept', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const done = uploadTrace({ file: new File(['x'], 'x.csv'), options: {} });
    FakeXhr.last.answer(400, fixtures.traceRejected);
    const error = (await done.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(fixtures.traceRejected.detail);
    expect((error.body as typeof fixtures.traceRejected).bad_lines).toHaveLength(10);
  });

  it('stops when its signal aborts', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const done = uploadTrace({ file: new File(['x'], 'x.csv'), options: {}, signal: controller.signal });
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
