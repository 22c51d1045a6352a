"""One pool in one window, explained: :func:`pool_figures` computes its numbers with the formulas
of :mod:`models.pool` (work, state, miss path, failure, wear), :func:`pool_load_result` wraps them
in the explained :class:`~models.results.PoolLoad`, :func:`endurance_result` states the flash wear.
A figures-only pass (the cold-cache case of a window) keeps the numbers alone."""

from __future__ import annotations

import math
from typing import NamedTuple

from models import key_figures
from models.architecture import wal_placement
from models.base import validator_of
from models.configuration import Architecture, DrivePool, WalPlacement
from models.drives import (
    DEFAULT_WARRANTY_YEARS,
    DriveSpec,
    Num,
    drive_writes_per_day,
    random_write_wear,
    years_to_wear_out,
)
from models.explain import explained, fmt
from models.parameters import EngineParameters
from models.pool import (
    MissWait,
    PoolItem,
    PoolState,
    PoolWork,
    Roles,
    Work,
    busy_ms,
    destage_capacity,
    endurance_kib_per_s,
    failure_result,
    failure_utilizations,
    miss_path,
    planned_span,
    pool_state,
    pool_work,
    queued_commands,
    readahead_service_ms,
    stated_queue,
)
from models.pool_plans import PoolPlans, pool_plans
from models.queueing import mg1_wait_moments
from models.results import DegradedMode, EnduranceResult, PoolLoad


class PoolFigures(NamedTuple):
    """The numbers of one pool in one window (:func:`pool_figures`): what :func:`pool_load`
    explains, and all a figures-only pass (the cold-cache case of a window) keeps."""

    pw: PoolWork
    work: Work  # pw.work
    roles: Roles
    span: float
    q_cap: float
    state: PoolState
    mean_read_ms: float
    mean_all_ms: float
    wait_ms: float  # the wait at the drives with every group whole
    utilization: float  # data drives (0..inf)
    parity_utilization: float  # dedicated parity drives (0 without)
    failure: tuple[float, float] | None  # :func:`failure_utilizations` (see pool_figures' terms)
    degraded_utilization: float | None  # the degraded group's, in a degraded evaluation
    miss: MissWait
    backend_iops: Num
    backend_mb_s: float
    drive_writes_per_day: float | None  # None: the drive has no endurance rating


