"""Latency of each workload phase in a window: front end, cache hits, misses at the drives, writes.

A read passes the host stack and fabric, the controller CPU (M/M/c, :func:`models.controller.cpu_response_ms`)
and a front-end port (M/M/1), then is served from DRAM, from flash, or from the drives (mean
service + M/G/1 wait of the pool, :func:`models.pool.pool_load`); sequential reads are prefetched
and served at DRAM latency. A write is acknowledged from NVRAM while the drives keep up::

    R_read  = R_ctrl + R_port + t_host + rnd (h_d t_hit + h_f t_flash + miss (t_hit + R_miss)) + (1 - rnd) t_hit
    R_write = R_ctrl + R_port + t_host + t_ack (+ synchronous replication)

A miss passes the controller's cache path (``t_hit``) before the drives, so the latency one can
quote at QD1 is host and fabric + controller + device. An autotiered workload's misses go to its
tiers in proportion to the I/O each serves. Percentiles (p95, p99) come from the mixture of these
paths (:mod:`models.tail_latency`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from models.base import validator_of
from models.cache_share import cold_hit_explained, skew_text
from models.checks import busy_words
from models.configuration import CacheConfig
from models.drives import DriveKind, DriveSpec, Num, ssd_latency_ms, unloaded_latency_ms
from models.explain import Explained, explained, fmt
from models.pool import MissWait
from models.results import Check, Limit, PhaseResult
from models.tail_latency import Path, gamma_path, quantiles_or_none, sojourn_moments
from models.units import transfer_ms
from models.workload import Phase, ReplicationMode, Workload


@dataclass(frozen=True)
class FrontEnd:
    """What every I/O of a window meets before the cache: controller CPU, ports, host."""

    r_ctrl_ms: float | None  # None: controllers saturated
    port_utilization: float
    port_mb_s: float  # practical rate of the fastest port [MB/s]
    host_overhead_ms: float
    cache_hit_ms: float
    write_ack_ms: float
    wal_on_drive: bool = False  # writes are logged on the data drive before the ack (no NVRAM, no WAL device)

    def time_ms(self, size_kib: float) -> tuple[float | None, float | None]:
        """(front-end time [ms], port response [ms]) of one I/O of ``size_kib``; None when saturated."""
        r_port = (
            None
            if self.port_utilization >= 1
            else transfer_ms(size_kib, self.port_mb_s) / (1 - self.port_utilization)
        )
        if self.r_ctrl_ms is None or r_port is None:
            return None, r_port
        return self.r_ctrl_ms + r_port + self.host_overhead_ms, r_port


@dataclass(frozen=True)
class DrivePath:
    """A pool's miss path in one window: mean read-miss service, wait, whether it keeps up."""

    drive: DriveSpec
    miss: MissWait  # wait inf when saturated
    keeps_up: bool  # drives below 100% busy: writes destage
    readahead_ms: float = 0.0  # response of one readahead request (service + wait); inf when saturated
    readahead_kib: float = 1024.0

    def sequential_ms(self, size_kib: float) -> float:
        """Readahead time a sequential read of ``size_kib`` carries on average (inf when saturated):
        :func:`sequential_extra_ms`."""
        return float(sequential_extra_ms(size_kib, self.readahead_kib, self.readahead_ms))

    def service_ms(self, size_kib: float) -> float:
        """Service of one read miss [ms]: an HDD's mean service, an SSD's datasheet QD1 latency."""
        if self.drive.kind is DriveKind.HDD:
            return self.miss.mean_read_ms
        return ssd_latency_ms(self.drive, size_kib)

    def wal_ms(self, size_kib: float) -> float | None:
        """Time a write waits for its log record on this pool's data drive before the
        acknowledgement [ms] (None when saturated): a hard disk's random write service over the
        whole drive (the log is interleaved with the data: a positioning per commit, conservative)
        plus the wait at the drive; a flash drive 0 (``write_ack_ms`` is already a flash commit)."""
        if self.drive.kind is not DriveKind.HDD:
            return 0.0
        if not math.isfinite(self.miss.wait_ms):
            return None
        return unloaded_latency_ms(self.drive, size_kib, is_read=False) + self.miss.wait_ms

    def miss_ms(self, size_kib: float) -> float | None:
        """Read-miss response [ms] (None when saturated); SSDs at their datasheet latency plus the wait."""
        if not math.isfinite(self.miss.wait_ms):
            return None
        return self.service_ms(size_kib) + self.miss.wait_ms

    def path(self, weight: float, const_ms: float, size_kib: float) -> Path:
        """The miss as a latency path (:mod:`models.tail_latency`): ``const_ms`` plus a gamma fitted
        to the mean and variance of service + wait (inf when saturated)."""
        m = self.miss
        if not math.isfinite(m.wait_ms):
            return Path(weight, math.inf)
        mean, var = sojourn_moments(self.service_ms(size_kib), m.service_scv, m.wait_ms, m.wait_sq_ms2)
        return gamma_path(weight, const_ms, mean, var)


