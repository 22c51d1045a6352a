"""Bill of materials: drives, spares, shelves, rack units, power and list cost, each with its formula.

Power and cost are ``None`` when any part lacks the figure (unknown, never guessed).
"""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from models.capacity import PoolCapacity
from models.configuration import Configuration
from models.explain import explained, fmt
from models.results import BillOfMaterials

Num = TypeVar("Num", float, NDArray[np.float64])
"""A figure of one configuration (float) or of many (the batch path's arrays), in and out alike."""


def shelves_needed(
    drives: int | NDArray[np.int64],
    in_controller: int | NDArray[np.int64],
    per_shelf: int | NDArray[np.float64],
) -> int | NDArray[np.float64]:
    """Drive shelves: ``ceil(max(0, N + spares - drives in controller enclosure) / drives per shelf)``.

    ``drives`` counts spares. An ``int`` for one configuration; for arrays, whole numbers as
    floats (the batch path multiplies them into rack units, power and cost before casting).
    """
    if isinstance(drives, np.ndarray) or isinstance(in_controller, np.ndarray):
        return np.asarray(np.ceil(np.maximum(0, drives - in_controller) / per_shelf), dtype=np.float64)
    return math.ceil(max(0, drives - in_controller) / per_shelf)


def enclosure_rack_units(shelves: Num, controller_ru: Num, shelf_ru: Num) -> Num:
    """Rack units: ``controller enclosure + shelves x shelf height`` [U]."""
    return controller_ru + shelves * shelf_ru


def enclosure_power_w(shelves: Num, controller_w: Num, shelf_w: Num) -> Num:
    """Power of the enclosures before drives: ``controllers + shelves x shelf power`` [W]."""
    return controller_w + shelves * shelf_w


def enclosure_cost_usd(
    shelves: Num, controller_usd: Num, shelf_usd: Num, flash_gb: Num, usd_per_gb: Num
) -> Num:
    """List cost before drives: ``controllers + shelves x shelf price + flash GB x price per GB`` [USD]."""
    return controller_usd + shelves * shelf_usd + flash_gb * usd_per_gb


def bill_of_materials(
    cfg: Configuration, counts: dict[str, int], pcaps: list[PoolCapacity]
) -> BillOfMaterials:
    """The bill of ``cfg`` with ``counts`` drives per pool (excl. spares) and the pools' capacities.

    ``N`` = drives in RAID groups of every pool (mixed-in drives too); spares from each pool's
    capacity result; ``shelves = ceil(max(0, N + spares - drives in controller enclosure) /
    drives per shelf)``; rack units, power and list cost add up controllers, shelves, drives and
    flash cache.
    """
    pk = cfg.packaging
    drives = sum(counts.values()) + sum(p.other_count for p in cfg.pools)
    spares = sum(pc.spares for pc in pcaps)
    total = drives + spares
    shelves = int(shelves_needed(total, pk.drives_in_controller_enclosure, pk.drives_per_shelf))
    ru = enclosure_rack_units(shelves, pk.controller_rack_units, pk.shelf_rack_units)
    power: float | None = enclosure_power_w(shelves, pk.controller_power_w, pk.shelf_power_w)
    cost: float | None = enclosure_cost_usd(
        shelves,
        pk.controller_price_usd,
        pk.shelf_price_usd,
        cfg.cache.flash_cache_gb,
        pk.flash_cache_price_usd_per_gb,
    )
    for pool in cfg.pools:
        members = [(pool.drive, counts[pool.name] + next(pc.spares for pc in pcaps if pc.pool == pool.name))]
        members += [(g.drive, g.count) for g in pool.other_drives]
        for drive, n in members:
            if drive.power_w is None:
                power = None
            elif power is not None:
                power += n * drive.power_w
            if drive.price_usd is None:
                cost = None
            elif cost is not None:
                cost += n * drive.price_usd
    drive_terms = " + ".join(
        [f"{counts[p.name]} x {p.drive.name}" for p in cfg.pools]
        + [f"{g.count} x {g.drive.name}" for p in cfg.pools for g in p.other_drives]
    )
    spare_terms = ", ".join(
        f"{pc.pool}: max({p.spares.min_spares}, ceil({pc.drives} / {p.spares.per_drives})) = {pc.spares}"
        if p.spares.per_drives is not None
        else f"{pc.pool}: {pc.spares} (fixed)"
        for p, pc in zip(cfg.pools, pcaps, strict=True)
    )
    price_terms = " + ".join(
        f"{counts[p.name] + pc.spares} x {fmt(p.drive.price_usd)} USD"
        for p, pc in zip(cfg.pools, pcaps, strict=True)
    )
    power_terms = " + ".join(
        f"{counts[p.name] + pc.spares} x {fmt(p.drive.power_w)} W"
        for p, pc in zip(cfg.pools, pcaps, strict=True)
    )
    explain = {
        "drives": explained(
            drives, "drives", "N = drives in RAID groups, all pools", f"N = {drive_terms} = {drives}"
        ),
        "spares": explained(
            spares,
            "spares",
            "spares = max(min spares, ceil(N / drives per spare)) per pool",
            f"spares: {spare_terms}",
        ),
        "shelves": explained(
            shelves,
            "shelves",
            "shelves = ceil(max(0, N + spares - drives in controller enclosure) / drives per shelf)",
            f"shelves = ceil(max(0, {total} - {pk.drives_in_controller_enclosure}) / {pk.drives_per_shelf}) = {shelves}",
            drives=total,
            in_controller=pk.drives_in_controller_enclosure,
            per_shelf=pk.drives_per_shelf,
        ),
        "rack_units": explained(
            ru,
            "U",
            "RU = controller enclosure + shelves x shelf height",
            f"RU = {fmt(pk.controller_rack_units)} + {shelves} x {fmt(pk.shelf_rack_units)} = {fmt(ru)} U",
        ),
        "power_w": explained(
            power,
            "W",
            "power = controllers + shelves x shelf power + drives x drive power",
            f"power = {fmt(pk.controller_power_w)} + {shelves} x {fmt(pk.shelf_power_w)} + {power_terms}"
            + (f" = {fmt(power)} W" if power is not None else " (a drive has no power figure)"),
        ),
        "cost_usd": explained(
            cost,
            "USD",
            "cost = controllers + shelves x shelf price + drives x drive price + flash GB x price per GB (list)",
            f"cost = {fmt(pk.controller_price_usd)} + {shelves} x {fmt(pk.shelf_price_usd)} + {price_terms} + "
            f"{fmt(cfg.cache.flash_cache_gb)} GB x {fmt(pk.flash_cache_price_usd_per_gb)}"
            + (f" = {fmt(cost)} USD" if cost is not None else " (a drive has no price)"),
        ),
    }
    return BillOfMaterials(
        drives=drives,
        spares=spares,
        shelves=shelves,
        rack_units=ru,
        power_w=power,
        cost_usd=cost,
        flash_cache_gb=cfg.cache.flash_cache_gb,
        explain=explain,
    )
