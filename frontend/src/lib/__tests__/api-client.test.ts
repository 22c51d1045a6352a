import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';

import { ApiError, buildUrl, createApiClient, fieldPath, parseApiError } from '../api-client';

/** A FastAPI 422 body as Pydantic v2 writes it. */
const validation422 = {
  detail: [
    {
      type: 'greater_than',
      loc: ['body', 'workload', 'iops'],
      msg: 'Input should be greater than 0',
      input: -5,
      ctx: { gt: 0 },
    },
    {
      type: 'value_error',
      loc: ['body', 'workload', 'read_ratio'],
      msg: 'Value error, read_ratio must be between 0 and 1',
      input: 1.5,
    },
    { type: 'missing', loc: ['body', 'drives', 0, 'count'], msg: 'Field required', input: {} },
    { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: 'x' },
    { type: 'model_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: [] },
  ],
};

describe('parseApiError', () => {
  it('maps a 422 body to per-field messages keyed by the loc path without its location', () => {
    const error = parseApiError(422, validation422);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.isValidation).toBe(true);
    expect(error.fieldErrors).toEqual({
      'workload.iops': ['Must be more than 0'],
      'workload.read_ratio': ['Read ratio must be between 0 and 1'],
      'drives.0.count': ['Required'],
      limit: ['Enter a whole number'],
    });
    expect(error.formErrors).toEqual(['Not in the expected form']);
    expect(error.messagesFor('workload.iops')).toEqual(['Must be more than 0']); // Pydantic's words made plain
    expect(error.messagesFor('nope')).toEqual([]);
    expect(error.issues).toHaveLength(5);
    expect(error.message).toBe('Invalid input (5 errors)');
  });

  it('collects several messages for the same field', () => {
    const error = parseApiError(422, {
      detail: [
        { type: 'a', loc: ['body', 'x'], msg: 'first' },
        { type: 'b', loc: ['body', 'x'], msg: 'second' },
      ],
    });
    expect(error.fieldErrors).toEqual({ x: ['First', 'Second'] });
  });

  it('uses a single issue as the message', () => {
    const error = parseApiError(422, { detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required' }] });
    expect(error.message).toBe('Invalid input: name: Required');
  });

  it('uses a string detail as the message', () => {
    const error = parseApiError(404, { detail: 'Report not found' });
    expect(error.message).toBe('Report not found');
    expect(error.formErrors).toEqual(['Report not found']);
    expect(error.fieldErrors).toEqual({});
  });

  it('falls back to the status when the body has no detail', () => {
    expect(parseApiError(500, undefined, 'Internal Server Error').message).toBe(
      'Request failed: 500 Internal Server Error',
    );
  });
});

describe('fieldPath', () => {
  it('drops the request location and joins the rest with dots', () => {
    expect(fieldPath(['body', 'drives', 2, 'size_tb'])).toBe('drives.2.size_tb');
    expect(fieldPath(['path', 'report_id'])).toBe('report_id');
    expect(fieldPath(['body'])).toBe('');
  });
});

describe('buildUrl', () => {
  it('fills path parameters, encodes them and appends the query', () => {
    expect(buildUrl('http://api.test', '/api/v1/reports/{report_id}', { report_id: 'a b/c' }, { page: 2, tag: ['x', 'y'], skip: undefined })).toBe(
      'http://api.test/api/v1/reports/a%20b%2Fc?page=2&tag=x&tag=y',
    );
  });

  it('resolves against the page origin when the base URL is empty', () => {
    expect(buildUrl('', '/api/v1/health')).toBe(`${window.location.origin}/api/v1/health`);
  });

  it('refuses a missing path parameter', () => {
    expect(() => buildUrl('', '/api/v1/reports/{report_id}')).toThrow('Missing path parameter "report_id"');
  });
});

describe('createApiClient', () => {
  const client = createApiClient({ baseUrl: 'http://api.test' });

  it('returns the parsed JSON body', async () => {
    server.use(http.get('http://api.test/api/v1/health', () => HttpResponse.json({ status: 'ok', database: 'ok', engine_version: '0.1.0', catalog_version: 'c' })));
    await expect(client.get('/api/v1/health')).resolves.toMatchObject({ status: 'ok', engine_version: '0.1.0' });
  });

  it('throws an ApiError with per-field messages for a 422 response', async () => {
    server.use(http.get('http://api.test/api/v1/health', () => HttpResponse.json(validation422, { status: 422 })));
    const error = await client.get('/api/v1/health').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).messagesFor('workload.read_ratio')).toEqual(['Read ratio must be between 0 and 1']);
  });

  it('throws an ApiError with status 0 when the server cannot be reached', async () => {
    server.use(http.get('http://api.test/api/v1/health', () => HttpResponse.error()));
    await expect(client.get('/api/v1/health')).rejects.toMatchObject({ name: 'ApiError', status: 0 });
  });

  it('sends JSON bodies with a content type', async () => {
    let seen: { type: string | null; body: unknown } | undefined;
    const fetchSpy: typeof fetch = async (input, init) => {
      const req = new Request(input, init);
      seen = { type: req.headers.get('content-type'), body: await req.json() };
      return new Response(null, { status: 204 });
    };
    const spyClient = createApiClient({ baseUrl: 'http://api.test', fetch: fetchSpy });
    // No POST route exists in the schema yet: go through `request` with a cast for the test.
    const request = spyClient.request as unknown as (m: string, p: string, o: object) => Promise<unknown>;
    await expect(request('post', '/api/v1/things', { body: { a: 1 } })).resolves.toBeUndefined();
    expect(seen).toEqual({ type: 'application/json', body: { a: 1 } });
  });
});
