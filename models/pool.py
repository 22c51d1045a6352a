"""The back end of one drive pool in one window: drive work, utilization, queue, miss latency.

Drive work is accumulated by :func:`pool_demand` from each workload phase's misses and writes:
random I/Os pay overhead + positioning (seek + rotation) + transfer on the drive
(:mod:`models.drives`), streams (prefetched sequential reads, full-stripe and sequential writes)
pay the media transfer plus one positioning per run. Reads are served by the read-serving drives,
writes spread over every drive of the pool::

    U = busy_reads / read-serving drives + busy_writes / all drives

Command queuing shortens positioning as the queue at each drive grows, and the queue grows with
utilization: :func:`solve_pool` finds the fixed point in closed form. :func:`pool_load` adds the
M/G/1 miss latency, the degraded group and the rebuild, and states each figure's formula.
"""

from __future__ import annotations

import math

from models.capacity import raid_groups
from models.configuration import DrivePool
from models.drives import DriveKind, drive_service_ms, ncq_factor
from models.explain import Explained, explained, fmt
from models.parameters import EngineParameters
from models.queueing import mg1_wait_ms
from models.raid import (
    degraded_read_cost,
    random_read_fanout,
    read_drives,
    seek_span,
    sequential_write_cost,
    small_write_cost,
    write_cost_split,
)
from models.results import DegradedMode, PoolLoad
from models.units import KIB, MB, transfer_ms
from models.workload import Phase, Workload

PoolItem = tuple[Workload, Phase, float, float]
"""A phase on a pool: (workload, phase, DRAM hit ratio, flash hit ratio)."""


class PoolDemand:
    """Accumulates back-end work of one pool for one window."""

    def __init__(self) -> None:
        self.read_busy_ms = 0.0  # drive-ms per second on read-serving drives
        self.write_busy_ms = 0.0  # drive-ms per second spread over all drives
        self.read_ops = 0.0  # drive-level read operations per second
        self.write_ops = 0.0
        self.be_read_iops = 0.0  # conventional back-end I/Os (front-end size)
        self.be_write_iops = 0.0
        self.read_miss_rate = 0.0  # front-end random read misses per second
        self.read_miss_service_ms = 0.0  # sum over misses of service (for the mean)
        self.fe_iops = 0.0
        self.terms: list[str] = []
        # the positioning (seek + rotation) part of the busy times above: the only part that
        # command queuing scales, so the demand at another queue depth is arithmetic on these
        self.read_pos_ms = 0.0
        self.write_pos_ms = 0.0
        self.read_miss_pos_ms = 0.0


def positioning_ms(pool: DrivePool, is_read: bool, span: float, q: float, p: EngineParameters) -> float:
    """Seek + rotation of one random positioning on a pool drive [ms] (0 for SSDs)."""
    d = pool.drive
    if d.kind is not DriveKind.HDD:
        return 0.0
    size = 4.0
    full = drive_service_ms(
        d,
        size,
        is_read=is_read,
        span_fraction=span,
        queue_depth=q,
        ncq_gain_max=p.ncq_gain_max,
        ncq_q_half=p.ncq_q_half,
    )
    return full - d.overhead_ms - transfer_ms(size, d.media_rate_mb_s)


def stream_busy_ms(
    pool: DrivePool, kib_per_s: float, run_kib: float, positioning_ms: float, is_read: bool
) -> float:
    """Drive time to stream ``kib_per_s`` [KiB/s]: media transfer plus one positioning per run."""
    d = pool.drive
    if kib_per_s <= 0:
        return 0.0
    if d.kind is DriveKind.HDD:
        rate = d.media_rate_mb_s
    else:
        rate = d.media_rate_mb_s if is_read else (d.seq_write_mb_s or d.media_rate_mb_s)
    runs = kib_per_s / run_kib
    return kib_per_s * KIB / (rate * MB) * 1000.0 + runs * (positioning_ms + d.overhead_ms)


