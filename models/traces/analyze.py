"""Trace analysis end to end: parse, profile, miss-ratio curves, tier table, derived workload.

:func:`analyze_trace` reads a binary stream once (any of the formats of
:mod:`models.traces.parse`, gzip or not) and returns a :class:`TraceAnalysis`. It opens no file
itself: the caller passes the stream and, optionally, a scratch directory for libCacheSim's
replay file. ``progress`` is called after each chunk; ``should_stop`` returning True stops the
analysis with :class:`~models.traces.records.TraceCancelled`.

The derived :class:`~models.workload.Workload` has one phase per peak window (the busiest interval
by IOPS and the busiest by MB/s, one phase when they coincide) and a Zipf skew fitted to the
measured LRU hit-ratio curve with Che's approximation (:func:`models.cache.hit_ratio_curve`)
over the footprint, so the sizing engine's cache model reproduces the trace's curve.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, BinaryIO

import numpy as np
from pydantic import Field, field_validator
from scipy.optimize import minimize_scalar

from models.base import Frozen, Output
from models.cache import hit_ratio_curve
from models.traces.builder import Partition, ProfileBuilder, release_free_heap
from models.traces.heat import TierTable, io_share_of_hottest, tier_table
from models.traces.merge import merge
from models.traces.mrc import (
    DEFAULT_MAX_SAMPLES,
    LIBCACHESIM_MISSING,
    MissRatioCurve,
    cache_sizes,
    libcachesim_available,
    lru_curve,
    policy_curve,
)
from models.traces.parse import DEFAULT_CHUNK_RECORDS, TraceReader
from models.traces.profile import PeakWindow, TraceProfile
from models.traces.records import ParseReport, ParseState, TraceCancelled, TraceFormat
from models.traces.volumes import VolumeCounter, VolumeSummary
from models.units import KIB
from models.workload import Phase, Skew, Workload

ProgressFn = Callable[[float, int, float], None]
"""``progress(fraction done 0..1, records read, records per second)``."""


class TraceOptions(Frozen):
    """How to read and analyse a trace."""

    format: TraceFormat | None = Field(default=None, description="None: detect from the first lines")
    interval_s: float = Field(default=60.0, ge=1.0, le=3600.0, description="profile interval [s], 1 s to 1 h")
    block_kib: int = Field(default=4, description="cache block [KiB]: a power of two, 4 to 1024")
    warmup_s: float = Field(
        default=0.0, ge=0.0, description="cache warm-up excluded from the miss ratios [s]"
    )
    latency_target_ms: float = Field(default=10.0, gt=0.0, le=10_000.0)
    volumes: list[Annotated[str, Field(min_length=1, max_length=200)]] | None = Field(
        default=None,
        max_length=1000,
        description="volumes to keep (a name, or a host for all of its volumes); None keeps all",
    )
    mrc_points: int = Field(default=25, ge=3, le=200, description="cache sizes from 0 to the footprint")
    policies: list[str] = Field(
        default_factory=list,
        max_length=4,
        description="cache policies simulated beside LRU with libCacheSim (arc, s3fifo, fifo, lirs): "
        "opt-in, each adds about as much time as reading the trace",
    )
    max_samples: int = Field(
        default=DEFAULT_MAX_SAMPLES, ge=1000, le=20_000_000, description="SHARDS sample cap [block requests]"
    )
    seq_window: int = Field(
        default=8, ge=1, le=64, description="previous I/Os per stream checked for sequentiality"
    )
    capacity_gb: float | None = Field(
        default=None, gt=0.0, description="capacity of the traced volumes [GB]; default the footprint"
    )
    workload_name: str = Field(default="trace", min_length=1, max_length=80)
    chunk_records: int = Field(
        default=DEFAULT_CHUNK_RECORDS,
        ge=1000,
        le=10_000_000,
        description="records profiled at once (memory grows with it; results do not change)",
    )

    @field_validator("block_kib")
    @classmethod
    def _power_of_two(cls, v: int) -> int:
        if v < 4 or v > 1024 or v & (v - 1):
            raise ValueError("block_kib must be a power of two from 4 to 1024")
        return v

    @field_validator("policies")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        bad = [p for p in v if p not in ("lru", "arc", "s3fifo", "fifo", "lirs")]
        if bad:
            raise ValueError(f"unknown cache policies {bad}; use arc, s3fifo, fifo or lirs")
        return v


class SkewFit(Output):
    """Access skew measured from the trace."""

    zipf_alpha: float = Field(description="Che/Zipf exponent fitted to the LRU hit-ratio curve")
    fit_rmse: float = Field(description="root mean square hit-ratio error of the fit")
    max_hit_ratio: float = Field(description="measured LRU hit ratio with the whole footprint cached")
    hot_data_pct: float = 20.0
    hot_io_pct: float = Field(
        description="share of the I/O to the hottest hot_data_pct % of the touched data"
    )


class DerivedWorkload(Output):
    """The trace as sizing input."""

    workload: Workload
    skew: SkewFit
    fast_tier_fraction: dict[str, float] = Field(
        description="needed fast-tier fraction at 80 % I/O capture, per chunk size label (TieringConfig)"
    )
    notes: list[str] = []


class TraceAnalysis(Output):
    parse: ParseReport
    profile: TraceProfile
    mrc: list[MissRatioCurve]
    tiers: TierTable
    derived: DerivedWorkload
    options: TraceOptions
    seconds: dict[str, float]
    libcachesim: bool
    volumes: list[VolumeSummary] = Field(default_factory=list, description="every volume of the trace")
    partitions: int = Field(default=1, description="partitions of the block keys analysed and merged")
    curves_computed: list[str] = Field(
        default_factory=list, description="policies whose miss-ratio curve was computed (LRU always)"
    )
    curves_skipped: dict[str, str] = Field(
        default_factory=dict, description="policies asked for but not computed, with the reason"
    )


def fit_zipf_alpha(
    cache_gb: list[float], hit_ratio: list[float], working_set_gb: float, block_kib: float
) -> tuple[float, float, float]:
    """(alpha, rmse, H_max): Zipf exponent whose Che curve, scaled by the measured maximum, fits best.

    Minimises ``sum (H_max * Che(C; W, alpha) - H(C))^2`` over sizes strictly between 0 and W,
    alpha in [0, 3] (bounded Brent). Scaling by ``H_max`` (hit ratio at C = W; below 1 by the
    first-access misses) keeps the fit to the curve's shape.
    """
    sizes = np.asarray(cache_gb, dtype=np.float64)
    hits = np.asarray(hit_ratio, dtype=np.float64)
    if working_set_gb <= 0 or sizes.size == 0:
        return 0.0, 0.0, 0.0
    h_max = (
        float(hits[sizes >= working_set_gb * (1 - 1e-9)].max())
        if np.any(sizes >= working_set_gb * (1 - 1e-9))
        else float(hits.max())
    )
    inside = (sizes > 0) & (sizes < working_set_gb * (1 - 1e-9))
    if h_max <= 0 or not inside.any():
        return 0.0, 0.0, h_max
    x, y = sizes[inside], hits[inside]

    def loss(alpha: float) -> float:
        model = h_max * hit_ratio_curve(x, working_set_gb, Skew(zipf_alpha=alpha), block_kib)
        return float(np.mean((model - y) ** 2))

    res = minimize_scalar(loss, bounds=(0.0, 3.0), method="bounded", options={"xatol": 1e-3})
    alpha = float(res.x)
    return alpha, math.sqrt(loss(alpha)), h_max


def _phase(peak: PeakWindow, name: str, window: str, working_set_gb: float | None) -> Phase:
    return Phase(
        name=name,
        window=window,
        iops=round(peak.iops, 3),
        read_pct=round(min(100.0, max(0.0, peak.read_pct)), 2),
        random_pct=round(min(100.0, max(0.0, 100.0 - peak.sequential_pct)), 2),
        io_sizes=peak.io_sizes,
        working_set_gb=working_set_gb,
    )


def derive_workload(
    profile: TraceProfile,
    lru: MissRatioCurve,
    tiers: TierTable,
    heat_weights: np.ndarray,
    options: TraceOptions,
) -> DerivedWorkload:
    """The profile as a :class:`~models.workload.Workload` the sizing pages take directly."""
    footprint = profile.footprint_gb
    alpha, rmse, h_max = fit_zipf_alpha(
        lru.cache_gb, [1.0 - m for m in lru.request_miss_ratio], footprint, profile.block_kib
    )
    hot_io = 100.0 * io_share_of_hottest(heat_weights, 0.2)
    skew = SkewFit(zipf_alpha=round(alpha, 4), fit_rmse=rmse, max_hit_ratio=h_max, hot_io_pct=hot_io)
    ws = footprint if footprint > 0 else None
    notes = []
    phases = []
    if profile.peaks_by_iops:
        top_iops = profile.peaks_by_iops[0]
        top_mbs = profile.peaks_by_mb_s[0] if profile.peaks_by_mb_s else top_iops
        if top_mbs.start_s == top_iops.start_s:
            phases.append(_phase(top_iops, "peak", "trace peak", ws))
        else:
            phases.append(_phase(top_iops, "peak IOPS", "trace peak IOPS", ws))
            phases.append(_phase(top_mbs, "peak MB/s", "trace peak MB/s", ws))
    else:
        phases.append(Phase(name="trace", window="trace", iops=0.0, read_pct=0.0, io_size_kib=4.0))
    if not profile.has_timing:
        notes.append("no timestamps in the trace: the phases carry no IOPS")
    capacity_gb = options.capacity_gb or max(profile.address_span_gb, footprint)
    if not options.capacity_gb:
        notes.append(
            f"capacity is the highest address written per stream ({profile.address_span_gb:,.1f} GB); "
            "give capacity_gb for the real volume size"
        )
    fractions = {}
    for row in tiers.rows:
        for cap in row.captures:
            if abs(cap.io_pct - 80.0) < 1e-9:
                fractions[row.label] = round(max(cap.fraction_of_capacity, 1e-6), 6)
    workload = Workload(
        name=options.workload_name,
        capacity_tb=max(capacity_gb / 1000.0, 1e-9),
        working_set_gb=ws,
        skew=Skew(zipf_alpha=round(min(3.0, max(0.0, alpha)), 4)),
        phases=phases,
    )
    return DerivedWorkload(workload=workload, skew=skew, fast_tier_fraction=fractions, notes=notes)


@dataclass
class PartitionResult:
    """What one partition of a trace accumulated, and what the reader made of the file (every
    partition reads all of it). Picklable: a Dask worker sends it back."""

    builder: ProfileBuilder
    parse: ParseState
    volumes: list[VolumeSummary]
    seconds: float


def _builder(opts: TraceOptions, partition: Partition) -> ProfileBuilder:
    """A partition's builder; the SHARDS sample cap is shared out among the partitions, so that
    the curves cost (and their accuracy) do not change with the number of partitions."""
    return ProfileBuilder(
        interval_s=opts.interval_s,
        block_bytes=opts.block_kib * KIB,
        warmup_s=opts.warmup_s,
        latency_target_ms=opts.latency_target_ms,
        seq_window=opts.seq_window,
        max_samples=max(1000, opts.max_samples // partition.count),
        partition=partition,
    )


def profile_partitions(
    stream: BinaryIO,
    options: TraceOptions | None = None,
    partitions: Sequence[Partition] = (Partition(),),
    total_bytes: int | None = None,
    progress: ProgressFn | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_text_bytes: int | None = None,
    max_records: int | None = None,
) -> list[PartitionResult]:
    """Read ``stream`` once into one :class:`ProfileBuilder` per partition (each chunk is given to
    each); raises MalformedTraceError, TraceError (a volume filter matching nothing lists the
    volumes), TraceCancelled.

    ``max_text_bytes`` and ``max_records`` are limits on the decompressed text and the records
    (:class:`~models.traces.parse.TraceReader`): beyond them a TraceError stops the reading.
    ``progress(fraction, records, records/s)`` follows the raw bytes read when ``total_bytes``
    (the stream's size) is given.
    """
    opts = options or TraceOptions()
    started = time.perf_counter()
    raw_read = [0]

    def on_raw(n: int) -> None:
        raw_read[0] = n

    reader = TraceReader(
        stream,
        opts.format,
        chunk_records=opts.chunk_records,
        on_raw=on_raw,
        max_text_bytes=max_text_bytes,
        max_records=max_records,
    )
    builders = [_builder(opts, p) for p in partitions]
    volumes = VolumeCounter(opts.volumes)
    read = 0
    for chunk in reader:
        if should_stop is not None and should_stop():
            raise TraceCancelled()
        assert reader.state is not None  # set before the first chunk
        kept = volumes.add(chunk, reader.state)
        read += len(chunk)
        for b in builders:
            b.add(kept)
        if progress is not None:
            elapsed = max(time.perf_counter() - started, 1e-9)
            progress(min(1.0, raw_read[0] / total_bytes) if total_bytes else 0.0, read, read / elapsed)
    reader.check()
    state = reader.report()
    volumes.check(state)
    for b in builders:
        b.finish()  # the partition's own last merges, before it is handed on
    seconds = time.perf_counter() - started
    summary = volumes.summary(state)
    return [PartitionResult(b, state, summary, seconds) for b in builders]


def combine(
    parts: Sequence[PartitionResult],
    options: TraceOptions | None = None,
    scratch_dir: Path | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> TraceAnalysis:
    """The analysis of a trace from its partitions (:func:`~models.traces.merge.merge`): the
    profile, the miss-ratio curves from the partitions' samples, the tier table, the workload."""
    opts = options or TraceOptions()
    started = time.perf_counter()
    release_free_heap()  # what the reading left free, before the curves' temporaries
    state = parts[0].parse
    builder = merge([p.builder for p in parts])
    merged = time.perf_counter()
    n_volumes = sum(1 for v in parts[0].volumes if v.selected)
    prof = builder.profile(streams=n_volumes, has_timing=state.has_timing)
    samples = builder.block_samples()
    sizes = cache_sizes(prof.footprint_blocks, opts.mrc_points)
    block_bytes = opts.block_kib * KIB
    curves = [lru_curve(samples, sizes, block_bytes)]
    have_lcs = libcachesim_available()
    wanted = [p for p in dict.fromkeys(opts.policies) if p != "lru"]
    skipped = {} if have_lcs else {p: LIBCACHESIM_MISSING for p in wanted}
    if have_lcs and wanted:
        if should_stop is not None and should_stop():
            raise TraceCancelled()
        with ThreadPoolExecutor(max_workers=min(2, len(wanted))) as pool:  # libCacheSim replays in C
            curves += pool.map(lambda p: policy_curve(p, samples, sizes, block_bytes, scratch_dir), wanted)
    curved = time.perf_counter()
    heat = builder.heat()
    # fractions of the capacity the derived workload states (given, else the highest address written
    # per stream): of the touched 4 KiB blocks, every chunk of 2 MiB and more read 100% (#33)
    basis_gb = opts.capacity_gb or max(prof.address_span_gb, prof.footprint_gb)
    label = None if opts.capacity_gb else "the highest address written per stream"
    tiers = tier_table(heat, capacity_gb=basis_gb, basis_label=label)
    derived = derive_workload(prof, curves[0], tiers, heat.weights, opts)
    if skipped:
        derived.notes.append(f"{LIBCACHESIM_MISSING}: only the LRU curve was computed")
    done = time.perf_counter()
    read_s = max(p.seconds for p in parts)
    return TraceAnalysis(
        parse=state.report(),
        profile=prof,
        mrc=curves,
        tiers=tiers,
        derived=derived,
        options=opts,
        volumes=parts[0].volumes,
        partitions=len(parts),
        seconds={
            "parse_and_profile": read_s,
            "merge": merged - started,
            "curves": curved - merged,
            "tiers_and_workload": done - curved,
            "total": read_s + done - started,
        },
        libcachesim=have_lcs,
        curves_computed=[c.policy for c in curves],
        curves_skipped=skipped,
    )


def analyze_trace(
    stream: BinaryIO,
    options: TraceOptions | None = None,
    total_bytes: int | None = None,
    progress: ProgressFn | None = None,
    should_stop: Callable[[], bool] | None = None,
    scratch_dir: Path | None = None,
    max_text_bytes: int | None = None,
    max_records: int | None = None,
    partitions: int = 1,
) -> TraceAnalysis:
    """Read ``stream`` once and analyse it (in this process, in ``partitions`` partitions of the
    block keys: 1, the default, is the whole trace); raises MalformedTraceError, TraceError,
    TraceCancelled. See :func:`profile_partitions` for the limits; ``progress`` reports reading
    as 0..0.85 of the work and the curves and tables as the rest.
    """
    opts = options or TraceOptions()

    def reading(fraction: float, records: int, rate: float) -> None:
        if progress is not None:
            progress(0.85 * fraction, records, rate)

    parts = profile_partitions(
        stream,
        opts,
        [Partition(i, partitions) for i in range(partitions)],
        total_bytes,
        reading,
        should_stop,
        max_text_bytes,
        max_records,
    )
    if should_stop is not None and should_stop():
        raise TraceCancelled()
    analysis = combine(parts, opts, scratch_dir, should_stop)
    if progress is not None:
        progress(
            1.0, analysis.profile.records, analysis.profile.records / max(analysis.seconds["total"], 1e-9)
        )
    return analysis


__all__ = [
    "DerivedWorkload",
    "SkewFit",
    "TraceAnalysis",
    "TraceOptions",
    "PartitionResult",
    "analyze_trace",
    "combine",
    "derive_workload",
    "profile_partitions",
    "fit_zipf_alpha",
]
