#!/usr/bin/env node
/**
 * The field constraints of the API's request schemas, for checking inputs in the browser before
 * any request: `src/api/constraints.json` keeps, from `src/api/openapi.json`, only what a check
 * needs (types, required fields, bounds, lengths, item counts, enums, references and unions).
 * Run by `npm run gen:api`; a vitest fails when the committed file drifts from openapi.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const KEEP = new Set([
  '$ref', 'type', 'properties', 'required', 'items', 'anyOf', 'oneOf', 'enum', 'const',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
]);

/** `schema` with only the keys in KEEP, recursively. */
export function compact(schema) {
  if (Array.isArray(schema)) return schema.map(compact);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEEP.has(key)) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
    else out[key] = compact(value);
  }
  return out;
}

/** Names of the schemas `value` refers to (`#/components/schemas/Name`), recursively through `schemas`. */
function reachable(value, schemas, seen) {
  if (Array.isArray(value)) value.forEach((v) => reachable(v, schemas, seen));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') {
        const name = v.split('/').pop();
        if (!seen.has(name)) {
          seen.add(name);
          reachable(schemas[name], schemas, seen);
        }
      } else reachable(v, schemas, seen);
    }
  }
  return seen;
}

/** The compacted schemas that request bodies use (responses are the server's business). */
export function constraints(openapi) {
  const schemas = openapi.components.schemas;
  const bodies = Object.values(openapi.paths).flatMap((ops) => Object.values(ops).map((op) => op.requestBody ?? null));
  const names = [...reachable(bodies, schemas, new Set())].sort();
  return Object.fromEntries(names.map((name) => [name, compact(schemas[name])]));
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const openapi = JSON.parse(readFileSync(new URL('../src/api/openapi.json', import.meta.url), 'utf8'));
  writeFileSync(new URL('../src/api/constraints.json', import.meta.url), `${JSON.stringify(constraints(openapi))}\n`);
}