def pool_demand(
    pool: DrivePool,
    items: list[tuple[Workload, Phase, float, float]],
    span: float,
    p: EngineParameters,
    read_cost_factor: float = 1.0,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
) -> PoolDemand:
    """Back-end demand of ``items`` = (workload, phase, DRAM hit, flash hit) on ``pool`` at a queue
    of one command per drive; the positioning parts kept apart give it at any other queue
    (:func:`at_queue_factor`).

    ``extra_stream_kib`` adds background streaming (read, write) [KiB/s], e.g. tier migration.
    """
    dem = PoolDemand()
    layout = pool.raid
    fanout = random_read_fanout(layout)
    stripe_cost, random_cost = write_cost_split(layout)
    seq_cost = sequential_write_cost(layout)
    swc = small_write_cost(layout)
    pos_w = positioning_ms(pool, False, span, 1.0, p)
    pos_r = positioning_ms(pool, True, span, 1.0, p)
    xr, xw = extra_stream_kib
    if xr > 0:
        dem.read_busy_ms += stream_busy_ms(pool, xr, p.sequential_run_kib, pos_r, True)
        dem.read_ops += xr / p.sequential_run_kib
        dem.read_pos_ms += xr / p.sequential_run_kib * pos_r
    if xw > 0:
        dem.write_busy_ms += stream_busy_ms(
            pool, xw * sequential_write_cost(layout), p.sequential_run_kib, pos_w, False
        )
        dem.write_ops += xw * sequential_write_cost(layout) / p.sequential_run_kib
        dem.write_pos_ms += xw * sequential_write_cost(layout) / p.sequential_run_kib * pos_w
    for wl, ph, h_dram, h_flash in items:
        iops = ph.effective_iops
        if iops <= 0:
            continue
        rf = ph.read_pct / 100.0
        rnd = ph.random_pct / 100.0
        miss = max(0.0, 1.0 - h_dram - h_flash)
        reads, writes = iops * rf, iops * (1.0 - rf)
        writes_be = writes * (1.0 - ph.write_overwrite_pct / 100.0) * wl.replication.io_amplification
        dem.fe_iops += iops
        for size, frac in ph.size_mix:
            r_miss = reads * rnd * frac * miss
            s_read = drive_service_ms(
                pool.drive,
                size,
                is_read=True,
                span_fraction=span,
                queue_depth=1.0,
                ncq_gain_max=p.ncq_gain_max,
                ncq_q_half=p.ncq_q_half,
            )
            ops = r_miss * fanout * read_cost_factor
            dem.read_ops += ops
            dem.read_busy_ms += ops * s_read
            dem.read_pos_ms += ops * pos_r
            dem.read_miss_rate += r_miss
            dem.read_miss_service_ms += r_miss * s_read
            dem.read_miss_pos_ms += r_miss * pos_r
            dem.be_read_iops += r_miss * read_cost_factor
            # sequential reads: prefetched, streamed from the drives in large runs
            seq_kib = reads * (1.0 - rnd) * frac * size
            run = max(p.sequential_run_kib, size)
            dem.read_busy_ms += stream_busy_ms(pool, seq_kib, run, pos_r, True)
            dem.read_ops += seq_kib / run
            dem.read_pos_ms += seq_kib / run * pos_r
            dem.be_read_iops += reads * (1.0 - rnd) * frac
            # random writes: partial-stripe part is random I/O, full-stripe part streams
            w_rnd = writes_be * rnd * frac
            s_write = drive_service_ms(
                pool.drive,
                size,
                is_read=False,
                span_fraction=span,
                queue_depth=1.0,
                ncq_gain_max=p.ncq_gain_max,
                ncq_q_half=p.ncq_q_half,
            )
            dem.write_busy_ms += w_rnd * random_cost * s_write
            dem.write_ops += w_rnd * random_cost
            stripe_kib = w_rnd * stripe_cost * size
            dem.write_busy_ms += stream_busy_ms(pool, stripe_kib, p.stripe_run_kib, pos_w, False)
            dem.write_ops += stripe_kib / p.stripe_run_kib
            dem.write_pos_ms += (w_rnd * random_cost + stripe_kib / p.stripe_run_kib) * pos_w
            # sequential writes: full stripes
            seq_w_kib = writes_be * (1.0 - rnd) * frac * size * seq_cost
            run_w = max(p.sequential_run_kib, size)
            dem.write_busy_ms += stream_busy_ms(pool, seq_w_kib, run_w, pos_w, False)
            dem.write_ops += seq_w_kib / run_w
            dem.write_pos_ms += seq_w_kib / run_w * pos_w
        dem.be_write_iops += writes_be * (rnd * swc + (1.0 - rnd) * seq_cost)
        dem.terms.append(
            f"{wl.name}/{ph.name}: {fmt(reads)} reads x {fmt(rnd * miss + (1 - rnd))} to disk"
            f" + {fmt(writes_be)} writes x {fmt(rnd * swc + (1 - rnd) * seq_cost)} ({layout.scheme.value})"
        )
    return dem


def drive_counts(pool: DrivePool, drive_count: int) -> tuple[int, int, int]:
    """(all drives, read-serving drives, groups) of a pool of ``drive_count`` drives."""
    groups = raid_groups(drive_count, pool.raid)
    if pool.raid.dedicated_parity:
        rd = read_drives(pool.raid, groups.full)
        if groups.remainder:
            rd += groups.remainder - pool.raid.parity_drives
    else:
        rd = drive_count
    return drive_count, rd, groups.count


