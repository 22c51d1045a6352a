"""Evaluate a configuration against workloads, window by window (open queueing model).

For each window (phases of all workloads that share it run together):

1. Caches (:mod:`models.cache_share`): each workload's random reads hit controller DRAM, then the
   flash cache, with hit ratios from the LRU model over its working set and skew; a shared cache
   is split among the window's workloads. Sequential reads are prefetched.
2. Back end per pool (:mod:`models.pool`): back-end I/Os ``BE = R_miss + W x c_write`` and the
   drive busy time from the physics in :mod:`models.drives` and :mod:`models.raid`; an
   autotiered pool set splits each workload's I/O over its tiers (:mod:`models.tiering`).
3. Controllers: CPU cost model (:mod:`models.controller`), normal and after a failover.
4. Ports: MB/s over practical bandwidth (:mod:`models.ports`).
5. Latency per phase (:mod:`models.latency`): M/G/1 at the drives, M/M/c at the controller CPU,
   M/M/1 at the ports; writes acknowledged from NVRAM while the drives keep up.
6. Checks against the headroom and latency targets, each with its margin; the bottleneck is the
   component nearest (or furthest past) its limit.

Result types live in :mod:`models.results` and are re-exported here.

A window is served twice: at its warm hit ratios and, for its cold-cache case, at the cold ones.
Both passes compute the same numbers (:func:`_figures`, through :func:`models.pool.pool_figures`
and :func:`models.latency.phase_figures`); only the warm pass explains them in result models
(:func:`_serve`), so the two cannot drift and the cold pass builds nothing it throws away.
What depends on the configuration alone (capacities, bill, priced plans) is kept for the very
same configuration object evaluated again, and the answers of pure functions (Che solves, hit
ratios, quantiles, texts of numbers) for the same values, by the caller's
:class:`models.memo.EvaluationMemo` (the one in force, else one for the call).

Kept as one module (about 980 lines): the window loop, its setup (pools, fills, plans) and the
cold-cache and degraded variants of a window read in sequence; the physics lives in the modules
named above (the front end's port, bus and write-burst figures in :mod:`models.front_end`), and
each function here is short.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from contextlib import nullcontext
from typing import NamedTuple

from models import ENGINE_VERSION
from models.architecture import (
    cluster_network,
    cross_node_mb_s,
    full_stripe_reads,
    node_stripes,
    remote_copies,
    shares_ports,
    wal_placement,
    written_pool,
)
from models.base import InputError, validator_of
from models.buildable import check_buildable
from models.cache import flash_cache_devices, flash_cache_utilization, flash_reads_served
from models.cache_share import cache_shares_gb, window_hit_ratios
from models.capacity import capacity_result, physical_needed_tb
from models.checks import busy_words
from models.configuration import Configuration, DrivePool, WalPlacement
from models.controller import (
    ControllerLoad,
    HaMode,
    at_core_clock,
    clock_text,
    controller_load,
    controller_utilization,
    cpu_response_ms,
    cpu_seconds_per_second,
)
from models.cow_metadata import cold_hit_ratios, metadata_words
from models.drives import DEFAULT_WARRANTY_YEARS
from models.explain import Explained, explained, figures_only, fmt, number
from models.front_end import (
    backend_bus_check,
    backend_bus_explained,
    controllers_explained,
    ports_check,
    ports_explained,
    write_burst,
)
from models.kept import active, using
from models.latency import (
    DrivePath,
    FrontEnd,
    PhaseFigures,
    phase_figures,
    phase_limit,
    phase_result_of,
    window_latencies_of,
    window_read_quantiles,
)
from models.memo import EvaluationMemo, current_memo
from models.parameters import EngineParameters
from models.pool import PoolItem
from models.pool_load import PoolFigures, pool_figures, pool_load_result
from models.ports import protocol_cpu_multiplier
from models.results import (
    BillOfMaterials,
    Check,
    ColdCacheResult,
    ColdPhase,
    DegradedMode,
    EvaluationResult,
    Limit,
    PhaseResult,
    PoolLoad,
    TieringResult,
    TierLoad,
    WindowResult,
    check,
    worst_window,
)
from models.tiering import migration_streams, tier_plan
from models.workload import Phase, Workload, windows_of

__all__ = [
    "BillOfMaterials",
    "Check",
    "DegradedMode",
    "EvaluationResult",
    "PhaseResult",
    "PoolLoad",
    "TierLoad",
    "TieringResult",
    "WindowResult",
    "cache_shares_gb",
    "evaluate",
    "pool_drive_counts",
    "window_hit_ratios",
]


def pool_drive_counts(configuration: Configuration) -> dict[str, int]:
    """Drive count of each pool; a pool without one must be sized first (see :func:`models.size.size`)."""
    out = {}
    for i, pool in enumerate(configuration.pools):
        if pool.drive_count is None:
            raise InputError(f"pools.{i}.drive_count", "is not set: size the configuration, or give a count")
        out[pool.name] = pool.drive_count
    return out


def _assign(workloads: Iterable[Workload], configuration: Configuration) -> dict[str, str]:
    names = {p.name for p in configuration.pools}
    out = {}
    for i, w in enumerate(workloads):
        if w.pool is not None and w.pool not in names:
            raise InputError(f"workloads.{i}.pool", f"unknown pool {w.pool!r}")
        out[w.name] = w.pool or configuration.pools[0].name
    return out


def _scaled(members: list[tuple[Workload, Phase]], load_scale: float) -> list[tuple[Workload, Phase]]:
    if load_scale == 1.0:
        return members
    return [
        (
            w,
            ph.model_copy(
                update={
                    "iops": ph.iops * load_scale,
                    "mb_per_s": ph.mb_per_s * load_scale if ph.mb_per_s else ph.mb_per_s,
                }
            ),
        )
        for w, ph in members
    ]


class _Setup:
    """What every window of one evaluation shares: the configuration, its drive counts and capacity,
    the controllers serving, the caches they hold, where each workload lives."""

    def __init__(
        self,
        workloads: list[Workload],
        cfg: Configuration,
        p: EngineParameters,
        degraded: DegradedMode,
        usable_gb: dict[str, float],
        cold_cache: bool,
        memo: EvaluationMemo,
    ) -> None:
        # the CPU costs at the cores' clock where both clocks are stated (models.controller); the
        # controller as stated kept for the explanation (models.controller.clock_text)
        self.stated_controller = cfg.controller
        clocked = at_core_clock(cfg.controller)
        if clocked is not cfg.controller:
            cfg = cfg.model_copy(update={"controller": clocked})
        self.cfg = cfg
        self.cold_cache = cold_cache
        self.p = p
        self.degraded = degraded
        ctrl = cfg.controller
        counts = pool_drive_counts(cfg)
        self.counts = {pl.name: counts[pl.name] + pl.other_count for pl in cfg.pools}
        self.assignment = _assign(workloads, cfg)
        self.usable_gb = usable_gb
        self.serving = ctrl.serving
        if degraded is DegradedMode.CONTROLLER_FAILED:
            self.serving = ctrl.serving_after_failover
            if self.serving < 1:
                raise InputError(
                    "degraded", "a single controller cannot be evaluated with a controller failed"
                )
        self.dram_total = ctrl.dram_cache_gb * self.serving
        self.flash_total = cfg.cache.flash_cache_gb * (self.serving / ctrl.serving)
        self.tier_used_gb = 0.0
        if cfg.tiering is not None:
            tiers = set(cfg.tiering.tiers)
            self.tier_used_gb = 1000.0 * sum(
                physical_needed_tb(w) for w in workloads if self.assignment[w.name] in tiers
            )
        self.tier_skews = (
            [w.skew for w in workloads if self.assignment[w.name] in set(cfg.tiering.tiers)]
            if cfg.tiering is not None
            else []
        )
        self.footprint_gb = {
            pl.name: 1000.0
            * sum(physical_needed_tb(w) for w in workloads if self.assignment[w.name] == pl.name)
            for pl in cfg.pools
        }
        self.pools = [written_pool(pl, cfg.architecture) for pl in cfg.pools]
        self.planned_fill = {pl.name: planned_fill(pl, cfg) for pl in cfg.pools}
        self.write_fill = {pl.name: write_fill(pl, cfg) for pl in cfg.pools}
        # what every pass over a window asks of the configuration alone, worked out once
        self.remote_copies = remote_copies(cfg.architecture)
        self.full_stripe_reads = full_stripe_reads(cfg)
        self.wal_on_drive = wal_placement(cfg.architecture) is WalPlacement.DATA_DRIVE
        self.shares_ports = shares_ports(cfg)
        self.port_mb_s = max(pg.mb_s_per_port for pg in cfg.ports)  # the fastest port's
        self.protocol_multiplier = protocol_cpu_multiplier(cfg.ports)
        self.fails_over = _fails_over(self)
        # each pool's access plans, priced once for every window (and the cold-cache case)
        self.plans = {
            pl.name: memo.plans(pl, p, self.planned_fill[pl.name], self.write_fill[pl.name], cfg.architecture)
            for pl in self.pools
        }


def planned_fill(pool: DrivePool, cfg: Configuration) -> float:
    """Fill the pool is planned to run at (0..1): the pool's own figure, else the capacity fill target."""
    pct = pool.planned_fill_pct if pool.planned_fill_pct is not None else cfg.headroom.capacity_max_fill_pct
    return pct / 100.0


