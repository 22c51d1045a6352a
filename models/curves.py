"""Performance curves: IOPS vs outstanding I/Os (closed model) and latency vs load (open model).

Queue-depth sweep: a host keeps N I/Os outstanding against the configuration (Iometer's
"outstanding I/Os", fio's iodepth). The window's phase mix defines the per-I/O service demands,
built from the same physics as :func:`models.evaluate.evaluate`, and exact Mean Value Analysis
(:func:`models.queueing.mva`) gives throughput and mean response time at each depth:

* host + fabric: a delay of ``host_overhead_ms`` (calibrated per set-up, not per array);
* cache hits and write acknowledgements: a delay (no queueing);
* controller CPU: c cores serving one I/O each (Seidmann: queue D/c + delay D(c-1)/c);
* front-end port: a queue with demand ``size / practical rate``;
* drives: ``r`` identical read-serving drives, each a queue with the read-miss demand, whose
  service time shortens with command queuing (load-dependent, at the queue an arrival sees);
  write destage is an open background class on every drive (writes are acknowledged from
  NVRAM, so their drive time loads the drives without being in the response path).

Latency vs load: the open model evaluated at 5% .. 100% of the load that saturates the first
resource, giving the classic hockey stick with the workload's operating point on it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from pydantic import Field, computed_field
from scipy.optimize import brentq

from models import cache as cache_model
from models.architecture import (
    full_stripe_reads,
    node_stripes,
    remote_copies,
    wal_copy_kib,
    wal_placement,
    written_pool,
)
from models.base import InputError, Output
from models.cache_share import window_hit_ratios
from models.capacity import physical_needed_tb, pool_capacity
from models.checks import check_words
from models.configuration import Configuration, WalPlacement
from models.controller import controller_load, cpu_us_per_io
from models.drives import (
    CommandQueuing,
    DriveKind,
    DriveTimes,
    command_queuing_factor,
    positioning_ms,
    positioning_units,
    ssd_latency_ms,
)
from models.evaluate import (
    DegradedMode,
    EvaluationResult,
    evaluate,
    planned_fill,
    pool_drive_counts,
    write_fill,
)
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.pool import RoleWork, busy_ms, planned_span, pool_roles, pool_work, unit_roles
from models.pool_plans import PoolPlans, pool_drive_times
from models.ports import protocol_cpu_multiplier
from models.queueing import Station, mva
from models.units import transfer_ms
from models.workload import Phase, Skew, Workload

DEFAULT_DEPTHS = tuple(2**k for k in range(13))
"""Outstanding I/Os of the queue-depth sweep: 1 to 4,096."""


class QueueDepthPoint(Output):
    queue_depth: int
    iops: float
    mb_per_s: float
    avg_response_ms: float
    utilization_pct: dict[str, float]
    bottleneck: str

    @computed_field(  # type: ignore[prop-decorator]
        description="the bottleneck station in words (models.checks.check_words), e.g. 'the drives'"
    )
    @property
    def bottleneck_words(self) -> str:
        return check_words(self.bottleneck)


class QueueDepthCurve(Output):
    window: str
    points: list[QueueDepthPoint]
    stations: dict[str, float]  # per-I/O demand at QD1 [ms], for the explanation
    explanation: str


def _window_members(
    workloads: list[Workload], window: str | None
) -> tuple[str, list[tuple[Workload, Phase]]]:
    windows = [ph.window for w in workloads for ph in w.phases]
    if not windows:
        raise InputError("workloads", "no phases")
    win = window or windows[0]
    members = [(w, ph) for w in workloads for ph in w.phases if ph.window == win]
    if not members:
        raise InputError("window", f"no phase runs in window {win!r}")
    return win, members


@holds_memo
def queue_depth_sweep(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    window: str | None = None,
    depths: tuple[int, ...] | list[int] = DEFAULT_DEPTHS,
    params: EngineParameters | None = None,
    controllers_serving: int | None = None,
) -> QueueDepthCurve:
    """IOPS, MB/s and mean response time at each outstanding-I/O depth (closed MVA).

    The phases of ``window`` are mixed in proportion to their IOPS (an idle window mixes
    equally). ``controllers_serving`` is how many controllers the host's LUNs are spread over
    (one LUN on one controller of a pair: 1; default: all serving controllers).
    """
    if not depths or min(depths) < 1:
        raise InputError("depths", "queue depths must be >= 1")
    p = params or EngineParameters()
    cfg = configuration
    win, members = _window_members(workloads, window)
    total = sum(ph.effective_iops for _, ph in members)
    # normalize to 1 I/O per second so busy times become per-I/O demands
    if total > 0:
        unit = [
            (w, ph.model_copy(update={"iops": ph.effective_iops / total, "mb_per_s": None}))
            for w, ph in members
        ]
    else:
        unit = [
            (w, ph.model_copy(update={"iops": 1.0 / len(members), "mb_per_s": None})) for w, ph in members
        ]
    ctrl = cfg.controller
    serving = controllers_serving or ctrl.serving
    counts = pool_drive_counts(cfg)
    usable = {
        pl.name: (pool_capacity(pl, counts[pl.name], cfg.capacity).usable_tb.value or 0.0) * 1000.0
        for pl in cfg.pools
    }

    # caches (the whole DRAM of the serving controllers, split among workloads by read rate)
    hits, _, _, _ = window_hit_ratios(
        unit, ctrl.dram_cache_gb * serving, cfg.cache.flash_cache_gb * serving / ctrl.serving, cfg.cache
    )

    stations: list[Station] = [Station("host", p.host_overhead_ms, delay=True)]
    delay_ms = 0.0
    for (_, ph), (h_d, h_f) in zip(unit, hits, strict=True):
        rf, rnd = ph.read_pct / 100, ph.random_pct / 100
        delay_ms += ph.iops * (
            rf
            * (
                rnd
                * (
                    h_d * ctrl.cache_hit_ms
                    + h_f * cfg.cache.flash_hit_ms
                    + (1 - h_d - h_f) * ctrl.cache_hit_ms
                )
                + (1 - rnd) * ctrl.cache_hit_ms
            )
            + (1 - rf) * ctrl.write_ack_ms
        )
    stations.append(Station("cache and NVRAM", delay_ms, delay=True))
    mean_kib = sum(ph.iops * ph.mean_size_kib for _, ph in unit)
    port_rate = sum(pg.total_mb_s for pg in cfg.ports)
    stations.append(Station("ports", transfer_ms(mean_kib, port_rate)))

    backend_ios = 0.0  # per front-end I/O, for the controller CPU
    writes_wait = wal_placement(cfg.architecture) is WalPlacement.DATA_DRIVE
    for pool in cfg.pools:
        items = [
            (w, ph, hd, hf)
            for (w, ph), (hd, hf) in zip(unit, hits, strict=True)
            if (w.pool or cfg.pools[0].name) == pool.name
        ]
        if not items:
            continue
        n = counts[pool.name] + pool.other_count
        roles = unit_roles(pool_roles(pool.raid, n), positioning_units(pool.drive))
        footprint = 1000.0 * sum(physical_needed_tb(w) for w in {w.name: w for w, _, _, _ in items}.values())
        fill = planned_fill(pool, cfg)
        span = float(planned_span(footprint, usable[pool.name], fill, pool.drive_fraction, pool.raid.scatter))
        t = pool_drive_times(pool, p, fill)
        written = written_pool(pool, cfg.architecture)
        plans = PoolPlans(
            written.raid,
            t,
            p,
            write_fill(pool, cfg),
            cfg.architecture,
            positioning_units(pool.drive),
            wal_copy_kib(cfg.architecture, pool.drive),
        )
        pw = pool_work(items, plans)
        backend_ios += float(pw.work.backend_ios)
        root = math.sqrt(span)
        pr, pwr = positioning_ms(t, root)
        # per I/O: the request path's demand on one data drive: the read misses, and the writes
        # where each waits for its log record on the data drive (queued with the reads); writes
        # acknowledged from NVRAM or flash destage in the background. Positioning scales with ncq(q).
        if writes_wait:
            path, behind = pw.work.data, RoleWork()
        else:
            path, behind = pw.reads.data, pw.writes.data
        fixed = float(path.read_ms + path.write_ms) / roles.data
        pos = float(path.read_pos * pr + path.write_pos * pwr) / roles.data
        queuing = p.command_queuing.for_drive(pool.drive)
        demand_fn: Callable[[float], float] | None = None
        if queuing.gain_max > 0 and pool.drive.kind is DriveKind.HDD:

            def queued(q: float, a: float = fixed, b: float = pos, cq: CommandQueuing = queuing) -> float:
                return a + b * command_queuing_factor(q, cq)

            def cached(
                q: float,
                a: float = fixed,
                r: RoleWork = path,
                m: int = roles.data,
                cq: CommandQueuing = queuing,
                x: float = root,
                times: DriveTimes = t,
            ) -> float:
                # the drives' write cache: writes at min(ncq(q), its factor) (positioning_ms)
                p_r, p_w = positioning_ms(times, x, command_queuing_factor(q, cq))
                return a + float(r.read_pos * p_r + r.write_pos * p_w) / m

            demand_fn = queued if t.write_queue_factor == 1.0 else cached

        stations.append(
            Station(
                f"drives:{pool.name}",
                fixed + pos,
                replicas=roles.data,
                background_ms=float(busy_ms(behind, pr, pwr)) / roles.data,
                demand_at_queue=demand_fn,
            )
        )
        if pool.drive.kind is not DriveKind.HDD:
            # an SSD serves many commands at once (Seidmann): its throughput demand queues above,
            # the rest of its QD1 latency is a delay each read miss spends inside the drive
            lat = sum(
                ph.iops
                * ph.read_pct
                / 100
                * ph.random_pct
                / 100
                * max(0.0, 1 - hd - hf)
                * frac
                * ssd_latency_ms(pool.drive, size)
                for _, ph, hd, hf in items
                for size, frac in ph.size_mix
            )
            stations.append(
                Station(f"drives:{pool.name} (parallel)", max(0.0, lat - pw.miss_fixed_ms), delay=True)
            )

    load = controller_load(
        unit,
        hits,
        backend_ios=backend_ios,
        remote_copies=remote_copies(cfg.architecture),
        stripes=node_stripes(cfg, [w.pool or cfg.pools[0].name for w, _ in unit]),
        full_stripe_reads=full_stripe_reads(cfg),
        protocol_multiplier=protocol_cpu_multiplier(cfg.ports),
    )
    d_cpu = cpu_us_per_io(load, ctrl) / 1000.0  # ms on one core
    cores = ctrl.cores * serving
    stations.append(Station("controller CPU", d_cpu / cores))
    if cores > 1:
        stations.append(Station("controller CPU (parallel)", d_cpu * (cores - 1) / cores, delay=True))
    if ctrl.max_iops:
        stations.append(Station("controller IOPS limit", 1000.0 / (ctrl.max_iops * serving)))

    max_n = max(depths)
    wanted = sorted(set(depths))
    points = {pt.population: pt for pt in mva(stations, max_n, report=set(wanted))}
    out: list[QueueDepthPoint] = []
    mb_per_io = mean_kib * 1024 / 1e6
    for d in wanted:
        pt = points[d]
        util = {
            k: 100.0 * v
            for k, v in pt.utilization.items()
            if not k.endswith("(parallel)") and k not in {"host", "cache and NVRAM"}
        }
        bott = max(util, key=lambda k: util[k]) if util else "none"
        out.append(
            QueueDepthPoint(
                queue_depth=d,
                iops=pt.throughput_per_s,
                mb_per_s=pt.throughput_per_s * mb_per_io,
                avg_response_ms=pt.response_ms,
                utilization_pct=util,
                bottleneck=bott,
            )
        )
    demands = {s.name: s.demand_ms * s.replicas if not s.delay else s.demand_ms for s in stations}
    expl = (
        "Closed network solved by exact MVA: X(N) = N / sum_k R_k(N), R_k = D_k (1 + Q_k(N-1)) / (1 - U_bg,k); "
        "demands per I/O at QD1 [ms]: "
        + ", ".join(
            f"{check_words(k, len(configuration.pools)).removeprefix('the ')} {v:.3g}"
            for k, v in demands.items()
        )
    )
    return QueueDepthCurve(window=win, points=out, stations=demands, explanation=expl)


class LoadPoint(Output):
    load_pct: float = 0.0
    iops: float
    read_latency_ms: float | None
    avg_latency_ms: float | None
    bottleneck: str


class LatencyCurve(Output):
    window: str
    saturation_iops: float
    operating_iops: float
    operating_load_pct: float | None = Field(
        description="operating load over saturation [%]; None if saturated"
    )
    operating_read_latency_ms: float | None = Field(
        default=None,
        description="read latency at the operating point [ms] (the evaluation's); None if saturated",
    )
    points: list[LoadPoint]


def _max_util(res, window: str) -> float:
    w = next(x for x in res.windows if x.window == window)
    vals = [
        c.value / 100.0
        for c in w.checks
        if c.unit == "%" and c.value is not None and not c.name.startswith("controllers after")
    ]
    if any(c.value is None and c.unit == "%" for c in w.checks):
        return math.inf
    return max(vals) if vals else 0.0


@holds_memo
def saturation_scale(
    workloads: list[Workload],
    configuration: Configuration,
    window: str,
    *,
    params: EngineParameters | None = None,
    rtol: float = 1e-6,
    operating: EvaluationResult | None = None,
) -> float:
    """Load scale s* [-] at which the window's busiest resource reaches 100%: u(s*) = 1.

    u(s) is the largest utilization check of ``window`` when every phase's IOPS is multiplied by
    s (:func:`models.evaluate.evaluate` with ``load_scale``). It rises with s, concave below s*
    (command queuing shortens drive service as queues grow) and in proportion to s above it, so
    s/u(s) under-estimates s* from below and meets it from above. The root is bracketed from the
    operating point (s = 1) with the guess 2/u(1) (or by halving when already saturated), then
    found by Brent's method to a relative ``rtol`` (about ten evaluations where bisection to the
    same precision takes twenty-five). A saturated queue (u = inf) counts as far past 1.
    ``operating`` is the evaluation at s = 1 when the caller has it already.
    """
    if not 0 < rtol < 0.01:
        raise InputError("rtol", "must be between 0 and 0.01")

    def over(result: EvaluationResult) -> float:
        return min(_max_util(result, window), 1e6) - 1.0

    known: dict[float, float] = {}  # brentq evaluates the bracket's ends again

    def excess(scale: float) -> float:
        if scale not in known:
            known[scale] = over(
                evaluate(
                    workloads, configuration, params=params, load_scale=scale, cold_cache=False, explain=False
                )
            )
        return known[scale]

    if operating is not None:
        known[1.0] = over(operating)
    lo, f_lo = 1.0, excess(1.0)
    if f_lo >= 0:
        hi = lo
        while f_lo >= 0:
            hi, lo = lo, lo / 2.0
            if lo < 1e-9:
                raise InputError("workloads", "the configuration saturates at any load")
            f_lo = excess(lo)
    else:
        hi = min(2.0 / (f_lo + 1.0), 1e7) if f_lo > -1.0 else 2.0
        while excess(hi) < 0:
            lo, hi = hi, hi * 2.0
            if hi > 1e7:
                raise InputError(
                    "workloads", "no resource saturates: the load does not touch the configuration"
                )
    return float(brentq(excess, lo, hi, xtol=1e-12 * hi, rtol=rtol))


@holds_memo
def latency_vs_load(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    window: str | None = None,
    points: int = 20,
    params: EngineParameters | None = None,
) -> LatencyCurve:
    """Read and average latency from 5% to 100% of the saturating load, and the operating point.

    Saturation is where the first resource reaches 100% (:func:`saturation_scale`: a root
    search on the load scale, since drive service time is not linear in load under command
    queuing, that starts from the operating point's evaluation); each point is one evaluation of
    the window's phases at a fraction of it.
    """
    if not 2 <= points <= 200:
        raise InputError("points", "must be between 2 and 200")
    win, members = _window_members(workloads, window)
    base_iops = sum(ph.effective_iops for _, ph in members)
    if base_iops <= 0:
        raise InputError("window", f"window {win!r} has no load")
    only = [
        w.model_copy(update={"phases": [ph for ph in w.phases if ph.window == win]})
        for w in workloads
        if any(ph.window == win for ph in w.phases)
    ]
    operating = evaluate(only, configuration, params=params, cold_cache=False, explain=False)
    sat = saturation_scale(only, configuration, win, params=params, operating=operating)
    pts: list[LoadPoint] = []
    for i in range(points):
        frac = 0.05 + (1.0 - 0.05) * i / (points - 1)
        scale = sat * frac * (0.999 if i == points - 1 else 1.0)
        r = evaluate(only, configuration, params=params, load_scale=scale, cold_cache=False, explain=False)
        w = next(x for x in r.windows if x.window == win)
        pts.append(
            LoadPoint(
                load_pct=100 * frac,
                iops=base_iops * scale,
                read_latency_ms=w.read_latency_ms,
                avg_latency_ms=w.avg_latency_ms,
                bottleneck=w.bottleneck,
            )
        )
    return LatencyCurve(
        window=win,
        saturation_iops=base_iops * sat,
        operating_iops=base_iops,
        operating_load_pct=100.0 / sat if sat > 0 else None,
        operating_read_latency_ms=next(x for x in operating.windows if x.window == win).read_latency_ms,
        points=pts,
    )


class HitRatioPoint(Output):
    cache_gb: float
    hit_pct: float


class HitRatioCurve(Output):
    """LRU read-hit ratio against cache size for the window's largest working set (Che model)."""

    window: str
    workload: str
    phase: str
    working_set_gb: float
    skew: Skew
    points: list[HitRatioPoint] = Field(description="log-spaced cache sizes up to the working set, plus 0")
    configured_cache_gb: float = Field(description="DRAM of the serving controllers + flash cache [GB]")
    configured_hit_pct: float
    dram_cache_gb: float
    flash_cache_gb: float


def hit_ratio_vs_cache(
    workloads: list[Workload], configuration: Configuration, *, window: str | None = None, points: int = 40
) -> HitRatioCurve:
    """Hit ratio vs cache size for the window's largest working set, with the configured cache marked.

    Cache sizes are log-spaced from 0.1% of the working set to all of it (hit ratio 1 there);
    the configured cache is the DRAM of the serving controllers plus the flash cache.
    """
    if not 2 <= points <= 1000:
        raise InputError("points", "must be between 2 and 1000")
    win, members = _window_members(workloads, window)
    workload, phase = max(members, key=lambda m: m[0].working_set_for(m[1]))
    ws = workload.working_set_for(phase)
    ctrl = configuration.controller
    dram = ctrl.dram_cache_gb * ctrl.serving
    flash = configuration.cache.flash_cache_gb
    configured = dram + flash
    sizes = np.unique(np.concatenate([[0.0], np.geomspace(ws * 1e-3, ws, points), [min(configured, ws)]]))
    hits = cache_model.hit_ratio_curve(sizes, ws, workload.skew)
    configured_hit = float(hits[np.searchsorted(sizes, min(configured, ws))])
    return HitRatioCurve(
        window=win,
        workload=workload.name,
        phase=phase.name,
        working_set_gb=ws,
        skew=workload.skew,
        points=[
            HitRatioPoint(cache_gb=float(s), hit_pct=100.0 * float(h))
            for s, h in zip(sizes, hits, strict=True)
        ],
        configured_cache_gb=configured,
        configured_hit_pct=100.0 * configured_hit,
        dram_cache_gb=dram,
        flash_cache_gb=flash,
    )


__all__ = [
    "HitRatioCurve",
    "HitRatioPoint",
    "hit_ratio_vs_cache",
    "DEFAULT_DEPTHS",
    "DegradedMode",
    "LatencyCurve",
    "QueueDepthCurve",
    "latency_vs_load",
    "queue_depth_sweep",
    "saturation_scale",
]
