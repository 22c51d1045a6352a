"""Changed inputs for the what-if analyses: grown workloads, moved write shares, working sets,
skews, caches, layout aging, tiering locality, scale-out efficiency and drive counts.

Each function returns new frozen inputs (and, where an input may not apply, whether anything changed)."""

from __future__ import annotations

from models import tiering as tiering_model
from models.buildable import drive_step, fewest_drives
from models.configuration import Configuration
from models.controller import HaMode
from models.evaluate import (
    pool_drive_counts,
    write_fill,
)
from models.raid import RaidScheme, full_stripe_share
from models.workload import Skew, Workload

FULL_STRIPE_SCHEMES = {RaidScheme.RAID_DP, RaidScheme.RAID_TEC, RaidScheme.ERASURE}
"""Schemes whose write cost depends on the full-stripe share (layout aging); RAID-Z always writes full stripes."""


def window_only(workloads: list[Workload], window: str) -> list[Workload]:
    """The workloads with only their phases in ``window`` (workloads idle in it left out)."""
    return [
        w.model_copy(update={"phases": [ph for ph in w.phases if ph.window == window]})
        for w in workloads
        if any(ph.window == window for ph in w.phases)
    ]


def grow_workload(workload: Workload, factor: float, grow_working_set: bool = True) -> Workload:
    """``workload`` with capacity, IOPS (and MB/s) and working sets times ``factor``, horizon 0.

    The grown capacity is today's need, so the horizon is cleared (capacity is checked at the
    month projected, not compounded again). A working set given as a share of capacity grows
    with it whatever ``grow_working_set`` says.
    """
    ws = grow_working_set
    phases = [
        ph.model_copy(
            update={
                "iops": ph.iops * factor,
                "mb_per_s": ph.mb_per_s * factor if ph.mb_per_s else ph.mb_per_s,
                "working_set_gb": ph.working_set_gb * factor
                if ws and ph.working_set_gb
                else ph.working_set_gb,
            }
        )
        for ph in workload.phases
    ]
    return workload.model_copy(
        update={
            "capacity_tb": workload.capacity_tb * factor,
            "horizon_years": 0.0,
            "working_set_gb": workload.working_set_gb * factor
            if ws and workload.working_set_gb
            else workload.working_set_gb,
            "phases": phases,
        }
    )


def with_read_pct(workloads: list[Workload], write_delta_points: float) -> list[Workload]:
    """Every phase's write share moved by ``write_delta_points`` (read share the other way), clamped to 0-100."""
    return [
        w.model_copy(
            update={
                "phases": [
                    ph.model_copy(update={"read_pct": min(100.0, max(0.0, ph.read_pct - write_delta_points))})
                    for ph in w.phases
                ]
            }
        )
        for w in workloads
    ]


def with_working_set(workloads: list[Workload], factor: float) -> list[Workload]:
    """Working sets times ``factor``, never beyond the workload's capacity (hot data is data)."""
    out = []
    for w in workloads:
        cap_gb = w.capacity_tb * 1000.0
        phases = [
            ph.model_copy(update={"working_set_gb": min(cap_gb, ph.working_set_gb * factor)})
            if ph.working_set_gb is not None
            else ph
            for ph in w.phases
        ]
        update: dict[str, object] = {"phases": phases}
        if w.working_set_gb is not None:
            update["working_set_gb"] = min(cap_gb, w.working_set_gb * factor)
        elif w.working_set_pct is not None:
            update["working_set_pct"] = min(100.0, w.working_set_pct * factor)
        else:
            update["working_set_gb"] = min(cap_gb, cap_gb * factor)
        out.append(w.model_copy(update=update))
    return out


def is_rule(skew: Skew) -> bool:
    return skew.io_pct is not None and skew.data_pct is not None


def with_zipf(workloads: list[Workload], alpha_delta: float) -> tuple[list[Workload], bool]:
    """Zipf exponents moved by ``alpha_delta`` (uniform counts as alpha 0), clamped to 0-3.

    Skews given as a rule ("x% of I/O to y% of data") are left alone. Returns whether anything changed.
    """
    out, changed = [], False
    for w in workloads:
        if is_rule(w.skew):
            out.append(w)
            continue
        alpha = w.skew.zipf_alpha or 0.0
        new = min(3.0, max(0.0, alpha + alpha_delta))
        changed = changed or new != alpha
        out.append(
            w.model_copy(update={"skew": w.skew.model_copy(update={"zipf_alpha": new if new > 0 else None})})
        )
    return out, changed


def with_hot_data(workloads: list[Workload], factor: float) -> tuple[list[Workload], bool]:
    """Rule skews with the hot data share times ``factor`` (kept above 0, at most the I/O share)."""
    out, changed = [], False
    for w in workloads:
        s = w.skew
        if not is_rule(s):
            out.append(w)
            continue
        assert s.io_pct is not None and s.data_pct is not None
        new = min(s.io_pct, max(0.01, s.data_pct * factor))
        changed = changed or new != s.data_pct
        out.append(w.model_copy(update={"skew": s.model_copy(update={"data_pct": new})}))
    return out, changed