def write_fill(pool: DrivePool, cfg: Configuration) -> float:
    """Share of the whole aggregate in use at the planned fill (0..1): the free space a
    write-anywhere layout finds, its reserve (``filesystem_reserve_pct``) kept free."""
    return planned_fill(pool, cfg) * (1.0 - cfg.capacity.filesystem_reserve_pct / 100.0)


_DEFAULT_PARAMETERS = EngineParameters()
"""The parameters of an evaluation given none (one frozen instance: its priced plans are kept,
:meth:`models.memo.EvaluationMemo.plans`)."""


def evaluate(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    load_scale: float = 1.0,
    cold_cache: bool = True,
    explain: bool = True,
    memo: EvaluationMemo | None = None,
) -> EvaluationResult:
    """Evaluate ``configuration`` against every window of ``workloads``.

    ``load_scale`` multiplies every phase's IOPS (what-if and latency-vs-load curves).
    ``degraded`` evaluates with one drive failed (per pool, in one group), during its rebuild,
    or with one controller / node down. ``cold_cache`` adds each window's cold-cache case (after a
    restart or failover, :class:`ColdCacheResult`) beside the warm steady state; searches that only
    need the verdict (sizing, saturation) leave it out. ``explain=False`` leaves the windows'
    explanations without text or inputs (:class:`models.explain.figures_only`: every figure,
    check, check text, verdict and bottleneck is the same; capacity, bill and warnings stay whole),
    for the evaluations a search or a what-if reads and throws away (a tenth to a fifth of the work);
    never for a result shown as it is. ``memo``: what the caller keeps for what it evaluates
    again (:class:`models.memo.EvaluationMemo`; default the memo in force, else one for this call).
    """
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if load_scale < 0 or not math.isfinite(load_scale):
        raise InputError("load_scale", "must be a finite number >= 0")
    names = [w.name for w in workloads]
    if len(set(names)) != len(names):
        raise InputError("workloads", "workload names must be unique")
    kept = memo if memo is not None else current_memo() or EvaluationMemo()
    if active() is not kept:
        with using(kept):
            return _evaluate(
                workloads, configuration, params, degraded, load_scale, cold_cache, explain, kept
            )
    return _evaluate(workloads, configuration, params, degraded, load_scale, cold_cache, explain, kept)