def pool_figures(
    pool: DrivePool,
    n: int,
    items: list[PoolItem],
    usable_gb: float,
    footprint_gb: float,
    p: EngineParameters,
    *,
    planned_fill: float,
    aggregate_fill: float | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
    architecture: Architecture | None = None,
    plans: PoolPlans | None = None,
    terms: bool = True,
) -> PoolFigures:
    """The numbers behind :func:`pool_load` (same arguments), with no explanation built: work,
    utilizations, the miss path, the degraded group and the drive writes per day. ``terms``: keep
    each phase's term of the back-end formula (:attr:`PoolWork.terms`, for the text); without
    them (a figures-only pass, never explained) ``failure`` is left None unless ``degraded``
    needs it."""
    layout = pool.raid
    if plans is None:
        plans = pool_plans(pool, p, planned_fill, aggregate_fill, architecture)
    t = plans.t
    roles = plans.roles(n)
    pw = pool_work(
        items, plans, extra_stream_kib=extra_stream_kib, scheme=layout.scheme.value if terms else None
    )
    work = pw.work
    span = float(planned_span(footprint_gb, usable_gb, planned_fill, pool.drive_fraction, layout.scatter))
    g, h, limit = plans.ncq(pool.drive)
    writes_wait = wal_placement(plans.architecture) is WalPlacement.DATA_DRIVE
    q_cap = float(stated_queue(queued_commands(pw, writes_wait), pw.concurrency_stated, roles.data, limit))
    st = pool_state(work, t, roles.data, roles.parity, span, q_cap, g, h)
    mean_read, mean_all, wait = miss_path(work, pw.read_miss_rate, pw.miss_fixed_ms, st, p.drive_service_scv)
    mean_read, mean_all, wait = float(mean_read), float(mean_all), float(wait)
    u = float(st.u_data)
    u_par = float(st.u_parity)
    degraded_group_meets = degraded in (DegradedMode.DRIVE_FAILED, DegradedMode.REBUILDING)
    # the failure figures feed the explained failure result and a degraded group's wait: a
    # figures-only pass of a healthy pool reads neither
    failure = failure_utilizations(pool, work, roles, st, p) if terms or degraded_group_meets else None
    deg_u: float | None = None
    wait_ms = wait
    wait_sq = mg1_wait_moments(mean_all, u, p.drive_service_scv)[1] if work.data.ops > 0 else 0.0
    if degraded_group_meets and failure is not None:
        # through the percentage the failure result reports, as it always was
        deg_u = (100.0 * (failure[1] if degraded is DegradedMode.REBUILDING else failure[0])) / 100.0
        deg_wait, deg_sq = mg1_wait_moments(mean_all, deg_u, p.drive_service_scv)
        wait_ms = ((roles.groups - 1) * wait + deg_wait) / roles.groups
        wait_sq = ((roles.groups - 1) * wait_sq + deg_sq) / roles.groups
    ra_ms = float(readahead_service_ms(t, st.p_read, plans.readahead_run_kib())) + wait_ms
    dwpd = None
    if pool.drive.endurance_dwpd is not None:
        dwpd = drive_writes_per_day(endurance_kib_per_s(work, roles), pool.drive)
    return PoolFigures(
        pw,
        work,
        roles,
        span,
        q_cap,
        st,
        mean_read,
        mean_all,
        wait,
        u,
        u_par,
        failure,
        deg_u,
        MissWait(mean_read, wait_ms, wait_sq, p.drive_service_scv, ra_ms),
        pw.be_read_iops + pw.be_write_iops,
        float(work.kib) * 1024.0 / 1e6,
        dwpd,
    )


def pool_load(
    pool: DrivePool,
    n: int,
    items: list[PoolItem],
    usable_gb: float,
    footprint_gb: float,
    p: EngineParameters,
    *,
    planned_fill: float,
    aggregate_fill: float | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
    architecture: Architecture | None = None,
    plans: PoolPlans | None = None,
) -> tuple[PoolLoad, MissWait]:
    """Load of ``pool`` with ``n`` drives serving ``items`` in one window, and for the latency of each
    phase the read-miss service, the wait at the drives and the response of one readahead request
    (:class:`MissWait`, inf when saturated).

    ``footprint_gb`` is what the pool holds at the planning horizon, ``planned_fill`` (0..1) the
    fill it is planned to run at: together with the usable capacity they set the seek span
    (:func:`planned_span`); ``aggregate_fill`` (default ``planned_fill``) is the share of the whole
    aggregate in use, which sets the free space a write-anywhere layout finds. With a drive failed or
    rebuilding, 1/G of the pool's I/O meets the degraded group: the wait mixes the two.
    ``architecture`` (the configuration's) says whether data is reduced inline on the way to the
    drives (:mod:`models.reduction`). ``plans``: :func:`pool_plans` of the same pool, parameters,
    fills and architecture, shared by the windows of an evaluation.
    """
    if plans is None:
        plans = pool_plans(pool, p, planned_fill, aggregate_fill, architecture)
    f = pool_figures(
        pool,
        n,
        items,
        usable_gb,
        footprint_gb,
        p,
        planned_fill=planned_fill,
        aggregate_fill=aggregate_fill,
        degraded=degraded,
        extra_stream_kib=extra_stream_kib,
        architecture=architecture,
        plans=plans,
    )
    return pool_load_result(
        pool, n, items, p, f, planned_fill=planned_fill, degraded=degraded, plans=plans
    ), f.miss


