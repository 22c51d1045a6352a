import { fieldWords } from './field-errors';

/**
 * The API's errors: FastAPI's `{ "detail": ... }` bodies parsed into an {@link ApiError}, with
 * per-field messages for 422 validation errors. Importable anywhere (components show these errors);
 * the client that throws them is `api-client.ts`.
 */

/** One item of FastAPI's 422 `detail` array (Pydantic v2 error). */
export type ValidationIssue = {
  /** Where the error is, e.g. `['body', 'workload', 'read_ratio']`. */
  loc: (string | number)[];
  /** The message for people (see {@link humaneMessage}). */
  msg: string;
  type: string;
  /** The API's own words, when `msg` was rewritten (e.g. to find the field a message names). */
  raw?: string;
};

/**
 * A failed request. `status` is 0 when the API could not be reached at all.
 * For 422 responses `fieldErrors` maps a dotted field path (the `loc` without its leading
 * `body`/`query`/`path`/`header`/`cookie`, e.g. `workload.read_ratio` or `drives.0.count`) to its
 * messages; errors about the request as a whole go to `formErrors`.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  /** The parsed response body (JSON, text or undefined). */
  readonly body: unknown;
  /** FastAPI's `detail`, when the body has one. */
  readonly detail: unknown;
  readonly issues: ValidationIssue[];
  readonly fieldErrors: Record<string, string[]>;
  readonly formErrors: string[];

  constructor(
    message: string,
    init: {
      status: number;
      body?: unknown;
      detail?: unknown;
      issues?: ValidationIssue[];
      fieldErrors?: Record<string, string[]>;
      formErrors?: string[];
    },
  ) {
    super(message);
    this.status = init.status;
    this.body = init.body;
    this.detail = init.detail;
    this.issues = init.issues ?? [];
    this.fieldErrors = init.fieldErrors ?? {};
    this.formErrors = init.formErrors ?? [];
  }

  /** The messages for one field (dotted path), empty when it has none. */
  messagesFor(field: string): string[] {
    return this.fieldErrors[field] ?? [];
  }

  get isValidation(): boolean {
    return this.status === 422;
  }
}

const LOCATION_PREFIXES = new Set(['body', 'query', 'path', 'header', 'cookie']);

function isIssue(x: unknown): x is ValidationIssue {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return Array.isArray(o.loc) && typeof o.msg === 'string';
}

const fmtBound = (x: string) => Number(x).toLocaleString('en-US', { maximumFractionDigits: 6 });

/** Pydantic's stock messages in plain words (the engine's own messages are already written for people). */
const HUMANE: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^Field required$/, () => 'Required'],
  [/^Input should be greater than or equal to (\S+)$/, (m) => `Must be at least ${fmtBound(m[1]!)}`],
  [/^Input should be less than or equal to (\S+)$/, (m) => `Must be at most ${fmtBound(m[1]!)}`],
  [/^Input should be greater than (\S+)$/, (m) => `Must be more than ${fmtBound(m[1]!)}`],
  [/^Input should be less than (\S+)$/, (m) => `Must be less than ${fmtBound(m[1]!)}`],
  [/^Input should be a finite number$/, () => 'Enter a finite number'],
  [/^Input should be a valid (number|integer).*$/, (m) => (m[1] === 'integer' ? 'Enter a whole number' : 'Enter a number')],
  [/^String should have at least 1 character$/, () => 'Must not be empty'],
  [/^String should have at least (\d+) characters$/, (m) => `Needs at least ${m[1]} characters`],
  [/^String should have at most (\d+) characters?$/, (m) => `At most ${m[1]} characters`],
  [/^List should have at least (\d+) items? after validation.*$/, (m) => `Needs at least ${m[1]} ${m[1] === '1' ? 'entry' : 'entries'}`],
  [/^List should have at most (\d+) items? after validation.*$/, (m) => `At most ${m[1]} ${m[1] === '1' ? 'entry' : 'entries'}`],
  [/^Input should be ('.+)$/, (m) => `Choose ${m[1]}`],
  [/^Input should be a valid (dictionary|list|object|array).*$/, () => 'Not in the expected form'],
  [/^Extra inputs are not permitted$/, () => 'Not a field of this form'],
  // the message sits at the field it names: "read_iops_4k is required for an SSD" -> "Required for an SSD"
  [/^[a-z][a-z0-9_]* is required (for .+)$/, (m) => `Required ${m[1]}`],
];

/** Field names inside a sentence in the forms' words: "give io_sizes or io_size_kib" -> "give I/O sizes or I/O size". */
function withFieldWords(text: string): string {
  return text.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (name) => fieldWords(name));
}

/** A 422 message for people: Pydantic's "Value error, " prefix dropped, stock phrases in plain words. */
export function humaneMessage(msg: string): string {
  const raw = msg.replace(/^(Value|Assertion) error, /, '');
  for (const [pattern, say] of HUMANE) {
    const m = raw.match(pattern);
    if (m) return say(m);
  }
  const text = withFieldWords(raw);
  // a sentence starts with a capital; an identifier ("netapp-fas3170 allows ...") keeps its case
  return /^[a-z]+\b(?![-\d])/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Per dotted field path, the messages of `issues`; messages about the whole request under ''. */
export function issuesByField(issues: readonly ValidationIssue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of issues) (out[fieldPath(issue.loc)] ??= []).push(issue.msg);
  return out;
}

/** The dotted field path for a `loc`, '' for the request as a whole. */
export function fieldPath(loc: readonly (string | number)[]): string {
  const rest = loc.length > 0 && LOCATION_PREFIXES.has(String(loc[0])) ? loc.slice(1) : loc;
  return rest.map(String).join('.');
}

/** Build an {@link ApiError} from a response status and its (parsed) body. */
export function parseApiError(status: number, body: unknown, statusText = ''): ApiError {
  const detail =
    typeof body === 'object' && body !== null && 'detail' in body
      ? (body as { detail: unknown }).detail
      : undefined;
  const fallback = `Request failed: ${status}${statusText ? ` ${statusText}` : ''}`;

  if (Array.isArray(detail) && detail.every(isIssue)) {
    const issues = detail.map((d) => ({ loc: d.loc, msg: humaneMessage(d.msg), type: String(d.type ?? ''), raw: d.msg }));
    const fieldErrors: Record<string, string[]> = {};
    const formErrors: string[] = [];
    for (const issue of issues) {
      const key = fieldPath(issue.loc);
      if (key === '') formErrors.push(issue.msg);
      else (fieldErrors[key] ??= []).push(issue.msg);
    }
    const count = issues.length;
    const message = count === 1 ? `Invalid input: ${describe(issues[0]!)}` : `Invalid input (${count} errors)`;
    return new ApiError(message, { status, body, detail, issues, fieldErrors, formErrors });
  }
  if (typeof detail === 'string' && detail) {
    return new ApiError(detail, { status, body, detail, formErrors: [detail] });
  }
  if (typeof detail === 'object' && detail !== null && typeof (detail as { message?: unknown }).message === 'string') {
    const message = (detail as { message: string }).message;
    return new ApiError(message, { status, body, detail, formErrors: [message] });
  }
  if (typeof body === 'string' && body.trim() && body.length < 300) {
    return new ApiError(`${fallback}: ${body.trim()}`, { status, body });
  }
  return new ApiError(fallback, { status, body, detail });
}

function describe(issue: ValidationIssue): string {
  const key = fieldPath(issue.loc);
  return key ? `${key}: ${issue.msg}` : issue.msg;
}