def _evaluate(
    workloads: list[Workload],
    configuration: Configuration,
    params: EngineParameters | None,
    degraded: DegradedMode,
    load_scale: float,
    cold_cache: bool,
    explain: bool,
    kept: EvaluationMemo,
) -> EvaluationResult:
    """:func:`evaluate` with its memo in force."""
    p = params or _DEFAULT_PARAMETERS
    cfg = configuration
    buildable = check_buildable(cfg)  # a layout wider than the hosts is an InputError
    counts = pool_drive_counts(cfg)
    pcaps, bill = kept.parts(cfg, counts)
    warnings = [*buildable, *(w for pc in pcaps for w in pc.warnings)]
    cap = capacity_result(pcaps, workloads, cfg.headroom.capacity_max_fill_pct)
    usable_gb = {pc.pool: (pc.usable_tb.value or 0.0) * 1000.0 for pc in pcaps}
    setup = _Setup(workloads, cfg, p, degraded, usable_gb, cold_cache, kept)
    members = [
        (window, _scaled([(w, ph) for w in workloads for ph in w.phases if ph.window == window], load_scale))
        for window in windows_of(workloads)
    ]
    # unexplained: the windows only (the configuration's parts, kept for it, were built whole above)
    with nullcontext() if explain else figures_only():
        windows = _with_failure_verdicts(
            [_evaluate_window(window, of_window, setup) for window, of_window in members]
        )
    cap_check = check(
        "capacity",
        cap.fill_pct,
        cap.max_fill_pct,
        "%",
        busy_words("capacity", needed_tb=fmt(cap.needed_tb.value), usable_tb=fmt(cap.usable_tb)),
    )
    passed = cap_check.passed and all(w.passed for w in windows)
    worst = worst_window(windows)
    if not cap_check.passed and (worst is None or worst.passed):
        bottleneck = "capacity"
    else:
        bottleneck = f"{worst.bottleneck} ({worst.window})" if worst else "capacity"
    warnings.extend(_ure_warnings(windows, p))
    warnings.extend(_wear_warnings(windows, cfg, workloads))
    for w in workloads:
        for ph in w.phases:
            ws = w.working_set_for(ph)
            if ws > w.capacity_tb * 1000.0 * 1.0001:
                warnings.append(
                    f"{w.name}/{ph.name}: working set {fmt(ws)} GB exceeds the capacity "
                    f"{fmt(w.capacity_tb * 1000)} GB; the cache model uses it as given"
                )
    return EvaluationResult(
        engine_version=ENGINE_VERSION,
        configuration=cfg.name,
        degraded=degraded,
        windows=windows,
        capacity=cap,
        bill=bill,
        checks=[cap_check],
        passed=passed,
        bottleneck=bottleneck,
        warnings=warnings,
    )


def _routes(
    members: list[tuple[Workload, Phase]], setup: _Setup, tiering: TieringResult | None
) -> list[list[tuple[str, float]]]:
    """The pools each phase's I/O goes to, with the share each serves (tiers split it)."""
    tier_names = set(setup.cfg.tiering.tiers) if setup.cfg.tiering is not None else set()
    routes = []
    for w, _ in members:
        home = setup.assignment[w.name]
        if tiering is not None and home in tier_names:
            routes.append([(t.pool, t.io_share_pct / 100.0) for t in tiering.tiers])
        else:
            routes.append([(home, 1.0)])
    return routes


