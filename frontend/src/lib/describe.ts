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