def sequential_extra_ms(size_kib: Num, readahead_kib: Num, readahead_ms: Num) -> Num:
    """Time a prefetched sequential read waits for its readahead, on average [ms].

    The first read of each readahead request of ``R`` KiB waits for the request (its drives' run
    plus their queue, ``readahead_ms``); the others are served from cache. Over the ``R / s`` reads
    of size ``s`` a request feeds: ``s / R x readahead_ms``, which rises with the drives' load.
    """
    return size_kib / readahead_kib * readahead_ms


def cache_hits_ms(h_dram: Num, h_flash: Num, cache_hit_ms: Num, flash_hit_ms: Num) -> Num:
    """The cache-hit part of a random read's latency [ms]: ``h_d t_hit + h_f t_flash``."""
    return h_dram * cache_hit_ms + h_flash * flash_hit_ms


def read_latency_ms(
    front_ms: Num, rnd: float, hits_ms: Num, miss: Num, cache_hit_ms: Num, r_miss_ms: Num, r_seq_ms: Num
) -> Num:
    """Mean read latency of a phase [ms] (the module's ``R_read``), floats or arrays::

        R_read = front + rnd (hits + miss (t_hit + R_miss)) + (1 - rnd) (t_hit + r_seq)

    ``hits_ms`` from :func:`cache_hits_ms`, ``r_seq_ms`` from :func:`sequential_extra_ms` (not
    read when every read is random). The scalar engine (:func:`phase_figures`) and the batch path
    (:mod:`models.batch.model`) both compute it here; saturation is theirs to mark (None or inf).
    """
    return (
        front_ms
        + rnd * (hits_ms + miss * (cache_hit_ms + r_miss_ms))
        + ((1 - rnd) * (cache_hit_ms + r_seq_ms) if rnd < 1 else 0.0)
    )


class PhaseFigures(NamedTuple):
    """The numbers of one phase in one window (:func:`phase_figures`): what :func:`phase_result`
    explains, and all a figures-only pass (the cold-cache case of a window) keeps."""

    read_ms: float | None  # None: saturated
    write_ms: float | None
    avg_ms: float | None
    quantiles: list[float | None]  # read latency at each of the quantiles asked (None: unbounded)
    read_paths: list[Path]  # the paths its reads take, weights: shares of its reads
    front_ms: float | None
    r_port: float | None
    r_miss: float | None
    r_seq: float
    miss: float
    drives_ok: bool
    sync_ms: float
    wal_ms: float | None = 0.0  # the log record on the data drive (front.wal_on_drive); None: saturated