def _pool_items(
    members: list[tuple[Workload, Phase]],
    hits: list[tuple[float, float]],
    routes: list[list[tuple[str, float]]],
    setup: _Setup,
) -> dict[str, list[PoolItem]]:
    """Each pool's share of every phase, with the phase's hit ratios."""
    per_pool: dict[str, list[PoolItem]] = {pl.name: [] for pl in setup.cfg.pools}
    for (w, ph), (h_d, h_f), route in zip(members, hits, routes, strict=True):
        for pool_name, share in route:
            if share > 0:
                part = (
                    ph
                    if share == 1.0
                    else ph.model_copy(update={"iops": ph.effective_iops * share, "mb_per_s": None})
                )
                per_pool[pool_name].append((w, part, h_d, h_f))
    return per_pool


class _Figures(NamedTuple):
    """One window served at given hit ratios, as numbers: every figure and check its result (or
    its cold-cache case) needs, before any of them is explained."""

    per_pool: dict[str, list[PoolItem]]
    pools: list[PoolFigures]
    checks: list[Limit]  # in the order the verdict ranks ties
    cload: ControllerLoad
    u_ctrl: float
    u_fo: float | None
    bus: tuple[float, float, float] | None  # (back-end MB/s, bus capacity MB/s, U %)
    flash: tuple[float, int, float] | None  # (flash hits/s, devices, U %): :func:`_flash_cache`
    mb_s: float
    cross_mb_s: float
    u_port: float
    net_exp: Explained | None
    front: FrontEnd
    phases: list[PhaseFigures]
    checks_of_phases: list[Limit | None]
    read_lat: float | None
    write_lat: float | None
    avg_lat: float | None
    read_p95: float | None
    read_p99: float | None


def _figures(
    members: list[tuple[Workload, Phase]],
    hits: list[tuple[float, float]],
    routes: list[list[tuple[str, float]]],
    tiering: TieringResult | None,
    setup: _Setup,
    *,
    explain: bool = True,
) -> _Figures:
    """The window's phases served at read-hit ratios ``hits``, as numbers: pools, controllers,
    ports, cluster network, each phase's latency and percentiles, and their checks (in the order
    the verdict ranks ties). ``explain=False`` (a figures-only pass): no back-end formula terms,
    and only the p99 of each phase."""
    cfg, p, ctrl = setup.cfg, setup.p, setup.cfg.controller
    per_pool = _pool_items(members, hits, routes, setup)
    checks: list[Limit] = []
    pools, paths = _pools(setup, per_pool, tiering, migration_streams(cfg, tiering), checks, explain)
    cload = controller_load(
        members,
        hits,
        backend_ios=sum(f.backend_iops or 0.0 for f in pools),
        remote_copies=setup.remote_copies,
        stripes=node_stripes(cfg, [setup.assignment[w.name] for w, _ in members]),
        full_stripe_reads=setup.full_stripe_reads,
        protocol_multiplier=setup.protocol_multiplier,
    )
    backend_mb_s = sum(f.backend_mb_s for f in pools)
    bus = backend_bus_check(backend_mb_s, ctrl, setup.serving, cfg.headroom.port_max_pct, checks)
    flash = _flash_cache(members, hits, setup.flash_total, cfg, checks)
    cpu_s = cpu_seconds_per_second(cload, ctrl)  # the utilizations and the CPU response share it
    u_ctrl, u_fo = _controllers(cload, setup, checks, cpu_s)
    cross = cross_node_mb_s(cfg, backend_mb_s) if setup.shares_ports else 0.0
    mb_s, u_port = ports_check(members, cfg, checks, cross_mb_s=cross)
    net_exp = cluster_network(cfg, backend_mb_s)
    if net_exp is not None:
        checks.append(
            Limit(
                "cluster network",
                net_exp.value,
                cfg.headroom.port_max_pct,
                "%",
                busy_words("cluster network"),
            )
        )

    # latency of each phase
    front = FrontEnd(
        r_ctrl_ms=cpu_response_ms(cload, ctrl, u_ctrl, cpu_s),
        port_utilization=u_port,
        port_mb_s=setup.port_mb_s,
        host_overhead_ms=p.host_overhead_ms,
        cache_hit_ms=ctrl.cache_hit_ms,
        write_ack_ms=ctrl.write_ack_ms,
        wal_on_drive=setup.wal_on_drive,
    )
    qs = (0.95, 0.99) if explain else (0.99,)
    phases = [
        phase_figures(w, ph, h, route, front, paths, cfg.cache, qs)
        for (w, ph), h, route in zip(members, hits, routes, strict=True)
    ]
    phase_checks = [phase_limit(w, ph, f.read_ms) for (w, ph), f in zip(members, phases, strict=True)]
    checks.extend(chk for chk in phase_checks if chk is not None)
    read_lat, write_lat, avg_lat = window_latencies_of(
        [
            (ph.effective_iops, ph.read_pct, f.read_ms, f.write_ms)
            for (_, ph), f in zip(members, phases, strict=True)
        ]
    )
    read_p95, read_p99 = window_read_quantiles(
        [ph.effective_iops * ph.read_pct / 100.0 for _, ph in members], [f.read_paths for f in phases]
    )
    return _Figures(
        per_pool,
        pools,
        checks,
        cload,
        u_ctrl,
        u_fo,
        bus,
        flash,
        mb_s,
        cross,
        u_port,
        net_exp,
        front,
        phases,
        phase_checks,
        read_lat,
        write_lat,
        avg_lat,
        read_p95,
        read_p99,
    )


