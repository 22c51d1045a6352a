/**
 * Checks a request body in the browser against the API's own field constraints
 * (`src/api/constraints.json`, generated from the OpenAPI schema by `npm run gen:api`), so an
 * empty or out-of-range field is an error at the field before any request. Issues have the shape
 * of the API's 422 details (`loc` from `body`, a message), so the same field-error plumbing shows
 * them. Cross-field rules (an I/O mix summing to 100%) stay the server's.
 */
import constraints from '@/api/constraints.json';

import type { ValidationIssue } from './api-error';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};

const SCHEMAS = constraints as Record<string, Schema>;

export type SchemaName = keyof typeof constraints;

type Loc = (string | number)[];

const fmt = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 6 });
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

function resolve(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 32; i += 1) s = SCHEMAS[s.$ref.split('/').pop()!] ?? {};
  return s;
}

const isMissing = (v: unknown) => v === undefined || v === null || (typeof v === 'number' && Number.isNaN(v));

function checkNumber(s: Schema, v: number, loc: Loc, out: ValidationIssue[]) {
  if (!Number.isFinite(v)) out.push({ loc, msg: 'Enter a number', type: 'client' });
  else if (s.type === 'integer' && !Number.isInteger(v)) out.push({ loc, msg: 'Enter a whole number', type: 'client' });
  else if (s.minimum !== undefined && v < s.minimum) out.push({ loc, msg: `Must be at least ${fmt(s.minimum)}`, type: 'client' });
  else if (s.maximum !== undefined && v > s.maximum) out.push({ loc, msg: `Must be at most ${fmt(s.maximum)}`, type: 'client' });
  else if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum)
    out.push({ loc, msg: `Must be more than ${fmt(s.exclusiveMinimum)}`, type: 'client' });
  else if (s.exclusiveMaximum !== undefined && v >= s.exclusiveMaximum)
    out.push({ loc, msg: `Must be less than ${fmt(s.exclusiveMaximum)}`, type: 'client' });
}

function check(schema: Schema, value: unknown, loc: Loc, out: ValidationIssue[]) {
  const s = resolve(schema);
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const branches = union.map(resolve);
    if (isMissing(value)) {
      // NaN is a field the form requires, emptied: an error even where the API would take null
      // (a nullable field whose mode asks for a number), never a silent "none"
      const emptied = typeof value === 'number' && Number.isNaN(value);
      if (emptied || !branches.some((b) => b.type === 'null')) out.push({ loc, msg: missingMessage(branches), type: 'client' });
      return;
    }
    // the branch the value fits best (a full configuration or a catalog reference, a number or null)
    let best: ValidationIssue[] | null = null;
    for (const b of branches) {
      if (b.type === 'null') continue;
      const issues: ValidationIssue[] = [];
      check(b, value, loc, issues);
      if (best === null || issues.length < best.length) best = issues;
      if (issues.length === 0) break;
    }
    out.push(...(best ?? []));
    return;
  }
  if (isMissing(value)) {
    if (s.type !== 'null') out.push({ loc, msg: missingMessage([s]), type: 'client' });
    return;
  }
  if (s.enum && !s.enum.includes(value)) {
    out.push({ loc, msg: 'Choose one of the options', type: 'client' });
    return;
  }
  if (s.const !== undefined && value !== s.const) {
    out.push({ loc, msg: 'Choose one of the options', type: 'client' });
    return;
  }
  switch (s.type) {
    case 'number':
    case 'integer':
      if (typeof value !== 'number') out.push({ loc, msg: 'Enter a number', type: 'client' });
      else checkNumber(s, value, loc, out);
      return;
    case 'string':
      if (typeof value !== 'string') out.push({ loc, msg: 'Enter text', type: 'client' });
      else if (s.minLength !== undefined && value.trim().length < s.minLength)
        out.push({ loc, msg: s.minLength === 1 ? 'Must not be empty' : `Needs at least ${plural(s.minLength, 'character')}`, type: 'client' });
      else if (s.maxLength !== undefined && value.length > s.maxLength)
        out.push({ loc, msg: `At most ${plural(s.maxLength, 'character')}`, type: 'client' });
      return;
    case 'array':
      if (!Array.isArray(value)) return;
      if (s.minItems !== undefined && value.length < s.minItems) out.push({ loc, msg: `Needs at least ${plural(s.minItems, 'entry', 'entries')}`, type: 'client' });
      if (s.maxItems !== undefined && value.length > s.maxItems) out.push({ loc, msg: `At most ${plural(s.maxItems, 'entry', 'entries')}`, type: 'client' });
      if (s.items) value.forEach((item, i) => check(s.items!, item, [...loc, i], out));
      return;
    case 'object':
    default:
      if (s.properties && typeof value === 'object') {
        const obj = value as Record<string, unknown>;
        for (const [key, sub] of Object.entries(s.properties)) {
          if (!(key in obj)) {
            if (s.required?.includes(key)) out.push({ loc: [...loc, key], msg: missingMessage([resolve(sub)]), type: 'client' });
            continue;
          }
          check(sub, obj[key], [...loc, key], out);
        }
      }
  }
}

function missingMessage(branches: Schema[]): string {
  const types = new Set(branches.map((b) => b.type));
  if (types.has('number') || types.has('integer')) return 'Enter a number';
  if (types.has('string')) return 'Must not be empty';
  return 'Required';
}

/** The problems of `body` as the request schema `schema` defines it; `loc` starts at `body`. */
export function validateRequest(schema: SchemaName, body: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  check({ $ref: `#/components/schemas/${schema}` }, body, ['body'], out);
  return out;
}
