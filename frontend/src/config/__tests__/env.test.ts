import { describe, expect, it } from 'vitest';

import { EnvError, parseEnv } from '../env';

describe('parseEnv', () => {
  it('defaults the API base URL to the same origin', () => {
    expect(parseEnv({})).toEqual({ API_BASE_URL: '' });
    expect(parseEnv({ VITE_API_BASE_URL: '' })).toEqual({ API_BASE_URL: '' });
  });

  it('accepts an absolute http(s) URL and drops the trailing slash', () => {
    expect(parseEnv({ VITE_API_BASE_URL: 'https://sizer.example.com/' })).toEqual({
      API_BASE_URL: 'https://sizer.example.com',
    });
  });

  it('rejects relative, non-http and query-carrying URLs', () => {
    expect(() => parseEnv({ VITE_API_BASE_URL: '/api' })).toThrow(EnvError);
    expect(() => parseEnv({ VITE_API_BASE_URL: 'ftp://x.test' })).toThrow(/http or https/);
    expect(() => parseEnv({ VITE_API_BASE_URL: 'http://x.test/?a=1' })).toThrow(/query string/);
  });
});