def pool_load_result(
    pool: DrivePool,
    n: int,
    items: list[PoolItem],
    p: EngineParameters,
    f: PoolFigures,
    *,
    planned_fill: float,
    degraded: DegradedMode,
    plans: PoolPlans,
) -> PoolLoad:
    """The :class:`PoolLoad` of :func:`pool_load`, every figure explained, from its numbers ``f``
    (:func:`pool_figures` of the same arguments)."""
    layout = pool.raid
    pw, work, roles, st, span, q_cap = f.pw, f.work, f.roles, f.state, f.span, f.q_cap
    mean_read, mean_all, u, u_par, deg_u = (
        f.mean_read_ms,
        f.mean_all_ms,
        f.utilization,
        f.parity_utilization,
        f.degraded_utilization,
    )
    failure = failure_result(pool, work, roles, st, p, f.failure, drives=n, architecture=plans.architecture)
    wait_ms = f.miss.wait_ms
    be_total = pw.be_read_iops + pw.be_write_iops
    destage = destage_capacity(pw, roles, st)
    miss_lat = mean_read + wait_ms if math.isfinite(wait_ms) else None
    d = work.data
    load = _POOL_LOAD(
        {
            "pool": pool.name,
            "frontend_iops": pw.fe_iops,
            "backend_iops": explained(
                be_total,
                "IOPS",
                "BE = R x (1 - hit) x accesses + W x c_write",
                "BE = " + (" + ".join(pw.terms) if pw.terms else "0") + f" = {fmt(be_total)}",
                reads=pw.be_read_iops,
                writes=pw.be_write_iops,
                scheme=layout.scheme.value,
            ),
            "backend_read_iops": pw.be_read_iops,
            "backend_write_iops": pw.be_write_iops,
            "drive_busy_ms_per_s": float(
                busy_ms(d, st.p_read, st.p_write) + busy_ms(work.parity, st.p_read, st.p_write)
            ),
            "drive_utilization_pct": explained(
                100.0 * u,
                "%",
                "U = (fixed + reads x P_read + writes x P_write) / 1000 / data drives",
                f"U = ({fmt(float(d.read_ms + d.write_ms))} + {fmt(float(d.read_pos))} x {fmt(float(st.p_read))} + "
                f"{fmt(float(d.write_pos))} x {fmt(float(st.p_write))}) ms/s / 1000 / {roles.data} drives = {fmt(100 * u)}% "
                f"(seek span {fmt(100 * span)}%, {fmt(float(st.queue))} commands queued per drive"
                + (
                    ", none stated: no command-queuing credit)"
                    if q_cap <= 1
                    else f", up to {fmt(q_cap)} outstanding)"
                )
                + _write_cache_words(float(plans.t.write_queue_factor), plans.ncq(pool.drive)[2]),
                fixed_ms=float(d.read_ms + d.write_ms),
                read_positionings=float(d.read_pos),
                write_positionings=float(d.write_pos),
                P_read_ms=float(st.p_read),
                P_write_ms=float(st.p_write),
                drives=roles.data,
                span_pct=100 * span,
                queue=float(st.queue) if math.isfinite(float(st.queue)) else None,
            ),
            "parity_utilization_pct": (
                explained(
                    100.0 * u_par,
                    "%",
                    "U_parity = (fixed + positionings x P) / 1000 / parity drives",
                    f"U_parity = {fmt(float(busy_ms(work.parity, st.p_read, st.p_write)))} ms/s / 1000 / "
                    f"{roles.parity} parity drives = {fmt(100 * u_par)}% (every partial stripe updates each parity drive)",
                    drives=roles.parity,
                )
                if roles.parity
                else None
            ),
            "mean_read_service_ms": mean_read,
            "read_miss_latency_ms": explained(
                miss_lat,
                "ms",
                "R_miss = S_read + U S (1 + c²) / (2 (1 - U))  (M/G/1)",
                f"R_miss = {fmt(mean_read)} + {fmt(u)} x {fmt(mean_all)} x (1 + {fmt(p.drive_service_scv)})"
                f" / (2 x (1 - {fmt(u)})) = {fmt(miss_lat)} ms"
                + (
                    ""
                    if deg_u is None
                    else f" (1 of {roles.groups} groups degraded at {fmt(100 * deg_u)}% busy)"
                ),
                source="Pollaczek-Khinchine mean value formula [kleinrock-1975]",
                S_read_ms=mean_read,
                S_all_ms=mean_all,
                U=u,
                scv=p.drive_service_scv,
            ),
            "span_pct": 100 * span,
            "queue_per_drive": float(st.queue) if math.isfinite(float(st.queue)) else 1e9,
            "backend_mb_per_s": float(work.kib) * 1024.0 / 1e6,
            "destage_capacity_x": destage,
            "degraded_group_utilization_pct": None if deg_u is None else 100 * deg_u,
            "rebuild_hours": failure.rebuild_hours
            if failure is not None and degraded is DegradedMode.REBUILDING
            else None,
            "failure": failure,
            "endurance": endurance_result(pool.drive, work, roles, planned_fill),
            "per_drive_iops": key_figures.per_drive_iops(float(be_total), n),
            "write_penalty": key_figures.write_penalty(
                layout,
                sum(ph.effective_iops * (1 - ph.read_pct / 100) for _, ph, _, _ in items),
                float(pw.be_write_iops),
                fill=plans.fill,
                write_costs=plans.write_costs(),
                absorbed_writes=sum(
                    ph.effective_iops * (1 - ph.read_pct / 100) * ph.write_overwrite_pct / 100
                    for _, ph, _, _ in items
                ),
            ),
        }
    )
    return load


