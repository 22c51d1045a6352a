"""Host statistics as a time series per device, in bounded memory.

Readers (iostat, sar, perfmon, esxtop) hand a :class:`SeriesBuilder` per-device samples: rates per
second averaged over a sampling interval ``dt`` that ends at the sample's time. The builder adds
them into time buckets of ``resolution_s`` (or ``dt`` when longer) as *counts*, so buckets add up
exactly and a bucket's rate is its count over the seconds it observed::

    reads[b]       = sum over samples s in b of  r/s(s) x dt                 [I/Os]
    read_bytes[b]  = sum of  read B/s x dt                                   [B]
    read_lat[b]    = sum of  r_await x r/s x dt  (samples with a latency)    [ms x I/Os]
    queue[b]       = sum of  mean queue x dt                                 [I/Os x s]
    rate(b)        = count(b) / seconds(b)

A sample lands in the bucket of its interval's midpoint. Memory is bounded whatever the file size:
when devices x buckets would pass ``max_cells``, neighbouring buckets are merged in pairs (the
resolution doubles, and the result says so). Latencies combine weighted by I/Os; queue lengths of
devices add (Little's law: the outstanding I/Os of parallel devices add up).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt

from models.importers.common import ParseError

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# accumulated fields (first axis of the accumulator)
SECONDS, READS, WRITES, READ_BYTES, WRITE_BYTES = 0, 1, 2, 3, 4
READ_LAT_OPS, READ_LAT_SUM, WRITE_LAT_OPS, WRITE_LAT_SUM = 5, 6, 7, 8
QUEUE_SECONDS, QUEUE_SUM, UTIL_SECONDS, UTIL_SUM = 9, 10, 11, 12
N_FIELDS = 13

DEFAULT_MAX_CELLS = 400_000
"""Devices x buckets kept at most: 13 float64 fields each, about 42 MB."""
FLUSH_SAMPLES = 16_384
"""Samples buffered before they are added into the buckets."""


@dataclass
class HostSeries:
    """The accumulated series: ``acc[field, device, bucket]`` counts, bucket ``b`` starting at
    ``origin_s + b x bucket_s`` (seconds since the epoch of the host's local clock when ``clock``,
    else seconds since the first sample)."""

    acc: FloatArray
    names: list[str]
    kinds: list[str]
    origin_s: float
    bucket_s: float
    interval_s: float
    clock: bool
    samples: int
    dropped: int
    coarsened: bool

    @property
    def buckets(self) -> int:
        return int(self.acc.shape[2])

    def label(self, offset_s: float) -> str:
        """A time ``offset_s`` after the origin: ``2024-01-15 09:00`` on a clock, else ``+1:00:00``."""
        t = self.origin_s + offset_s
        if self.clock:
            return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S").removesuffix(":00")
        whole = int(round(offset_s))
        return f"+{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class SeriesBuilder:
    """Adds per-device samples into time buckets; :meth:`finish` returns the :class:`HostSeries`.

    ``interval_s`` is the sampling interval when the reader knows it; otherwise it is taken from
    the first two distinct sample times. ``clock`` says whether sample times are clock times (the
    host's local time as seconds since the epoch) or only seconds from the first sample.
    """

    def __init__(
        self,
        *,
        interval_s: float | None = None,
        resolution_s: float = 60.0,
        clock: bool = True,
        max_cells: int = DEFAULT_MAX_CELLS,
        flush_samples: int | None = None,
    ) -> None:
        self.interval_s = interval_s
        self.resolution_s = resolution_s
        self.clock = clock
        self.max_cells = max_cells
        self.flush_samples = flush_samples or FLUSH_SAMPLES
        self.names: list[str] = []
        self.kinds: list[str] = []
        self.index: dict[str, int] = {}
        self.bucket_s = 0.0
        self.origin_s: float | None = None
        self.acc = np.zeros((N_FIELDS, 0, 0))  # [field, bucket, device]: a flush adds to a block
        self.used_buckets = 0
        self.samples = 0
        self.dropped = 0
        self.coarsened = False
        self._pending: list[tuple[FloatArray, IntArray, FloatArray]] = []
        self._pending_n = 0

    # ---- input ----------------------------------------------------------------------------------

    def device(self, name: str, kind: str = "disk") -> int:
        """The index of device ``name``, registering it (with its ``kind``) on first use."""
        i = self.index.get(name)
        if i is None:
            i = len(self.names)
            self.index[name] = i
            self.names.append(name)
            self.kinds.append(kind)
        return i

    def add(
        self,
        t_end: FloatArray,
        device: IntArray,
        r_iops: FloatArray,
        w_iops: FloatArray,
        r_bps: FloatArray,
        w_bps: FloatArray,
        r_lat_ms: FloatArray | None = None,
        w_lat_ms: FloatArray | None = None,
        queue: FloatArray | None = None,
        util_pct: FloatArray | None = None,
    ) -> None:
        """Samples (equal-length arrays): the interval ending at ``t_end`` [s] of ``device`` had
        ``r_iops``/``w_iops`` [I/O per s], ``r_bps``/``w_bps`` [B per s], mean latencies [ms], mean
        queue length and busy share [%]. NaN marks a value the source did not give; a sample
        without both I/O rates is skipped."""
        n = int(t_end.size)
        if n == 0:
            return
        nan = np.full(n, np.nan)
        values = np.vstack(
            [
                r_iops,
                w_iops,
                r_bps,
                w_bps,
                nan if r_lat_ms is None else r_lat_ms,
                nan if w_lat_ms is None else w_lat_ms,
                nan if queue is None else queue,
                nan if util_pct is None else util_pct,
            ]
        ).astype(np.float64, copy=False)
        self._pending.append(
            (np.asarray(t_end, dtype=np.float64), np.asarray(device, dtype=np.int64), values)
        )
        self._pending_n += n
        if self._pending_n >= self.flush_samples:
            self._flush(final=False)

    # ---- accumulation ---------------------------------------------------------------------------

    def _flush(self, final: bool) -> None:
        if not self._pending:
            return
        t = np.concatenate([p[0] for p in self._pending])
        dev = np.concatenate([p[1] for p in self._pending])
        vals = np.concatenate([p[2] for p in self._pending], axis=1)
        if self.interval_s is None:
            distinct = np.unique(t)
            if distinct.size < 2 and not final:
                return  # wait for a second sample time to learn the interval
            steps = np.diff(distinct)
            # sample clocks jitter by milliseconds (typeperf): the interval to the millisecond
            self.interval_s = round(float(np.median(steps)), 3) if steps.size else self.resolution_s
        self._pending.clear()
        self._pending_n = 0
        dt = float(self.interval_s)
        keep = np.isfinite(vals[0]) & np.isfinite(vals[1])
        if self.origin_s is None:
            if not keep.any():
                return
            # buckets of the resolution (whole minutes by default), or of whole intervals
            self.bucket_s = self.resolution_s if dt <= self.resolution_s * 1.001 else float(max(1, round(dt)))
            first = float(t[keep].min()) - dt
            self.origin_s = math.floor(first / self.bucket_s) * self.bucket_s
        rel = t - dt / 2.0 - self.origin_s
        early = rel < 0
        self.dropped += int(np.count_nonzero(early & keep))
        keep &= ~early
        if not keep.all():
            rel, dev, vals = rel[keep], dev[keep], vals[:, keep]
        if rel.size == 0:
            return
        self.samples += int(rel.size)
        bucket = np.floor(rel / self.bucket_s).astype(np.int64)
        need = int(bucket.max()) + 1
        n_dev = len(self.names)
        while n_dev * max(need, self.used_buckets) > self.max_cells and need > 1:
            self._coarsen()
            bucket //= 2
            need = int(bucket.max()) + 1
        if n_dev * need > self.max_cells:
            raise ParseError(f"{n_dev} devices are more than this reader keeps ({self.max_cells:,} cells)")
        self._grow(n_dev, need)
        self.used_buckets = max(self.used_buckets, need)
        r, w, rb, wb, rl, wl, q, u = vals
        counts: dict[int, FloatArray] = {
            SECONDS: np.full(rel.size, dt),
            READS: r * dt,
            WRITES: w * dt,
            READ_BYTES: np.nan_to_num(rb) * dt,
            WRITE_BYTES: np.nan_to_num(wb) * dt,
        }
        has_rl = np.isfinite(rl)
        counts[READ_LAT_OPS] = np.where(has_rl, r * dt, 0.0)
        counts[READ_LAT_SUM] = np.where(has_rl, np.nan_to_num(rl) * r * dt, 0.0)
        has_wl = np.isfinite(wl)
        counts[WRITE_LAT_OPS] = np.where(has_wl, w * dt, 0.0)
        counts[WRITE_LAT_SUM] = np.where(has_wl, np.nan_to_num(wl) * w * dt, 0.0)
        has_q = np.isfinite(q)
        counts[QUEUE_SECONDS] = np.where(has_q, dt, 0.0)
        counts[QUEUE_SUM] = np.where(has_q, np.nan_to_num(q) * dt, 0.0)
        has_u = np.isfinite(u)
        counts[UTIL_SECONDS] = np.where(has_u, dt, 0.0)
        counts[UTIL_SUM] = np.where(has_u, np.clip(np.nan_to_num(u), 0.0, 100.0) * dt, 0.0)
        cap_d = self.acc.shape[2]
        flat = bucket * cap_d + dev  # time-major: the samples of a flush fill one block of rows
        lo = int(flat.min())
        rel_flat = flat - lo
        size = int(rel_flat.max()) + 1
        for f, weights in counts.items():
            self.acc[f].reshape(-1)[lo : lo + size] += np.bincount(rel_flat, weights=weights, minlength=size)

    def _grow(self, n_dev: int, need: int) -> None:
        _, cap_b, cap_d = self.acc.shape
        if n_dev <= cap_d and need <= cap_b:
            return
        new_d = max(cap_d, n_dev)
        new_b = max(cap_b, need, min(max(2 * cap_b, 64), self.max_cells // new_d))
        grown = np.zeros((N_FIELDS, new_b, new_d))
        grown[:, :cap_b, :cap_d] = self.acc
        self.acc = grown

    def _coarsen(self) -> None:
        """Merge buckets in pairs: the resolution doubles."""
        cap_b = self.acc.shape[1]
        self.bucket_s *= 2.0
        self.coarsened = True
        if self.acc.size == 0:
            return
        if cap_b % 2:
            self.acc = np.concatenate([self.acc, np.zeros((N_FIELDS, 1, self.acc.shape[2]))], axis=1)
        self.acc = self.acc.reshape(N_FIELDS, -1, 2, self.acc.shape[2]).sum(axis=2)
        self.used_buckets = (self.used_buckets + 1) // 2

    def finish(self) -> HostSeries:
        """The series; raises :class:`ParseError` when no sample was read."""
        self._flush(final=True)
        if self.samples == 0 or self.origin_s is None or self.interval_s is None:
            raise ParseError("no statistics found: no device sample with read and write rates")
        return HostSeries(
            acc=np.ascontiguousarray(self.acc[:, : self.used_buckets, : len(self.names)].transpose(0, 2, 1)),
            names=list(self.names),
            kinds=list(self.kinds),
            origin_s=self.origin_s,
            bucket_s=self.bucket_s,
            interval_s=float(self.interval_s),
            clock=self.clock,
            samples=self.samples,
            dropped=self.dropped,
            coarsened=self.coarsened,
        )


# ---- series -> per-bucket totals --------------------------------------------------------------


@dataclass
class Totals:
    """Per-bucket load of a set of devices: rates summed over the devices, counts for the means."""

    valid: BoolArray
    r_iops: FloatArray
    w_iops: FloatArray
    r_bps: FloatArray
    w_bps: FloatArray
    r_lat_ops: FloatArray
    r_lat_sum: FloatArray
    w_lat_ops: FloatArray
    w_lat_sum: FloatArray
    queue: FloatArray
    """sum over devices of each one's time-averaged queue; NaN where no device gave one"""
    util: FloatArray = field(repr=False)
    """per device and bucket: busy share [%], NaN where not given"""
    names: list[str] = field(default_factory=list)

    @property
    def iops(self) -> FloatArray:
        return self.r_iops + self.w_iops

    @property
    def mb_s(self) -> FloatArray:
        return (self.r_bps + self.w_bps) / 1e6


def _rate(count: FloatArray, seconds: FloatArray) -> FloatArray:
    out = np.zeros_like(count)
    np.divide(count, seconds, out=out, where=seconds > 0)
    return out


def totals(series: HostSeries, devices: list[int]) -> Totals:
    """The combined per-bucket load of ``devices`` (indices into ``series.names``)."""
    a = series.acc[:, devices, :]
    sec = a[SECONDS]
    seen = sec > 0
    q_sec = a[QUEUE_SECONDS]
    q = np.full(q_sec.shape, np.nan)
    np.divide(a[QUEUE_SUM], q_sec, out=q, where=q_sec > 0)
    has_q = np.isfinite(q).any(axis=0)
    u_sec = a[UTIL_SECONDS]
    u = np.full(u_sec.shape, np.nan)
    np.divide(a[UTIL_SUM], u_sec, out=u, where=u_sec > 0)
    # latency counts are scaled like the rates: per device, count / seconds
    return Totals(
        valid=seen.any(axis=0),
        r_iops=_rate(a[READS], sec).sum(axis=0),
        w_iops=_rate(a[WRITES], sec).sum(axis=0),
        r_bps=_rate(a[READ_BYTES], sec).sum(axis=0),
        w_bps=_rate(a[WRITE_BYTES], sec).sum(axis=0),
        r_lat_ops=_rate(a[READ_LAT_OPS], sec).sum(axis=0),
        r_lat_sum=_rate(a[READ_LAT_SUM], sec).sum(axis=0),
        w_lat_ops=_rate(a[WRITE_LAT_OPS], sec).sum(axis=0),
        w_lat_sum=_rate(a[WRITE_LAT_SUM], sec).sum(axis=0),
        queue=np.where(has_q, np.nansum(np.nan_to_num(q, nan=0.0), axis=0), np.nan),
        util=u,
        names=[series.names[i] for i in devices],
    )


def busiest_span(
    values: FloatArray, valid: BoolArray, k: int, allowed: BoolArray | None = None
) -> int | None:
    """Start of the ``k``-bucket span with the highest mean of ``values`` over its valid buckets.

    A span counts when at least half its buckets have data and, with ``allowed``, every bucket
    in it is allowed (a night window lies wholly in the night). The first of equal spans wins;
    None when no span counts.
    """
    n = int(values.size)
    if n == 0 or k < 1:
        return None
    k = min(k, n)
    v = np.where(valid, values, 0.0)
    cs = np.concatenate([[0.0], np.cumsum(v)])
    cv = np.concatenate([[0], np.cumsum(valid.astype(np.int64))])
    sums = cs[k:] - cs[:-k]
    counts = cv[k:] - cv[:-k]
    ok = counts >= max(1, math.ceil(k / 2))
    if allowed is not None:
        ca = np.concatenate([[0], np.cumsum(allowed.astype(np.int64))])
        ok &= (ca[k:] - ca[:-k]) == k
    if not ok.any():
        return None
    means = np.where(ok, sums / np.maximum(counts, 1), -np.inf)
    return int(np.argmax(means))


# ---- counters -> the builder's rates ------------------------------------------------------------

ROLES = (
    "r_iops",
    "w_iops",
    "t_iops",
    "r_bps",
    "w_bps",
    "t_bps",
    "r_size",
    "w_size",
    "t_size",
    "r_lat_ms",
    "w_lat_ms",
    "t_lat_ms",
    "queue",
    "queue_part",
    "idle_pct",
    "util_pct",
)
"""What a counter or column measures: ``r_``/``w_``/``t_`` read, write, total; ``iops`` [I/O per
s], ``bps`` [B per s], ``size`` [B per I/O], ``lat_ms`` [ms]; ``queue`` mean outstanding I/Os,
``queue_part`` a part of it (read or write queue, active or queued commands) that adds up to it;
``idle_pct``/``util_pct`` idle or busy time [%]."""

Rates = tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]


