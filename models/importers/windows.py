"""Busy windows of a host-statistics series, and the workloads whose phases they become.

Sizing checks every window, never the average, so the series is searched for the spans that
matter (each ``window_minutes`` long, over the chosen devices' combined load):

* ``peak-hour``: the busiest span by IOPS of the whole series (the busiest of the daily peaks);
* ``peak-mb-s``: the busiest span by MB/s, when it is another time of day than the IOPS peak;
* ``nightly``: the busiest span by MB/s that lies wholly in the night (``night_start_hour`` to
  ``night_end_hour``, the host's clock), when the series has nights and days: the batch window;
* ``month-end``: the busiest span by IOPS in the last ``month_end_days`` days of a month, when
  the series has such days and others;
* ``daily-peak``: each calendar day's busiest span, listed for reference;
* ``whole``: the whole series, listed for reference (its average is never offered as a phase).

A window's phase carries the rate the options name: the mean, the 95th percentile (default: a
stated, conservative choice) or the peak of the per-interval totals inside the window; the read %
and the I/O size per direction are the window's own (``size = bytes / I/Os``). Host counters do
not say how random the I/O is, so phases are 100 % random (the conservative assumption) with a
note. The latency and queue the host observed in the window travel with the phase as
:class:`~models.workload.ObservedLoad`.

Devices merge into one workload (rates add per interval; latencies combine weighted by I/Os;
queues add) or stay separate workloads, one per device, whose phases share the same windows, so
that they add up at the same times when the engine sizes them together.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import Literal

import numpy as np
from pydantic import Field

from models.base import Frozen, Output
from models.explain import Explained, explained, fmt
from models.importers.common import ParseError, merge_sizes
from models.importers.series import (
    READ_BYTES,
    READS,
    SECONDS,
    WRITE_BYTES,
    WRITES,
    BoolArray,
    FloatArray,
    HostSeries,
    Totals,
    busiest_span,
    totals,
)
from models.workload import ObservedLoad, Phase, Workload

MAX_PHASES = 32


class RateStatistic(StrEnum):
    """Which per-interval total inside a window becomes the phase's IOPS."""

    MEAN = "mean"
    P95 = "p95"
    PEAK = "peak"


class WindowKind(StrEnum):
    PEAK_HOUR = "peak-hour"
    PEAK_MB_S = "peak-mb-s"
    NIGHTLY = "nightly"
    MONTH_END = "month-end"
    DAILY_PEAK = "daily-peak"
    IMPORT_PEAK = "import-peak"
    """on a timeline of several imports: one import's own busiest span, with every import's load then"""
    WHOLE = "whole"


OFFERABLE = (WindowKind.PEAK_HOUR, WindowKind.PEAK_MB_S, WindowKind.NIGHTLY, WindowKind.MONTH_END)


class HostStatsOptions(Frozen):
    """How to read host statistics and turn them into workloads."""

    devices: list[str] | None = Field(
        default=None,
        max_length=4096,
        description="devices to use; default: the reader's choice (whole disks)",
    )
    merge: bool = Field(default=True, description="one workload for all chosen devices, else one per device")
    rate: RateStatistic = Field(default=RateStatistic.P95, description="per-interval statistic of a window")
    window_minutes: int = Field(default=60, ge=1, le=1440, description="length of a detected window [min]")
    night_start_hour: int = Field(default=22, ge=0, le=23, description="night begins [h, host clock]")
    night_end_hour: int = Field(default=6, ge=0, le=23, description="night ends [h, host clock]")
    month_end_days: int = Field(default=3, ge=1, le=10, description="last days of a month that are month-end")
    windows: list[WindowKind] | None = Field(
        default=None, max_length=8, description="window kinds to offer as phases; default every one found"
    )
    resolution_s: float = Field(
        default=60.0, ge=1.0, le=3600.0, description="interval the series is kept at [s]"
    )
    interval_s: float | None = Field(
        default=None, gt=0.0, le=86400.0, description="sampling interval, for files without timestamps [s]"
    )
    skip_first: bool = Field(
        default=True, description="iostat: leave out the first report (the average since boot)"
    )
    capacity_tb: float | None = Field(default=None, gt=0.0, le=1e6, description="capacity of the data [TB]")
    workload_name: str | None = Field(default=None, min_length=1, max_length=80)
    date_order: Literal["auto", "mdy", "dmy", "ymd"] = Field(
        default="auto", description="order of day and month in dates like 01/02/2024"
    )
    max_cells: int = Field(
        default=400_000, ge=10_000, le=20_000_000, description="devices x intervals kept (memory bound)"
    )
    latency_target: Literal["observed", "none"] = Field(
        default="observed",
        description="observed (default): each phase's read latency target is the read latency the host saw in "
        "its window, rounded up to 0.1 ms (a design slower than today's system does not meet it); none: no target",
    )


