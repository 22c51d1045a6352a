/**
 * A complete `Configuration` from catalog records and the builder's choices: the client-side
 * counterpart of `models.catalog.build_configuration` (a configuration is self-contained, so the
 * controller, packaging and drive specs are copied in). The API validates the result; messages
 * here only cover choices the builder cannot express otherwise.
 */
import type { ArrayModel, CacheConfig, Configuration, DriveSpec, HeadroomTargets, RaidOption } from '@/lib/api-types';

export type BuildChoices = {
  raidScheme: string;
  /** null = the scheme's default width on this array. */
  groupWidth: number | null;
  /** null = leave it open for sizing. */
  driveCount: number | null;
  flashCacheGb: number;
  /** Port option name; '' = the array's default. */
  portOption: string;
  headroom: HeadroomTargets;
};

export function raidOption(array: ArrayModel, scheme: string): RaidOption | undefined {
  return array.raid.find((r) => r.scheme === scheme);
}

/** The group widths the array allows for a RAID option. */
export function allowedWidths(option: RaidOption): number[] {
  if (option.widths && option.widths.length) return [...option.widths].sort((a, b) => a - b);
  const out: number[] = [];
  for (let w = option.min_width; w <= option.max_width; w += 1) {
    if (option.scheme === 'raid10' && w % 2) continue;
    out.push(w);
  }
  return out;
}

/** Every flash-cache size the array sells (GB, whole system), smallest first. */
export function flashCacheSizes(array: ArrayModel): number[] {
  const sizes = new Set<number>();
  for (const f of array.flash_cache ?? []) for (const s of f.sizes_gb) sizes.add(s);
  return [...sizes].sort((a, b) => a - b);
}

function cacheFor(array: ArrayModel, gb: number): { cache: CacheConfig; pricePerGb: number } {
  const none: CacheConfig = {
    flash_cache_gb: 0,
    flash_kind: 'flash-cache',
    flash_hit_ms: 1,
    dedupe_aware: false,
    exclusive: true,
    cache_sequential: false,
  };
  if (gb <= 0) return { cache: none, pricePerGb: 0 };
  const option =
    (array.flash_cache ?? []).find((f) => f.sizes_gb.some((s) => Math.abs(s - gb) <= 1e-9 * s)) ??
    (array.flash_cache ?? []).find((f) => f.any_size && gb <= Math.max(...f.sizes_gb));
  if (!option) return { cache: { ...none, flash_cache_gb: gb }, pricePerGb: 0 };
  return {
    cache: {
      ...none,
      flash_cache_gb: gb,
      flash_kind: option.kind,
      flash_hit_ms: option.hit_ms,
      dedupe_aware: option.dedupe_aware,
      exclusive: option.exclusive,
    },
    pricePerGb: option.price_usd_per_gb,
  };
}

export type BuildOutcome = { ok: true; configuration: Configuration } | { ok: false; field: string; message: string };

export function buildConfiguration(array: ArrayModel, drive: DriveSpec, choices: BuildChoices): BuildOutcome {
  const option = raidOption(array, choices.raidScheme);
  if (!option) {
    const offered = array.raid.map((r) => r.scheme).join(', ');
    return { ok: false, field: 'raidScheme', message: `${array.model} does not offer ${choices.raidScheme || 'that scheme'} (offered: ${offered})` };
  }
  const width = choices.groupWidth ?? option.default_width;
  if (!allowedWidths(option).includes(width)) {
    return { ok: false, field: 'groupWidth', message: `${array.model} allows ${option.scheme} groups of ${option.min_width}-${option.max_width} drives` };
  }
  const raid =
    option.scheme === 'erasure' && option.ec_parity
      ? { scheme: option.scheme, group_width: width, ec_data: width - option.ec_parity, ec_parity: option.ec_parity, copies: option.copies, full_stripe_share: null, scatter: 0 }
      : { scheme: option.scheme, group_width: width, ec_data: null, ec_parity: null, copies: option.copies, full_stripe_share: null, scatter: 0 };

  let controller = array.controller;
  let portScale = 1;
  const so = array.scale_out;
  if (so && choices.driveCount !== null) {
    const baseNodes = Math.floor(controller.count / so.controllers_per_node);
    const nodes = so.fixed_drives_per_node
      ? Math.max(so.min_nodes, Math.ceil(choices.driveCount / so.drives_per_node))
      : Math.max(baseNodes, Math.ceil(choices.driveCount / so.drives_per_node));
    if (nodes !== baseNodes && nodes <= so.max_nodes) {
      controller = { ...controller, count: nodes * so.controllers_per_node };
      portScale = nodes / baseNodes;
    }
  }

  const portOption = array.port_options.find((p) => p.name === (choices.portOption || array.default_ports)) ?? array.port_options[0]!;
  const ports = portOption.ports.map((g) => (portScale === 1 ? g : { ...g, count: Math.ceil(g.count * portScale) }));
  const { cache, pricePerGb } = cacheFor(array, choices.flashCacheGb);

  const countText = choices.driveCount === null ? 'sized' : String(choices.driveCount);
  const configuration: Configuration = {
    name: `${array.model}, ${countText} x ${drive.name}, ${option.scheme} ${width}`,
    vendor: array.vendor,
    array_id: array.id,
    controller,
    ports,
    pools: [{ name: 'pool', drive, drive_count: choices.driveCount, raid, spares: array.spares }],
    cache,
    tiering: null,
    packaging: {
      ...array.packaging,
      max_drives: array.max_drives,
      flash_cache_price_usd_per_gb: pricePerGb || array.packaging.flash_cache_price_usd_per_gb,
    },
    capacity: array.capacity,
    headroom: choices.headroom,
  };
  return { ok: true, configuration };
}