def utilization(dem: PoolDemand, all_drives: int, rd_drives: int) -> float:
    return dem.read_busy_ms / 1000.0 / rd_drives + dem.write_busy_ms / 1000.0 / all_drives


def at_queue_factor(d1: PoolDemand, factor: float) -> PoolDemand:
    """The demand ``d1`` (computed at a queue of one) with every positioning scaled by ``factor``
    (the command-queuing multiplier :func:`models.drives.ncq_factor` of another queue depth)."""
    out = PoolDemand()
    for name in ("read_ops", "write_ops", "be_read_iops", "be_write_iops", "read_miss_rate", "fe_iops"):
        setattr(out, name, getattr(d1, name))
    cut = 1.0 - factor
    out.read_busy_ms = d1.read_busy_ms - cut * d1.read_pos_ms
    out.write_busy_ms = d1.write_busy_ms - cut * d1.write_pos_ms
    out.read_miss_service_ms = d1.read_miss_service_ms - cut * d1.read_miss_pos_ms
    out.read_pos_ms = factor * d1.read_pos_ms
    out.write_pos_ms = factor * d1.write_pos_ms
    out.read_miss_pos_ms = factor * d1.read_miss_pos_ms
    out.terms = d1.terms
    return out


def solve_pool(
    pool: DrivePool,
    drive_count: int,
    items: list[tuple[Workload, Phase, float, float]],
    span: float,
    p: EngineParameters,
    read_cost_factor: float = 1.0,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
) -> tuple[PoolDemand, float, float]:
    """Fixed point of command queuing: service time depends on the queue, the queue on load.

    ``q = 1 + U / (1 - U)`` (M/M/1 number in system, at least the arriving command) and
    ``U(q) = U_deep + ncq(q) / ... `` linear in the queuing factor: the demand is evaluated once,
    at q = 1, with its positioning (seek + rotation) part kept apart, and the demand at any other
    queue is arithmetic on the two (:func:`at_queue_factor`).
    Returns (demand, utilization, mean queue per drive).
    """
    all_d, rd, _ = drive_counts(pool, drive_count)
    d1 = pool_demand(pool, items, span, p, read_cost_factor, extra_stream_kib)
    u1 = utilization(d1, all_d, rd)
    if pool.drive.kind is not DriveKind.HDD or p.ncq_gain_max == 0:
        return d1, u1, 1.0 + (u1 / (1.0 - u1) if u1 < 1 else float("inf"))
    q_deep = 1e9
    f_deep = ncq_factor(q_deep, p.ncq_gain_max, p.ncq_q_half)
    d_deep = at_queue_factor(d1, f_deep)
    u_deep = utilization(d_deep, all_d, rd)

    # Closed form. With x = q - 1 = U / (1 - U) and ncq(q) = (x + h) / ((1 + g) x + h):
    #   U(x) = A + B (ncq - f_deep),  A = U at an infinitely deep queue, B = (U1 - A) / (1 - f_deep)
    # gives (1 + g)(1 - A) x^2 + (h - (1 + g) A - h U1) x - h U1 = 0, one root x >= 0 when A < 1.
    g, h = p.ncq_gain_max, p.ncq_q_half
    if u_deep >= 1.0:
        return d_deep, u_deep, float("inf")
    a = (1.0 + g) * (1.0 - u_deep)
    b = h - (1.0 + g) * u_deep - h * u1
    c = -h * u1
    x = (-b + math.sqrt(b * b - 4.0 * a * c)) / (2.0 * a)
    q = 1.0 + x
    u = x / (1.0 + x)
    return at_queue_factor(d1, ncq_factor(q, g, h)), u, q