class DeviceSummary(Output):
    """One device over the whole series."""

    name: str
    kind: str = Field(description="disk, partition, stacked, volume, adapter, device, vm, vm-disk, aggregate")
    selected: bool = Field(description="used in the workloads")
    default: bool = Field(description="chosen when no devices are named")
    intervals: int
    mean_iops: float
    p95_iops: float
    peak_iops: float
    read_pct: float | None
    mean_mb_s: float
    peak_mb_s: float
    read_size_kib: float | None
    write_size_kib: float | None
    read_latency_ms: float | None
    write_latency_ms: float | None
    queue_length: float | None
    utilization_pct: float | None
    peak_utilization_pct: float | None
    capacity_gb: float | None = None


class WindowLoad(Output):
    """What the chosen devices did in one window."""

    intervals: int = Field(description="intervals of the series inside the window")
    iops: Explained = Field(description="the phase's rate: the chosen statistic of the interval totals")
    mean_iops: float
    p95_iops: float
    peak_iops: float
    mean_mb_s: float
    read_pct: float | None
    read_size_kib: float | None
    write_size_kib: float | None
    read_latency_ms: float | None
    write_latency_ms: float | None
    queue_length: float | None
    busiest_device: str | None
    busiest_utilization_pct: float | None


class DetectedWindow(Output):
    kind: WindowKind
    name: str = Field(description="the window name its phases get")
    offered: bool = Field(description="made a phase of the workloads")
    reason: str
    start: str
    end: str
    start_offset_s: float
    duration_s: float
    load: WindowLoad


# ---- statistics of a span -----------------------------------------------------------------------


def _size_kib(bytes_: float, ios: float) -> float | None:
    return round(min(16384.0, bytes_ / ios / 1024.0), 3) if ios > 0 and bytes_ > 0 else None


def _stat(x: FloatArray, rate: RateStatistic) -> float:
    if x.size == 0:
        return 0.0
    if rate == RateStatistic.MEAN:
        return float(x.mean())
    if rate == RateStatistic.PEAK:
        return float(x.max())
    return float(np.percentile(x, 95.0))


_STAT_TEXT = {RateStatistic.MEAN: "mean", RateStatistic.P95: "95th percentile", RateStatistic.PEAK: "peak"}


def span_load(tot: Totals, lo: int, hi: int, rate: RateStatistic, bucket_s: float) -> WindowLoad:
    """The load of buckets ``lo:hi`` (valid ones only): rates, mix, sizes, latency, queue, busy."""
    valid = tot.valid[lo:hi]
    iops = tot.iops[lo:hi][valid]
    mbs = tot.mb_s[lo:hi][valid]
    r = float(tot.r_iops[lo:hi][valid].sum())
    w = float(tot.w_iops[lo:hi][valid].sum())
    rb = float(tot.r_bps[lo:hi][valid].sum())
    wb = float(tot.w_bps[lo:hi][valid].sum())
    rlo, rls = float(tot.r_lat_ops[lo:hi].sum()), float(tot.r_lat_sum[lo:hi].sum())
    wlo, wls = float(tot.w_lat_ops[lo:hi].sum()), float(tot.w_lat_sum[lo:hi].sum())
    q = tot.queue[lo:hi][valid]
    q = q[np.isfinite(q)]
    util = tot.util[:, lo:hi]
    busiest, busiest_u = None, None
    if np.isfinite(util).any():
        with np.errstate(invalid="ignore"):
            per_dev = np.nanmean(np.where(np.isfinite(util), util, np.nan), axis=1)
        if np.isfinite(per_dev).any():
            i = int(np.nanargmax(per_dev))
            busiest, busiest_u = tot.names[i], round(float(per_dev[i]), 2)
    value = _stat(iops, rate)
    minutes = bucket_s / 60.0
    every = f"{fmt(minutes)}-minute" if minutes >= 1 else f"{fmt(bucket_s)}-second"
    return WindowLoad(
        intervals=int(iops.size),
        iops=explained(
            value,
            "IO/s",
            f"IOPS = {_STAT_TEXT[rate]} of the {every} totals (reads + writes, all devices)",
            f"IOPS = {_STAT_TEXT[rate]} of {iops.size} {every} totals = {fmt(value)}",
            intervals=int(iops.size),
            mean=float(iops.mean()) if iops.size else 0.0,
            statistic=rate.value,
        ),
        mean_iops=float(iops.mean()) if iops.size else 0.0,
        p95_iops=float(np.percentile(iops, 95.0)) if iops.size else 0.0,
        peak_iops=float(iops.max()) if iops.size else 0.0,
        mean_mb_s=float(mbs.mean()) if mbs.size else 0.0,
        read_pct=round(100.0 * r / (r + w), 4) if r + w > 0 else None,
        read_size_kib=_size_kib(rb, r),
        write_size_kib=_size_kib(wb, w),
        read_latency_ms=round(rls / rlo, 4) if rlo > 0 else None,
        write_latency_ms=round(wls / wlo, 4) if wlo > 0 else None,
        queue_length=round(float(q.mean()), 4) if q.size else None,
        busiest_device=busiest,
        busiest_utilization_pct=busiest_u,
    )


