"""Evaluate a configuration against workloads, window by window (open queueing model).

For each window (phases of all workloads that share it run together):

1. Caches: each workload's random reads hit controller DRAM, then the flash cache, with hit
   ratios from the LRU model in :mod:`models.cache` over its working set and skew. A shared
   cache is split among workloads by a joint characteristic-time solve (see
   :func:`cache_shares_gb`). Sequential reads are prefetched (served at DRAM latency; the drives
   stream them).
2. Back end per pool: ``BE = R_miss + W x c_write`` in back-end I/Os of the front-end size (the
   conventional figure), and the drive busy time from the physics in :mod:`models.drives`:
   random I/Os pay seek (short-stroked by the data's span) + rotation (shortened by command
   queuing) + transfer; full-stripe and sequential data streams at the media rate with one
   positioning per run. ``U_drive = busy_reads / read-serving drives + busy_writes / all drives``.
3. Controllers: CPU cost model (:mod:`models.controller`), normal and after a failover.
4. Ports: MB/s over practical bandwidth (:mod:`models.ports`).
5. Latency: M/G/1 at the drives, M/M/c (Seidmann) at the controller CPU, M/M/1 at the ports;
   read = hit and miss paths weighted; write = NVRAM acknowledgement while the drives keep up.
6. Checks against the headroom targets and latency targets, each with its margin; the
   bottleneck is the component nearest (or furthest past) its limit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache

from pydantic import Field
from scipy.optimize import brentq

from models import ENGINE_VERSION
from models import cache as cache_model
from models import tiering as tiering_model
from models.base import InputError, Output
from models.capacity import CapacityResult, capacity_result, physical_needed_tb, pool_capacity, raid_groups
from models.configuration import CacheConfig, Configuration, DrivePool
from models.controller import ControllerLoad, HaMode, controller_utilization, cpu_us_per_io
from models.drives import DriveKind, drive_service_ms, ncq_factor, ssd_latency_ms
from models.explain import Explained, explained, fmt
from models.parameters import EngineParameters
from models.ports import port_utilization
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
from models.units import KIB, MB, transfer_ms
from models.workload import Phase, Skew, Workload, windows_of


class DegradedMode(StrEnum):
    NONE = "none"
    DRIVE_FAILED = "drive-failed"
    REBUILDING = "rebuilding"
    CONTROLLER_FAILED = "controller-failed"


class Check(Output):
    """One constraint: value against limit, with the margin (limit - value, in the value's unit)."""

    name: str
    value: float | None
    limit: float
    unit: str
    margin: float | None
    passed: bool
    text: str


class PoolLoad(Output):
    """Back-end load of one pool in one window."""

    pool: str
    frontend_iops: float
    backend_iops: Explained
    backend_read_iops: float
    backend_write_iops: float
    drive_busy_ms_per_s: float
    drive_utilization_pct: Explained
    mean_read_service_ms: float
    read_miss_latency_ms: Explained
    span_pct: float = Field(description="share of the drives' surface the data spans [%]")
    queue_per_drive: float
    degraded_group_utilization_pct: float | None = None
    rebuild_hours: Explained | None = None


class PhaseResult(Output):
    """One workload phase inside a window: its caches and latencies."""

    workload: str
    phase: str
    pool: str
    iops: float
    mb_per_s: float
    read_pct: float
    working_set_gb: float
    cache_gb: float = Field(description="DRAM cache share this workload gets in the window [GB]")
    dram_hit_pct: Explained
    flash_hit_pct: Explained
    working_set_in_cache_pct: float
    cold_hit_pct: Explained = Field(description="hit ratio over the first pass after a cold start (warm-up)")
    read_latency_ms: Explained
    write_latency_ms: Explained
    avg_latency_ms: float | None
    read_latency_target_ms: float | None
    passed: bool


class TierLoad(Output):
    """One tier of an autotiered pool set in one window."""

    pool: str
    capacity_gb: float = Field(description="usable capacity of the tier [GB]")
    data_gb: float = Field(description="data placed on the tier, hottest chunks first [GB]")
    io_share_pct: float = Field(description="share of the tiered I/O the tier serves [%]")


class TieringResult(Output):
    """How an autotiered pool set splits the I/O (b-model chunk locality, or a measured fraction)."""

    chunk_mb: float
    needed_fast_fraction_pct: Explained
    tiers: list[TierLoad]
    metadata_ram_gb: Explained
    migration_mb_s: Explained
    spill: list[str]


class WindowResult(Output):
    """Everything about one window: load, utilization of each component, latency, checks."""

    window: str
    frontend_iops: float
    frontend_mb_s: float
    read_pct: float
    pools: list[PoolLoad]
    phases: list[PhaseResult]
    controller_utilization_pct: Explained
    failover_utilization_pct: Explained | None
    port_utilization_pct: Explained
    read_latency_ms: float | None
    write_latency_ms: float | None
    avg_latency_ms: float | None
    checks: list[Check]
    bottleneck: str
    passed: bool
    verdict: str
    tiering: TieringResult | None = None


class BillOfMaterials(Output):
    """Drives, shelves, rack units, power and list cost (None where the catalog has no figure)."""

    drives: int
    spares: int
    shelves: int
    rack_units: float
    power_w: float | None
    cost_usd: float | None
    flash_cache_gb: float
    explain: dict[str, Explained] = Field(
        default_factory=dict, description="formula and inputs of each figure, keyed by field name"
    )


class EvaluationResult(Output):
    engine_version: str
    configuration: str
    degraded: DegradedMode
    windows: list[WindowResult]
    capacity: CapacityResult
    bill: BillOfMaterials
    checks: list[Check]
    passed: bool
    bottleneck: str
    warnings: list[str]


# ---------------------------------------------------------------------------------------------
# caches


def cache_shares_gb(cache_gb: float, working_sets_gb: list[float], read_rates: list[float]) -> list[float]:
    """Split a shared LRU cache among workloads (uniform-class Che solve).

    Each workload w is a class of N_w = ws_w items read at rate r_w in total. Under LRU with a
    common characteristic time t (Che), class w keeps ``N_w (1 - exp(-r_w / N_w t))`` of the
    cache; t solves ``sum_w N_w (1 - exp(-r_w t / N_w)) = C``. Returns each class's share
    (whole cache to each if it covers every working set).
    """
    total_ws = sum(working_sets_gb)
    if cache_gb <= 0 or not working_sets_gb:
        return [0.0 for _ in working_sets_gb]
    if cache_gb >= total_ws:
        return list(working_sets_gb)
    active = [(ws, r) for ws, r in zip(working_sets_gb, read_rates, strict=True)]
    if sum(r for _, r in active) <= 0:
        return [cache_gb * ws / total_ws for ws in working_sets_gb]
    readers = [ws for ws, r in active if ws > 0 and r > 0]
    if len(readers) == 1 and cache_gb < readers[0]:
        # one class reads: N (1 - exp(-r t / N)) = C has a root and the reader keeps all of C
        return [cache_gb if ws > 0 and r > 0 else 0.0 for ws, r in active]

    def occupied(t: float) -> float:
        return sum(ws * (1.0 - math.exp(-r * t / ws)) for ws, r in active if ws > 0) - cache_gb

    hi = 1.0
    while occupied(hi) < 0:
        hi *= 4.0
        if hi > 1e30:
            # read rates too small to separate the classes: share by working set
            return [cache_gb * ws / total_ws for ws in working_sets_gb]
    t = brentq(occupied, 0.0, hi, xtol=1e-12 * hi)
    return [ws * (1.0 - math.exp(-r * t / ws)) if ws > 0 else 0.0 for ws, r in active]


@lru_cache(maxsize=8192)
def _level_hit_ratios(
    dram_gb: float,
    flash_gb: float,
    working_set_gb: float,
    skew: Skew,
    *,
    exclusive: bool,
    dedupe_ratio: float,
    dram_dedupe_aware: bool,
    flash_dedupe_aware: bool,
) -> tuple[float, float]:
    """:func:`models.cache.level_hit_ratios`, memoized: a pure function of hashable frozen inputs
    that sizing and what-if sweeps call again and again with the same cache and working set."""
    return cache_model.level_hit_ratios(
        dram_gb,
        flash_gb,
        working_set_gb,
        skew,
        exclusive=exclusive,
        dedupe_ratio=dedupe_ratio,
        dram_dedupe_aware=dram_dedupe_aware,
        flash_dedupe_aware=flash_dedupe_aware,
    )


@lru_cache(maxsize=8192)
def _cold_hit_ratio(cache_gb: float, working_set_gb: float, skew: Skew) -> float:
    """:func:`models.cache.cold_hit_ratio`, memoized (pure)."""
    return cache_model.cold_hit_ratio(cache_gb, working_set_gb, skew)


def window_hit_ratios(
    members: list[tuple[Workload, Phase]], dram_total_gb: float, flash_total_gb: float, cache: CacheConfig
) -> tuple[list[tuple[float, float]], list[float], list[float], list[float]]:
    """Read-hit ratios (DRAM, flash) of each workload phase running together in one window.

    The DRAM and the DRAM + flash capacity are split among the phases by :func:`cache_shares_gb`
    (by random read rate and working set), then each phase's levels come from
    :func:`models.cache.level_hit_ratios`. Returns (hits, working sets, DRAM shares, DRAM + flash
    shares) in the order of ``members``.
    """
    ws_list = [w.working_set_for(ph) for w, ph in members]
    rr = [ph.effective_iops * ph.read_pct / 100.0 * ph.random_pct / 100.0 for _, ph in members]
    dram_share = cache_shares_gb(dram_total_gb, ws_list, rr)
    both_share = cache_shares_gb(dram_total_gb + flash_total_gb, ws_list, rr)
    hits: list[tuple[float, float]] = []
    for (w, _ph), ws, d_gb, b_gb in zip(members, ws_list, dram_share, both_share, strict=True):
        if ws <= 0:
            hits.append((0.0, 0.0))
            continue
        hits.append(
            _level_hit_ratios(
                d_gb,
                max(0.0, b_gb - d_gb),
                ws,
                w.skew,
                exclusive=cache.exclusive,
                dedupe_ratio=w.dedupe_ratio,
                dram_dedupe_aware=cache.dram_dedupe_aware,
                flash_dedupe_aware=cache.dedupe_aware,
            )
        )
    return hits, ws_list, dram_share, both_share


# ---------------------------------------------------------------------------------------------
# back end


class _Demand:
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


def _positioning_ms(pool: DrivePool, is_read: bool, span: float, q: float, p: EngineParameters) -> float:
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


def _stream_busy_ms(
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


def _pool_demand(
    pool: DrivePool,
    items: list[tuple[Workload, Phase, float, float]],
    span: float,
    p: EngineParameters,
    read_cost_factor: float = 1.0,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
) -> _Demand:
    """Back-end demand of ``items`` = (workload, phase, DRAM hit, flash hit) on ``pool`` at a queue
    of one command per drive; the positioning parts kept apart give it at any other queue
    (:func:`_at_queue_factor`).

    ``extra_stream_kib`` adds background streaming (read, write) [KiB/s], e.g. tier migration.
    """
    dem = _Demand()
    layout = pool.raid
    fanout = random_read_fanout(layout)
    stripe_cost, random_cost = write_cost_split(layout)
    seq_cost = sequential_write_cost(layout)
    swc = small_write_cost(layout)
    pos_w = _positioning_ms(pool, False, span, 1.0, p)
    pos_r = _positioning_ms(pool, True, span, 1.0, p)
    xr, xw = extra_stream_kib
    if xr > 0:
        dem.read_busy_ms += _stream_busy_ms(pool, xr, p.sequential_run_kib, pos_r, True)
        dem.read_ops += xr / p.sequential_run_kib
        dem.read_pos_ms += xr / p.sequential_run_kib * pos_r
    if xw > 0:
        dem.write_busy_ms += _stream_busy_ms(
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
            dem.read_busy_ms += _stream_busy_ms(pool, seq_kib, run, pos_r, True)
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
            dem.write_busy_ms += _stream_busy_ms(pool, stripe_kib, p.stripe_run_kib, pos_w, False)
            dem.write_ops += stripe_kib / p.stripe_run_kib
            dem.write_pos_ms += (w_rnd * random_cost + stripe_kib / p.stripe_run_kib) * pos_w
            # sequential writes: full stripes
            seq_w_kib = writes_be * (1.0 - rnd) * frac * size * seq_cost
            run_w = max(p.sequential_run_kib, size)
            dem.write_busy_ms += _stream_busy_ms(pool, seq_w_kib, run_w, pos_w, False)
            dem.write_ops += seq_w_kib / run_w
            dem.write_pos_ms += seq_w_kib / run_w * pos_w
        dem.be_write_iops += writes_be * (rnd * swc + (1.0 - rnd) * seq_cost)
        dem.terms.append(
            f"{wl.name}/{ph.name}: {fmt(reads)} reads x {fmt(rnd * miss + (1 - rnd))} to disk"
            f" + {fmt(writes_be)} writes x {fmt(rnd * swc + (1 - rnd) * seq_cost)} ({layout.scheme.value})"
        )
    return dem


def _drive_counts(pool: DrivePool, drive_count: int) -> tuple[int, int, int]:
    """(all drives, read-serving drives, groups) of a pool of ``drive_count`` drives."""
    groups = raid_groups(drive_count, pool.raid)
    if pool.raid.dedicated_parity:
        rd = read_drives(pool.raid, groups.full)
        if groups.remainder:
            rd += groups.remainder - pool.raid.parity_drives
    else:
        rd = drive_count
    return drive_count, rd, groups.count


def _utilization(dem: _Demand, all_drives: int, rd_drives: int) -> float:
    return dem.read_busy_ms / 1000.0 / rd_drives + dem.write_busy_ms / 1000.0 / all_drives


def _at_queue_factor(d1: _Demand, factor: float) -> _Demand:
    """The demand ``d1`` (computed at a queue of one) with every positioning scaled by ``factor``
    (the command-queuing multiplier :func:`models.drives.ncq_factor` of another queue depth)."""
    out = _Demand()
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


def _solve_pool(
    pool: DrivePool,
    drive_count: int,
    items: list[tuple[Workload, Phase, float, float]],
    span: float,
    p: EngineParameters,
    read_cost_factor: float = 1.0,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
) -> tuple[_Demand, float, float]:
    """Fixed point of command queuing: service time depends on the queue, the queue on load.

    ``q = 1 + U / (1 - U)`` (M/M/1 number in system, at least the arriving command) and
    ``U(q) = U_deep + ncq(q) / ... `` linear in the queuing factor: the demand is evaluated once,
    at q = 1, with its positioning (seek + rotation) part kept apart, and the demand at any other
    queue is arithmetic on the two (:func:`_at_queue_factor`).
    Returns (demand, utilization, mean queue per drive).
    """
    all_d, rd, _ = _drive_counts(pool, drive_count)
    d1 = _pool_demand(pool, items, span, p, read_cost_factor, extra_stream_kib)
    u1 = _utilization(d1, all_d, rd)
    if pool.drive.kind is not DriveKind.HDD or p.ncq_gain_max == 0:
        return d1, u1, 1.0 + (u1 / (1.0 - u1) if u1 < 1 else float("inf"))
    q_deep = 1e9
    f_deep = ncq_factor(q_deep, p.ncq_gain_max, p.ncq_q_half)
    d_deep = _at_queue_factor(d1, f_deep)
    u_deep = _utilization(d_deep, all_d, rd)

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
    return _at_queue_factor(d1, ncq_factor(q, g, h)), u, q


# ---------------------------------------------------------------------------------------------
# main entry


def _controller_text(name: str, load: ControllerLoad, serving: int, cores: float, u: float) -> str:
    return (
        f"{name} = ({fmt(load.read_hits)} hits x c_hit + {fmt(load.read_misses)} misses x c_miss + "
        f"{fmt(load.writes)} writes x c_write + {fmt(load.kib_per_s)} KiB/s x c_KiB) / "
        f"({fmt(cores)} cores x {serving} controllers) = {fmt(100 * u)}%"
    )


def _check(name: str, value: float | None, limit: float, unit: str, what: str) -> Check:
    if value is None or not math.isfinite(value):
        return Check(
            name=name,
            value=None,
            limit=limit,
            unit=unit,
            margin=None,
            passed=False,
            text=f"{what} is saturated (limit {fmt(limit)} {unit})",
        )
    margin = limit - value
    ok = value <= limit + 1e-9
    verb = "within" if ok else "over"
    return Check(
        name=name,
        value=value,
        limit=limit,
        unit=unit,
        margin=margin,
        passed=ok,
        text=f"{what} {fmt(value)} {unit}, {verb} the limit of {fmt(limit)} {unit}",
    )


def pool_drive_counts(configuration: Configuration) -> dict[str, int]:
    """Drive count of each pool; a pool without one must be sized first (see :func:`models.size.size`)."""
    out = {}
    for i, pool in enumerate(configuration.pools):
        if pool.drive_count is None:
            raise InputError(f"pools.{i}.drive_count", "is not set: size the configuration, or give a count")
        out[pool.name] = pool.drive_count
    return out


def _performance_counts(configuration: Configuration, counts: dict[str, int]) -> dict[str, int]:
    """All drives of each pool (the primary model plus mixed-in ones), as the back end sees them."""
    return {p.name: counts[p.name] + p.other_count for p in configuration.pools}


def _assign(workloads: Iterable[Workload], configuration: Configuration) -> dict[str, str]:
    names = {p.name for p in configuration.pools}
    out = {}
    for i, w in enumerate(workloads):
        if w.pool is not None and w.pool not in names:
            raise InputError(f"workloads.{i}.pool", f"unknown pool {w.pool!r}")
        out[w.name] = w.pool or configuration.pools[0].name
    return out


def evaluate(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    load_scale: float = 1.0,
) -> EvaluationResult:
    """Evaluate ``configuration`` against every window of ``workloads``.

    ``load_scale`` multiplies every phase's IOPS (what-if and latency-vs-load curves).
    ``degraded`` evaluates with one drive failed (per pool, in one group), during its rebuild,
    or with one controller / node down.
    """
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if load_scale < 0 or not math.isfinite(load_scale):
        raise InputError("load_scale", "must be a finite number >= 0")
    names = [w.name for w in workloads]
    if len(set(names)) != len(names):
        raise InputError("workloads", "workload names must be unique")
    p = params or EngineParameters()
    cfg = configuration
    ctrl = cfg.controller
    counts = pool_drive_counts(cfg)
    assignment = _assign(workloads, cfg)
    warnings: list[str] = []

    # capacity
    pcaps = [pool_capacity(pool, counts[pool.name], cfg.capacity) for pool in cfg.pools]
    for pc in pcaps:
        warnings.extend(pc.warnings)
    perf_counts = _performance_counts(cfg, counts)
    cap = capacity_result(pcaps, workloads, cfg.headroom.capacity_max_fill_pct)
    usable_gb = {pc.pool: (pc.usable_tb.value or 0.0) * 1000.0 for pc in pcaps}

    serving = ctrl.serving
    if degraded is DegradedMode.CONTROLLER_FAILED:
        serving = ctrl.serving_after_failover
        if serving < 1:
            raise InputError("degraded", "a single controller cannot be evaluated with a controller failed")
    dram_total = ctrl.dram_cache_gb * serving
    flash_total = cfg.cache.flash_cache_gb * (serving / ctrl.serving)

    tier_used_gb = 0.0
    if cfg.tiering is not None:
        tiers = set(cfg.tiering.tiers)
        tier_used_gb = 1000.0 * sum(physical_needed_tb(w) for w in workloads if assignment[w.name] in tiers)
    windows: list[WindowResult] = []
    for window in windows_of(workloads):
        members = [(w, ph) for w in workloads for ph in w.phases if ph.window == window]
        if load_scale != 1.0:
            members = [
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
        windows.append(
            _evaluate_window(
                window,
                members,
                cfg,
                perf_counts,
                assignment,
                usable_gb,
                dram_total,
                flash_total,
                serving,
                p,
                degraded,
                warnings,
                tier_used_gb,
            )
        )

    bill = _bill(cfg, counts, pcaps)
    cap_check = _check(
        "capacity",
        cap.fill_pct,
        cap.max_fill_pct,
        "%",
        f"capacity needed is {fmt(cap.needed_tb.value)} TB of {fmt(cap.usable_tb)} TB usable: fill",
    )
    checks = [cap_check]
    passed = cap_check.passed and all(w.passed for w in windows)
    worst = _worst(windows)
    if not cap_check.passed and (worst is None or worst.passed):
        bottleneck = "capacity"
    else:
        bottleneck = f"{worst.bottleneck} ({worst.window})" if worst else "capacity"
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
        checks=checks,
        passed=passed,
        bottleneck=bottleneck,
        warnings=warnings,
    )


def _worst(windows: list[WindowResult]) -> WindowResult | None:
    def score(w: WindowResult) -> float:
        worst = 0.0
        for c in w.checks:
            if c.value is None:
                return float("inf")
            if c.limit > 0:
                worst = max(worst, c.value / c.limit)
        return worst

    return max(windows, key=score) if windows else None


def _evaluate_window(
    window: str,
    members: list[tuple[Workload, Phase]],
    cfg: Configuration,
    counts: dict[str, int],
    assignment: dict[str, str],
    usable_gb: dict[str, float],
    dram_total: float,
    flash_total: float,
    serving: int,
    p: EngineParameters,
    degraded: DegradedMode,
    warnings: list[str],
    tier_used_gb: float = 0.0,
) -> WindowResult:
    ctrl = cfg.controller
    ccfg = cfg.cache
    # --- caches: share DRAM and flash among the window's workloads by their random read rates
    hits, ws_list, dram_share, both_share = window_hit_ratios(members, dram_total, flash_total, ccfg)

    # --- pools (an autotiered set splits each workload's I/O over its tiers)
    tiering = _tiering(cfg, tier_used_gb, usable_gb) if cfg.tiering is not None and tier_used_gb > 0 else None
    tier_names = set(cfg.tiering.tiers) if cfg.tiering is not None else set()
    routes: list[list[tuple[str, float]]] = []
    for w, _ph in members:
        home = assignment[w.name]
        if tiering is not None and home in tier_names:
            routes.append([(t.pool, t.io_share_pct / 100.0) for t in tiering.tiers])
        else:
            routes.append([(home, 1.0)])
    per_pool: dict[str, list[tuple[Workload, Phase, float, float]]] = {pl.name: [] for pl in cfg.pools}
    for (w, ph), (h_d, h_f), route in zip(members, hits, routes, strict=True):
        for pool_name, share in route:
            if share <= 0:
                continue
            part = (
                ph
                if share == 1.0
                else ph.model_copy(update={"iops": ph.effective_iops * share, "mb_per_s": None})
            )
            per_pool[pool_name].append((w, part, h_d, h_f))
    migration = _migration_streams(cfg, tiering)

    pool_loads: list[PoolLoad] = []
    drive_wait: dict[str, tuple[float, float]] = {}  # pool -> (mean read service, wait) for latency
    checks: list[Check] = []
    for pool in cfg.pools:
        items = per_pool[pool.name]
        n = counts[pool.name]
        all_d, rd, groups = _drive_counts(pool, n)
        ws_pool = sum(w.working_set_for(ph) for w, ph, _, _ in items) or 0.0
        span = seek_span(
            ws_pool / usable_gb[pool.name] if usable_gb[pool.name] > 0 else 1.0,
            pool.raid.scatter,
            p.min_span_fraction,
        )
        dem, u, q = _solve_pool(
            pool, n, items, span, p, extra_stream_kib=migration.get(pool.name, (0.0, 0.0))
        )
        mean_all = (dem.read_busy_ms + dem.write_busy_ms) / max(dem.read_ops + dem.write_ops, 1e-12)
        mean_read = dem.read_miss_service_ms / dem.read_miss_rate if dem.read_miss_rate > 0 else mean_all
        wait = mg1_wait_ms(mean_all, u, p.drive_service_scv) if dem.read_ops + dem.write_ops > 0 else 0.0
        u_for_latency = u
        deg_u: float | None = None
        rebuild: Explained | None = None
        if (
            degraded in (DegradedMode.DRIVE_FAILED, DegradedMode.REBUILDING)
            and pool.raid.scheme.value != "raid0"
        ):
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
        drive_wait[pool.name] = (mean_read, wait if wait is not None else float("inf"))
        miss_lat = None if wait is None else mean_read + wait
        be_total = dem.be_read_iops + dem.be_write_iops
        pool_loads.append(
            PoolLoad(
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
                    source="Pollaczek-Khinchine mean value formula",
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
        )
        lim = cfg.headroom.drive_max_pct
        checks.append(_check(f"drives:{pool.name}", 100 * u, lim, "%", f"drives of {pool.name} busy"))
        if deg_u is not None:
            checks.append(
                _check(
                    f"drives:{pool.name}:degraded group",
                    100 * deg_u,
                    100.0,
                    "%",
                    f"degraded RAID group of {pool.name} busy",
                )
            )

    # --- controllers
    load = ControllerLoad(
        read_hits=sum(
            ph.effective_iops
            * ph.read_pct
            / 100
            * (1 - ph.random_pct / 100 + ph.random_pct / 100 * (hd + hf))
            for (_, ph), (hd, hf) in zip(members, hits, strict=True)
        ),
        read_misses=sum(
            ph.effective_iops * ph.read_pct / 100 * ph.random_pct / 100 * max(0.0, 1 - hd - hf)
            for (_, ph), (hd, hf) in zip(members, hits, strict=True)
        ),
        writes=sum(ph.effective_iops * (1 - ph.read_pct / 100) for _, ph in members),
        kib_per_s=sum(ph.effective_iops * ph.mean_size_kib for _, ph in members),
        dedupe=any(w.dedupe_ratio > 1 for w, _ in members),
        compression=any(w.compression_ratio > 1 for w, _ in members),
        replication=any(w.replication.mode.value != "none" for w, _ in members),
    )
    u_ctrl = controller_utilization(load, ctrl, serving)
    ctrl_limit = cfg.headroom.controller_limit_pct(ctrl.ha_mode)
    ctrl_name = (
        "controllers" if degraded is not DegradedMode.CONTROLLER_FAILED else "controllers (one failed)"
    )
    ctrl_exp = explained(
        100 * u_ctrl,
        "%",
        "U_ctrl = sum(ops x CPU cost) x multipliers / (cores x controllers)",
        _controller_text("U_ctrl", load, serving, ctrl.cores, u_ctrl),
        read_hits=load.read_hits,
        read_misses=load.read_misses,
        writes=load.writes,
        kib_per_s=load.kib_per_s,
        c_hit_us=ctrl.cpu_us_read_hit,
        c_miss_us=ctrl.cpu_us_read_miss,
        c_write_us=ctrl.cpu_us_write,
        c_kib_us=ctrl.cpu_us_per_kib,
        cores=ctrl.cores,
        controllers=serving,
    )
    checks.append(
        _check(
            ctrl_name,
            100 * u_ctrl,
            ctrl_limit if degraded is not DegradedMode.CONTROLLER_FAILED else cfg.headroom.failover_max_pct,
            "%",
            f"{ctrl_name} busy",
        )
    )
    fo_exp: Explained | None = None
    after = ctrl.serving_after_failover
    if degraded is DegradedMode.NONE and ctrl.count >= 2 and after >= 1 and ctrl.ha_mode is not HaMode.SINGLE:
        u_fo = controller_utilization(load, ctrl, after)
        fo_exp = explained(
            100 * u_fo,
            "%",
            "U_failover = CPU demand / (cores x (controllers - 1))",
            _controller_text("U_failover", load, after, ctrl.cores, u_fo),
            controllers=after,
        )
        checks.append(
            _check(
                "controllers after failover",
                100 * u_fo,
                cfg.headroom.failover_max_pct,
                "%",
                "surviving controllers after a failover busy",
            )
        )

    # --- ports
    mb_s = sum(ph.effective_mb_s for _, ph in members)
    u_port = port_utilization(mb_s, cfg.ports)
    port_cap = sum(pg.total_mb_s for pg in cfg.ports)
    port_exp = explained(
        100 * u_port,
        "%",
        "U_port = MB/s / sum(ports x practical MB/s)",
        f"U_port = {fmt(mb_s)} MB/s / {fmt(port_cap)} MB/s = {fmt(100 * u_port)}%",
        mb_per_s=mb_s,
        port_capacity_mb_s=port_cap,
    )
    checks.append(_check("ports", 100 * u_port, cfg.headroom.port_max_pct, "%", "front-end ports busy"))

    # --- latency per phase
    s_cpu = cpu_us_per_io(load, ctrl) / 1000.0
    c = max(ctrl.cores, 1.0)
    r_ctrl = None if u_ctrl >= 1 else s_cpu * (c - 1) / c + (s_cpu / c) / (1 - u_ctrl)
    phases: list[PhaseResult] = []
    tot_iops = sum(ph.effective_iops for _, ph in members)
    rl_sum = wl_sum = r_w = w_w = 0.0
    rl_none = wl_none = False
    for (w, ph), (h_d, h_f), ws, d_gb, b_gb, route in zip(
        members, hits, ws_list, dram_share, both_share, routes, strict=True
    ):
        pool_name = assignment[w.name]
        size = ph.mean_size_kib
        s_port = transfer_ms(size, max(pg.mb_s_per_port for pg in cfg.ports))
        r_port = None if u_port >= 1 else s_port / (1 - u_port)
        rnd = ph.random_pct / 100
        miss = max(0.0, 1 - h_d - h_f)
        # miss latency: the tiers' miss paths weighted by the I/O each serves
        r_miss: float | None = 0.0
        for route_pool, share in route:
            if share <= 0:
                continue
            mean_read, wait = drive_wait[route_pool]
            rp = cfg.pool(route_pool)
            if rp.drive.kind is not DriveKind.HDD:
                mean_read = ssd_latency_ms(rp.drive, size)
            if not math.isfinite(wait) or r_miss is None:
                r_miss = None
            else:
                r_miss += share * (mean_read + wait)
        front = None if (r_ctrl is None or r_port is None) else r_ctrl + r_port + p.host_overhead_ms
        if front is None or (r_miss is None and rnd * miss > 0):
            read_ms = None
        else:
            read_ms = (
                front
                + rnd * (h_d * ctrl.cache_hit_ms + h_f * ccfg.flash_hit_ms + miss * (r_miss or 0.0))
                + (1 - rnd) * ctrl.cache_hit_ms
            )
        drives_ok = all(
            (next(x for x in pool_loads if x.pool == rp).drive_utilization_pct.value or 0) < 100
            for rp, _ in route
        )
        sync = w.replication.sync_latency_ms if w.replication.mode.value == "sync" else 0.0
        write_ms = None if (front is None or not drives_ok) else front + ctrl.write_ack_ms + sync
        rf = ph.read_pct / 100
        avg = None
        if read_ms is not None and write_ms is not None:
            avg = rf * read_ms + (1 - rf) * write_ms
        elif rf == 1 and read_ms is not None:
            avg = read_ms
        elif rf == 0 and write_ms is not None:
            avg = write_ms
        tgt = ph.read_latency_target_ms
        ok = True
        if tgt is not None and ph.read_pct > 0:
            chk = _check(
                f"read latency:{w.name}/{ph.name}", read_ms, tgt, "ms", f"{w.name}/{ph.name} read latency"
            )
            checks.append(chk)
            ok = chk.passed
        if ph.read_pct > 0:
            if read_ms is None:
                rl_none = True
            else:
                rl_sum += read_ms * ph.effective_iops * rf
                r_w += ph.effective_iops * rf
        if ph.read_pct < 100:
            if write_ms is None:
                wl_none = True
            else:
                wl_sum += write_ms * ph.effective_iops * (1 - rf)
                w_w += ph.effective_iops * (1 - rf)
        ws_in = min(100.0, 100.0 * (b_gb if flash_total > 0 else d_gb) / ws) if ws > 0 else 100.0
        phases.append(
            PhaseResult(
                workload=w.name,
                phase=ph.name,
                pool=pool_name,
                iops=ph.effective_iops,
                mb_per_s=ph.effective_mb_s,
                read_pct=ph.read_pct,
                working_set_gb=ws,
                cache_gb=d_gb,
                dram_hit_pct=explained(
                    100 * h_d,
                    "%",
                    "h_DRAM = LRU hit ratio (Che) of cache share over working set",
                    f"h_DRAM = LRU({fmt(d_gb)} GB cache share over a {fmt(ws)} GB working set, "
                    f"{_skew_text(w)}) = {fmt(100 * h_d)}%",
                    source="Che, Tung, Wang, IEEE JSAC 2002",
                    cache_gb=d_gb,
                    working_set_gb=ws,
                ),
                flash_hit_pct=explained(
                    100 * h_f,
                    "%",
                    "h_flash = H(DRAM + flash) - H(DRAM) (exclusive levels)",
                    f"h_flash = {fmt(100 * (h_d + h_f))}% - {fmt(100 * h_d)}% = {fmt(100 * h_f)}%"
                    + (
                        " (dedupe-aware: working set / dedupe ratio)"
                        if ccfg.dedupe_aware and w.dedupe_ratio > 1
                        else ""
                    ),
                    flash_cache_gb=flash_total,
                ),
                working_set_in_cache_pct=ws_in,
                cold_hit_pct=_cold(
                    d_gb + (max(0.0, b_gb - d_gb) if flash_total > 0 else 0.0), ws, w, h_d + h_f
                ),
                read_latency_ms=explained(
                    read_ms,
                    "ms",
                    "R_read = R_ctrl + R_port + rnd (h_d t_hit + h_f t_flash + miss R_miss) + seq t_hit",
                    f"R_read = {fmt(r_ctrl)} + {fmt(r_port)} + {fmt(p.host_overhead_ms)} + {fmt(rnd)} x ({fmt(h_d)} x "
                    f"{fmt(ctrl.cache_hit_ms)} + {fmt(h_f)} x {fmt(ccfg.flash_hit_ms)} + {fmt(miss)} x {fmt(r_miss)})"
                    f" + {fmt(1 - rnd)} x {fmt(ctrl.cache_hit_ms)} = {fmt(read_ms)} ms",
                    R_ctrl_ms=r_ctrl,
                    R_port_ms=r_port,
                    R_miss_ms=r_miss,
                ),
                write_latency_ms=explained(
                    write_ms,
                    "ms",
                    "R_write = R_ctrl + R_port + t_ack (while drives keep up)",
                    f"R_write = {fmt(r_ctrl)} + {fmt(r_port)} + {fmt(ctrl.write_ack_ms)}"
                    + (f" + {fmt(sync)} sync replication" if sync else "")
                    + f" = {fmt(write_ms)} ms"
                    + ("" if drives_ok else " (drives cannot destage: write cache fills)"),
                ),
                avg_latency_ms=avg,
                read_latency_target_ms=tgt,
                passed=ok,
            )
        )
    read_lat = None if rl_none else (rl_sum / r_w if r_w else 0.0)
    write_lat = None if wl_none else (wl_sum / w_w if w_w else 0.0)
    avg_lat = None
    if read_lat is not None and write_lat is not None and tot_iops > 0:
        avg_lat = (rl_sum + wl_sum) / (r_w + w_w)
    elif tot_iops == 0:
        avg_lat = 0.0

    # --- verdict
    passed = all(c.passed for c in checks)
    ranked = sorted(
        checks,
        key=lambda c: float("inf") if c.value is None else c.value / c.limit if c.limit else 0.0,
        reverse=True,
    )
    top = ranked[0]
    bottleneck = top.name
    if passed:
        verdict = f"{window}: meets every target; busiest is {top.text}."
    else:
        failing = [c for c in ranked if not c.passed]
        verdict = f"{window}: fails: " + "; ".join(c.text for c in failing[:3]) + "."
    return WindowResult(
        window=window,
        frontend_iops=tot_iops,
        frontend_mb_s=mb_s,
        read_pct=100 * sum(ph.effective_iops * ph.read_pct / 100 for _, ph in members) / tot_iops
        if tot_iops
        else 0.0,
        pools=pool_loads,
        phases=phases,
        controller_utilization_pct=ctrl_exp,
        failover_utilization_pct=fo_exp,
        port_utilization_pct=port_exp,
        read_latency_ms=read_lat,
        write_latency_ms=write_lat,
        avg_latency_ms=avg_lat,
        checks=checks,
        bottleneck=bottleneck,
        passed=passed,
        verdict=verdict,
        tiering=tiering,
    )


def _tiering(cfg: Configuration, used_gb: float, usable_gb: dict[str, float]) -> TieringResult:
    """Tier split of the autotiered pool set: hottest chunks on the fastest tier, then the next."""
    tc = cfg.tiering
    assert tc is not None
    caps = [usable_gb[t] for t in tc.tiers]
    b = tc.locality_b if tc.locality_b is not None else tiering_model.DEFAULT_B
    used = min(used_gb, sum(caps)) if sum(caps) > 0 else used_gb
    split = tiering_model.tier_split(caps, used, tc.chunk_mb, b=b, measured_fraction=tc.fast_tier_fraction)
    need = split.needed_fast_fraction
    meta = tiering_model.metadata_ram_bytes(sum(caps), tc.chunk_mb, tc.metadata_bytes_per_chunk) / 1e9
    fast_data = split.tiers[0].data_gb
    moved_gb = fast_data * tc.hot_set_change_pct / 100.0
    mig = moved_gb * 1000.0 / (tc.relocation_window_h * 3600.0)
    tiers = [
        TierLoad(pool=name, capacity_gb=t.capacity_gb, data_gb=t.data_gb, io_share_pct=100.0 * t.io_share)
        for name, t in zip(tc.tiers, split.tiers, strict=True)
    ]
    share_text = ", ".join(f"{t.pool} {fmt(t.io_share_pct)}% of I/O on {fmt(t.data_gb)} GB" for t in tiers)
    return TieringResult(
        chunk_mb=tc.chunk_mb,
        needed_fast_fraction_pct=explained(
            100.0 * need,
            "%",
            "needed = smallest share of capacity whose chunks carry 80% of I/O (b-model)",
            f"needed fast tier = {fmt(100 * need)}% of {fmt(used)} GB with {fmt(tc.chunk_mb)} MB chunks"
            + (" (measured from a trace)" if tc.fast_tier_fraction is not None else f" (b = {fmt(b)})")
            + f"; split: {share_text}",
            source=split.source,
            chunk_mb=tc.chunk_mb,
            b=b,
            used_gb=used,
        ),
        tiers=tiers,
        metadata_ram_gb=explained(
            meta,
            "GB",
            "RAM = capacity / chunk x bytes per chunk",
            f"RAM = {fmt(sum(caps))} GB / {fmt(tc.chunk_mb)} MB x {fmt(tc.metadata_bytes_per_chunk)} B = {fmt(meta)} GB",
        ),
        migration_mb_s=explained(
            mig,
            "MB/s",
            "migration = fast-tier data x change share / relocation window",
            f"migration = {fmt(fast_data)} GB x {fmt(tc.hot_set_change_pct)}% / {fmt(tc.relocation_window_h)} h "
            f"= {fmt(mig)} MB/s (read from the slower tier, written to the faster)",
        ),
        spill=split.spill,
    )


def _migration_streams(cfg: Configuration, tiering: TieringResult | None) -> dict[str, tuple[float, float]]:
    """Background relocation I/O per pool [KiB/s] (read, write): up from tier 1 into tier 0."""
    if tiering is None or cfg.tiering is None:
        return {}
    kib = (tiering.migration_mb_s.value or 0.0) * 1e6 / 1024.0
    fast, slow = cfg.tiering.tiers[0], cfg.tiering.tiers[1]
    return {fast: (0.0, kib), slow: (kib, 0.0)}


def _cold(cache_gb: float, ws: float, w: Workload, warm: float) -> Explained:
    """Cold (first-pass) hit ratio of the whole cache over one working set's worth of reads."""
    cold = _cold_hit_ratio(cache_gb, ws, w.skew) if cache_gb > 0 and ws > 0 else 0.0
    return explained(
        100.0 * cold,
        "%",
        "cold = 1 - misses(first pass) / reads; misses = distinct blocks until the cache fills, then 1 - H",
        f"cold hit = {fmt(100 * cold)}% over the first {fmt(ws)} GB read into {fmt(cache_gb)} GB of empty cache "
        f"(warm: {fmt(100 * warm)}%)",
        source="Che approximation from a cold start",
        cache_gb=cache_gb,
        working_set_gb=ws,
    )


def _skew_text(w: Workload) -> str:
    s = w.skew
    if s.zipf_alpha:
        return f"Zipf alpha {fmt(s.zipf_alpha)}"
    if s.io_pct is not None:
        return f"{fmt(s.io_pct)}% of I/O to {fmt(s.data_pct)}% of data"
    return "uniform access"


def _bill(cfg: Configuration, counts: dict[str, int], pcaps: list) -> BillOfMaterials:
    pk = cfg.packaging
    drives = sum(counts.values()) + sum(p.other_count for p in cfg.pools)
    spares = sum(pc.spares for pc in pcaps)
    total = drives + spares
    shelves = math.ceil(max(0, total - pk.drives_in_controller_enclosure) / pk.drives_per_shelf)
    ru = pk.controller_rack_units + shelves * pk.shelf_rack_units
    power: float | None = pk.controller_power_w + shelves * pk.shelf_power_w
    cost: float | None = pk.controller_price_usd + shelves * pk.shelf_price_usd
    cost = (cost or 0.0) + cfg.cache.flash_cache_gb * pk.flash_cache_price_usd_per_gb
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
