"""Capacity: raw -> right-sized -> RAID -> spares -> reserves -> usable -> effective.

Marketed drive capacity is decimal (TB = 10^12 bytes); arrays right-size drives to a smaller
binary figure (a "450 GB" drive is right-sized to 418,000 MiB = 408 GiB on NetApp). Every step
is an :class:`Explained` figure so the waterfall can be checked line by line::

    raw          = (N + spares) x C_marketed
    right-sized  = N x C_right-sized            (spares excluded: they hold no data)
    after RAID   = sum over groups d_g x C_right-sized     (mirrors: half; replication: 1/n)
    usable       = after RAID x (1 - fs_reserve) x (1 - snapshot_reserve)
    effective    = usable x data reduction (logical / physical of the workloads stored)
    needed       = sum over workloads C x (1+g)^years x replication_capacity / (dedupe x compression)
                   / (1 - workload snapshot reserve)
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from pydantic import Field

from models.base import InputError, Output
from models.checks import within
from models.configuration import CapacityPolicy, DrivePool, SparePolicy
from models.explain import Explained, explained, fmt
from models.raid import RaidLayout, RaidScheme, capacity_efficiency, tolerated_failures
from models.units import GIB, TB
from models.workload import Workload

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


class RaidGroups(Output):
    """How N drives split into RAID groups: ``full`` groups of ``width`` and one of ``remainder``."""

    full: int
    width: int
    remainder: int

    @property
    def count(self) -> int:
        return self.full + (1 if self.remainder else 0)


def min_group_width(layout: RaidLayout) -> int:
    """Smallest legal group for the scheme (RAID5 3, RAID6 4, RAID-DP 3, RAID-TEC 4, RAID10 2...)."""
    return {
        RaidScheme.RAID0: 1,
        RaidScheme.RAID1: 2,
        RaidScheme.RAID10: 2,
        RaidScheme.RAID5: 3,
        RaidScheme.RAID6: 4,
        RaidScheme.RAID_DP: 3,
        RaidScheme.RAID_TEC: 4,
        RaidScheme.ZFS_MIRROR: layout.group_width,
        RaidScheme.RAIDZ1: 3,
        RaidScheme.RAIDZ2: 4,
        RaidScheme.RAIDZ3: 5,
        RaidScheme.ERASURE: layout.group_width,
        RaidScheme.REPLICA: 1,
    }[layout.scheme]


def raid_groups(drive_count: int, layout: RaidLayout) -> RaidGroups:
    """Split ``drive_count`` (excluding spares) into groups of ``group_width``.

    A last, smaller group is allowed when it is at least the scheme's minimum width (and even
    for RAID10); otherwise the count is rejected naming the field. A distributed layout (PowerStore
    DRE) lays its stripes over chunks of every drive: any count from one stripe up, whose last
    ``drive_count mod group_width`` drives hold stripes as wide as the rest (not a narrower group).
    """
    if drive_count < 1:
        raise InputError("drive_count", "must be at least 1 drive")
    w = layout.group_width
    if layout.distributed:
        if drive_count < w:
            raise InputError(
                "drive_count",
                f"{drive_count} drives cannot hold one {w}-drive stripe of the distributed "
                f"{layout.scheme.value} layout",
            )
        return RaidGroups(full=drive_count // w, width=w, remainder=drive_count % w)
    if layout.scheme is RaidScheme.REPLICA:
        if drive_count < layout.copies:
            raise InputError(
                "drive_count", f"{layout.copies}-way replication needs at least {layout.copies} drives"
            )
        return RaidGroups(full=drive_count, width=1, remainder=0)
    full, rem = divmod(drive_count, w)
    lo = min_group_width(layout)
    if rem and (rem < lo or (layout.scheme is RaidScheme.RAID10 and rem % 2)):
        raise InputError(
            "drive_count",
            f"{drive_count} drives leave a group of {rem}, below the minimum of {lo} for {layout.scheme.value} "
            f"(use a multiple of {w} or add drives)",
        )
    return RaidGroups(full=full, width=w, remainder=rem)


def spare_count(drive_count: int, policy: SparePolicy) -> int:
    """Hot spares: ``max(min_spares, ceil(N / per_drives))``; ``min_spares`` alone without a ratio."""
    return int(hot_spares(drive_count, policy.per_drives, policy.min_spares))


def hot_spares(
    drive_count: int | IntArray, per_drives: float | FloatArray | None, min_spares: int | IntArray
) -> int | IntArray:
    """Hot spares of ``drive_count`` drives: ``max(min_spares, ceil(N / per_drives))``; ``min_spares``
    alone where there is no ratio (``per_drives`` None, or NaN in an array of policies).

    Scalars in, an ``int`` out (:func:`spare_count`); arrays in (the batch path: many counts, or
    one policy per row), an int64 array out with the same figures.
    """
    if isinstance(drive_count, np.ndarray) or isinstance(per_drives, np.ndarray):
        n = np.asarray(drive_count)
        if per_drives is None:
            return np.broadcast_to(np.asarray(min_spares, dtype=np.int64), n.shape).copy()
        per = np.asarray(per_drives, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            ratio = np.where(np.isnan(per), min_spares, np.maximum(min_spares, np.ceil(n / per)))
        return np.asarray(ratio).astype(np.int64)
    if per_drives is None or math.isnan(per_drives):
        return int(min_spares)
    return max(int(min_spares), math.ceil(drive_count / per_drives))


def data_drive_count(drive_count: int, layout: RaidLayout) -> float:
    """Drive-equivalents holding data after protection (parity, mirror halves, replicas removed)."""
    groups = raid_groups(drive_count, layout)
    if layout.scheme is RaidScheme.REPLICA:
        return drive_count / layout.copies
    eff_full = capacity_efficiency(layout)
    data = groups.full * groups.width * eff_full
    if layout.distributed:  # every drive holds chunks of full-width stripes
        return drive_count * eff_full
    if groups.remainder:
        rem_layout = layout.model_copy(update={"group_width": groups.remainder})
        data += groups.remainder * capacity_efficiency(rem_layout)
    return data


class PoolCapacity(Output):
    """Capacity waterfall of one pool [TB, decimal] with explanations."""

    pool: str
    drives: int
    spares: int
    groups: int
    raw_tb: Explained
    right_sized_tb: Explained
    after_raid_tb: Explained
    usable_tb: Explained
    usable_raw_pct: float
    mixed_loss_tb: Explained | None = Field(
        default=None, description="capacity lost because groups mixing sizes use their smallest drive"
    )
    failures_tolerated: int | None = Field(
        default=None,
        description="drive failures one RAID group (or set of copies) survives (models.raid.tolerated_failures)",
    )
    warnings: list[str] = Field(default_factory=list)


def _mixed_after_raid(pool: DrivePool, drive_count: int) -> tuple[float, float, int]:
    """(after-RAID TB, TB lost to mixing, groups) when drives of several sizes share a pool.

    Drives are placed largest first into consecutive groups of ``group_width``; every member of a
    group is counted at the group's smallest right-sized capacity (RAID stripes need equal
    members), so a group mixing sizes loses the difference.
    """
    sizes = [pool.drive.usable_gib] * drive_count
    for g in pool.other_drives:
        sizes += [g.drive.usable_gib] * g.count
    sizes.sort(reverse=True)
    total = len(sizes)
    groups = raid_groups(total, pool.raid)
    widths = [groups.width] * groups.full + ([groups.remainder] if groups.remainder else [])
    after = lost = 0.0
    i = 0
    for w in widths:
        member = sizes[i : i + w]
        smallest = min(member)
        same = (
            w == pool.raid.group_width or pool.raid.distributed
        )  # a distributed layout's stripes keep their width
        lay = pool.raid if same else pool.raid.model_copy(update={"group_width": w})
        eff = (
            capacity_efficiency(lay) if pool.raid.scheme is not RaidScheme.REPLICA else 1.0 / pool.raid.copies
        )
        after += w * eff * smallest * GIB / TB
        lost += sum(m - smallest for m in member) * eff * GIB / TB
        i += w
    return after, lost, len(widths)


def pool_capacity(pool: DrivePool, drive_count: int, policy: CapacityPolicy) -> PoolCapacity:
    """Waterfall for one pool of ``drive_count`` drives of ``pool.drive`` plus ``pool.other_drives``.

    Spares follow the pool's policy and are of the largest drive model in the pool.
    """
    d = pool.drive
    total = drive_count + pool.other_count
    spares = spare_count(total, pool.spares)
    largest = max([d] + [g.drive for g in pool.other_drives], key=lambda x: x.usable_gib)
    raw = (
        drive_count * d.capacity_gb
        + sum(g.count * g.drive.capacity_gb for g in pool.other_drives)
        + spares * largest.capacity_gb
    ) / 1000.0
    rs_tb_each = d.usable_gib * GIB / TB
    rs = drive_count * rs_tb_each + sum(g.count * g.drive.usable_gib * GIB / TB for g in pool.other_drives)
    data_drives = data_drive_count(total, pool.raid)
    warnings: list[str] = []
    mixed: Explained | None = None
    if pool.other_drives:
        after, lost, _ = _mixed_after_raid(pool, drive_count)
        mixed = explained(
            lost,
            "TB",
            "lost = sum over groups of (member - smallest member) x data share",
            f"mixing sizes in {pool.name}: {fmt(lost)} TB lost because each RAID group counts its smallest drive",
            lost_tb=lost,
        )
        warnings.append(
            f"pool {pool.name} mixes drive sizes: groups are filled largest first and count their smallest "
            f"member ({fmt(lost)} TB lost); performance is modeled on {d.name}"
        )
    else:
        after = data_drives * rs_tb_each
    after *= pool.drive_fraction
    keep = (1 - policy.filesystem_reserve_pct / 100.0) * (1 - policy.snapshot_reserve_pct / 100.0)
    usable = after * keep
    groups = raid_groups(total, pool.raid).count
    return PoolCapacity(
        pool=pool.name,
        drives=total,
        spares=spares,
        groups=groups,
        failures_tolerated=tolerated_failures(pool.raid),
        raw_tb=explained(
            raw,
            "TB",
            "raw = (N + spares) x C_marketed",
            f"raw = ({total} + {spares}) x {fmt(d.capacity_gb)} GB = {fmt(raw)} TB"
            + (" (mixed sizes: each drive at its own capacity)" if pool.other_drives else ""),
            N=total,
            spares=spares,
            C_marketed_gb=d.capacity_gb,
        ),
        right_sized_tb=explained(
            rs,
            "TB",
            "right-sized = N x C_right-sized",
            f"right-sized = {drive_count} x {fmt(d.usable_gib)} GiB ({fmt(rs_tb_each * 1000)} GB) = {fmt(rs)} TB",
            N=drive_count,
            C_right_sized_gib=d.usable_gib,
        ),
        after_raid_tb=explained(
            after,
            "TB",
            "after RAID = data drives x C_right-sized",
            f"after {pool.raid.scheme.value} = {fmt(data_drives)} data drives in {groups} groups "
            f"x {fmt(rs_tb_each * 1000)} GB"
            + (
                f" x {fmt(pool.drive_fraction)} of each drive used (short-stroked)"
                if pool.drive_fraction < 1
                else ""
            )
            + f" = {fmt(after)} TB",
            data_drives=data_drives,
            groups=groups,
            scheme=pool.raid.scheme.value,
        ),
        usable_tb=explained(
            usable,
            "TB",
            "usable = after RAID x (1 - fs reserve) x (1 - snapshot reserve)",
            f"usable = {fmt(after)} x (1 - {fmt(policy.filesystem_reserve_pct)}%) x "
            f"(1 - {fmt(policy.snapshot_reserve_pct)}%) = {fmt(usable)} TB",
            fs_reserve_pct=policy.filesystem_reserve_pct,
            snapshot_reserve_pct=policy.snapshot_reserve_pct,
        ),
        usable_raw_pct=100.0 * usable / raw if raw > 0 else 0.0,
        mixed_loss_tb=mixed,
        warnings=warnings,
    )


def physical_needed_tb(workload: Workload) -> float:
    """Physical capacity a workload needs at its horizon [TB]:
    ``C (1+g)^y x (repl_cap + change/day x days) / (dedupe x compression) / (1 - snap)``.

    Snapshots hold the blocks changed while they are kept: ``change %/day x retention days`` of
    the data (a reserve, if also given, is a floor set aside on top).
    """
    keep = 1.0 - workload.snapshot_reserve_pct / 100.0
    if keep <= 0:
        raise InputError("snapshot_reserve_pct", "must be below 100")
    snap = workload.snapshot_change_pct_per_day / 100.0 * workload.snapshot_retention_days
    return (
        workload.grown_capacity_tb
        * (workload.replication.capacity_amplification + snap)
        / (workload.dedupe_ratio * workload.compression_ratio)
        / keep
    )


class CapacityResult(Output):
    """Capacity of the whole configuration against the workloads' needs."""

    pools: list[PoolCapacity]
    raw_tb: float
    usable_tb: float
    effective_tb: Explained
    needed_tb: Explained
    logical_needed_tb: float
    usable_raw_pct: float
    fill_pct: float = Field(description="needed physical / usable [%]")
    max_fill_pct: float
    passed: bool
    steps: list[Explained] = Field(description="the waterfall, raw to effective")


