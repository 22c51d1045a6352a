"""The figures storage engineers check first, per pool and window: per-drive IOPS and the write penalty.

Both come from the back-end load the engine computed (:mod:`models.evaluate`), never from a rule
of thumb, so a change of RAID physics changes them too::

    per drive      = BE / N                       back-end I/Os per second on each drive of the pool
    write penalty  = BE_writes / W                back-end writes per front-end write in the window

``BE_writes`` already holds what the window's writes cost on this layout: ``c_write``
(:func:`models.raid.small_write_cost`) for small random writes, ``(d + p) / d``
(:func:`models.raid.sequential_write_cost`) for streaming ones, less the overwrites absorbed in
cache, times replication; both per-write costs are shown beside the penalty, and the absorbed
overwrites are named (a penalty of 2.61 beside a small-write cost of 2.9: a tenth of the writes
overwrote data still in cache).
"""

from __future__ import annotations

from models.explain import Explained, explained, fmt
from models.raid import RaidLayout, sequential_write_cost, small_write_cost


def per_drive_iops(backend_iops: float, drives: int) -> Explained:
    """Back-end IOPS on each of ``drives`` drives (parity included, spares excluded)."""
    value = backend_iops / drives if drives > 0 else 0.0
    return explained(
        value,
        "IOPS",
        "per drive = BE / N",
        f"per drive = {fmt(backend_iops)} back-end IOPS / {drives} drives = {fmt(value)} IOPS",
        backend_iops=backend_iops,
        drives=drives,
    )


def write_penalty(
    layout: RaidLayout,
    frontend_writes: float,
    backend_writes: float,
    *,
    fill: float,
    write_costs: tuple[float, float] | None = None,
    absorbed_writes: float = 0.0,
) -> Explained:
    """Back-end writes per front-end write of the window on ``layout`` (the small-write cost when idle).

    ``fill`` (0..1) is the pool's fill, which sets a write-anywhere layout's stripe share. ``write_costs``:
    the layout's (small-write, full-stripe) costs at that fill when the caller has them already
    (:meth:`models.pool.PoolPlans.write_costs`). ``absorbed_writes``: front-end writes per second
    that overwrite data still in the write cache and never reach the drives (named in the text:
    they are why the penalty reads below the per-write cost).
    """
    small, stream = (
        (small_write_cost(layout, fill=fill), sequential_write_cost(layout))
        if write_costs is None
        else write_costs
    )
    scheme = f"{layout.scheme.value} {layout.group_width}"
    costs = f"{scheme}: small random write {fmt(small)}, full stripe {fmt(stream)} back-end I/Os"
    if frontend_writes <= 0:
        return explained(
            small,
            "back-end I/Os per write",
            "c_write (no writes in this window)",
            f"no writes in this window; {costs}",
            small_write_cost=small,
            full_stripe_cost=stream,
            scheme=layout.scheme.value,
        )
    value = backend_writes / frontend_writes
    absorbed = ""
    if absorbed_writes > 0:
        share = 100.0 * absorbed_writes / frontend_writes
        absorbed = (
            f"; {fmt(absorbed_writes)} of the {fmt(frontend_writes)} writes/s ({fmt(share)}%) overwrite data still in "
            "the write cache and never reach the drives, so the penalty reads below the per-write cost"
        )
    return explained(
        value,
        "back-end I/Os per write",
        "write penalty = BE_writes / W",
        f"write penalty = {fmt(backend_writes)} back-end writes / {fmt(frontend_writes)} front-end writes"
        f" = {fmt(value)} ({costs}{absorbed})",
        backend_writes=backend_writes,
        frontend_writes=frontend_writes,
        small_write_cost=small,
        full_stripe_cost=stream,
        scheme=layout.scheme.value,
        fill=fill,
        absorbed_writes=absorbed_writes,
    )


__all__ = ["per_drive_iops", "write_penalty"]