def phase_figures(
    w: Workload,
    ph: Phase,
    hits: tuple[float, float],
    route: list[tuple[str, float]],
    front: FrontEnd,
    paths: dict[str, DrivePath],
    cache: CacheConfig,
    qs: tuple[float, ...] = (0.95, 0.99),
) -> PhaseFigures:
    """The numbers behind :func:`phase_result` (same arguments): read, write and mean latency, the
    read latency's ``qs`` quantiles (None each without reads), and the paths its reads take."""
    h_d, h_f = hits
    size = ph.mean_size_kib
    rnd = ph.random_pct / 100
    miss = max(0.0, 1 - h_d - h_f)
    r_miss: float | None = 0.0
    for route_pool, share in route:
        if share <= 0:
            continue
        part = paths[route_pool].miss_ms(size)
        r_miss = None if part is None or r_miss is None else r_miss + share * part
    r_seq = sum(share * paths[rp].sequential_ms(size) for rp, share in route if share > 0)
    front_ms, r_port = front.time_ms(size)
    t_hit = front.cache_hit_ms
    read_ms: float | None
    if front_ms is None or (r_miss is None and rnd * miss > 0) or (rnd < 1 and not math.isfinite(r_seq)):
        read_ms = None
    else:
        hits_ms = cache_hits_ms(h_d, h_f, t_hit, cache.flash_hit_ms)
        read_ms = read_latency_ms(front_ms, rnd, hits_ms, miss, t_hit, r_miss or 0.0, r_seq)
    quantiles: list[float | None] = [None for _ in qs]
    read_paths: list[Path] = []
    if front_ms is not None and ph.read_pct > 0:
        read_paths = [
            Path(1 - rnd, front_ms + t_hit + (r_seq if rnd < 1 else 0.0)),
            Path(rnd * h_d, front_ms + t_hit),
            Path(rnd * h_f, front_ms + cache.flash_hit_ms),
        ] + [paths[rp].path(rnd * miss * share, front_ms + t_hit, size) for rp, share in route if share > 0]
        quantiles = quantiles_or_none(read_paths, qs)
    drives_ok = all(paths[rp].keeps_up for rp, _ in route)
    sync = w.replication.sync_latency_ms if w.replication.mode is ReplicationMode.SYNC else 0.0
    wal: float | None = 0.0
    if front.wal_on_drive:
        for rp, share in route:
            part = paths[rp].wal_ms(size) if share > 0 else 0.0
            wal = None if (wal is None or part is None) else wal + share * part
    write_ms = (
        None
        if (front_ms is None or not drives_ok or wal is None)
        else front_ms + front.write_ack_ms + wal + sync
    )
    rf = ph.read_pct / 100
    avg = None
    if read_ms is not None and write_ms is not None:
        avg = rf * read_ms + (1 - rf) * write_ms
    elif rf == 1 and read_ms is not None:
        avg = read_ms
    elif rf == 0 and write_ms is not None:
        avg = write_ms
    return PhaseFigures(
        read_ms,
        write_ms,
        avg,
        quantiles,
        read_paths,
        front_ms,
        r_port,
        r_miss,
        r_seq,
        miss,
        drives_ok,
        sync,
        wal,
    )


def phase_limit(w: Workload, ph: Phase, read_ms: float | None) -> Limit | None:
    """The phase's read-latency check against its target (None without a target or reads)."""
    tgt = ph.read_latency_target_ms
    if tgt is None or ph.read_pct <= 0:
        return None
    detail = f"{w.name}/{ph.name}"
    return Limit(f"read latency:{detail}", read_ms, tgt, "ms", busy_words("read latency", detail=detail))


def phase_result(
    w: Workload,
    ph: Phase,
    hits: tuple[float, float],
    shares_gb: tuple[float, float, float],
    route: list[tuple[str, float]],
    pool_name: str,
    front: FrontEnd,
    paths: dict[str, DrivePath],
    cache: CacheConfig,
    flash_total_gb: float,
) -> tuple[PhaseResult, Check | None, list[Path]]:
    """The result of phase ``ph`` of ``w``: hit ratios, read and write latency, its latency check,
    and the paths its reads take (weights: shares of its reads; for the window's percentiles).

    ``shares_gb`` = (working set, DRAM share, DRAM + flash share) [GB]; ``route`` = the pools its
    misses go to with the share of I/O each serves. The numbers are :func:`phase_figures`'.
    """
    f = phase_figures(w, ph, hits, route, front, paths, cache)
    limit = phase_limit(w, ph, f.read_ms)
    chk = None if limit is None else limit.check()
    return (
        phase_result_of(
            w, ph, hits, shares_gb, pool_name, front, cache, flash_total_gb, f, chk is None or chk.passed
        ),
        chk,
        f.read_paths,
    )


