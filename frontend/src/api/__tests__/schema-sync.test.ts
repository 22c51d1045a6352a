// @vitest-environment node
/**
 * The committed `schema.d.ts` must be exactly what `npm run gen:api` makes from `openapi.json`, so
 * the TypeScript types can never drift from the API schema. On failure: `npm run gen:api`
 * (or `make openapi` to refresh openapi.json from the backend first).
 */
import { readFile } from 'node:fs/promises';

import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

const schemaUrl = new URL('../openapi.json', import.meta.url);
const typesUrl = new URL('../schema.d.ts', import.meta.url);

describe('generated API types', () => {
  it('match openapi.json (run `npm run gen:api` if this fails)', async () => {
    const generated = COMMENT_HEADER + astToString(await openapiTS(schemaUrl, { silent: true }));
    const committed = await readFile(typesUrl, 'utf8');
    expect(committed === generated, 'src/api/schema.d.ts is stale: run `npm run gen:api`').toBe(true);
  });

  it('keep the field constraints the browser checks in step with openapi.json (`npm run gen:api`)', async () => {
    const script = new URL('../../../scripts/gen-constraints.mjs', import.meta.url).href;
    const { constraints } = (await import(/* @vite-ignore */ script)) as { constraints: (openapi: unknown) => unknown };
    const openapi: unknown = JSON.parse(await readFile(schemaUrl, 'utf8'));
    const committed: unknown = JSON.parse(await readFile(new URL('../constraints.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(constraints(openapi));
  });

  it('describe the health operation the app relies on', async () => {
    const schema = JSON.parse(await readFile(schemaUrl, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(schema.paths['/api/v1/health']?.get?.operationId).toBe('health-get');
  });
});