class _Served(NamedTuple):
    """One window served at given hit ratios: every load, check and latency its result needs."""

    pool_loads: list[PoolLoad]
    checks: list[Check]
    ctrl_exp: Explained
    fo_exp: Explained | None
    mb_s: float
    port_exp: Explained
    net_exp: Explained | None
    bus: Explained | None
    flash: Explained | None
    phases: list[PhaseResult]
    read_lat: float | None
    write_lat: float | None
    avg_lat: float | None
    read_p95: float | None
    read_p99: float | None


def _serve(
    members: list[tuple[Workload, Phase]],
    hits: list[tuple[float, float]],
    shares: tuple[list[float], list[float], list[float]],
    routes: list[list[tuple[str, float]]],
    tiering: TieringResult | None,
    setup: _Setup,
) -> _Served:
    """The window's phases served at read-hit ratios ``hits`` (:func:`_figures`), every figure
    explained: pools, controllers, ports, cluster network, each phase's latency and percentiles,
    and their checks."""
    cfg, ctrl = setup.cfg, setup.cfg.controller
    ws_list, dram_share, both_share = shares
    f = _figures(members, hits, routes, tiering, setup)
    pool_loads = [
        pool_load_result(
            pool,
            setup.counts[pool.name],
            f.per_pool[pool.name],
            setup.p,
            pf,
            planned_fill=setup.planned_fill[pool.name],
            degraded=setup.degraded,
            plans=setup.plans[pool.name],
        )
        for pool, pf in zip(setup.pools, f.pools, strict=True)
    ]
    ctrl_exp, fo_exp = controllers_explained(
        f.cload, ctrl, setup.serving, f.u_ctrl, f.u_fo, clock_text(setup.stated_controller)
    )
    phases = [
        phase_result_of(
            w,
            ph,
            h,
            (ws, d_gb, b_gb),
            setup.assignment[w.name],
            f.front,
            cfg.cache,
            setup.flash_total,
            pf,
            chk is None or chk.passed,
        )
        for (w, ph), h, ws, d_gb, b_gb, pf, chk in zip(
            members, hits, ws_list, dram_share, both_share, f.phases, f.checks_of_phases, strict=True
        )
    ]
    return _Served(
        pool_loads,
        [c.check() for c in f.checks],
        ctrl_exp,
        fo_exp,
        f.mb_s,
        ports_explained(f.mb_s, f.cross_mb_s, f.u_port, cfg),
        f.net_exp,
        None if f.bus is None else backend_bus_explained(*f.bus, ctrl, setup.serving),
        None if f.flash is None else _flash_cache_explained(*f.flash, cfg),
        phases,
        f.read_lat,
        f.write_lat,
        f.avg_lat,
        f.read_p95,
        f.read_p99,
    )


def _evaluate_window(window: str, members: list[tuple[Workload, Phase]], setup: _Setup) -> WindowResult:
    cfg, ctrl = setup.cfg, setup.cfg.controller
    hits, ws_list, dram_share, both_share = window_hit_ratios(
        members, setup.dram_total, setup.flash_total, cfg.cache
    )
    tiering = (
        tier_plan(cfg, setup.tier_used_gb, setup.usable_gb, setup.tier_skews)
        if cfg.tiering is not None and setup.tier_used_gb > 0
        else None
    )
    routes = _routes(members, setup, tiering)
    shares = (ws_list, dram_share, both_share)
    warm = _serve(members, hits, shares, routes, tiering, setup)
    burst = write_burst(members, warm.pool_loads, ctrl, setup.serving)
    tot_iops = sum(ph.effective_iops for _, ph in members)
    verdict_passed, bottleneck, verdict = _verdict(window, warm.checks)
    cold = _cold_cache(window, members, hits, warm, routes, tiering, setup) if setup.cold_cache else None
    return _WINDOW_RESULT(
        {
            "window": window,
            "frontend_iops": tot_iops,
            "frontend_mb_s": warm.mb_s,
            "read_pct": 100 * sum(ph.effective_iops * ph.read_pct / 100 for _, ph in members) / tot_iops
            if tot_iops
            else 0.0,
            "pools": warm.pool_loads,
            "phases": warm.phases,
            "controller_utilization_pct": warm.ctrl_exp,
            "failover_utilization_pct": warm.fo_exp,
            "port_utilization_pct": warm.port_exp,
            "cluster_network_utilization_pct": warm.net_exp,
            "read_latency_ms": warm.read_lat,
            "read_p95_latency_ms": warm.read_p95,
            "read_p99_latency_ms": warm.read_p99,
            "write_latency_ms": warm.write_lat,
            "avg_latency_ms": warm.avg_lat,
            "checks": warm.checks,
            "bottleneck": bottleneck,
            "passed": verdict_passed,
            "verdict": verdict,
            "tiering": tiering,
            "write_burst_s": burst,
            "backend_bus_utilization_pct": warm.bus,
            "flash_cache_utilization_pct": warm.flash,
            "failure_verdict": None,  # with every window's rebuild known (_with_failure_verdicts)
            "cold_cache": cold,
        }
    )


