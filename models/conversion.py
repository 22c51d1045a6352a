"""Convert a benchmark result measured under one RAID scheme to another, for a stated read/write mix.

A benchmark that saturates the drives measures the front-end IOPS ``F`` the back end sustains.
With read share ``r``, write share ``w = 1 - r``, read cache hit ratio ``h`` and the schemes'
back-end cost per front-end read (``c_r``: 1, a RAID-Z vdev d) and per small random write
(``c_w``: :func:`models.raid.small_write_cost`, RAID10 2, RAID5 4, RAID6 6)::

    BE = F (r (1 - h) c_r,from + w c_w,from)           back-end I/Os the drives delivered
    BE' = BE x N_to / N_from                           same drives; scaled if the count changes
    F' = BE' / (r (1 - h) c_r,to + w c_w,to)           front-end IOPS under the other scheme

The shortcuts people use are shown beside it so the difference is visible:

* "divide by the write penalty": ``F' = F x c_w,from / c_w,to``, as if every I/O were a write
  (overstates the change for read-heavy mixes);
* "RAID doesn't matter": ``F' = F``, as if every I/O were a read (understates it);
* "RAID10 is twice RAID5": ``F' = 2 F`` from RAID5 to RAID10 (half the other way), true only for
  all-write workloads.

The conversion assumes the drives were the bottleneck of the measurement (a controller-bound
result does not convert) and that the random share and I/O size stay the same.
"""

from __future__ import annotations

import math

from pydantic import Field

from models.base import InputError, Output
from models.explain import Explained, explained, fmt
from models.raid import RaidLayout, RaidScheme, random_read_cost, small_write_cost

_MIRRORS = {RaidScheme.RAID1, RaidScheme.RAID10}


class ConversionShortcut(Output):
    """A rule of thumb applied to the same measurement, and how far it is from the arithmetic."""

    name: str
    iops: float
    error_pct: float = Field(description="(shortcut - back-end arithmetic) / back-end arithmetic [%]")
    text: str


class RaidConversion(Output):
    measured_iops: float
    read_pct: float
    read_hit_pct: float
    from_raid: RaidLayout
    to_raid: RaidLayout
    write_cost_from: Explained
    write_cost_to: Explained
    backend_iops: Explained
    converted_iops: Explained
    ratio: float = Field(description="converted / measured")
    shortcuts: list[ConversionShortcut]
    text: str


def _label(layout: RaidLayout) -> str:
    s = layout.scheme
    if s is RaidScheme.REPLICA:
        return f"{layout.copies}-way replication"
    if s is RaidScheme.ERASURE:
        return f"erasure {layout.ec_data}+{layout.ec_parity}"
    if s in _MIRRORS:
        return s.value
    return f"{s.value} {layout.data_drives}+{layout.parity_drives}"


def _cost_text(layout: RaidLayout, c: float) -> str:
    f = layout.full_stripe_share
    extra = f" (full-stripe share {fmt(f)})" if f is not None else ""
    return f"c_w({_label(layout)}) = {fmt(c)} back-end I/Os per small write{extra}"


def per_io_cost(
    read_pct: float, read_hit_pct: float, layout: RaidLayout, *, size_kib: float = 4.0, fill: float = 1.0
) -> float:
    """Back-end I/Os per front-end I/O of ``size_kib``: ``r (1 - h) c_r + w c_w`` with the engine's
    read and write costs (:func:`models.raid.random_read_cost`, :func:`models.raid.small_write_cost`)
    at the pool's planned ``fill`` (write-anywhere layouts depend on it; 1.0, a full pool, by default)."""
    r = read_pct / 100.0
    h = read_hit_pct / 100.0
    return r * (1.0 - h) * random_read_cost(layout, size_kib) + (1.0 - r) * small_write_cost(
        layout, size_kib, fill=fill
    )


