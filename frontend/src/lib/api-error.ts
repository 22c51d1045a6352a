/**
 * The API's errors: FastAPI's `{ "detail": ... }` bodies parsed into an {@link ApiError}, with
 * per-field messages for 422 validation errors. Importable anywhere (components show these errors);
 * the client that throws them is `api-client.ts`.
 */

/** One item of FastAPI's 422 `detail` array (Pydantic v2 error). */
export type ValidationIssue = {
  /** Where the error is, e.g. `['body', 'workload', 'read_ratio']`. */
  loc: (string | number)[];
  msg: string;
  type: string;
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

/** Pydantic prefixes messages raised by custom validators with "Value error, ". */
function cleanMessage(msg: string): string {
  return msg.replace(/^(Value|Assertion) error, /, '');
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
    const issues = detail.map((d) => ({ loc: d.loc, msg: cleanMessage(d.msg), type: String(d.type ?? '') }));
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