def cold_hits_of(
    members: list[tuple[Workload, Phase]],
    hits: list[tuple[float, float]],
    phases: list[PhaseResult],
    routes: list[list[tuple[str, float]]],
    setup: _Setup,
) -> tuple[list[tuple[float, float]], list[float]] | None:
    """:func:`models.cow_metadata.cold_hit_ratios` of a window's phases (their results' first-pass
    hit ratios, the pools their reads route to)."""
    return cold_hit_ratios(
        [ph.mean_size_kib for _, ph in members],
        hits,
        [(ph.cold_hit_pct.value or 0.0) / 100.0 for ph in phases],
        routes,
        {pl.name: pl.raid for pl in setup.pools},
    )


def _cold_cache(
    window: str,
    members: list[tuple[Workload, Phase]],
    hits: list[tuple[float, float]],
    warm: _Served,
    routes: list[list[tuple[str, float]]],
    tiering: TieringResult | None,
    setup: _Setup,
) -> ColdCacheResult | None:
    """The window while the caches refill after a restart or a failover (None when no phase's
    cold hit ratio differs from its warm one: no cache, or a cache holding every working set).

    Each phase reads at its cold (first-pass) hit ratio (:func:`models.cache_share.cold_hit_explained`),
    split between DRAM and flash in the warm proportion; everything else is served as warm.
    """
    got = cold_hits_of(members, hits, warm.phases, routes, setup)
    if got is None:
        return None
    cold_hits, meta = got
    with figures_only():  # only figures and check verdicts are kept from this pass
        served = _figures(members, cold_hits, routes, tiering, setup, explain=False)
    checks = served.checks
    passed = all(c.passed for c in checks)
    # the first of the highest loads, as _verdict's stable descending sort ranks them (no load is NaN)
    top = max(checks, key=lambda c: c.load)
    bottleneck = top.name
    failing = [c.check().text for c in checks if not c.passed][:3]
    return _COLD_CACHE_RESULT(
        {
            "phases": [
                _COLD_PHASE(
                    {
                        "workload": w.name,
                        "phase": ph.name,
                        "hit_pct": 100.0 * (h_d + h_f),
                        "warm_hit_pct": 100.0 * (wd + wf),
                        "read_latency_ms": f.read_ms,
                        "read_p99_latency_ms": f.quantiles[-1],
                        "metadata_reads_per_miss": m,
                    }
                )
                for (w, ph), (h_d, h_f), (wd, wf), f, m in zip(
                    members, cold_hits, hits, served.phases, meta, strict=True
                )
            ],
            "drive_utilization_pct": {
                pool.name: 100.0 * f.utilization for pool, f in zip(setup.pools, served.pools, strict=True)
            },
            "controller_utilization_pct": 100 * served.u_ctrl,
            "read_latency_ms": served.read_lat,
            "read_p95_latency_ms": served.read_p95,
            "read_p99_latency_ms": served.read_p99,
            "bottleneck": bottleneck,
            "passed": passed,
            "verdict": (
                f"{window} with cold caches: meets every target; busiest is {top.check().text}."
                if passed
                else f"{window} with cold caches (after a restart or failover, until the working set is read "
                "once): fails: " + "; ".join(failing[:3]) + "."
            )
            + metadata_words(max(meta)),
        }
    )


def _pools(
    setup: _Setup,
    per_pool: dict[str, list[PoolItem]],
    tiering: TieringResult | None,
    migration: dict[str, tuple[float, float]],
    checks: list[Limit],
    terms: bool = True,
) -> tuple[list[PoolFigures], dict[str, DrivePath]]:
    """Every pool's figures in the window (:func:`models.pool.pool_figures`, with the back-end
    formula's ``terms``) and its miss path for the phases' latency; appends the drive,
    parity-drive and degraded-group checks (flash wear is a lifetime budget, no check:
    :func:`_wear_warnings`)."""
    cfg, p = setup.cfg, setup.p
    footprint = dict(setup.footprint_gb)
    if tiering is not None:
        footprint.update({t.pool: t.data_gb for t in tiering.tiers})
    figures: list[PoolFigures] = []
    paths: dict[str, DrivePath] = {}
    limit = cfg.headroom.drive_max_pct
    for pool in setup.pools:
        f = pool_figures(
            pool,
            setup.counts[pool.name],
            per_pool[pool.name],
            setup.usable_gb[pool.name],
            footprint[pool.name],
            p,
            planned_fill=setup.planned_fill[pool.name],
            aggregate_fill=setup.write_fill[pool.name],
            degraded=setup.degraded,
            extra_stream_kib=migration.get(pool.name, (0.0, 0.0)),
            architecture=cfg.architecture,
            plans=setup.plans[pool.name],
            terms=terms,
        )
        figures.append(f)
        u_pct = 100.0 * f.utilization
        par = 100.0 * f.parity_utilization if f.roles.parity else None
        keeps_up = u_pct < 100 and (par or 0) < 100
        miss = f.miss
        paths[pool.name] = DrivePath(
            pool.drive, miss, keeps_up, miss.readahead_ms, setup.plans[pool.name].prefetch_kib
        )
        of = _of_pool(pool.name, len(cfg.pools))
        checks.append(Limit(f"drives:{pool.name}", u_pct, limit, "%", busy_words("drives", of)))
        if par is not None:
            checks.append(
                Limit(f"parity drives:{pool.name}", par, limit, "%", busy_words("parity drives", of))
            )
        if f.degraded_utilization is not None:
            checks.append(
                Limit(
                    f"drives:{pool.name}:degraded group",
                    100 * f.degraded_utilization,
                    100.0,
                    "%",
                    busy_words("degraded group", of),
                )
            )
    return figures, paths