def convert_raid(
    measured_iops: float,
    read_pct: float,
    from_raid: RaidLayout,
    to_raid: RaidLayout,
    *,
    read_hit_pct: float = 0.0,
    from_drives: int | None = None,
    to_drives: int | None = None,
    size_kib: float = 4.0,
    fill: float = 1.0,
) -> RaidConversion:
    """Front-end IOPS under ``to_raid`` from a result measured under ``from_raid`` (see the module).

    ``measured_iops`` [IOPS] at ``read_pct`` [%] reads with ``read_hit_pct`` [%] of reads served
    by a cache; ``from_drives`` / ``to_drives`` scale the back end when the drive count changes
    (both or neither). Converting A -> B -> A returns the measurement.
    """
    if not math.isfinite(measured_iops) or measured_iops < 0:
        raise InputError("measured_iops", "must be a finite number >= 0")
    if not 0.0 <= read_pct <= 100.0:
        raise InputError("read_pct", "must be between 0 and 100")
    if not 0.0 <= read_hit_pct <= 100.0:
        raise InputError("read_hit_pct", "must be between 0 and 100")
    if (from_drives is None) != (to_drives is None):
        raise InputError(
            "to_drives" if to_drives is None else "from_drives", "give both drive counts or neither"
        )
    if from_drives is not None and from_drives < 1:
        raise InputError("from_drives", "must be >= 1")
    if to_drives is not None and to_drives < 1:
        raise InputError("to_drives", "must be >= 1")
    r = read_pct / 100.0
    w = 1.0 - r
    h = read_hit_pct / 100.0
    cw_from = small_write_cost(from_raid, size_kib, fill=fill)
    cw_to = small_write_cost(to_raid, size_kib, fill=fill)
    cr_from, cr_to = random_read_cost(from_raid, size_kib), random_read_cost(to_raid, size_kib)
    k_from = per_io_cost(read_pct, read_hit_pct, from_raid, size_kib=size_kib, fill=fill)
    k_to = per_io_cost(read_pct, read_hit_pct, to_raid, size_kib=size_kib, fill=fill)
    if k_from <= 0 or k_to <= 0:
        raise InputError(
            "read_hit_pct", "every read is a cache hit and there are no writes: the back end does nothing"
        )
    scale = 1.0 if from_drives is None or to_drives is None else to_drives / from_drives
    be = measured_iops * k_from
    converted = be * scale / k_to
    hit_text = f" x (1 - {fmt(h)})" if h > 0 else ""
    be_exp = explained(
        be,
        "IOPS",
        "BE = F (r (1 - h) c_r + w c_w,from)",
        f"BE = {fmt(measured_iops)} x ({fmt(r)}{hit_text} x {fmt(cr_from)} + {fmt(w)} x {fmt(cw_from)}) = {fmt(be)}",
        F=measured_iops,
        r=r,
        w=w,
        h=h,
        c_r=cr_from,
        c_w=cw_from,
    )
    scale_text = f" x {to_drives} / {from_drives} drives" if scale != 1.0 else ""
    conv_exp = explained(
        converted,
        "IOPS",
        "F' = BE x N_to / N_from / (r (1 - h) c_r' + w c_w,to)",
        f"F' = {fmt(be)}{scale_text} / ({fmt(r)}{hit_text} x {fmt(cr_to)} + {fmt(w)} x {fmt(cw_to)}) = {fmt(converted)}",
        BE=be,
        c_r=cr_to,
        c_w=cw_to,
        drive_scale=scale,
    )
    shortcuts = _shortcuts(measured_iops, from_raid, to_raid, cw_from, cw_to, scale, converted)
    ratio = converted / measured_iops if measured_iops > 0 else k_from * scale / k_to
    text = (
        f"{fmt(measured_iops)} IOPS under {_label(from_raid)} at {fmt(read_pct)}% reads is {fmt(be)} back-end I/Os; "
        f"under {_label(to_raid)} the same back end gives {fmt(converted)} IOPS (x {fmt(ratio)})."
    )
    return RaidConversion(
        measured_iops=measured_iops,
        read_pct=read_pct,
        read_hit_pct=read_hit_pct,
        from_raid=from_raid,
        to_raid=to_raid,
        write_cost_from=explained(
            cw_from, "I/O", "c_w = small_write_cost(layout, size, fill)", _cost_text(from_raid, cw_from)
        ),
        write_cost_to=explained(
            cw_to, "I/O", "c_w = small_write_cost(layout, size, fill)", _cost_text(to_raid, cw_to)
        ),
        backend_iops=be_exp,
        converted_iops=conv_exp,
        ratio=ratio,
        shortcuts=shortcuts,
        text=text,
    )


def _err(x: float, exact: float) -> float:
    return 100.0 * (x - exact) / exact if exact > 0 else 0.0


def _shortcuts(
    f: float,
    a: RaidLayout,
    b: RaidLayout,
    cw_from: float,
    cw_to: float,
    scale: float,
    exact: float,
) -> list[ConversionShortcut]:
    out = []
    penalty = f * scale * cw_from / cw_to
    out.append(
        ConversionShortcut(
            name="divide by the write penalty",
            iops=penalty,
            error_pct=_err(penalty, exact),
            text=f"F' = {fmt(f)} x {fmt(cw_from)} / {fmt(cw_to)} = {fmt(penalty)} (as if every I/O were a write)",
        )
    )
    same = f * scale
    out.append(
        ConversionShortcut(
            name="RAID doesn't matter",
            iops=same,
            error_pct=_err(same, exact),
            text=f"F' = {fmt(same)} (as if every I/O were a read)",
        )
    )
    if a.scheme is RaidScheme.RAID5 and b.scheme in _MIRRORS:
        twice = 2.0 * f * scale
        out.append(
            ConversionShortcut(
                name="RAID10 is twice RAID5",
                iops=twice,
                error_pct=_err(twice, exact),
                text=f"F' = 2 x {fmt(f)} = {fmt(twice)}",
            )
        )
    elif a.scheme in _MIRRORS and b.scheme is RaidScheme.RAID5:
        half = 0.5 * f * scale
        out.append(
            ConversionShortcut(
                name="RAID10 is twice RAID5",
                iops=half,
                error_pct=_err(half, exact),
                text=f"F' = {fmt(f)} / 2 = {fmt(half)}",
            )
        )
    return out


__all__ = ["ConversionShortcut", "RaidConversion", "convert_raid", "per_io_cost"]