def phase_result_of(
    w: Workload,
    ph: Phase,
    hits: tuple[float, float],
    shares_gb: tuple[float, float, float],
    pool_name: str,
    front: FrontEnd,
    cache: CacheConfig,
    flash_total_gb: float,
    f: PhaseFigures,
    passed: bool,
) -> PhaseResult:
    """The :class:`PhaseResult` of :func:`phase_result`, every figure explained, from its numbers
    ``f`` (:func:`phase_figures` of the same arguments) and whether its latency check passed (:func:`phase_limit`)."""
    h_d, h_f = hits
    ws, d_gb, b_gb = shares_gb
    read_ms, write_ms, avg = f.read_ms, f.write_ms, f.avg_ms
    p95, p99 = f.quantiles
    rnd = ph.random_pct / 100
    miss, r_miss, r_seq, r_port, sync, drives_ok = f.miss, f.r_miss, f.r_seq, f.r_port, f.sync_ms, f.drives_ok
    wal = f.wal_ms
    t_hit = front.cache_hit_ms
    tgt = ph.read_latency_target_ms
    ws_in = min(100.0, 100.0 * (b_gb if flash_total_gb > 0 else d_gb) / ws) if ws > 0 else 100.0
    r_ctrl = front.r_ctrl_ms
    return _PHASE_RESULT(
        {
            "workload": w.name,
            "phase": ph.name,
            "pool": pool_name,
            "iops": ph.effective_iops,
            "mb_per_s": ph.effective_mb_s,
            "read_pct": ph.read_pct,
            "working_set_gb": ws,
            "cache_gb": d_gb,
            "dram_hit_pct": explained(
                100 * h_d,
                "%",
                "h_DRAM = LRU hit ratio (Che) of cache share over working set",
                f"h_DRAM = LRU({fmt(d_gb)} GB cache share over a {fmt(ws)} GB working set, "
                f"{skew_text(w)}) = {fmt(100 * h_d)}%",
                source="Che, Tung, Wang, IEEE JSAC 2002 [che-2002]",
                cache_gb=d_gb,
                working_set_gb=ws,
            ),
            "flash_hit_pct": explained(
                100 * h_f,
                "%",
                "h_flash = H(DRAM + flash) - H(DRAM) (exclusive levels)",
                f"h_flash = {fmt(100 * (h_d + h_f))}% - {fmt(100 * h_d)}% = {fmt(100 * h_f)}%"
                + (
                    " (dedupe-aware: working set / dedupe ratio)"
                    if cache.dedupe_aware and w.dedupe_ratio > 1
                    else ""
                ),
                flash_cache_gb=flash_total_gb,
            ),
            "working_set_in_cache_pct": ws_in,
            "cold_hit_pct": cold_hit_explained(
                d_gb + (max(0.0, b_gb - d_gb) if flash_total_gb > 0 else 0.0), ws, w, h_d + h_f
            ),
            "read_latency_ms": explained(
                read_ms,
                "ms",
                "R_read = R_ctrl + R_port + t_host + rnd (h_d t_hit + h_f t_flash + miss (t_hit + R_miss))"
                " + seq (t_hit + s / R x R_RA)",
                f"R_read = {fmt(r_ctrl)} + {fmt(r_port)} + {fmt(front.host_overhead_ms)} + {fmt(rnd)} x ({fmt(h_d)} x "
                f"{fmt(t_hit)} + {fmt(h_f)} x {fmt(cache.flash_hit_ms)} + {fmt(miss)} x ({fmt(t_hit)} + {fmt(r_miss)}))"
                f" + {fmt(1 - rnd)} x ({fmt(t_hit)} + {fmt(r_seq)}) = {fmt(read_ms)} ms (host and fabric + controller"
                " + device)",
                R_ctrl_ms=r_ctrl,
                R_port_ms=r_port,
                R_miss_ms=r_miss,
            ),
            "read_p95_latency_ms": _percentile_explained(95, p95, read_ms) if ph.read_pct > 0 else None,
            "read_p99_latency_ms": _percentile_explained(99, p99, read_ms) if ph.read_pct > 0 else None,
            "write_latency_ms": explained(
                write_ms,
                "ms",
                "R_write = R_ctrl + R_port + t_ack (+ t_WAL on the data drive) (while drives keep up)",
                f"R_write = {fmt(r_ctrl)} + {fmt(r_port)} + {fmt(front.write_ack_ms)}"
                + (f" + {fmt(wal)} log record on the data drive" if front.wal_on_drive and wal else "")
                + (f" + {fmt(sync)} sync replication" if sync else "")
                + f" = {fmt(write_ms)} ms"
                + ("" if drives_ok else " (drives cannot destage: write cache fills)"),
            ),
            "avg_latency_ms": avg,
            "read_latency_target_ms": tgt,
            "passed": passed,
        }
    )


def window_read_percentiles(
    phases: list[PhaseResult], read_paths: list[list[Path]]
) -> tuple[float | None, float | None]:
    """(p95, p99) of every read of a window [ms]: the phases' read paths weighted by their read
    rates (None when a reading phase is saturated, 0 without reads)."""
    return window_read_quantiles([ph.iops * ph.read_pct / 100.0 for ph in phases], read_paths)