# ---- calendar -----------------------------------------------------------------------------------


def _calendar(series: HostSeries) -> tuple[np.ndarray, FloatArray]:
    """Day number (since the epoch) and hour of day of each bucket's start, host clock."""
    starts = series.origin_s + np.arange(series.buckets) * series.bucket_s
    day = np.floor(starts / 86400.0).astype(np.int64)
    hour = (starts - day * 86400.0) / 3600.0
    return day, hour


def _night(hour: FloatArray, start: int, end: int) -> BoolArray:
    if start == end:
        return np.zeros(hour.shape, dtype=bool)
    if start < end:
        return (hour >= start) & (hour < end)
    return (hour >= start) | (hour < end)


def _month_end(day: np.ndarray, days: int) -> BoolArray:
    d = day.astype("datetime64[D]")
    return np.asarray((d + np.timedelta64(days, "D")).astype("datetime64[M]") != d.astype("datetime64[M]"))


# ---- detection ----------------------------------------------------------------------------------


def _span_name(minutes: int, what: str) -> str:
    span = "hour" if minutes == 60 else f"{minutes} min"
    return f"{what} {span}".strip()


def detect_windows(series: HostSeries, tot: Totals, options: HostStatsOptions) -> list[DetectedWindow]:
    """Every window found (offered ones first, then the reference ones), over ``tot``."""
    n = series.buckets
    k_full = max(1, int(round(options.window_minutes * 60.0 / series.bucket_s)))
    k = min(k_full, n)
    iops, mbs, valid = tot.iops, tot.mb_s, tot.valid
    found: list[tuple[WindowKind, str, int, int, str]] = []  # kind, name, lo, hi, reason
    minutes = options.window_minutes
    short = f" (the series is shorter than {minutes} min: the whole of it)" if k < k_full else ""

    def add(kind: WindowKind, name: str, lo: int | None, reason: str) -> None:
        if lo is not None:
            found.append((kind, name, lo, lo + k, reason))

    daily: list[tuple[WindowKind, str, int, int, str]] = []
    if not series.clock:
        add(
            WindowKind.PEAK_HOUR,
            _span_name(minutes, "peak"),
            busiest_span(iops, valid, k),
            f"busiest {minutes} min by IOPS{short}",
        )
        add(
            WindowKind.PEAK_MB_S,
            _span_name(minutes, "peak MB/s"),
            busiest_span(mbs, valid, k),
            f"busiest {minutes} min by MB/s",
        )
    else:
        day, hour = _calendar(series)
        month_end = _month_end(day, options.month_end_days)
        has_month_end = bool((valid & month_end).sum() >= k and (valid & ~month_end).any())
        normal = ~month_end if has_month_end else None
        on_normal = " on days that are not month-end" if has_month_end else ""
        add(
            WindowKind.PEAK_HOUR,
            _span_name(minutes, "peak"),
            busiest_span(iops, valid, k, normal),
            f"busiest {minutes} min by IOPS{on_normal}{short}",
        )
        night = _night(hour, options.night_start_hour, options.night_end_hour)
        if (valid & night).sum() >= k and (valid & ~night).any():
            add(
                WindowKind.NIGHTLY,
                "nightly batch",
                busiest_span(mbs, valid, k, night if normal is None else night & normal),
                f"busiest {minutes} min by MB/s between {options.night_start_hour}:00 and "
                f"{options.night_end_hour}:00{on_normal}",
            )
        if has_month_end:
            add(
                WindowKind.MONTH_END,
                "month-end",
                busiest_span(iops, valid, k, month_end),
                f"busiest {minutes} min by IOPS in the last {options.month_end_days} days of a month",
            )
        add(
            WindowKind.PEAK_MB_S,
            _span_name(minutes, "peak MB/s"),
            busiest_span(mbs, valid, k, normal),
            f"busiest {minutes} min by MB/s{on_normal}",
        )
        days = np.unique(day[valid])
        if days.size > 1:
            for d in days:
                lo = busiest_span(iops, valid, k, day == d)
                label = str(np.datetime64(int(d), "D"))
                if lo is not None:
                    daily.append(
                        (
                            WindowKind.DAILY_PEAK,
                            f"busiest {minutes} min of {label}",
                            lo,
                            lo + k,
                            f"busiest {minutes} min by IOPS on {label}",
                        )
                    )

    windows: list[DetectedWindow] = []
    offered_spans: list[tuple[int, int, str]] = []
    allowed = set(options.windows) if options.windows is not None else set(OFFERABLE)
    for kind, name, lo, hi, reason in found:
        overlap = next((o for o in offered_spans if min(hi, o[1]) - max(lo, o[0]) >= (hi - lo) / 2), None)
        load = span_load(tot, lo, hi, options.rate, series.bucket_s)
        offered = overlap is None and kind in allowed and load.mean_iops > 0
        if overlap is not None:
            reason += f"; the same hours as {overlap[2]!r}, so not a window of its own"
        elif kind not in allowed:
            reason += "; not asked for"
        elif load.mean_iops <= 0:
            reason += "; no I/O"
        if offered:
            offered_spans.append((lo, hi, name))
        windows.append(detected_window(series, kind, name, offered, reason, lo, hi, load))
    windows.append(
        detected_window(
            series,
            WindowKind.WHOLE,
            "whole series",
            False,
            "the whole series, for reference: its average is never sized",
            0,
            n,
            span_load(tot, 0, n, options.rate, series.bucket_s),
        )
    )
    for kind, name, lo, hi, reason in daily:
        windows.append(
            detected_window(
                series,
                kind,
                name,
                False,
                reason,
                lo,
                hi,
                span_load(tot, lo, hi, options.rate, series.bucket_s),
            )
        )
    return windows