def pool_load(
    pool: DrivePool,
    n: int,
    items: list[PoolItem],
    usable_gb: float,
    p: EngineParameters,
    degraded: DegradedMode = DegradedMode.NONE,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
) -> tuple[PoolLoad, float, float]:
    """Load of ``pool`` with ``n`` drives serving ``items`` in one window, and for the latency of
    each phase (mean read-miss service [ms], M/G/1 wait at the drives [ms], inf when saturated).

    ``usable_gb`` is the pool's usable capacity (the data's share of it sets the seek span).
    With a drive failed or rebuilding, one group runs degraded: its surviving drives serve
    reconstructed reads (:func:`models.raid.degraded_read_cost`) and, while rebuilding, the
    rebuild stream; 1/G of the I/O meets that group.
    """
    all_d, rd, groups = drive_counts(pool, n)
    ws_pool = sum(w.working_set_for(ph) for w, ph, _, _ in items) or 0.0
    span = seek_span(ws_pool / usable_gb if usable_gb > 0 else 1.0, pool.raid.scatter, p.min_span_fraction)
    dem, u, q = solve_pool(pool, n, items, span, p, extra_stream_kib=extra_stream_kib)
    mean_all = (dem.read_busy_ms + dem.write_busy_ms) / max(dem.read_ops + dem.write_ops, 1e-12)
    mean_read = dem.read_miss_service_ms / dem.read_miss_rate if dem.read_miss_rate > 0 else mean_all
    wait = mg1_wait_ms(mean_all, u, p.drive_service_scv) if dem.read_ops + dem.write_ops > 0 else 0.0
    u_for_latency = u
    deg_u: float | None = None
    rebuild: Explained | None = None
    if degraded in (DegradedMode.DRIVE_FAILED, DegradedMode.REBUILDING) and pool.raid.scheme.value != "raid0":
        # one group runs degraded: its surviving drives serve reconstructed reads
        cost = degraded_read_cost(pool.raid)
        w_grp = pool.raid.group_width
        u_read = dem.read_busy_ms / 1000.0 / rd
        u_write = dem.write_busy_ms / 1000.0 / all_d
        deg_u = (u_read * cost + u_write) * w_grp / max(w_grp - 1, 1)
        if degraded is DegradedMode.REBUILDING:
            rate_share = p.rebuild_min_rate_mb_s / pool.drive.media_rate_mb_s
            deg_u += rate_share
            idle = max(0.0, 1.0 - deg_u)
            rate = max(p.rebuild_min_rate_mb_s, p.rebuild_rate_mb_s * idle)
            hours = pool.drive.capacity_gb * 1000.0 / rate / 3600.0
            rebuild = explained(
                hours,
                "h",
                "rebuild = C_drive / max(r_min, r_idle x (1 - U_group))",
                f"rebuild = {fmt(pool.drive.capacity_gb)} GB / max({fmt(p.rebuild_min_rate_mb_s)}, "
                f"{fmt(p.rebuild_rate_mb_s)} x {fmt(idle)}) MB/s = {fmt(hours)} h of exposure to a further failure",
                rebuild_rate_mb_s=rate,
            )
        # latency: 1/G of I/O meets the degraded group
        u_for_latency = u + (deg_u - u) / groups
    if u_for_latency != u:
        wait = mg1_wait_ms(mean_all, u_for_latency, p.drive_service_scv)
    wait_ms = wait if wait is not None else float("inf")
    miss_lat = None if wait is None else mean_read + wait
    be_total = dem.be_read_iops + dem.be_write_iops
    load = PoolLoad(
        pool=pool.name,
        frontend_iops=dem.fe_iops,
        backend_iops=explained(
            be_total,
            "IOPS",
            "BE = R x (1 - hit) + W x c_write",
            "BE = " + (" + ".join(dem.terms) if dem.terms else "0") + f" = {fmt(be_total)}",
            reads=dem.be_read_iops,
            writes=dem.be_write_iops,
            scheme=pool.raid.scheme.value,
        ),
        backend_read_iops=dem.be_read_iops,
        backend_write_iops=dem.be_write_iops,
        drive_busy_ms_per_s=dem.read_busy_ms + dem.write_busy_ms,
        drive_utilization_pct=explained(
            100.0 * u,
            "%",
            "U = busy_reads / read drives + busy_writes / all drives",
            f"U = {fmt(dem.read_busy_ms)} ms/s / {rd} drives + {fmt(dem.write_busy_ms)} ms/s / {all_d} drives"
            f" = {fmt(100 * u)}% (seek span {fmt(100 * span)}%, {fmt(q)} commands queued per drive)",
            read_busy_ms=dem.read_busy_ms,
            write_busy_ms=dem.write_busy_ms,
            read_drives=rd,
            drives=all_d,
            span_pct=100 * span,
            queue=q if math.isfinite(q) else None,
        ),
        mean_read_service_ms=mean_read,
        read_miss_latency_ms=explained(
            miss_lat,
            "ms",
            "R_miss = S_read + U S (1 + c²) / (2 (1 - U))  (M/G/1)",
            f"R_miss = {fmt(mean_read)} + {fmt(u_for_latency)} x {fmt(mean_all)} x (1 + {fmt(p.drive_service_scv)})"
            f" / (2 x (1 - {fmt(u_for_latency)})) = {fmt(miss_lat)} ms",
            source="Pollaczek-Khinchine mean value formula [kleinrock-1975]",
            S_read_ms=mean_read,
            S_all_ms=mean_all,
            U=u_for_latency,
            scv=p.drive_service_scv,
        ),
        span_pct=100 * span,
        queue_per_drive=q if math.isfinite(q) else 1e9,
        degraded_group_utilization_pct=None if deg_u is None else 100 * deg_u,
        rebuild_hours=rebuild,
    )
    return load, mean_read, wait_ms