def endurance_result(
    drive: DriveSpec, work: Work, roles: Roles, planned_fill: float
) -> EnduranceResult | None:
    """Drive writes per day the window's load needs (sustained all day) against the rating, and the
    years to wear-out (:func:`models.drives.drive_writes_per_day`, :func:`~models.drives.years_to_wear_out`).

    Random writes count ``WA(fill) / WA(1)`` per KiB (:func:`models.drives.random_write_wear`),
    streamed writes one for one; RAID parity and copies are in the work. ``None`` for a drive
    without an endurance rating.
    """
    rated = drive.endurance_dwpd
    if rated is None:
        return None
    kib = endurance_kib_per_s(work, roles)
    dwpd = drive_writes_per_day(kib, drive)
    years = years_to_wear_out(dwpd, drive)
    warranty = drive.warranty_years if drive.warranty_years is not None else DEFAULT_WARRANTY_YEARS
    wear = random_write_wear(drive, planned_fill)
    return EnduranceResult(
        drive_writes_per_day=explained(
            dwpd,
            "DWPD",
            "DWPD = (random KiB written x WA(fill)/WA(1) + streamed KiB) per drive x 86,400 / capacity",
            f"DWPD = {fmt(kib)} KiB/s per drive (random writes x {fmt(wear)} for the spare at "
            f"{fmt(100 * planned_fill)}% fill; RAID parity and copies included) x 1024 x 86,400 / "
            f"{fmt(drive.capacity_gb)} GB = {fmt(dwpd)} drive writes per day, sustained all day at this "
            f"window's rate (rated {fmt(rated)})",
            source="write amplification of greedy garbage collection [xiang-kurkoski-2012]",
            wear_kib_per_s=kib,
            write_wear=wear,
            rated_dwpd=rated,
        ),
        rated_dwpd=rated,
        years_to_wear_out=explained(
            None if years is None or not math.isfinite(years) else years,
            "years",
            "years = warranty x DWPD_rated / DWPD_needed",
            f"years = {fmt(warranty)} x {fmt(rated)} / {fmt(dwpd)} = {fmt(years)} years to use up the rated writes"
            + ("" if drive.warranty_years is not None else " (warranty not given: 5 years assumed)"),
            warranty_years=warranty,
        ),
    )


_POOL_LOAD = validator_of(PoolLoad)


def _write_cache_words(factor: float, limit: float) -> str:
    """What a stated drive write cache credits the writes (nothing when it is off)."""
    if factor >= 1.0:
        return ""
    return (
        f"; the drives' write cache is on (stated: drive_write_cache): they reorder the writes they hold "
        f"as a queue of {fmt(limit)}, write positioning x {fmt(factor)} (saves {fmt(100 * (1 - factor))}% of it; "
        "off by default: a power loss drops what the cache holds)"
    )