def _controllers(
    cload: ControllerLoad, setup: _Setup, checks: list[Limit], cpu_s: float
) -> tuple[float, float | None]:
    """Controller utilization (0..1), normal (or with one failed) and after a failover (None when
    no failover applies); appends their checks. ``cpu_s``: the load's CPU demand
    (:func:`models.controller.cpu_seconds_per_second`), which both utilizations divide."""
    cfg, ctrl = setup.cfg, setup.cfg.controller
    u_ctrl = controller_utilization(cload, ctrl, setup.serving, cpu_s)
    failed = setup.degraded is DegradedMode.CONTROLLER_FAILED
    ctrl_name = "controllers (one failed)" if failed else "controllers"
    limit = cfg.headroom.failover_max_pct if failed else cfg.headroom.controller_limit_pct(ctrl.ha_mode)
    checks.append(Limit(ctrl_name, 100 * u_ctrl, limit, "%", busy_words(ctrl_name)))
    if not setup.fails_over:
        return u_ctrl, None
    u_fo = controller_utilization(cload, ctrl, ctrl.serving_after_failover, cpu_s)
    checks.append(
        Limit(
            "controllers after failover",
            100 * u_fo,
            cfg.headroom.failover_max_pct,
            "%",
            busy_words("controllers after failover"),
        )
    )
    return u_ctrl, u_fo


def _fails_over(setup: _Setup) -> bool:
    """Whether the window also answers for a controller failover (a healthy HA pair or more)."""
    ctrl = setup.cfg.controller
    return (
        setup.degraded is DegradedMode.NONE
        and ctrl.count >= 2
        and ctrl.serving_after_failover >= 1
        and ctrl.ha_mode is not HaMode.SINGLE
    )


def _flash_cache(
    members: list[tuple[Workload, Phase]],
    hits: list[tuple[float, float]],
    flash_gb: float,
    cfg: Configuration,
    checks: list[Limit],
) -> tuple[float, int, float] | None:
    """The flash cache's devices busy with the random reads it serves (:func:`models.cache.flash_cache_utilization`),
    checked against the drive headroom (a cache device is a drive): (hits/s, devices, U %). None
    without a flash cache."""
    c = cfg.cache
    devices = flash_cache_devices(flash_gb, c.flash_device_gb)
    if devices == 0:
        return None
    served = flash_reads_served([ph for _, ph in members], [hf for _, hf in hits])
    u = 100.0 * flash_cache_utilization(served, devices, c.flash_device_read_iops, c.flash_device_read_mb_s)
    checks.append(Limit("flash cache", u, cfg.headroom.drive_max_pct, "%", busy_words("flash cache")))
    return sum(n for n, _ in served), devices, u


def _flash_cache_explained(hits_per_s: float, devices: int, u: float, cfg: Configuration) -> Explained:
    """The explanation of :func:`_flash_cache`'s utilization."""
    c = cfg.cache
    return explained(
        u,
        "%",
        "U_flash = sum(flash hits/s x max(1000 / IOPS_4k, KiB x 1.024 / MB/s)) / (1000 x devices)",
        f"U_flash = {fmt(hits_per_s)} flash hits/s on {devices} device(s) of {fmt(c.flash_device_gb)} GB "
        f"({fmt(c.flash_device_read_iops)} 4K reads/s, {fmt(c.flash_device_read_mb_s)} MB/s each) = {fmt(u)}% busy",
        flash_hits_per_s=hits_per_s,
        devices=devices,
        device_read_iops=c.flash_device_read_iops,
        device_read_mb_s=c.flash_device_read_mb_s,
    )


def _of_pool(name: str, pools: int) -> str:
    """``" of pool <name>"`` where a configuration has several pools, else nothing: a lone pool's
    name is the configuration's internal one, kept out of prose."""
    return "" if pools == 1 else f" of pool {name}"