def detected_window(
    series: HostSeries,
    kind: WindowKind,
    name: str,
    offered: bool,
    reason: str,
    lo: int,
    hi: int,
    load: WindowLoad,
) -> DetectedWindow:
    return DetectedWindow(
        kind=kind,
        name=name,
        offered=offered,
        reason=reason,
        start=series.label(lo * series.bucket_s),
        end=series.label(hi * series.bucket_s),
        start_offset_s=lo * series.bucket_s,
        duration_s=(hi - lo) * series.bucket_s,
        load=load,
    )


# ---- devices ------------------------------------------------------------------------------------


def device_summary(
    series: HostSeries, i: int, selected: bool, default: bool, capacity_gb: float | None
) -> DeviceSummary:
    """Device ``i`` over the whole series."""
    tot = totals(series, [i])
    load = span_load(tot, 0, series.buckets, RateStatistic.P95, series.bucket_s)
    mbs = tot.mb_s[tot.valid]
    util = tot.util[0][np.isfinite(tot.util[0]) & tot.valid]
    return DeviceSummary(
        name=series.names[i],
        kind=series.kinds[i],
        selected=selected,
        default=default,
        intervals=load.intervals,
        mean_iops=load.mean_iops,
        p95_iops=load.p95_iops,
        peak_iops=load.peak_iops,
        read_pct=load.read_pct,
        mean_mb_s=load.mean_mb_s,
        peak_mb_s=float(mbs.max()) if mbs.size else 0.0,
        read_size_kib=load.read_size_kib,
        write_size_kib=load.write_size_kib,
        read_latency_ms=load.read_latency_ms,
        write_latency_ms=load.write_latency_ms,
        queue_length=load.queue_length,
        utilization_pct=round(float(util.mean()), 2) if util.size else None,
        peak_utilization_pct=round(float(util.max()), 2) if util.size else None,
        capacity_gb=capacity_gb,
    )


# ---- workloads ----------------------------------------------------------------------------------


