/** Plain-words descriptions of API objects, shared by features. */

/** What every view says of a configuration its array does not offer (the server's words). */
export const HYPOTHETICAL = 'hypothetical: not offered by this array';

export type Described = {
  name: string;
  /** Computed although its array does not offer it. */
  hypothetical?: boolean;
  pools: { drive: { name: string }; raid: { scheme: string; group_width: number } }[];
  cache?: { flash_cache_gb?: number } | null;
};

/**
 * What a configuration is, from its contents rather than its name: model, drive, RAID scheme and
 * width per pool, flash cache ("FAS3170 (HA pair), 450 GB 15K FC, raid10 8").
 */
export function describeConfiguration(c: Described): string {
  const model = c.name.split(',')[0]!.trim();
  const pools = c.pools.map((p) => `${p.drive.name.replace(/\s*\(.*\)$/, '')}, ${p.raid.scheme} ${p.raid.group_width}`);
  const flash = c.cache?.flash_cache_gb ? [`${c.cache.flash_cache_gb} GB flash`] : [];
  const hypothetical = c.hypothetical ? [HYPOTHETICAL] : [];
  return [model, ...pools, ...flash, ...hypothetical].join(', ');
}

/**
 * An engine check or bottleneck name in words, as the engine's `models.naming.check_words` says
 * it: `drives:pool` -> `the drives`, `drives:fast (month-end)` -> `the drives of fast (month-end)`,
 * `read latency:oltp/day` -> `the read latency of oltp, day`.
 */
export function checkWords(name: string, pools = 1): string {
  const m = name.match(/^(.*?)(?: \(([^()]*)\))?$/);
  const check = m?.[1] ?? name;
  const window = m?.[2];
  const [head, ...rest] = check.split(':');
  const tail = rest.join(':');
  let words: string;
  if (head === 'parity drives') words = pools <= 1 ? 'the parity drives' : `the parity drives of ${tail}`;
  else if (head === 'drives') {
    const [pool, degraded] = tail.split(':');
    words = pools <= 1 ? 'the drives' : `the drives of ${pool}`;
    if (degraded) words += ' (one RAID group degraded)';
  } else if (head === 'read latency') words = `the read latency of ${tail.replace('/', ', ')}`;
  else if (head === 'ports') words = 'the front-end ports';
  else if (head === 'capacity') words = 'the capacity';
  else if (head === 'none') words = 'nothing';
  else words = `the ${check}`;
  return window ? `${words} (${window})` : words;
}