def slowest_rebuilds(windows: list[WindowResult]) -> dict[str, tuple[float, str]]:
    """Each pool's rebuild at its slowest window: (hours, window). The one rebuild time of a design
    that its failure verdicts, Degraded modes and the report all state (a rebuild may start in any
    window, so the slowest is the one to plan for), from :func:`models.pool.failure_result`."""
    out: dict[str, tuple[float, str]] = {}
    for w in windows:
        for pl in w.pools:
            hours = pl.failure.rebuild_hours.value if pl.failure is not None else None
            if hours is not None and (pl.pool not in out or hours > out[pl.pool][0]):
                out[pl.pool] = (hours, w.window)
    return out


def _with_failure_verdicts(windows: list[WindowResult]) -> list[WindowResult]:
    """The windows with their failure verdicts (:func:`_failure_verdict`), each stating the
    pool's rebuild at its slowest window."""
    slowest = slowest_rebuilds(windows)
    return [
        w.model_copy(update={"failure_verdict": _failure_verdict(w.pools, slowest, len(windows))})
        for w in windows
    ]


def _failure_verdict(
    pools: list[PoolLoad], slowest: dict[str, tuple[float, str]], windows: int = 1
) -> str | None:
    """Whether each pool keeps up with one drive failed and while it rebuilds, in words (a verdict:
    whole in an unexplained evaluation too, as check texts are), with the pool's rebuild time at its
    slowest window (:func:`slowest_rebuilds`). A lone pool goes unnamed (its name is the
    configuration's internal one)."""
    parts = []
    for pl in pools:
        f = pl.failure
        of = _of_pool(pl.pool, len(pools))
        if f is None:
            parts.append(
                f"{f'pool {pl.pool}' if of else 'the pool'} has no redundancy: a failed drive loses data"
            )
            continue
        state = "keeps up" if f.survives else "cannot keep up (its reads queue without bound)"
        hours, at = slowest.get(pl.pool, (f.rebuild_hours.value, ""))
        where = f" (at {at}'s load, the slowest)" if windows > 1 and at else ""
        parts.append(
            f"with a drive failed, one RAID group{of} is {number(f.failed_group_utilization_pct)}% busy, "
            f"{number(f.rebuild_group_utilization_pct)}% while rebuilding; the rebuild takes {number(hours)} h"
            f"{where}: it {state}"
        )
    return "; ".join(parts) + "." if parts else None


def _ure_warnings(windows: list[WindowResult], p: EngineParameters) -> list[str]:
    """Pools whose rebuild risks an unrecoverable read error with no redundancy left."""
    out: dict[str, str] = {}
    for w in windows:
        for pl in w.pools:
            f = pl.failure
            if f is not None and (f.unrecoverable_read_pct.value or 0.0) > p.ure_warning_pct:
                out[pl.pool] = (
                    f"{pl.pool}: a rebuild has a {fmt(f.unrecoverable_read_pct.value)}% chance of an unrecoverable "
                    f"read error with no redundancy left (over {fmt(p.ure_warning_pct)}%): "
                    "use double parity or smaller drives"
                )
    return list(out.values())


def _wear_warnings(windows: list[WindowResult], cfg: Configuration, workloads: list[Workload]) -> list[str]:
    """Pools whose flash wears out, at the write rate of their heaviest window sustained all day,
    before the longer of the planning horizon and the drive's warranty. Wear is a lifetime budget
    (:func:`models.pool_load.endurance_result`, years to wear-out), never a throughput limit: it fails
    no window and binds no load."""
    horizon = max((w.horizon_years for w in workloads), default=0.0)
    drives = {pl.name: pl.drive for pl in cfg.pools}
    out: dict[str, tuple[float, str]] = {}
    for w in windows:
        for pl in w.pools:
            e = pl.endurance
            years = None if e is None else e.years_to_wear_out.value
            drive = drives.get(pl.pool)
            if years is None or drive is None:
                continue
            warranty = drive.warranty_years if drive.warranty_years is not None else DEFAULT_WARRANTY_YEARS
            budget = max(horizon, warranty)
            if years < budget and (pl.pool not in out or years < out[pl.pool][0]):
                out[pl.pool] = (
                    years,
                    f"{pl.pool}: flash wear at {w.window}'s write rate, sustained all day, uses up the drives' "
                    f"rated writes in {fmt(years)} years, under the {fmt(budget)}-year "
                    + ("planning horizon" if horizon > warranty else "warranty")
                    + ": choose drives rated for more writes per day, or more of them",
                )
    return [text for _, text in out.values()]


def _verdict(window: str, checks: list[Check]) -> tuple[bool, str, str]:
    """(passed, bottleneck, verdict text) of a window: the check nearest or furthest past its limit."""
    passed = all(c.passed for c in checks)
    ranked = sorted(
        checks,
        key=lambda c: float("inf") if c.value is None else c.value / c.limit if c.limit else 0.0,
        reverse=True,
    )
    top = ranked[0]
    if passed:
        return True, top.name, f"{window}: meets every target; busiest is {top.text}."
    failing = [c for c in ranked if not c.passed]
    return False, top.name, f"{window}: fails: " + "; ".join(c.text for c in failing[:3]) + "."


_WINDOW_RESULT = validator_of(WindowResult)
_COLD_CACHE_RESULT = validator_of(ColdCacheResult)
_COLD_PHASE = validator_of(ColdPhase)
