"""What-if adjustments: workloads and a configuration moved by a few dials, as the engine defines them.

The what-if dials (growth, flash cache, drive count, write share, working set, load) are applied
here, with the moves of :mod:`models.whatif.changes` where the analyses (sensitivity, ranges)
make the same move, so a what-if and those analyses agree by construction::

    growth         g' = the dial, for every workload                        [%/year]
    write share    read_pct' = clamp(read_pct - delta, 0, 100) per phase    [points]
    working set    WS' = min(C, WS x k) for workload and phase working sets (hot data is data;
                   a workload without one is all of its capacity C, so k < 1 shrinks it)
    load           IOPS' = IOPS x s, MB/s' = MB/s x s per phase
    drives         N' of the first pool (whole RAID groups are the caller's choice)
    flash cache    the total flash [GB], with the product the array sells in that size
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from models.base import Frozen, InputError
from models.catalog import FlashCacheOption
from models.configuration import Configuration
from models.whatif.changes import with_read_pct as shift_write_share
from models.whatif.changes import with_working_set as scale_working_sets
from models.workload import Workload


class Adjustments(Frozen):
    """The what-if dials; each at its neutral value (None, 0 or 1) leaves its input as it is."""

    growth_pct_per_year: float | None = Field(
        default=None, ge=0.0, le=1000.0, description="growth of every workload [%/year]; null = as entered"
    )
    flash_cache_gb: float | None = Field(
        default=None, ge=0.0, le=1e6, description="total flash cache [GB]; null = as configured"
    )
    drive_count: int | None = Field(
        default=None,
        ge=1,
        le=100000,
        description="drives of the first pool (excl. spares); null = as configured",
    )
    write_shift_pp: float = Field(
        default=0.0,
        ge=-100.0,
        le=100.0,
        description="change of every phase's write share [percentage points]",
    )
    working_set_scale: float = Field(default=1.0, gt=0.0, le=100.0, description="working sets times this")
    iops_scale: float = Field(
        default=1.0, gt=0.0, le=100.0, description="every phase's IOPS and MB/s times this"
    )


def scale_load(workloads: list[Workload], factor: float) -> list[Workload]:
    """Every phase's IOPS (and MB/s, when given) times ``factor``; capacity and working sets unchanged."""
    return [
        w.model_copy(
            update={
                "phases": [
                    ph.model_copy(
                        update={
                            "iops": ph.iops * factor,
                            "mb_per_s": ph.mb_per_s * factor if ph.mb_per_s else ph.mb_per_s,
                        }
                    )
                    for ph in w.phases
                ]
            }
        )
        for w in workloads
    ]


def adjust_workloads(workloads: list[Workload], adjustments: Adjustments) -> list[Workload]:
    """``workloads`` with the workload dials of ``adjustments`` applied (see the module docstring)."""
    a = adjustments
    out = list(workloads)
    if a.growth_pct_per_year is not None:
        out = [w.model_copy(update={"growth_pct_per_year": a.growth_pct_per_year}) for w in out]
    if a.iops_scale != 1.0:
        out = scale_load(out, a.iops_scale)
    if a.write_shift_pp != 0.0:
        out = shift_write_share(out, a.write_shift_pp)
    if a.working_set_scale != 1.0:
        out = scale_working_sets(out, a.working_set_scale)
    return out


def with_flash_cache(
    config: Configuration, flash_cache_gb: float, offered: Sequence[FlashCacheOption] = ()
) -> Configuration:
    """``config`` with ``flash_cache_gb`` of flash; from an array's ``offered`` products, the one selling that size.

    Without products (a configuration of custom hardware) the cache keeps its kind and hit time.
    Raises :class:`InputError` (``flash_cache_gb``) when products are given and none sells the size.
    """
    if flash_cache_gb == config.cache.flash_cache_gb:
        return config
    if flash_cache_gb == 0 or not offered:
        return config.model_copy(
            update={"cache": config.cache.model_copy(update={"flash_cache_gb": flash_cache_gb})}
        )
    option = next((f for f in offered if f.offers(flash_cache_gb)), None)
    if option is None:
        sizes = "; ".join(f"{f.name}: {', '.join(f'{s:g}' for s in f.sizes_gb)} GB" for f in offered)
        raise InputError(
            "flash_cache_gb", f"no {flash_cache_gb:g} GB flash cache is sold for this array ({sizes})"
        )
    cache = config.cache.model_copy(
        update={
            "flash_cache_gb": flash_cache_gb,
            "flash_kind": option.kind,
            "flash_hit_ms": option.hit_ms,
            "dedupe_aware": option.dedupe_aware,
            "exclusive": option.exclusive,
        }
    )
    price = option.price_usd_per_gb or config.packaging.flash_cache_price_usd_per_gb
    packaging = config.packaging.model_copy(update={"flash_cache_price_usd_per_gb": price})
    return config.model_copy(update={"cache": cache, "packaging": packaging})


def adjust_configuration(
    config: Configuration, adjustments: Adjustments, offered_flash: Sequence[FlashCacheOption] = ()
) -> Configuration:
    """``config`` with the drive-count and flash-cache dials of ``adjustments`` applied.

    Errors name ``drive_count`` or ``flash_cache_gb`` (the dial), for the caller to place.
    """
    a = adjustments
    out = config
    if a.drive_count is not None:
        first = out.pools[0]
        out = out.model_copy(
            update={"pools": [first.model_copy(update={"drive_count": a.drive_count}), *out.pools[1:]]}
        )
    if a.flash_cache_gb is not None:
        out = with_flash_cache(out, a.flash_cache_gb, offered_flash)
    return out


__all__ = [
    "Adjustments",
    "adjust_configuration",
    "adjust_workloads",
    "scale_load",
    "scale_working_sets",
    "shift_write_share",
    "with_flash_cache",
]