def capacity_result(
    pools: list[PoolCapacity], workloads: list[Workload], max_fill_pct: float = 100.0
) -> CapacityResult:
    """Totals, effective capacity and the fit check ``needed <= usable x max_fill``."""
    raw = sum(p.raw_tb.value or 0.0 for p in pools)
    usable = sum(p.usable_tb.value or 0.0 for p in pools)
    needed = 0.0
    for i, w in enumerate(workloads):
        try:
            needed += physical_needed_tb(w)
        except InputError as exc:
            raise InputError(f"workloads.{i}.{exc.field}", exc.reason) from exc
    logical = sum(w.grown_capacity_tb * w.replication.capacity_amplification for w in workloads)
    reduction = logical / needed if needed > 0 else 1.0
    effective = usable * reduction
    fill = 100.0 * needed / usable if usable > 0 else float("inf")
    parts = " + ".join(
        f"{fmt(w.capacity_tb)} TB x {fmt(1 + w.growth_pct_per_year / 100)}^{fmt(w.horizon_years)}"
        f" / {fmt(w.dedupe_ratio * w.compression_ratio)}"
        for w in workloads
    )
    steps: list[Explained] = []
    for p in pools:
        steps += [p.raw_tb, p.right_sized_tb, p.after_raid_tb, p.usable_tb]
    eff = explained(
        effective,
        "TB",
        "effective = usable x (logical / physical)",
        f"effective = {fmt(usable)} TB x {fmt(reduction)} = {fmt(effective)} TB",
        usable_tb=usable,
        reduction=reduction,
    )
    need = explained(
        needed,
        "TB",
        "needed = sum C (1+g)^years x repl / (dedupe x compression) / (1 - snap reserve)",
        f"needed = {parts} = {fmt(needed)} TB physical",
        logical_tb=logical,
    )
    steps.append(eff)
    return CapacityResult(
        pools=pools,
        raw_tb=raw,
        usable_tb=usable,
        effective_tb=eff,
        needed_tb=need,
        logical_needed_tb=logical,
        usable_raw_pct=100.0 * usable / raw if raw > 0 else 0.0,
        fill_pct=min(fill, 1e9),
        max_fill_pct=max_fill_pct,
        passed=within(fill, max_fill_pct),
        steps=steps,
    )
