"""Streaming workload profile of a block trace: rates per interval, peaks, mix, sequentiality, footprint.

The profile is read from a :class:`~models.traces.builder.ProfileBuilder` (the streaming
accumulator, or several merged: one per partition of the block keys) by :func:`summarize`.

Definitions (interval of ``interval_s`` seconds, counted from the first record)::

    IOPS            I/Os in the interval / its length (interval_s; the last one ends with the
                    trace: see ProfileBuilder.interval_lengths)
    MB/s            bytes in the interval / 10^6 / its length
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
from typing import TYPE_CHECKING

import numpy as np
from pydantic import Field

from models.base import Output
from models.traces.records import FloatArray, IntArray
from models.units import GB, KIB, MB
from models.workload import IoSize

if TYPE_CHECKING:
    from models.traces.builder import ProfileBuilder

N_SIZE_CLASSES = 17
"""I/O-size classes: [0, 1 KiB), then [2^k, 2^(k+1)) for 1 KiB ... 16 MiB, then >= 32 MiB... (log2)."""
MAX_SERIES_POINTS = 5000
"""Longer interval series are averaged down to at most this many points in the profile."""
PENT_UP_SHARE = 0.05
"""Share of time above the latency target from which the IOPS are said to understate demand."""


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


def _peak(b: ProfileBuilder, i: int, rank: int, by: str, ws: FloatArray, length_s: float) -> PeakWindow:
    g, dt = b.iv, b.interval_s
    count = int(g.count[i])
    lat = float(g.lat_sum[i] / g.lat_n[i] * 1000.0) if g.lat_n[i] else None
    return PeakWindow(
        rank=rank,
        by=by,
        start_s=i * dt,
        end_s=i * dt + length_s,
        iops=count / length_s,
        mb_s=float(g.bytes[i]) / MB / length_s,
        read_pct=100.0 * g.reads[i] / count if count else 0.0,
        sequential_pct=100.0 * g.seq[i] / count if count else 0.0,
        working_set_gb=float(ws[i]) * b.block_bytes / GB,
        mean_latency_ms=lat,
        io_sizes=io_size_mix(g.cls_count[i].astype(np.int64), g.cls_bytes[i].astype(np.float64)),
    )


def summarize(b: ProfileBuilder, streams: int, has_timing: bool = True, peaks: int = 5) -> TraceProfile:
    """The profile of what ``b`` has accumulated (all of the trace, or its partitions merged)."""
    g, dt = b.iv, b.interval_s
    n_iv = max(g.n, 1)
    count = g.count[:n_iv]
    byts = g.bytes[:n_iv]
    duration = max(b.t_max, 0.0)
    # a trace shorter than one interval: its rate is over its own duration
    lengths = b.interval_lengths(n_iv) if has_timing else np.full(n_iv, dt)
    span_s = float(lengths.sum())
    total_bytes = float(byts.sum())
    reads = int(g.reads[:n_iv].sum())
    n = b.records
    iops = count / lengths
    mbs = byts / MB / lengths
    by_iops = np.argsort(-iops, kind="stable")[:peaks]
    by_mbs = np.argsort(-mbs, kind="stable")[:peaks]
    hist = sorted(b.sizes.items(), key=lambda kv: -kv[1])
    size_bins = [SizeBin(size_kib=s / KIB, count=c, pct=100.0 * c / n) for s, c in hist[:20]]
    if len(hist) > 20:
        rest = sum(c for _, c in hist[20:])
        size_bins.append(SizeBin(size_kib=0.0, count=rest, pct=100.0 * rest / n))
    whole_counts = g.cls_count[:n_iv].sum(axis=0).astype(np.int64)
    whole_bytes = g.cls_bytes[:n_iv].astype(np.float64).sum(axis=0)
    footprint = b.footprint_blocks()
    ws_blocks = b.working_set_blocks()
    ws_gb = ws_blocks * b.block_bytes / GB
    warnings = []
    if b.dropped:
        warnings.append(f"{b.dropped:,} records of size 0 or beyond 4 PiB were left out")
    if b.heat_rate < 1:
        warnings.append(
            f"the trace touched more than {b.max_heat_blocks:,} distinct 4 KiB blocks: the footprint, "
            f"working sets and 4 KiB tier row are estimated from 1 in {1 / b.heat_rate:g} cache blocks"
        )
    if not has_timing:
        warnings.append("the trace has no timestamps (fio iolog v2 without wait lines): rates are unknown")
    pent_up = None
    if b.has_latency and b.lat_n:
        lat_n = g.lat_n[:n_iv]
        with_io = lat_n > 0
        mean_iv = np.divide(g.lat_sum[:n_iv], lat_n, out=np.zeros(n_iv), where=with_io)
        above = float((mean_iv[with_io] > b.latency_target_s).mean() * 100.0) if with_io.any() else 0.0
        mean_ms = float(g.lat_sum[:n_iv].sum() / b.lat_n * 1000.0)
        target_ms = b.latency_target_s * 1000.0
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
            ios_above_target_pct=100.0 * b.lat_over / b.lat_n,
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
        block_kib=b.block_bytes // KIB,
        footprint_gb=footprint * b.block_bytes / GB,
        footprint_blocks=footprint,
        address_span_gb=int(b.span.sum()) / GB,
        mean_working_set_gb=float(ws_gb[count > 0].mean()) if np.any(count > 0) else 0.0,
        peak_working_set_gb=float(ws_gb.max()),
        peaks_by_iops=[
            _peak(b, int(i), r + 1, "iops", ws_blocks, float(lengths[i]))
            for r, i in enumerate(by_iops)
            if count[i] > 0
        ],
        peaks_by_mb_s=[
            _peak(b, int(i), r + 1, "mb_s", ws_blocks, float(lengths[i]))
            for r, i in enumerate(by_mbs)
            if count[i] > 0
        ],
        pent_up=pent_up,
        series=_series(b, n_iv, ws_blocks, lengths),
        warnings=warnings,
    )


def _series(b: ProfileBuilder, n_iv: int, ws_blocks: FloatArray, lengths: FloatArray) -> IntervalSeries:
    """The interval counters (averaged down to :data:`MAX_SERIES_POINTS` points), each point's
    rates over the seconds it covers (the last one's over its true length)."""
    g, dt = b.iv, b.interval_s
    step = max(1, math.ceil(n_iv / MAX_SERIES_POINTS))
    m = math.ceil(n_iv / step)
    pad = m * step - n_iv

    def agg(x: np.ndarray) -> FloatArray:
        return np.concatenate([x[:n_iv].astype(np.float64), np.zeros(pad)]).reshape(m, step).sum(axis=1)

    count, byts, reads = agg(g.count), agg(g.bytes), agg(g.reads)
    ws = agg(ws_blocks) / step
    seconds = agg(lengths)
    lat = None
    if b.has_latency:
        ls, ln = agg(g.lat_sum), agg(g.lat_n)
        lat = [float(a / b * 1000.0) if b else None for a, b in zip(ls.tolist(), ln.tolist(), strict=True)]
    width = dt * step
    return IntervalSeries(
        interval_s=width,
        start_s=(np.arange(m) * width).tolist(),
        iops=(count / seconds).tolist(),
        mb_s=(byts / MB / seconds).tolist(),
        read_pct=np.divide(100.0 * reads, count, out=np.zeros(m), where=count > 0).tolist(),
        working_set_gb=(ws * b.block_bytes / GB).tolist(),
        mean_latency_ms=lat,
    )