def _overall_sizes(series: HostSeries, devices: list[int]) -> tuple[float, float]:
    """Mean read and write size [KiB] of ``devices`` over the series (4 KiB where there is none)."""
    a = series.acc[:, devices, :]
    r, w = float(a[READS].sum()), float(a[WRITES].sum())
    rb, wb = float(a[READ_BYTES].sum()), float(a[WRITE_BYTES].sum())
    return _size_kib(rb, r) or 4.0, _size_kib(wb, w) or 4.0


def observed_target_ms(read_latency_ms: float | None) -> float | None:
    """The read latency target a phase is offered from what the host saw: ``ceil(10 x L) / 10``
    (never stricter than the observation), None without a read latency."""
    if read_latency_ms is None or read_latency_ms <= 0:
        return None
    return math.ceil(round(read_latency_ms * 10.0, 6)) / 10.0


def window_phase(
    window: DetectedWindow,
    load: WindowLoad,
    fallback_sizes: tuple[float, float],
    source: str,
    target: bool = False,
) -> Phase:
    """The phase of ``window`` for a load: its rate, read %, sizes per direction, 100 % random,
    and the host's observations as evidence; with ``target``, the read latency the host saw as
    the phase's read latency target (:func:`observed_target_ms`)."""
    read_pct = load.read_pct if load.read_pct is not None else 0.0
    read_kib = load.read_size_kib or fallback_sizes[0]
    write_kib = load.write_size_kib or fallback_sizes[1]
    sizes = merge_sizes([(read_kib, read_pct), (write_kib, 100.0 - read_pct)])
    observed = None
    if load.intervals > 0 and load.mean_iops > 0:
        observed = ObservedLoad(
            source=f"{source}, {window.start} to {window.end}"[:300],
            iops=round(load.mean_iops, 4),
            read_pct=read_pct,
            read_latency_ms=load.read_latency_ms,
            write_latency_ms=load.write_latency_ms,
            queue_length=load.queue_length,
            utilization_pct=(
                min(100.0, load.busiest_utilization_pct) if load.busiest_utilization_pct is not None else None
            ),
            intervals=load.intervals,
        )
    return Phase(
        name=window.name,
        window=window.name,
        iops=round(load.iops.value or 0.0, 3),
        read_pct=round(read_pct, 4),
        random_pct=100.0,
        io_sizes=sizes,
        observed=observed,
        read_latency_target_ms=observed_target_ms(load.read_latency_ms) if target and observed else None,
    )


def build_workloads(
    series: HostSeries,
    chosen: list[int],
    windows: list[DetectedWindow],
    options: HostStatsOptions,
    *,
    source: str,
    name: str,
    capacity_tb: Callable[[list[int]], float],
) -> list[Workload]:
    """One workload over ``chosen`` devices (``options.merge``) or one per device, each with a
    phase per offered window; ``capacity_tb(devices)`` gives a workload's capacity."""
    offered = [w for w in windows if w.offered][:MAX_PHASES]
    if not offered:
        raise ParseError("the statistics show no I/O on the chosen devices: no window to size")
    groups = [chosen] if options.merge else [[i] for i in chosen]
    workloads = []
    taken: set[str] = set()
    for group in groups:
        tot = totals(series, group)
        fallback = _overall_sizes(series, group)
        lo_hi = [(int(round(w.start_offset_s / series.bucket_s)), w) for w in offered]
        phases = []
        for lo, w in lo_hi:
            hi = lo + int(round(w.duration_s / series.bucket_s))
            load = w.load if options.merge else span_load(tot, lo, hi, options.rate, series.bucket_s)
            what = source if options.merge else f"{source} {series.names[group[0]]}"
            phases.append(window_phase(w, load, fallback, what, options.latency_target == "observed"))
        base = name if options.merge else series.names[group[0]][:80]
        wl_name, n = base, 2
        while wl_name in taken:
            suffix = f" {n}"
            wl_name, n = base[: 80 - len(suffix)] + suffix, n + 1
        taken.add(wl_name)
        workloads.append(Workload(name=wl_name, capacity_tb=max(capacity_tb(group), 1e-6), phases=phases))
    return workloads


def has_io(series: HostSeries, i: int) -> bool:
    a = series.acc[:, i, :]
    return bool(a[SECONDS].sum() > 0 and (a[READS].sum() + a[WRITES].sum()) > 0)


__all__ = [
    "DetectedWindow",
    "DeviceSummary",
    "HostStatsOptions",
    "RateStatistic",
    "WindowKind",
    "WindowLoad",
    "build_workloads",
    "detect_windows",
    "detected_window",
    "device_summary",
    "has_io",
    "observed_target_ms",
    "span_load",
    "window_phase",
]
