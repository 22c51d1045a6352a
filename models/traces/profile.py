"""Streaming workload profile of a block trace: rates per interval, peaks, mix, sequentiality, footprint.

:class:`ProfileBuilder` takes :class:`~models.traces.records.Records` chunks in time order and
keeps only per-interval counters, the per-stream tail needed for sequentiality, a 4 KiB heat map
(distinct blocks touched) and a SHARDS sample of the cache-block requests (see
:mod:`models.traces.mrc`), so memory grows with the footprint and the number of intervals, not
with the number of records.

Definitions (interval of ``interval_s`` seconds, counted from the first record)::

    IOPS            I/Os in the interval / interval_s
    MB/s            bytes in the interval / 10^6 / interval_s
    read %          reads / I/Os x 100
    sequential %    I/Os starting exactly where one of the previous ``seq_window`` I/Os of the same
                    stream ended / I/Os x 100      (random % = 100 - sequential %)
    working set     distinct cache blocks touched in the interval x block size [GB]
    footprint       distinct cache blocks touched in the whole trace x block size [GB]
    latency above   intervals whose mean response time exceeds the target / intervals with I/O

Records are assumed time-ordered; a record earlier than an interval already passed still counts
in its interval's rates, and its blocks may be counted twice in that interval's working set.
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import Field

from models.base import Output
from models.traces.heat import HEAT_BLOCK_BYTES, STREAM_SHIFT
from models.traces.mrc import DEFAULT_MAX_SAMPLES, ShardsSampler
from models.traces.records import FloatArray, IntArray, Records
from models.units import GB, KIB, MB
from models.workload import IoSize

N_SIZE_CLASSES = 17
"""I/O-size classes: [0, 1 KiB), then [2^k, 2^(k+1)) for 1 KiB ... 16 MiB, then >= 32 MiB... (log2)."""
MAX_SERIES_POINTS = 5000
"""Longer interval series are averaged down to at most this many points in the profile."""
MAX_EXPANSION = 4_000_000
"""Block requests expanded at once (large sequential I/Os are split into many blocks)."""
MAX_OFFSET = 1 << (STREAM_SHIFT + 12)
"""Offsets at or beyond 4 PiB are refused (block keys would overflow)."""
PENT_UP_SHARE = 0.05
"""Share of time above the latency target from which the IOPS are said to understate demand."""


def sorted_unique(x: IntArray) -> IntArray:
    """Distinct values, sorted (sort and compare neighbours: faster than numpy's hashing ``unique``
    for millions of distinct 64-bit keys)."""
    s = np.sort(x)
    if s.size == 0:
        return s
    keep = np.empty(s.size, dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def size_class(size: IntArray) -> IntArray:
    """Class index: 0 for < 1 KiB, then floor(log2(size)) - 9, capped at the last class."""
    lg = np.floor(np.log2(np.maximum(size, 1))).astype(np.int64) - 9
    return np.clip(lg, 0, N_SIZE_CLASSES - 1)


def io_size_mix(counts: IntArray, bytes_: FloatArray, top: int = 8) -> list[IoSize]:
    """The ``top`` most frequent size classes as an I/O-size mix summing to exactly 100 %.

    Each class is represented by its mean size [KiB] (rounded to 0.5 KiB, a sector); the shares of
    the kept classes are renormalised and rounded to 0.1 % by largest remainders.
    """
    keep = [int(i) for i in np.argsort(-counts, kind="stable")[:top] if counts[i] > 0]
    if not keep:
        return [IoSize(size_kib=4.0, pct=100.0)]
    sizes = [max(0.5, min(16384.0, round(bytes_[i] / counts[i] / KIB * 2) / 2)) for i in keep]
    total = float(sum(counts[i] for i in keep))
    raw = [counts[i] / total * 1000.0 for i in keep]
    tenths = [math.floor(r) for r in raw]
    for j in sorted(range(len(raw)), key=lambda j: raw[j] - tenths[j], reverse=True)[: 1000 - sum(tenths)]:
        tenths[j] += 1
    merged: dict[float, int] = {}
    for s, t in zip(sizes, tenths, strict=True):
        merged[s] = merged.get(s, 0) + t
    return [IoSize(size_kib=s, pct=t / 10.0) for s, t in sorted(merged.items()) if t > 0]


class SizeBin(Output):
    size_kib: float
    count: int
    pct: float


class PeakWindow(Output):
    """One of the busiest intervals (by IOPS or by MB/s)."""

    rank: int
    by: str = Field(description="'iops' or 'mb_s'")
    start_s: float
    end_s: float
    iops: float
    mb_s: float
    read_pct: float
    sequential_pct: float
    working_set_gb: float
    mean_latency_ms: float | None = None
    io_sizes: list[IoSize]


class PentUpDemand(Output):
    """Response times in the trace against a target: high ones mean a faster array would see more I/O."""

    latency_target_ms: float
    mean_latency_ms: float
    time_above_target_pct: float = Field(description="intervals whose mean latency exceeds the target [%]")
    ios_above_target_pct: float
    understated: bool
    message: str


class IntervalSeries(Output):
    interval_s: float = Field(
        description="seconds per point (a multiple of the requested interval if averaged)"
    )
    start_s: list[float]
    iops: list[float]
    mb_s: list[float]
    read_pct: list[float]
    working_set_gb: list[float]
    mean_latency_ms: list[float | None] | None = None


class TraceProfile(Output):
    records: int
    streams: int
    duration_s: float
    interval_s: float
    intervals: int
    has_timing: bool
    total_gb: float = Field(description="bytes moved [GB]")
    read_pct: float
    read_bytes_pct: float
    mean_iops: float
    mean_mb_s: float
    peak_iops: float
    peak_mb_s: float
    sequential_pct: float
    mean_io_kib: float
    size_histogram: list[SizeBin]
    io_sizes: list[IoSize] = Field(description="whole-trace I/O-size mix (top sizes, sums to 100)")
    block_kib: int
    footprint_gb: float = Field(description="distinct cache blocks touched x block size [GB]")
    footprint_blocks: int
    address_span_gb: float = Field(description="sum over streams of the highest byte addressed [GB]")
    mean_working_set_gb: float
    peak_working_set_gb: float
    peaks_by_iops: list[PeakWindow]
    peaks_by_mb_s: list[PeakWindow]
    pent_up: PentUpDemand | None = None
    series: IntervalSeries
    warnings: list[str] = []


class _Grow:
    """Per-interval counters that grow as later intervals appear."""

    def __init__(self) -> None:
        self.n = 0
        cap = 1024
        self.count = np.zeros(cap, np.int64)
        self.reads = np.zeros(cap, np.int64)
        self.bytes = np.zeros(cap, np.float64)
        self.read_bytes = np.zeros(cap, np.float64)
        self.seq = np.zeros(cap, np.int64)
        self.lat_sum = np.zeros(cap, np.float64)
        self.lat_n = np.zeros(cap, np.int64)
        self.ws = np.zeros(cap, np.int64)
        self.cls_count = np.zeros((cap, N_SIZE_CLASSES), np.int32)
        self.cls_bytes = np.zeros((cap, N_SIZE_CLASSES), np.float32)

    def ensure(self, n: int) -> None:
        if n <= self.count.shape[0]:
            self.n = max(self.n, n)
            return
        cap = max(n, 2 * self.count.shape[0])
        for name in ("count", "reads", "bytes", "read_bytes", "seq", "lat_sum", "lat_n", "ws"):
            old = getattr(self, name)
            new = np.zeros(cap, old.dtype)
            new[: old.size] = old
            setattr(self, name, new)
        for name in ("cls_count", "cls_bytes"):
            old = getattr(self, name)
            new = np.zeros((cap, N_SIZE_CLASSES), old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)
        self.n = max(self.n, n)


class ProfileBuilder:
    """Accumulates the profile, the heat map and the SHARDS sample chunk by chunk."""

    def __init__(
        self,
        interval_s: float = 60.0,
        block_bytes: int = 4096,
        warmup_s: float = 0.0,
        latency_target_ms: float = 10.0,
        seq_window: int = 8,
        max_samples: int = DEFAULT_MAX_SAMPLES,
    ) -> None:
        if block_bytes % HEAT_BLOCK_BYTES or block_bytes & (block_bytes - 1):
            raise ValueError("block_bytes must be a power of two multiple of 4096")
        self.interval_s = float(interval_s)
        self.block_bytes = block_bytes
        self.block_shift = int(math.log2(block_bytes // HEAT_BLOCK_BYTES))
        self.warmup_s = warmup_s
        self.latency_target_s = latency_target_ms / 1000.0
        self.seq_window = seq_window
        self.sampler = ShardsSampler(max_samples=max_samples)
        self.iv = _Grow()
        self.t0: float | None = None
        self.t_max = 0.0
        self.records = 0
        self.lat_over = 0
        self.lat_n = 0
        self.has_latency = False
        self.sizes: dict[int, int] = {}
        self.span: dict[int, int] = {}
        self.carry_stream = np.zeros(0, np.int64)
        self.carry_end = np.zeros(0, np.int64)
        self.carry_interval = -1
        self.carry_blocks = np.zeros(0, np.int64)
        self.heat_keys = np.zeros(0, np.int64)
        self.heat_w = np.zeros(0, np.float64)
        self._pending_keys: list[IntArray] = []
        self._pending_w: list[FloatArray] = []
        self._pending_n = 0
        self.dropped = 0

    # ---- per chunk ----

    def add(self, rec: Records) -> None:
        keep = (rec.size > 0) & (rec.offset + rec.size <= MAX_OFFSET)
        if not np.all(keep):
            self.dropped += int((~keep).sum())
            rec = rec.take(keep)
        n = len(rec)
        if n == 0:
            return
        if self.t0 is None:
            self.t0 = float(rec.t.min())
        rel = rec.t - self.t0
        self.t_max = max(self.t_max, float(rel.max()))
        self.records += n
        ivl = np.maximum(np.floor(rel / self.interval_s).astype(np.int64), 0)
        lo, hi = int(ivl.min()), int(ivl.max())
        self.iv.ensure(hi + 1)
        local = ivl - lo
        span = hi - lo + 1
        g = self.iv
        sl = slice(lo, hi + 1)
        g.count[sl] += np.bincount(local, minlength=span)
        g.reads[sl] += np.bincount(local, weights=rec.read, minlength=span).astype(np.int64)
        g.bytes[sl] += np.bincount(local, weights=rec.size, minlength=span)
        g.read_bytes[sl] += np.bincount(local, weights=rec.size * rec.read, minlength=span)
        cls = size_class(rec.size)
        flat = local * N_SIZE_CLASSES + cls
        g.cls_count[sl] += (
            np.bincount(flat, minlength=span * N_SIZE_CLASSES).reshape(span, -1).astype(np.int32)
        )
        g.cls_bytes[sl] += (
            np.bincount(flat, weights=rec.size, minlength=span * N_SIZE_CLASSES)
            .reshape(span, -1)
            .astype(np.float32)
        )
        seq = self._sequential(rec)
        g.seq[sl] += np.bincount(local, weights=seq, minlength=span).astype(np.int64)
        if rec.latency is not None:
            lat_ok = ~np.isnan(rec.latency)
            if lat_ok.any():
                self.has_latency = True
                lat = np.where(lat_ok, rec.latency, 0.0)
                g.lat_sum[sl] += np.bincount(local, weights=lat, minlength=span)
                g.lat_n[sl] += np.bincount(local, weights=lat_ok, minlength=span).astype(np.int64)
                self.lat_n += int(lat_ok.sum())
                self.lat_over += int((lat_ok & (rec.latency > self.latency_target_s)).sum())
        sizes, counts = np.unique(rec.size, return_counts=True)
        for s, c in zip(sizes.tolist(), counts.tolist(), strict=True):
            self.sizes[s] = self.sizes.get(s, 0) + c
        ends = rec.offset + rec.size
        for s in sorted_unique(rec.stream).tolist():
            self.span[s] = max(self.span.get(s, 0), int(ends[rec.stream == s].max()))
        counted = rel >= self.warmup_s
        cum = np.cumsum(
            ((rec.offset + rec.size - 1) // HEAT_BLOCK_BYTES) - rec.offset // HEAT_BLOCK_BYTES + 1
        )
        cuts = np.searchsorted(cum, np.arange(MAX_EXPANSION, int(cum[-1]), MAX_EXPANSION), side="right")
        for a, b in zip(np.concatenate([[0], cuts]), np.concatenate([cuts, [n]]), strict=True):
            if b > a:
                part = slice(int(a), int(b))
                self._blocks(rec.take(np.arange(a, b)), ivl[part], counted[part])

    def _sequential(self, rec: Records) -> FloatArray:
        """1.0 where an I/O starts where one of the previous ``seq_window`` I/Os of its stream ended."""
        k = self.seq_window
        n_carry = self.carry_stream.size
        stream = np.concatenate([self.carry_stream, rec.stream])
        end = np.concatenate([self.carry_end, rec.offset + rec.size])
        start = np.concatenate([np.full(n_carry, -1, np.int64), rec.offset])
        single = bool(np.all(stream == stream[0]))
        order = np.arange(stream.size) if single else np.argsort(stream, kind="stable")
        s, e, o = stream[order], end[order], start[order]
        hit = np.zeros(s.size, dtype=bool)
        for j in range(1, min(k, s.size - 1) + 1):
            hit[j:] |= (s[j:] == s[:-j]) & (e[:-j] == o[j:])
        seq = np.empty(s.size, dtype=bool)
        seq[order] = hit
        # keep the last k I/Os of each stream for the next chunk
        group_end = np.searchsorted(s, s, side="right")
        tail = (group_end - np.arange(s.size)) <= k
        self.carry_stream, self.carry_end = s[tail], e[tail]
        return seq[n_carry:].astype(np.float64)

    def _blocks(self, rec: Records, ivl: IntArray, counted: np.ndarray) -> None:
        first = rec.offset // HEAT_BLOCK_BYTES
        last = (rec.offset + rec.size - 1) // HEAT_BLOCK_BYTES
        nb = last - first + 1
        total = int(nb.sum())
        owner = np.repeat(np.arange(len(rec)), nb)
        within = np.arange(total) - np.repeat(np.cumsum(nb) - nb, nb)
        blk = first[owner] + within
        lo = np.maximum(rec.offset[owner], blk * HEAT_BLOCK_BYTES)
        hi = np.minimum(rec.offset[owner] + rec.size[owner], (blk + 1) * HEAT_BLOCK_BYTES)
        overlap = hi - lo
        keys = (rec.stream[owner] << STREAM_SHIFT) | blk
        # heat: I/O share per 4 KiB block
        uniq, inverse = np.unique(keys, return_inverse=True)
        self._pending_keys.append(uniq)
        self._pending_w.append(
            np.bincount(inverse, weights=overlap / rec.size[owner], minlength=uniq.size).astype(np.float64)
        )
        self._pending_n += uniq.size
        if self._pending_n > max(4_000_000, self.heat_keys.size):
            self._merge_heat()
        # cache blocks: one request per (I/O, cache block)
        ckeys = keys >> self.block_shift if self.block_shift else keys
        if self.block_shift:
            new = np.ones(total, dtype=bool)
            new[1:] = (owner[1:] != owner[:-1]) | (ckeys[1:] != ckeys[:-1])
            starts = np.flatnonzero(new)
            ckeys, cowner = ckeys[starts], owner[starts]
            cbytes = np.add.reduceat(overlap, starts)
        else:
            cowner, cbytes = owner, overlap
        self.sampler.add(ckeys, cbytes, counted[cowner])
        self._working_sets(ivl[cowner], ckeys)

    def _working_sets(self, ivl: IntArray, ckeys: IntArray) -> None:
        """Distinct cache blocks per interval (the last interval of a chunk carries to the next)."""
        lo = int(ivl.min())
        rel = ivl - lo
        h = (ckeys * np.int64(0x9E3779B1) ^ (ckeys >> 17)) & ((1 << 44) - 1)  # 44-bit block identity
        if int(rel.max()) >= (1 << 19):  # too many intervals in one chunk for packed keys
            pairs = np.unique(np.stack([ivl, h]), axis=1)
            p_iv, p_key = pairs[0], pairs[1]
        else:
            packed = sorted_unique((rel << 44) | h)
            p_iv, p_key = (packed >> 44) + lo, packed & ((1 << 44) - 1)
        counts = np.bincount(p_iv - lo)
        carry_mask = p_iv == self.carry_interval
        if carry_mask.any():
            fresh = ~np.isin(p_key[carry_mask], self.carry_blocks, assume_unique=True)
            counts[self.carry_interval - lo] = int(fresh.sum())
            keys_last = np.union1d(self.carry_blocks, p_key[carry_mask])
        else:
            keys_last = None
        self.iv.ws[lo : lo + counts.size] += counts
        last = int(p_iv.max())
        if last == self.carry_interval and keys_last is not None:
            self.carry_blocks = keys_last
        else:
            self.carry_blocks = p_key[p_iv == last]
            self.carry_interval = last

    def _merge_heat(self) -> None:
        if not self._pending_keys:
            return
        keys = np.concatenate([self.heat_keys, *self._pending_keys])
        w = np.concatenate([self.heat_w, *self._pending_w])
        uniq, inverse = np.unique(keys, return_inverse=True)
        self.heat_keys = uniq
        self.heat_w = np.bincount(inverse, weights=w, minlength=uniq.size).astype(np.float64)
        self._pending_keys, self._pending_w, self._pending_n = [], [], 0

    # ---- result ----

    def heat(self) -> tuple[IntArray, FloatArray]:
        self._merge_heat()
        return self.heat_keys, self.heat_w

    def footprint_blocks(self) -> int:
        keys, _ = self.heat()
        if not self.block_shift:
            return int(keys.size)
        return int(sorted_unique(keys >> self.block_shift).size)

    def _peak(self, i: int, rank: int, by: str) -> PeakWindow:
        g, dt = self.iv, self.interval_s
        count = int(g.count[i])
        lat = float(g.lat_sum[i] / g.lat_n[i] * 1000.0) if g.lat_n[i] else None
        return PeakWindow(
            rank=rank,
            by=by,
            start_s=i * dt,
            end_s=(i + 1) * dt,
            iops=count / dt,
            mb_s=float(g.bytes[i]) / MB / dt,
            read_pct=100.0 * g.reads[i] / count if count else 0.0,
            sequential_pct=100.0 * g.seq[i] / count if count else 0.0,
            working_set_gb=float(g.ws[i]) * self.block_bytes / GB,
            mean_latency_ms=lat,
            io_sizes=io_size_mix(g.cls_count[i].astype(np.int64), g.cls_bytes[i].astype(np.float64)),
        )

    def profile(self, streams: int, has_timing: bool = True, peaks: int = 5) -> TraceProfile:
        g, dt = self.iv, self.interval_s
        n_iv = max(g.n, 1)
        count = g.count[:n_iv]
        byts = g.bytes[:n_iv]
        duration = max(self.t_max, 0.0)
        # a trace shorter than one interval: its rate is over its own duration
        span_s = max(duration, dt) if n_iv > 1 else max(duration, 1e-9) if has_timing else dt
        total_bytes = float(byts.sum())
        reads = int(g.reads[:n_iv].sum())
        n = self.records
        iops = count / dt
        mbs = byts / MB / dt
        by_iops = np.argsort(-count, kind="stable")[:peaks]
        by_mbs = np.argsort(-byts, kind="stable")[:peaks]
        hist = sorted(self.sizes.items(), key=lambda kv: -kv[1])
        size_bins = [SizeBin(size_kib=s / KIB, count=c, pct=100.0 * c / n) for s, c in hist[:20]]
        if len(hist) > 20:
            rest = sum(c for _, c in hist[20:])
            size_bins.append(SizeBin(size_kib=0.0, count=rest, pct=100.0 * rest / n))
        whole_counts = g.cls_count[:n_iv].sum(axis=0).astype(np.int64)
        whole_bytes = g.cls_bytes[:n_iv].astype(np.float64).sum(axis=0)
        footprint = self.footprint_blocks()
        ws_gb = g.ws[:n_iv] * self.block_bytes / GB
        warnings = []
        if self.dropped:
            warnings.append(f"{self.dropped:,} records of size 0 or beyond 4 PiB were left out")
        if not has_timing:
            warnings.append(
                "the trace has no timestamps (fio iolog v2 without wait lines): rates are unknown"
            )
        pent_up = None
        if self.has_latency and self.lat_n:
            lat_n = g.lat_n[:n_iv]
            with_io = lat_n > 0
            mean_iv = np.divide(g.lat_sum[:n_iv], lat_n, out=np.zeros(n_iv), where=with_io)
            above = float((mean_iv[with_io] > self.latency_target_s).mean() * 100.0) if with_io.any() else 0.0
            mean_ms = float(g.lat_sum[:n_iv].sum() / self.lat_n * 1000.0)
            target_ms = self.latency_target_s * 1000.0
            understated = above >= 100 * PENT_UP_SHARE or mean_ms > target_ms
            message = (
                f"response times were above {target_ms:g} ms for {above:.1f}% of the time (mean "
                f"{mean_ms:.2f} ms): the IOPS in this trace understate what a faster array would see "
                "(pent-up demand)"
                if understated
                else f"response times were within {target_ms:g} ms for {100 - above:.1f}% of the time (mean "
                f"{mean_ms:.2f} ms): the IOPS reflect the demand"
            )
            pent_up = PentUpDemand(
                latency_target_ms=target_ms,
                mean_latency_ms=mean_ms,
                time_above_target_pct=above,
                ios_above_target_pct=100.0 * self.lat_over / self.lat_n,
                understated=understated,
                message=message,
            )
        return TraceProfile(
            records=n,
            streams=streams,
            duration_s=duration,
            interval_s=dt,
            intervals=n_iv,
            has_timing=has_timing,
            total_gb=total_bytes / GB,
            read_pct=100.0 * reads / n if n else 0.0,
            read_bytes_pct=100.0 * float(g.read_bytes[:n_iv].sum()) / total_bytes if total_bytes else 0.0,
            mean_iops=n / span_s if has_timing else 0.0,
            mean_mb_s=total_bytes / MB / span_s if has_timing else 0.0,
            peak_iops=float(iops.max()) if has_timing else 0.0,
            peak_mb_s=float(mbs.max()) if has_timing else 0.0,
            sequential_pct=100.0 * float(g.seq[:n_iv].sum()) / n if n else 0.0,
            mean_io_kib=total_bytes / n / KIB if n else 0.0,
            size_histogram=size_bins,
            io_sizes=io_size_mix(whole_counts, whole_bytes),
            block_kib=self.block_bytes // KIB,
            footprint_gb=footprint * self.block_bytes / GB,
            footprint_blocks=footprint,
            address_span_gb=sum(self.span.values()) / GB,
            mean_working_set_gb=float(ws_gb[count > 0].mean()) if np.any(count > 0) else 0.0,
            peak_working_set_gb=float(ws_gb.max()),
            peaks_by_iops=[self._peak(int(i), r + 1, "iops") for r, i in enumerate(by_iops) if count[i] > 0],
            peaks_by_mb_s=[self._peak(int(i), r + 1, "mb_s") for r, i in enumerate(by_mbs) if count[i] > 0],
            pent_up=pent_up,
            series=self._series(n_iv),
            warnings=warnings,
        )

    def _series(self, n_iv: int) -> IntervalSeries:
        g, dt = self.iv, self.interval_s
        step = max(1, math.ceil(n_iv / MAX_SERIES_POINTS))
        m = math.ceil(n_iv / step)
        pad = m * step - n_iv

        def agg(x: np.ndarray) -> FloatArray:
            return np.concatenate([x[:n_iv].astype(np.float64), np.zeros(pad)]).reshape(m, step).sum(axis=1)

        count, byts, reads = agg(g.count), agg(g.bytes), agg(g.reads)
        ws = agg(g.ws) / step
        lat = None
        if self.has_latency:
            ls, ln = agg(g.lat_sum), agg(g.lat_n)
            lat = [
                float(a / b * 1000.0) if b else None for a, b in zip(ls.tolist(), ln.tolist(), strict=True)
            ]
        width = dt * step
        return IntervalSeries(
            interval_s=width,
            start_s=(np.arange(m) * width).tolist(),
            iops=(count / width).tolist(),
            mb_s=(byts / MB / width).tolist(),
            read_pct=np.divide(100.0 * reads, count, out=np.zeros(m), where=count > 0).tolist(),
            working_set_gb=(ws * self.block_bytes / GB).tolist(),
            mean_latency_ms=lat,
        )
