"""The back end of one drive pool in one window: drive work, utilization, queue, miss latency, failure.

Drive work is linear in the positioning time. A RAID layout turns each front-end I/O class into
drive accesses (:func:`models.raid.read_plan`, :func:`~models.raid.write_plan`,
:func:`~models.raid.stream_read_plan`, :func:`~models.raid.stream_write_plan`); a drive prices
them (:class:`DriveTimes`): a random access costs ``max(floor, overhead + KiB x t_KiB)`` plus one
positioning, a stream costs its transfer plus ``overhead + positioning`` per run. Summed over a
window's phases this gives, for each drive role (data drives; dedicated parity drives),

    busy [ms/s] = fixed + n_read_pos x P_read + n_write_pos x P_write
    P = (t_track + t_rot + (t_avg - t_track) sqrt(span)) x ncq(q)                    [ms]

and the utilization of a role is ``busy / 1000 / drives of that role``. Everything that depends
on the drive count (the span through the usable capacity, the utilization, the queue and the
wait) is written once, with numpy arithmetic, in :func:`positioning_ms`, :func:`role_utilization`
and :func:`queue_fixed_point`, so the vectorized catalog search (:mod:`models.batch`) evaluates the
same formulas on arrays of drive counts.

Conservative by default: the seek span is the planned fill of the pool (the capacity it will hold
at the planning horizon, or its fill target, whichever is larger) unless the user short-strokes
the drives; utilization headroom applies to the service time at the queue the workload states
(one command per drive when it states none), so command-queuing gain is credited only where the
user says the outstanding I/Os are there.

:func:`models.pool_load.pool_figures` computes a pool's numbers in a window with these formulas;
:func:`models.pool_load.pool_load` wraps them in the explained :class:`~models.results.PoolLoad`
(a figures-only pass uses the numbers alone). :class:`models.pool_plans.PoolPlans` prices one
pool's access plans.

Kept as one module (about 880 lines): the pool model is one subsystem, and the functions the
vectorized search shares with evaluate (work, state, wait, failure) read best beside each other.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import numpy as np

from models.architecture import sparing_of
from models.capacity import raid_groups
from models.configuration import Architecture, DrivePool
from models.drives import (
    DriveKind,
    DriveSpec,
    DriveTimes,
    Num,
    positioning_ms,
    random_access_ms,
    unrecoverable_read_probability,
)
from models.explain import explained, fmt
from models.numeric import is_scalar, maximum, minimum
from models.parameters import EngineParameters
from models.raid import (
    COPY_SCHEMES,
    AccessPlan,
    RaidLayout,
    RaidScheme,
    degraded_read_cost,
    tolerated_failures,
)
from models.rebuild import Sparing, further_failure_probability, rebuild_hours, rebuild_share
from models.reduction import (
    METADATA_KIB,
    IoReduction,
    reduction_words,
)
from models.results import FailureResult
from models.streams import stream_ahead_kib, stream_words
from models.workload import Phase, Workload

PoolItem = tuple[Workload, Phase, float, float]
"""A phase on a pool: (workload, phase, DRAM hit ratio, flash hit ratio)."""

_new = tuple.__new__
"""``tuple.__new__``: ``_new(RoleWork, fields)`` builds the same NamedTuple as ``RoleWork(*fields)``
without the Python frame of the generated ``__new__`` (half the cost; an evaluation sums some
80 of them)."""


class RoleWork(NamedTuple):
    """Work on one drive role, per second (or per I/O, for a unit of work): fixed time [ms] and
    positionings, split by reads and writes (a failed drive's reads are rebuilt, its writes are not),
    and the KiB written as they count against a flash drive's rated endurance."""

    read_ms: Num = 0.0
    write_ms: Num = 0.0
    read_pos: Num = 0.0
    write_pos: Num = 0.0
    ops: Num = 0.0
    wear_kib: Num = 0.0  # KiB written, random writes weighted by the drive's write wear (endurance)

    def plus(self, other: RoleWork, k: Num = 1.0) -> RoleWork:
        a, b = self, other
        return _new(
            RoleWork,
            (
                a[0] + k * b[0],
                a[1] + k * b[1],
                a[2] + k * b[2],
                a[3] + k * b[3],
                a[4] + k * b[4],
                a[5] + k * b[5],
            ),
        )

    def plus3(self, b: RoleWork, k: Num, c: RoleWork, m: Num, d: RoleWork, n: Num) -> RoleWork:
        """``self.plus(b, k).plus(c, m).plus(d, n)`` in one step: the same sums in the same order."""
        a = self
        return _new(
            RoleWork,
            (
                a[0] + k * b[0] + m * c[0] + n * d[0],
                a[1] + k * b[1] + m * c[1] + n * d[1],
                a[2] + k * b[2] + m * c[2] + n * d[2],
                a[3] + k * b[3] + m * c[3] + n * d[3],
                a[4] + k * b[4] + m * c[4] + n * d[4],
                a[5] + k * b[5] + m * c[5] + n * d[5],
            ),
        )


class Work(NamedTuple):
    """Drive work of a unit of I/O (or of a window's load): data role, parity role, back-end I/Os."""

    data: RoleWork = RoleWork()
    parity: RoleWork = RoleWork()
    backend_ios: Num = 0.0
    kib: Num = 0.0

    def plus(self, other: Work, k: Num = 1.0) -> Work:
        return _new(
            Work,
            (
                self.data.plus(other.data, k),
                self.parity.plus(other.parity, k),
                self.backend_ios + k * other.backend_ios,
                self.kib + k * other.kib,
            ),
        )

    def plus3(self, b: Work, k: Num, c: Work, m: Num, d: Work, n: Num) -> Work:
        """``self.plus(b, k).plus(c, m).plus(d, n)`` in one step: the same sums in the same order."""
        return _new(
            Work,
            (
                self.data.plus3(b.data, k, c.data, m, d.data, n),
                self.parity.plus3(b.parity, k, c.parity, m, d.parity, n),
                self.backend_ios + k * b.backend_ios + m * c.backend_ios + n * d.backend_ios,
                self.kib + k * b.kib + m * c.kib + n * d.kib,
            ),
        )


def where_work(mask: Num, a: Work, b: Work) -> Work:
    """``a`` where ``mask`` holds, else ``b``, field by field (arrays over candidates)."""

    def role(x: RoleWork, y: RoleWork) -> RoleWork:
        return RoleWork(*(np.where(mask, u, v) for u, v in zip(x, y, strict=True)))

    return Work(
        role(a.data, b.data),
        role(a.parity, b.parity),
        np.where(mask, a.backend_ios, b.backend_ios),
        np.where(mask, a.kib, b.kib),
    )


def plan_work(plan: AccessPlan, t: DriveTimes, *, interleaved: bool = True) -> Work:
    """Price an access plan on a drive: fixed time and positionings per role.

    Random accesses: ``n x max(floor, overhead + KiB x t_KiB)`` and n positionings. Streams:
    ``KiB x t_KiB + runs x overhead`` and one positioning per run (none for a single,
    uninterleaved stream: ``interleaved=False``).
    """
    runs = 1.0 / plan.run_kib
    pos = runs if interleaved else 0.0
    rr = random_access_ms(t, plan.access_kib, True)
    rw = random_access_ms(t, plan.access_kib, False)

    def role(reads: float, writes: float, s_read: float, s_write: float) -> RoleWork:
        return RoleWork(
            read_ms=reads * rr + s_read * (t.stream_read_ms_per_kib + runs * t.overhead_ms),
            write_ms=writes * rw + s_write * (t.stream_write_ms_per_kib + runs * t.overhead_ms),
            read_pos=reads + s_read * pos,
            write_pos=writes + s_write * pos,
            ops=reads + writes + (s_read + s_write) * runs,
            wear_kib=writes * plan.access_kib * t.write_wear + s_write,
        )

    data = role(plan.data_reads, plan.data_writes, plan.data_stream_read_kib, plan.data_stream_write_kib)
    parity = role(
        plan.parity_reads, plan.parity_writes, plan.parity_stream_read_kib, plan.parity_stream_write_kib
    )
    kib = (
        (plan.data_reads + plan.data_writes + plan.parity_reads + plan.parity_writes) * plan.access_kib
        + plan.data_stream_read_kib
        + plan.data_stream_write_kib
        + plan.parity_stream_read_kib
        + plan.parity_stream_write_kib
    )
    return Work(data, parity, plan.backend_ios, kib)


def destage_capacity(pw: PoolWork, roles: Roles, st: PoolState) -> float | None:
    """How many times the window's write rate the drives can destage beside its reads: the least,
    over drive roles, of ``(1 - U_reads) / U_writes`` (None without writes)."""
    out: float | None = None
    for role, drives in ((pw.reads.data, roles.data), (pw.reads.parity, roles.parity)):
        if not drives:
            continue
        writes = pw.writes.data if role is pw.reads.data else pw.writes.parity
        u_w = float(busy_ms(writes, st.p_read, st.p_write)) / 1000.0 / drives
        u_r = float(busy_ms(role, st.p_read, st.p_write)) / 1000.0 / drives
        if u_w > 0:
            x = max(0.0, 1.0 - u_r) / u_w
            out = x if out is None else min(out, x)
    return out


def readahead_service_ms(t: DriveTimes, p_read: Num, run_kib: Num) -> Num:
    """Service of one readahead request on one drive [ms]: overhead + a read positioning + the run
    of ``run_kib`` (:func:`models.raid.stream_run_kib`) at the media rate. The drives a request spans
    serve their runs in parallel, so this is the request's service time."""
    return t.overhead_ms + p_read + run_kib * t.stream_read_ms_per_kib


def busy_ms(role: RoleWork, p_read: Num, p_write: Num) -> Num:
    """Busy time of a role [ms/s] at positioning times ``p_read``, ``p_write`` [ms]."""
    return role.read_ms + role.write_ms + role.read_pos * p_read + role.write_pos * p_write


def role_utilization(role: RoleWork, drives: Num, p_read: Num, p_write: Num) -> Num:
    """Utilization of the ``drives`` of a role: ``busy / 1000 / drives`` (0 for a role with no drives)."""
    busy = busy_ms(role, p_read, p_write)
    if is_scalar(busy, drives):
        return busy / 1000.0 / maximum(drives, 1) if drives > 0 else 0.0
    return np.where(np.asarray(drives) > 0, busy / 1000.0 / np.maximum(drives, 1), 0.0)


def planned_span(
    footprint_gb: Num, usable_gb: Num, planned_fill: float, drive_fraction: float, scatter: Num
) -> Num:
    """Share of each drive's surface random I/O spans (before a write-anywhere layout's scatter).

    ``s0 = f_used x min(1, max(footprint / usable, planned fill))``: data spreads over what the
    pool holds at the planning horizon, and over at least the fill the pool is planned to run at
    (growth and other tenants fill it), within the fraction ``f_used`` of each drive the user
    short-strokes to (1 = full stroke). A write-anywhere layout relocates overwritten blocks into
    free space: ``s = s0 + scatter (1 - s0)``.
    """
    if is_scalar(footprint_gb, usable_gb, scatter):
        frac = footprint_gb / maximum(usable_gb, 1e-300) if usable_gb > 0 else 1.0
        s0 = drive_fraction * minimum(1.0, maximum(frac, planned_fill))
        return s0 + scatter * (1.0 - s0)
    frac = np.where(np.asarray(usable_gb) > 0, footprint_gb / np.maximum(usable_gb, 1e-300), 1.0)
    s0 = drive_fraction * np.minimum(1.0, np.maximum(frac, planned_fill))
    return s0 + scatter * (1.0 - s0)


def queue_fixed_point(u1: Num, u_deep: Num, g: Num, h: Num, f_deep: Num, q_cap: Num) -> tuple[Num, Num]:
    """(queue per drive, command-queuing factor) where the queue that forms meets the service it gets.

    Open model: ``q = 1 + U / (1 - U)`` (at least the arriving command), and
    ``U(q) = U_deep + (U_1 - U_deep) (ncq(q) - f_deep) / (1 - f_deep)`` is linear in the queuing
    factor ``ncq(q) = (x + h) / ((1 + g) x + h)``, x = q - 1. With ``A = U_deep`` and
    ``B = (U_1 - A) / (1 - f_deep)`` the fixed point is the positive root of
    ``((1 + g)(1 - A) - B) x^2 + (h (1 - U_1) - (1 + g) A - B) x - h U_1 = 0``. The queue is then
    capped at ``q_cap``, the commands the workload keeps outstanding per drive (1: no gain).
    A saturated pool (no root) gets the cap.
    """
    b = (u1 - u_deep) / (1.0 - f_deep)
    a = u_deep - b * f_deep
    a2 = (1.0 + g) * (1.0 - a) - b
    a1 = h * (1.0 - u1) - a * (1.0 + g) - b
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(a1 * a1 + 4.0 * a2 * h * u1)
        x = np.where(
            a1 >= 0, 2.0 * h * u1 / np.where(a1 + root > 0, a1 + root, 1.0), (root - a1) / (2.0 * a2)
        )
    x = np.where((a2 > 0) & np.isfinite(x), x, np.inf)
    x = np.where(u1 > 0, x, 0.0)
    q = np.minimum(1.0 + x, np.maximum(q_cap, 1.0))
    xq = q - 1.0
    return q, (xq + h) / ((1.0 + g) * xq + h)


@dataclass
class PoolWork:
    """Back-end work of one pool in one window (per second), with what latency and text need.

    Fields are floats, or arrays over candidates in the batch path."""

    reads: Work = field(default_factory=Work)  # front-end reads: random misses and prefetch streams
    writes: Work = field(default_factory=Work)  # front-end writes destaged (and background streams)
    fe_iops: float = 0.0
    read_miss_rate: Num = 0.0
    miss_fixed_ms: Num = 0.0  # sum over misses of one access's fixed service (latency path)
    outstanding: Num = 0.0  # commands the phases keep outstanding at the drives (when all state it)
    outstanding_writes: Num = 0.0  # commands their writes keep there when a write waits on a drive
    concurrency_stated: bool = True
    terms: list[str] = field(default_factory=list)

    @property
    def work(self) -> Work:
        """All drive work of the window."""
        return self.reads.plus(self.writes)

    @property
    def be_read_iops(self) -> Num:
        return self.reads.backend_ios

    @property
    def be_write_iops(self) -> Num:
        return self.writes.backend_ios


class PlanSource(Protocol):
    """Priced access plans of one pool (or, in the batch path, of many candidates at once)."""

    def random(self, size_kib: float) -> tuple[Work, Work]:
        """(one random read miss, one random write reaching the back end) of ``size_kib``."""
        ...

    def streams(
        self, interleaved: bool, size_kib: float = 0.0, readahead_kib: float | None = None
    ) -> tuple[Work, Work]:
        """(one KiB of a sequential read stream, one KiB of a sequential write stream) of I/Os of
        ``size_kib``, each request :meth:`segment_kib` long."""
        ...

    def segment_kib(self, size_kib: float, readahead_kib: float | None = None) -> Num:
        """KiB one request of a stream of ``size_kib`` I/Os moves (:func:`models.raid.stream_segment_kib`
        of the array's prefetch, the host's stated readahead and the size)."""
        ...

    def reduction(self, workload: Workload) -> IoReduction | None:
        """The inline reduction ``workload``'s writes get on this pool (:mod:`models.reduction`);
        None when none applies (ratios of 1, or no inline mode declared)."""
        ...

    def compressed(self, size_kib: float, ratio: float) -> tuple[Work, Work]:
        """(one random read miss, one random data write) of ``size_kib`` stored compressed
        ``ratio``:1 where the array packs compressed blocks, the plain ones elsewhere."""
        ...

    def wal_copies(self, size_kib: float) -> Num:
        """Further copies of a write of ``size_kib`` on its data drive: 1 where the store commits it
        into a write-ahead log on that drive before writing it in place
        (:func:`models.architecture.wal_copy_kib`), else 0 (one per candidate in the batch path)."""
        ...

    def metadata(self, size_kib: float) -> Work:
        """One duplicate write's metadata update (:data:`models.reduction.METADATA_KIB` written
        through the layout's write plan), its I/Os counted in units of the front-end ``size_kib``."""
        ...


def pool_work(
    items: Sequence[tuple[Workload, Phase, Num, Num]],
    plans: PlanSource,
    *,
    extra_stream_kib: tuple[float, float] = (0.0, 0.0),
    scheme: str | None = None,
) -> PoolWork:
    """Back-end work of ``items`` (workload, phase, DRAM hit, flash hit) priced by ``plans``.

    Random read misses: ``R x rnd x (1 - h)`` reads of each size (:func:`models.raid.read_plan`);
    sequential reads are prefetched and stream (:func:`models.raid.stream_read_plan`); writes
    reaching the back end (``W x (1 - overwrite share) x replication amplification``) are random
    (:func:`models.raid.write_plan`) or sequential (:func:`models.raid.stream_write_plan`).
    Back-end I/Os are counted the conventional way: drive accesses of the random I/Os, one per
    prefetched read, and a sequential write's KiB moved in units of the write.
    ``extra_stream_kib`` adds background streams (read, write) [KiB/s], e.g. tier migration.
    Inline reduction (:mod:`models.reduction`, only where the array declares it and the workload
    states a ratio): data packed compressed ``c``:1 is written and read at ``1/c`` of its KiB (the
    reads with the same accesses), and a share ``1 - 1/D`` of the writes are duplicates written
    as one metadata block each instead of their data.
    Hit ratios may be arrays (one per candidate, in the batch path); with ``scheme`` the result
    carries each phase's term of the back-end formula.
    """
    # the totals are locals, the PoolWork built at the end: the same sums, without an attribute
    # store per term
    fe_iops: float = 0.0
    read_miss_rate: Num = 0.0
    miss_fixed_ms: Num = 0.0
    outstanding: Num = 0.0
    outstanding_writes: Num = 0.0
    concurrency_stated = True
    terms: list[str] = []
    rd, wr = Work(), Work()
    seq_r, seq_w = plans.streams(True)
    xr, xw = extra_stream_kib
    if xr > 0:
        wr = wr.plus(seq_r, xr)
    if xw > 0:
        wr = wr.plus(seq_w, xw)
    for wl, ph, h_d, h_f in items:
        iops = ph.effective_iops
        if iops <= 0:
            continue
        rf = ph.read_pct / 100.0
        rnd = ph.random_pct / 100.0
        miss = maximum(0.0, 1.0 - h_d - h_f)
        reads, writes = iops * rf, iops * (1.0 - rf)
        writes_be = writes * (1.0 - ph.write_overwrite_pct / 100.0) * wl.replication.io_amplification
        n_streams = ph.sequential_streams
        interleaved = n_streams != 1
        # stated interleaved streams each wait on one readahead request at the drives
        stream_reads = n_streams is not None and n_streams > 1 and rf > 0 and rnd < 1
        fe_iops += iops
        if ph.concurrency is None and not (stream_reads and rnd == 0):
            concurrency_stated = False
        elif ph.concurrency is not None:
            # only read misses wait on the drives in the request path (writes are acknowledged
            # from NVRAM, hits from cache): a phase's outstanding I/Os reach them in that share
            outstanding = outstanding + ph.concurrency * rf * rnd * miss
            # a write logged on its data drive before the ack (no NVRAM) waits there too: one
            # command each (its log record; copies and parity are the array's, not counted)
            outstanding_writes = outstanding_writes + ph.concurrency * (1.0 - rf)
        red = plans.reduction(wl)
        start = rd, wr
        plain = start if red is not None and scheme is not None else None  # the phase unreduced, for text
        for size, frac in ph.size_mix:
            rr, rw = plans.random(size)
            ahead = stream_ahead_kib(ph, size)
            sr, sw = plans.streams(interleaved, size, ahead)
            if stream_reads:
                # each read stream's request is one command on every drive run it spans
                assert n_streams is not None
                commands = plans.segment_kib(size, ahead) * (sr.data.ops + sr.parity.ops)
                outstanding = outstanding + n_streams * rf * frac * commands
            r_miss = reads * rnd * frac * miss
            seq_reads = reads * (1.0 - rnd) * frac
            w_rnd = writes_be * rnd * frac
            w_seq = writes_be * (1.0 - rnd) * frac
            dup = plans.wal_copies(size)
            if not (isinstance(dup, float) and dup == 0.0):
                # a deferred write lands twice on its data drive: in the write-ahead log, then in place
                wr = wr.plus(rw, w_rnd * dup).plus(sw, w_seq * size * dup).plus(_ONE_IO, w_seq * sw.kib * dup)
            if plain is not None:
                plain = (
                    plain[0].plus(rr, r_miss).plus(sr, seq_reads * size).plus(_ONE_IO, seq_reads),
                    plain[1].plus(rw, w_rnd).plus(sw, w_seq * size).plus(_ONE_IO, w_seq * sw.kib),
                )
            if red is None:
                rd = rd.plus3(rr, r_miss, sr, seq_reads * size, _ONE_IO, seq_reads)
                wr = wr.plus3(rw, w_rnd, sw, w_seq * size, _ONE_IO, w_seq * sw.kib)
            else:
                # inline reduction (models.reduction): data packed compressed moves 1/c of its KiB;
                # a share 1 - 1/D of the writes are duplicates, each a metadata block instead
                kf, unique = red.kib_factor, red.unique_share
                if red.compresses:
                    rr, rw = plans.compressed(size, wl.compression_ratio)
                meta = plans.metadata(size)
                w_kib = w_seq * (size * kf * unique + METADATA_KIB * (1.0 - unique))
                rd = rd.plus(rr, r_miss).plus(sr, seq_reads * size * kf)
                wr = wr.plus(rw, w_rnd * unique).plus(meta, w_rnd * (1.0 - unique)).plus(sw, w_kib)
                wr = wr.plus(_ONE_IO, w_kib / size * sw.kib)
                rd = rd.plus(_ONE_IO, seq_reads)
            read_miss_rate = read_miss_rate + r_miss
            miss_fixed_ms = miss_fixed_ms + r_miss * rr.data.read_ms / maximum(rr.data.ops, 1e-12)
        if scheme is not None:
            text = _term(wl, ph, reads, writes_be, scheme, start, (rd, wr), plain, red)
            if rnd < 1:
                biggest = max(size for size, _ in ph.size_mix)
                seg = plans.segment_kib(biggest, stream_ahead_kib(ph, biggest))
                text += "; " + stream_words(ph.sequential_streams, float(seg))
            terms.append(text)
    return PoolWork(
        reads=rd,
        writes=wr,
        fe_iops=fe_iops,
        read_miss_rate=read_miss_rate,
        miss_fixed_ms=miss_fixed_ms,
        outstanding=outstanding,
        outstanding_writes=outstanding_writes,
        concurrency_stated=concurrency_stated,
        terms=terms,
    )


def _term(
    wl: Workload,
    ph: Phase,
    reads: float,
    writes_be: float,
    scheme: str,
    start: tuple[Work, Work],
    end: tuple[Work, Work],
    plain: tuple[Work, Work] | None,
    red: IoReduction | None,
) -> str:
    """One phase's term of the back-end formula: back-end I/Os per read and per write; with inline
    reduction, what it is and the I/Os per write and back-end MB/s with and without it."""
    per_read = (end[0].backend_ios - start[0].backend_ios) / reads if reads else 0.0
    per_write = (end[1].backend_ios - start[1].backend_ios) / writes_be if writes_be else 0.0
    text = f"{wl.name}/{ph.name}: {fmt(reads)} reads x {fmt(per_read)} to disk + {fmt(writes_be)} writes x {fmt(per_write)} ({scheme}"
    if plain is None or red is None:
        return text + ")"

    def mb_s(pair: tuple[Work, Work]) -> float:
        return float(pair[0].kib - start[0].kib + pair[1].kib - start[1].kib) * 1024.0 / 1e6

    plain_write = (plain[1].backend_ios - start[1].backend_ios) / writes_be if writes_be else 0.0
    saved = float((plain[1].backend_ios - end[1].backend_ios) + (plain[0].backend_ios - end[0].backend_ios))
    if abs(saved) <= 1e-9 * float(plain[0].backend_ios + plain[1].backend_ios):
        saved = 0.0  # the same I/Os either way (a duplicate's metadata block as large as its data)
    return (
        text + f"; {reduction_words(red)}: {fmt(plain_write)} per write without it, "
        f"{fmt(saved)} back-end I/Os/s fewer, back-end {fmt(mb_s(end))} MB/s instead of {fmt(mb_s(plain))})"
    )


_ONE_IO = Work(backend_ios=1.0)
"""One conventional back-end I/O (a prefetched read, or a streamed write's front-end-sized piece)."""


def queued_commands(pw: PoolWork, writes_wait: Num) -> Num:
    """Commands the phases keep at the drives: the read misses' (:attr:`PoolWork.outstanding`), and
    the writes' where ``writes_wait`` (each write is logged on its data drive before the ack: a
    write-ahead log without NVRAM or a flash device, :func:`models.architecture.wal_placement`;
    a bool, or one per candidate)."""
    if isinstance(writes_wait, bool):
        return pw.outstanding + pw.outstanding_writes if writes_wait else pw.outstanding
    return pw.outstanding + np.where(writes_wait, pw.outstanding_writes, 0.0)


def stated_queue(outstanding: Num, stated: bool, data_drives: Num, queue_limit: Num) -> Num:
    """Commands per data drive the workloads keep outstanding, within the drive's queue limit:
    ``min(limit, max(1, outstanding / drives))`` (:func:`queued_commands`); 1 (no
    command-queuing credit) unless every phase states its concurrency."""
    if not stated:
        return 1.0
    return np.minimum(queue_limit, np.maximum(1.0, outstanding / np.maximum(data_drives, 1)))


class Roles(NamedTuple):
    """Drives of each role in a pool of ``n``: all, data (read-serving), parity, groups."""

    drives: int
    data: int
    parity: int
    groups: int


def pool_roles(layout: RaidLayout, n: int) -> Roles:
    """Data and dedicated-parity drives of ``n`` drives in groups of ``layout`` (a narrower last group
    keeps its parity drives); every drive is a data drive for rotating parity and mirrors."""
    groups = raid_groups(n, layout)
    if not layout.dedicated_parity:
        return Roles(n, n, 0, groups.count)
    parity = groups.count * layout.parity_drives
    return Roles(n, n - parity, parity, groups.count)


def unit_roles(roles: Roles, units: int) -> Roles:
    """``roles`` counted in positioning units, ``units`` per drive (groups unchanged)."""
    if units == 1:
        return roles
    return Roles(roles.drives * units, roles.data * units, roles.parity * units, roles.groups)


def ncq_parameters(drive: DriveSpec, p: EngineParameters) -> tuple[float, float, float]:
    """(gain g, half-gain queue h, queue limit) of command queuing on ``drive``, by drive class
    (:func:`models.drives.drive_class`; no gain for SSDs: no positioning to reorder)."""
    q = p.command_queuing.for_drive(drive)
    if drive.kind is not DriveKind.HDD:
        return 0.0, 1.0, q.queue_limit
    return q.gain_max, q.q_half, q.queue_limit


MIN_RATE = 1e-9
"""Rates below this [per second] count as none: a vanishing miss rate divides into nothing."""

Q_DEEP = 1e9
"""The "infinitely deep" queue whose factor bounds the command-queuing gain."""


class PoolState(NamedTuple):
    """The pool at one drive count: span, queue, positioning and role utilizations."""

    span: Num
    queue: Num
    factor: Num
    p_read: Num
    p_write: Num
    u_data: Num
    u_parity: Num
    u_data_q1: Num


def pool_state(
    work: Work,
    t: DriveTimes,
    roles_data: Num,
    roles_parity: Num,
    span: Num,
    q_cap: Num,
    g: Num,
    h: Num,
) -> PoolState:
    """Utilizations at the queue the workload's outstanding I/Os allow (see :func:`queue_fixed_point`).

    Data drives take the command-queuing gain of that queue (``g`` = 0: none); parity drives run
    at one command (their writes are destaged by the array, not queued by the host).
    """
    root = math.sqrt(span) if is_scalar(span) else np.sqrt(span)
    pr1, pw1 = positioning_ms(t, root)
    u1 = role_utilization(work.data, roles_data, pr1, pw1)
    u_par = role_utilization(work.parity, roles_parity, pr1, pw1)
    if q_cap <= 1.0 if is_scalar(q_cap) else np.all(np.asarray(q_cap) <= 1.0):  # one command per drive
        return PoolState(span, 1.0, 1.0, pr1, pw1, u1, u_par, u1)
    gain = np.asarray(g) > 0
    g_safe = np.where(gain, g, 1.0)
    f_deep = 1.0 / (1.0 + g_safe * (Q_DEEP - 1.0) / (Q_DEEP - 1.0 + h))
    prd, pwd = positioning_ms(t, root, f_deep)
    ud = role_utilization(work.data, roles_data, prd, pwd)
    q, factor = queue_fixed_point(u1, ud, g_safe, h, f_deep, q_cap)
    q = np.where(gain, q, 1.0)
    factor = np.where(gain, factor, 1.0)
    pr, pw = positioning_ms(t, root, factor)
    u = role_utilization(work.data, roles_data, pr, pw)
    return PoolState(span, q, factor, pr, pw, u, u_par, u1)


def miss_path(
    work: Work, miss_rate: Num, miss_fixed_ms: Num, state: PoolState, scv: float
) -> tuple[Num, Num, Num]:
    """(mean read-miss service, mean service of all data-drive accesses, M/G/1 wait) [ms].

    A read miss is one access (accesses of a multi-chunk read run in parallel) at its fixed
    service (``miss_fixed_ms`` summed over ``miss_rate`` misses per second) plus a read
    positioning; the wait is Pollaczek-Khinchine at the data drives ``U S (1 + c^2) / (2 (1 - U))``
    over the mean service of every access they serve (inf at or past saturation).
    """
    d = work.data
    u = state.u_data
    if is_scalar(d.ops, miss_rate, miss_fixed_ms, state.p_read, state.p_write, u):
        mean_all = busy_ms(d, state.p_read, state.p_write) / maximum(d.ops, 1e-12)
        mean_read = miss_fixed_ms / miss_rate + state.p_read if miss_rate > MIN_RATE else mean_all
        if d.ops <= 0:
            return mean_read, mean_all, 0.0
        return mean_read, mean_all, u * mean_all * (1.0 + scv) / (2.0 * (1.0 - u)) if u < 1 else math.inf
    ops = np.maximum(d.ops, 1e-12)
    mean_all = busy_ms(d, state.p_read, state.p_write) / ops
    has_miss = np.asarray(miss_rate) > MIN_RATE
    mean_read = np.where(
        has_miss, miss_fixed_ms / np.where(has_miss, miss_rate, 1.0) + state.p_read, mean_all
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = np.where(u < 1, u * mean_all * (1.0 + scv) / (2.0 * (1.0 - u)), np.inf)
    wait = np.where(d.ops > 0, wait, 0.0)
    return mean_read, mean_all, wait


def degraded_group(
    work: Work,
    roles: Roles,
    layout: RaidLayout,
    state: PoolState,
    *,
    rebuild_share: float = 0.0,
) -> float:
    """Utilization of the one RAID group with a failed data drive (0..inf).

    The group carries 1/G of the pool's work on ``w - 1`` drives; reads that fell on the failed
    drive are rebuilt from the others (:func:`models.raid.degraded_read_cost` reads each), and a
    rebuild adds ``rebuild_share`` (its stream over the drive's media rate) on every survivor.
    """
    d = work.data
    per_data = 1000.0 * max(roles.data, 1)
    u_read = float((d.read_ms + d.read_pos * state.p_read) / per_data)
    u_write = float((d.write_ms + d.write_pos * state.p_write) / per_data)
    w = layout.group_width
    return (u_read * degraded_read_cost(layout) + u_write) * w / max(w - 1, 1) + rebuild_share


def failure_utilizations(
    pool: DrivePool, work: Work, roles: Roles, state: PoolState, p: EngineParameters
) -> tuple[float, float] | None:
    """(with a drive failed, while rebuilding) utilization of the one RAID group that lost a drive
    (:func:`degraded_group`; rebuilding adds the rebuild's minimum rate over the drive's media rate).
    ``None`` for layouts that lose data with one failure (RAID0)."""
    if tolerated_failures(pool.raid) == 0:
        return None
    u_failed = degraded_group(work, roles, pool.raid, state)
    return u_failed, u_failed + p.rebuild_min_rate_mb_s / pool.drive.media_rate_mb_s


def failure_result(
    pool: DrivePool,
    work: Work,
    roles: Roles,
    state: PoolState,
    p: EngineParameters,
    utilizations: tuple[float, float] | None = None,
    *,
    drives: int | None = None,
    architecture: Architecture | None = None,
) -> FailureResult | None:
    """A drive failure in one group at this window's load: the group's utilization with the drive
    failed and while rebuilding, the rebuild time (:mod:`models.rebuild`: the drives' sequential
    rates, the sparing style, the rebuild priority and the idle share the load leaves), and the
    chances an unrecoverable read error or a further failure meet the rebuild. ``None`` for layouts
    that lose data with one failure (RAID0). ``utilizations``: :func:`failure_utilizations` of the
    same arguments, when already computed; ``drives``: the pool's drives (the survivors a
    distributed rebuild spreads over; default one group)."""
    layout = pool.raid
    drive = pool.drive
    u = utilizations if utilizations is not None else failure_utilizations(pool, work, roles, state, p)
    if u is None:
        return None
    u_failed, u_rebuild = u
    sparing = sparing_of(pool, architecture)
    copies = layout.scheme in COPY_SCHEMES
    k = 1 if copies else layout.data_drives
    n = drives if drives is not None else layout.group_width
    hours, formula, text, rate = _rebuild_time(pool, p, sparing, k, n, u_failed)
    # bits the rebuild must read without an error it cannot correct
    read_gb = k * drive.capacity_gb
    p_ure = unrecoverable_read_probability(drive, read_gb) if tolerated_failures(layout) == 1 else 0.0
    if sparing is Sparing.DISTRIBUTED or layout.scheme is RaidScheme.REPLICA:
        # the failed drive's stripes or copies lie on every other drive of the pool
        at_risk = max(n - 1, 1)
    elif copies:
        at_risk = (
            max(layout.copies - 1, 1)
            if layout.scheme is not RaidScheme.ZFS_MIRROR
            else layout.group_width - 1
        )
    else:
        at_risk = layout.group_width - 1
    afr = p.annual_failure_rate_pct / 100.0
    p_more = float(further_failure_probability(at_risk, afr, hours)) if math.isfinite(hours) else 1.0
    loses = tolerated_failures(layout) == 1
    return FailureResult(
        failed_group_utilization_pct=100.0 * u_failed,
        rebuild_group_utilization_pct=100.0 * u_rebuild,
        rebuild_hours=explained(
            hours,
            "h",
            formula,
            text,
            rebuild_rate_mb_s=rate,
            sparing=sparing.value,
            drives_read=k,
            pool_drives=n,
            priority_pct=p.rebuild_priority_pct,
            foreground_utilization_pct=100.0 * u_failed,
        ),
        unrecoverable_read_pct=explained(
            100.0 * p_ure,
            "%",
            "P(URE) = 1 - exp(-bits read / bits per unrecoverable error)  (single redundancy)",
            (
                f"P(URE) = 1 - exp(-{fmt(read_gb)} GB x 8e9 / {drive.unrecoverable_bits:.0e}) = {fmt(100 * p_ure)}% "
                f"chance the rebuild meets an unreadable sector with no redundancy left"
            )
            if p_ure > 0
            else f"{layout.scheme.value} keeps redundancy while one drive rebuilds: an unreadable sector is repaired",
            read_gb=read_gb,
            bits_per_error=drive.unrecoverable_bits,
        ),
        further_failure_pct=explained(
            100.0 * p_more,
            "%",
            "P(further failure) = 1 - exp(-m x AFR x T / 8,766)",
            f"P = 1 - exp(-{at_risk} drives x {fmt(p.annual_failure_rate_pct)}%/yr x {fmt(hours)} h / 8,766) = "
            f"{fmt(100 * p_more)}% chance another drive holding the failed one's "
            + ("copies" if copies else "stripes")
            + (
                " fails before the rebuild ends (data loss)"
                if loses
                else " fails before the rebuild ends (one failure from loss)"
            ),
            drives_at_risk=at_risk,
            annual_failure_rate_pct=p.annual_failure_rate_pct,
            hours=hours,
        ),
    )


def _rebuild_time(
    pool: DrivePool, p: EngineParameters, sparing: Sparing, k: int, n: int, u_fg: float
) -> tuple[float, str, str, float]:
    """(hours, formula, text, rebuilt MB/s) of one drive's rebuild (:func:`models.rebuild.rebuild_hours`;
    a rebuild rate stated in the parameters replaces the drives' rates)."""
    drive = pool.drive
    c = drive.capacity_gb
    if p.rebuild_rate_mb_s is not None:
        idle = max(0.0, 1.0 - u_fg)
        rate = max(p.rebuild_min_rate_mb_s, p.rebuild_rate_mb_s * idle)
        hours = c * 1000.0 / rate / 3600.0
        return (
            hours,
            "rebuild = C_drive / max(r_min, r_stated x (1 - U_group))",
            f"rebuild = {fmt(c)} GB / max({fmt(p.rebuild_min_rate_mb_s)}, {fmt(p.rebuild_rate_mb_s)} x "
            f"{fmt(idle)}) MB/s = {fmt(hours)} h of exposure to a further failure (the stated rebuild rate)",
            rate,
        )
    r_r = drive.media_rate_mb_s
    r_w = drive.seq_write_mb_s or drive.media_rate_mb_s
    pi = p.rebuild_priority_pct / 100.0
    share = float(rebuild_share(pi, u_fg))
    hours = float(
        rebuild_hours(
            c,
            r_r,
            r_w,
            sparing=sparing,
            drives_read=k,
            pool_drives=n,
            priority=pi,
            foreground_utilization=u_fg,
            min_rate_mb_s=p.rebuild_min_rate_mb_s,
        )
    )
    rate = c * 1000.0 / (hours * 3600.0) if hours > 0 else math.inf
    floor = f"; at least {fmt(p.rebuild_min_rate_mb_s)} MB/s guaranteed"
    s_text = f"min({fmt(pi)} priority, 1 - {fmt(u_fg)} busy) = {fmt(share)}"
    if sparing is Sparing.DEDICATED:
        formula = "rebuild = C_drive / (min(r_read, r_write) x s),  s = min(priority, 1 - U_group)"
        text = (
            f"rebuild = {fmt(c)} GB / (min({fmt(r_r)}, {fmt(r_w)}) MB/s x {s_text}) = {fmt(hours)} h onto a "
            f"dedicated spare{floor}"
        )
    else:
        formula = "rebuild = (k x C / r_read + C / r_write) / (N - 1) / s,  s = min(priority, 1 - U_group)"
        text = (
            f"rebuild = ({k} x {fmt(c)} GB / {fmt(r_r)} + {fmt(c)} GB / {fmt(r_w)} MB/s) / {max(n - 1, 1)} "
            f"survivors / {s_text} = {fmt(hours)} h into spare space spread over the pool{floor}"
        )
    return hours, formula, text, rate


class MissWait(NamedTuple):
    """A pool's read-miss path in one window: mean service of a miss [ms], the first two moments of
    the wait at the drives [ms, ms^2] (inf when saturated), the service's squared coefficient of
    variation, and the response of one readahead request [ms] (service + wait)."""

    mean_read_ms: float
    wait_ms: float
    wait_sq_ms2: float
    service_scv: float
    readahead_ms: float


def wear_kib_per_drive(work: Work, drives_data: Num, drives_parity: Num) -> Num:
    """Wear-weighted KiB written per second on one drive of the busiest role (data or dedicated
    parity): ``max(wear KiB_data / data drives, wear KiB_parity / parity drives)``."""
    data = work.data.wear_kib / np.maximum(drives_data, 1)
    parity = np.where(np.asarray(drives_parity) > 0, work.parity.wear_kib / np.maximum(drives_parity, 1), 0.0)
    return np.maximum(data, parity)


def endurance_kib_per_s(work: Work, roles: Roles) -> float:
    """Wear-weighted KiB/s written on one drive of the busiest role (:func:`wear_kib_per_drive`)."""
    return float(wear_kib_per_drive(work, roles.data, roles.parity))


_MOVED = {
    "PoolPlans": "models.pool_plans",
    "pool_plans": "models.pool_plans",
    "PoolFigures": "models.pool_load",
    "pool_figures": "models.pool_load",
    "pool_load": "models.pool_load",
    "pool_load_result": "models.pool_load",
    "endurance_result": "models.pool_load",
}
"""Names that moved out of this module (#29) and where they live now: still importable from here."""


def __getattr__(name: str) -> object:
    if name in _MOVED:
        import importlib

        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
