/**
 * Owner tokens of the records this browser created. The server hands a record's token out once,
 * on create; changing, cancelling or deleting the record needs it (`X-Owner-Token`), reading does
 * not. Each kind of record keeps its tokens in localStorage under its own key, by record id, so a
 * reload keeps the right to change them.
 */
export type OwnerTokens = {
  /** The owner token of record `id`, if this browser created it. */
  of(id: string): string | undefined;
  remember(id: string, token: string): void;
  forget(id: string): void;
  /** The `X-Owner-Token` header for record `id` (none when this browser does not own it). */
  headers(id: string): Record<string, string>;
};

export function ownerTokens(storageKey: string): OwnerTokens {
  function read(): Record<string, string> {
    if (typeof localStorage === 'undefined') return {};
    try {
      const value: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '{}');
      return value && typeof value === 'object' ? (value as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  function write(tokens: Record<string, string>): void {
    if (typeof localStorage !== 'undefined') localStorage.setItem(storageKey, JSON.stringify(tokens));
  }

  return {
    of: (id) => read()[id],
    remember: (id, token) => write({ ...read(), [id]: token }),
    forget: (id) => {
      const { [id]: _gone, ...rest } = read();
      write(rest);
    },
    headers: (id): Record<string, string> => {
      const token = read()[id];
      return token ? { 'X-Owner-Token': token } : {};
    },
  };
}