def rates_from_roles(roles: dict[str, FloatArray], notes: list[str], device: str) -> Rates | None:
    """(r/s, w/s, read B/s, write B/s, read ms, write ms, queue, busy %) from whatever a source gives.

    Reads and writes per second come from their own counters, else from bytes / size per I/O,
    else from the total minus the other direction, else (total only) split by the byte shares,
    which assumes reads and writes of the same mean size (noted). Bytes come from their own
    counters, else rate x size per I/O. A latency per direction falls back to the total's (one
    ``await`` for both). The queue is the mean queue, else the sum of its parts; busy % is given
    or ``100 - idle %``. None, with a note, when a device has no read/write rates or no sizes.
    """
    g = roles.get
    r, w, t = g("r_iops"), g("w_iops"), g("t_iops")
    rb, wb = g("r_bps"), g("w_bps")
    rs, ws = g("r_size"), g("w_size")
    with np.errstate(divide="ignore", invalid="ignore"):
        if r is None and rb is not None and rs is not None:
            r = np.where(rs > 0, rb / rs, 0.0)
        if w is None and wb is not None and ws is not None:
            w = np.where(ws > 0, wb / ws, 0.0)
        if rb is None and r is not None and rs is not None:
            rb = r * rs
        if wb is None and w is not None and ws is not None:
            wb = w * ws
        if t is not None and (r is None) != (w is None):
            if r is None and w is not None:
                r = np.maximum(t - w, 0.0)
            elif r is not None:
                w = np.maximum(t - r, 0.0)
        if t is not None and r is None and w is None and rb is not None and wb is not None:
            total_b = rb + wb
            r = np.where(total_b > 0, t * rb / total_b, 0.0)
            w = t - r
            note = (
                "the statistics give transfers per second but not reads and writes apart: they are "
                "split by the bytes read and written (reads and writes taken as the same mean size)"
            )
            if note not in notes:
                notes.append(note)
        if r is None or w is None:
            notes.append(f"{device}: no read and write rates: left out")
            return None
        if rb is None or wb is None:
            tb, ts = g("t_bps"), g("t_size")
            if tb is None and ts is not None:
                tb = (r + w) * ts
            if tb is None:
                notes.append(f"{device}: no bytes or sizes per I/O: left out (I/O sizes unknown)")
                return None
            total = r + w
            rb = np.where(total > 0, tb * r / total, 0.0) if rb is None else rb
            wb = np.maximum(tb - rb, 0.0) if wb is None else wb
        nan = np.full(r.shape, np.nan)
        rl = g("r_lat_ms", g("t_lat_ms", nan))
        wl = g("w_lat_ms", g("t_lat_ms", nan))
        q = g("queue")
        if q is None:
            q = g("queue_part", nan)
        u = g("util_pct")
        if u is None:
            idle = g("idle_pct")
            u = nan if idle is None else 100.0 - idle
    return r, w, rb, wb, rl, wl, q, u