def cache_gb(cfg: Configuration) -> tuple[float, float]:
    """(DRAM of the serving controllers, flash cache) [GB]."""
    return cfg.controller.dram_cache_gb * cfg.controller.serving, cfg.cache.flash_cache_gb


def with_cache(cfg: Configuration, factor: float) -> Configuration:
    """DRAM read cache and flash cache both times ``factor``."""
    return cfg.model_copy(
        update={
            "controller": cfg.controller.model_copy(
                update={"dram_cache_gb": cfg.controller.dram_cache_gb * factor}
            ),
            "cache": cfg.cache.model_copy(update={"flash_cache_gb": cfg.cache.flash_cache_gb * factor}),
        }
    )


def with_total_cache(cfg: Configuration, total_gb: float) -> Configuration:
    """Cache levels rescaled to ``total_gb`` (DRAM of the serving controllers + flash), keeping their split."""
    dram, flash = cache_gb(cfg)
    if dram + flash > 0:
        return with_cache(cfg, total_gb / (dram + flash))
    return cfg.model_copy(
        update={
            "controller": cfg.controller.model_copy(
                update={"dram_cache_gb": total_gb / max(cfg.controller.serving, 1)}
            )
        }
    )


def with_full_stripe(cfg: Configuration, delta: float) -> tuple[Configuration, bool]:
    """Full-stripe share of WAFL and erasure-coded pools moved by ``delta`` (layout aging), 0-1."""
    pools, changed = [], False
    for p in cfg.pools:
        if p.raid.scheme not in FULL_STRIPE_SCHEMES:
            pools.append(p)
            continue
        base = full_stripe_share(p.raid, write_fill(p, cfg))
        new = min(1.0, max(0.0, base + delta))
        changed = changed or new != base
        pools.append(p.model_copy(update={"raid": p.raid.model_copy(update={"full_stripe_share": new})}))
    return cfg.model_copy(update={"pools": pools}), changed


def with_locality(cfg: Configuration, delta: float) -> tuple[Configuration, bool]:
    """Tiering b-model bias moved by ``delta`` (kept in [0.51, 0.99]); no effect without modelled tiering."""
    tc = cfg.tiering
    if tc is None or tc.fast_tier_fraction is not None:
        return cfg, False
    base = tc.locality_b if tc.locality_b is not None else tiering_model.DEFAULT_B
    new = min(0.99, max(0.51, base + delta))
    return cfg.model_copy(update={"tiering": tc.model_copy(update={"locality_b": new})}), new != base


def scaled_out(cfg: Configuration) -> bool:
    """Whether the controllers are scale-out nodes sharing the load (efficiency applies)."""
    return cfg.controller.ha_mode == HaMode.SCALE_OUT and cfg.controller.count > 1


def with_efficiency(cfg: Configuration, efficiency: float) -> tuple[Configuration, bool]:
    """Each scale-out node delivering ``efficiency`` of its standalone throughput.

    Cores, and the IOPS and MB/s ceilings per node, times the efficiency (cluster traffic,
    imperfect balance). Dual controllers and single systems are left alone.
    """
    if not scaled_out(cfg) or efficiency == 1.0:
        return cfg, False
    c = cfg.controller
    return (
        cfg.model_copy(
            update={
                "controller": c.model_copy(
                    update={
                        "cores": c.cores * efficiency,
                        "max_iops": c.max_iops * efficiency if c.max_iops else c.max_iops,
                        "max_mb_s": c.max_mb_s * efficiency if c.max_mb_s else c.max_mb_s,
                    }
                )
            }
        ),
        True,
    )


def with_drive_groups(cfg: Configuration, pct: float, sign: int) -> tuple[Configuration, bool, str]:
    """Each pool's drive count moved by ``pct`` % in whole RAID groups (at least one group).

    Replicated pools move by single drives. A pool that cannot shrink (one group) is left alone.
    Controllers are unchanged (a scale-out cluster keeps its node count).
    """
    counts = pool_drive_counts(cfg)
    pools, changed, texts = [], False, []
    for p in cfg.pools:
        n = counts[p.name]
        unit = 1 if p.raid.scheme is RaidScheme.REPLICA else drive_step(p.raid)
        least = fewest_drives(p.raid, p.spares)
        groups = n // unit
        step = max(1, round(groups * pct / 100.0))
        new = n + sign * step * unit
        if new < least:
            pools.append(p)
            texts.append(f"{p.name} {n} drives (cannot shrink)")
            continue
        changed = True
        pools.append(p.model_copy(update={"drive_count": new}))
        texts.append(f"{p.name} {n} -> {new} drives")
    return cfg.model_copy(update={"pools": pools}), changed, "; ".join(texts)
