/**
 * Owner tokens of the custom hardware records this browser created. The server hands a record's
 * token out once, on create; editing or deleting the record needs it (`X-Owner-Token`), reading
 * does not. Kept in localStorage by record id, so a reload keeps the right to edit.
 */
const STORAGE_KEY = 'sizer.hardware-owner-tokens.v1';

function read(): Record<string, string> {
  if (typeof localStorage === 'undefined') return {};
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function write(tokens: Record<string, string>): void {
  if (typeof localStorage !== 'undefined') localStorage.setItem(STORAGE_KEY, JSON.stringify(tokens));
}

/** The owner token of record `id`, if this browser created it. */
export function ownerTokenOf(id: string): string | undefined {
  return read()[id];
}

export function rememberOwnerToken(id: string, token: string): void {
  write({ ...read(), [id]: token });
}

export function forgetOwnerToken(id: string): void {
  const { [id]: _gone, ...rest } = read();
  write(rest);
}

/** The `X-Owner-Token` header for record `id` (none when this browser does not own it). */
export function ownerHeaders(id: string): Record<string, string> {
  const token = ownerTokenOf(id);
  return token ? { 'X-Owner-Token': token } : {};
}