def window_read_quantiles(
    read_rates: list[float], read_paths: list[list[Path]]
) -> tuple[float | None, float | None]:
    """:func:`window_read_percentiles` from each phase's read rate (IOPS x read share) [1/s]."""
    mix: list[Path] = []
    for rate, paths in zip(read_rates, read_paths, strict=True):
        if rate <= 0:
            continue
        if not paths:
            return None, None
        mix += [Path(p.weight * rate, p.const_ms, p.k, p.theta_ms) for p in paths]
    if not any(p.weight > 0 for p in mix):
        return 0.0, 0.0
    p95, p99 = quantiles_or_none(mix, (0.95, 0.99))
    return p95, p99


def _percentile_explained(pct: int, value: float | None, mean: float | None) -> Explained:
    return explained(
        value,
        "ms",
        f"p{pct}: F(t) = {pct / 100:g}, F = sum over paths of share x F_path; a miss path = constant + gamma(mean, var of S + W)",
        f"p{pct} read latency = {fmt(value)} ms (mean {fmt(mean)} ms): {pct}% of reads finish sooner; paths: cache "
        "hits at their mean times, misses as service plus the M/G/1 wait, a gamma fitted to their mean and variance",
        source="M/G/1 waiting-time moments (Takacs) [kleinrock-1975], two-moment gamma fit",
    )


def window_latencies(phases: list[PhaseResult]) -> tuple[float | None, float | None, float | None]:
    """IOPS-weighted (read, write, all) latency of a window's phases [ms]; None when any is saturated."""
    return window_latencies_of(
        [(ph.iops, ph.read_pct, ph.read_latency_ms.value, ph.write_latency_ms.value) for ph in phases]
    )


def window_latencies_of(
    phases: list[tuple[float, float, float | None, float | None]],
) -> tuple[float | None, float | None, float | None]:
    """:func:`window_latencies` from each phase's (IOPS, read %, read latency, write latency)."""
    reads: list[tuple[float, float, Num]] = []
    writes: list[tuple[float, float, Num]] = []
    for iops, read_pct, read_ms, write_ms in phases:
        rf = read_pct / 100
        if read_pct > 0:
            reads.append((iops, rf, math.inf if read_ms is None else read_ms))
        if read_pct < 100:
            writes.append((iops, 1 - rf, math.inf if write_ms is None else write_ms))
    rl_sum, r_w, rl_none = iops_weighted_sums(reads)
    wl_sum, w_w, wl_none = iops_weighted_sums(writes)
    read_lat = None if rl_none else (rl_sum / r_w if r_w else 0.0)
    write_lat = None if wl_none else (wl_sum / w_w if w_w else 0.0)
    tot_iops = sum(iops for iops, _, _, _ in phases)
    avg_lat = None
    if read_lat is not None and write_lat is not None and tot_iops > 0:
        avg_lat = (rl_sum + wl_sum) / (r_w + w_w)
    elif tot_iops == 0:
        avg_lat = 0.0
    return read_lat, write_lat, avg_lat


def iops_weighted_sums(phases: Iterable[tuple[float, float, Num]]) -> tuple[Num, float, Num]:
    """Over a window's phases (IOPS, share of them, latency [ms]; inf when saturated), floats or
    arrays of latencies: the sum of ``latency x IOPS x share`` over the finite latencies, the sum
    of ``IOPS x share``, and whether any latency is saturated (:func:`iops_weighted_ms`)."""
    total: Num = 0.0
    weight = 0.0
    saturated: Num = False
    for iops, share, ms in phases:
        weight += iops * share
        if not isinstance(ms, np.ndarray):
            if ms < math.inf:  # finite (a latency is never negative infinity); nan and inf: saturated
                total = total + ms * iops * share
            else:
                saturated = True
            continue
        bad = ~np.isfinite(ms)
        saturated = saturated | bad
        total = total + np.where(bad, 0.0, ms) * iops * share
    return total, weight, saturated


def iops_weighted_ms(phases: Iterable[tuple[float, float, Num]]) -> Num:
    """A window's IOPS-weighted latency [ms] (:func:`iops_weighted_sums`): inf where any phase is
    saturated, 0 without I/Os; floats or arrays (the batch path's window read latency)."""
    total, weight, saturated = iops_weighted_sums(phases)
    mean = total / weight if weight else 0.0
    if isinstance(saturated, np.ndarray):
        return np.where(saturated, np.inf, mean)
    return math.inf if saturated else mean


_PHASE_RESULT = validator_of(PhaseResult)
