"""Several imports of one engagement on one clock: summed per interval, windows found on the sum.

Every series import (host statistics, array statistics, a Live Optics time series) answers its
chosen objects' load per interval as a :class:`LoadSeries` on the clock of its file. To size an
engagement the imports are lined up (:func:`line_up`):

1. **One clock.** Each series is placed on UTC with its time zone: the zone the file states
   (ISO times with an offset, PowerStore's UTC times) or the one the user gives (an IANA name such
   as ``Europe/Berlin``, or a fixed offset ``+01:00``, or ``UTC``). A file that states its zone
   and a given zone that disagrees is refused, as is a series with samples in an hour that its
   zone's clock went through twice (the autumn change: those local times cannot be placed), and
   a series without clock times at all.
2. **One grid.** The series are resampled onto common intervals of ``B`` seconds (the coarsest
   interval of the series, or ``resolution_s`` when coarser, or coarser still to keep at most
   ``MAX_POINTS`` intervals), each interval's counts split in proportion to the time it overlaps
   a grid interval (exact for the counts when the load is even within an interval). Only the
   span all series cover is kept (the note says what was cut); series that do not overlap at all
   are refused, naming their spans.
3. **The sum.** Rates add per interval (``IOPS_sum(t) = sum_i IOPS_i(t)``); latencies combine
   weighted by I/Os, queues add (as for the devices of one host, :mod:`~models.importers.series`).
   The busy windows are found on the sum (:func:`~models.importers.windows.detect_windows`), so
   each window is a time when the engagement as a whole is busy; each import's own busiest span is
   added when it falls at another time (``import-peak``), so no import's peak goes unsized; every
   import becomes a workload
   whose phases are its own load in those same windows, so the engine sizes them together at
   their coincident load.
4. **Coincident peak vs sum of peaks.** ``P_coincident = max_t IOPS_sum(t)`` is what the system
   must carry at once; ``P_sum = sum_i max_t IOPS_i(t)`` is what adding each import's own peak
   would claim. Their ratio ``D_div = P_sum / P_coincident >= 1`` (the diversity factor of electrical
   load planning [ieee-141]) says how much sizing on the sum of peaks would overstate.

Both peaks are per-interval rates at the grid's interval ``B``: a coarser grid averages peaks
down, so ``B`` is stated with them. Times are shown on the clock of the first series' zone (its
UTC offset at the start of the timeline, kept fixed) and the night and month-end windows follow
that clock.

Kept as one module (about 740 lines): lining the series up on one clock and one grid, the sum
and the windows found on it are one pipeline over the same per-series arrays.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
from pydantic import Field

from models.base import Frozen, InputError, Output
from models.explain import Explained, explained, fmt
from models.importers.series import (
    N_FIELDS,
    QUEUE_SECONDS,
    QUEUE_SUM,
    READ_BYTES,
    READ_LAT_OPS,
    READ_LAT_SUM,
    READS,
    SECONDS,
    WRITE_BYTES,
    WRITE_LAT_OPS,
    WRITE_LAT_SUM,
    WRITES,
    FloatArray,
    HostSeries,
    Totals,
    busiest_span,
    totals,
)
from models.importers.windows import (
    DetectedWindow,
    HostStatsOptions,
    RateStatistic,
    WindowKind,
    build_workloads,
    detect_windows,
    detected_window,
    span_load,
)
from models.workload import Workload

MAX_POINTS = 2048
"""Intervals a carried series and a timeline keep at most (a week at 5 minutes)."""
MAX_LAYERS = 32
PLACEHOLDER_CAPACITY_TB = 1.0

_RATE_FIELDS = (READS, WRITES, READ_BYTES, WRITE_BYTES)


# ---- one import's series ----------------------------------------------------------------------


class LoadSeries(Frozen):
    """One import's load per interval, on its file's clock: what :func:`line_up` sums.

    Interval ``i`` starts ``i x interval_s`` after ``start`` and observed ``seconds[i]`` seconds
    (0: no data). Rates are per second over the seconds observed; latencies are I/O-weighted
    means (null where the source gave none), ``queue`` the mean outstanding I/Os.
    """

    name: str = Field(min_length=1, max_length=80, description="the workload this import becomes")
    source: str = Field(min_length=1, max_length=300, description="the file and objects it sums")
    start: str = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$",
        description="start of the first interval, ISO date and time on the file's clock (no offset)",
    )
    zone: str | None = Field(
        default=None,
        max_length=64,
        description="the time zone the file states (null: local time, not stated)",
    )
    interval_s: float = Field(gt=0.0, le=86400.0)
    seconds: list[float] = Field(min_length=1, max_length=MAX_POINTS)
    read_iops: list[float] = Field(min_length=1, max_length=MAX_POINTS)
    write_iops: list[float] = Field(min_length=1, max_length=MAX_POINTS)
    read_mb_s: list[float] = Field(min_length=1, max_length=MAX_POINTS)
    write_mb_s: list[float] = Field(min_length=1, max_length=MAX_POINTS)
    read_latency_ms: list[float | None] = Field(min_length=1, max_length=MAX_POINTS)
    write_latency_ms: list[float | None] = Field(min_length=1, max_length=MAX_POINTS)
    queue: list[float | None] = Field(min_length=1, max_length=MAX_POINTS)
    capacity_tb: float | None = Field(default=None, gt=0.0, le=1e6)


def _accumulate(series: HostSeries, devices: list[int]) -> FloatArray:
    """Counts per bucket of ``devices`` together: ``acc[field, bucket]`` (rates summed, as
    :func:`~models.importers.series.totals` does, times the seconds observed)."""
    tot = totals(series, devices)
    sec = series.acc[SECONDS][devices].max(axis=0)
    out = np.zeros((N_FIELDS, series.buckets))
    out[SECONDS] = sec
    for f, rate in (
        (READS, tot.r_iops),
        (WRITES, tot.w_iops),
        (READ_BYTES, tot.r_bps),
        (WRITE_BYTES, tot.w_bps),
        (READ_LAT_OPS, tot.r_lat_ops),
        (READ_LAT_SUM, tot.r_lat_sum),
        (WRITE_LAT_OPS, tot.w_lat_ops),
        (WRITE_LAT_SUM, tot.w_lat_sum),
    ):
        out[f] = rate * sec
    has_q = np.isfinite(tot.queue)
    out[QUEUE_SECONDS] = np.where(has_q, sec, 0.0)
    out[QUEUE_SUM] = np.where(has_q, np.nan_to_num(tot.queue) * sec, 0.0)
    return out


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    out = np.zeros_like(num)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _nullable(num: FloatArray, den: FloatArray) -> list[float | None]:
    return [round(float(n / d), 4) if d > 0 else None for n, d in zip(num, den, strict=True)]


def load_series(
    series: HostSeries,
    devices: list[int],
    *,
    name: str,
    source: str,
    zone: str | None,
    capacity_tb: float | None,
    max_points: int = MAX_POINTS,
) -> LoadSeries | None:
    """The load of ``devices`` per interval as a :class:`LoadSeries` (None for a series without
    clock times: it cannot be placed on a shared clock). Intervals merge in pairs until there
    are at most ``max_points``."""
    if not series.clock:
        return None
    acc = _accumulate(series, devices)
    bucket = series.bucket_s
    while acc.shape[1] > max_points:
        if acc.shape[1] % 2:
            acc = np.concatenate([acc, np.zeros((N_FIELDS, 1))], axis=1)
        acc = acc.reshape(N_FIELDS, -1, 2).sum(axis=2)
        bucket *= 2.0
    sec = acc[SECONDS]
    return LoadSeries(
        name=name[:80],
        source=source[:300],
        start=datetime.fromtimestamp(series.origin_s, UTC).replace(tzinfo=None).isoformat(),
        zone=zone,
        interval_s=bucket,
        seconds=[round(float(s), 3) for s in sec],
        read_iops=[round(float(x), 4) for x in _ratio(acc[READS], sec)],
        write_iops=[round(float(x), 4) for x in _ratio(acc[WRITES], sec)],
        read_mb_s=[round(float(x) / 1e6, 6) for x in _ratio(acc[READ_BYTES], sec)],
        write_mb_s=[round(float(x) / 1e6, 6) for x in _ratio(acc[WRITE_BYTES], sec)],
        read_latency_ms=_nullable(acc[READ_LAT_SUM], acc[READ_LAT_OPS]),
        write_latency_ms=_nullable(acc[WRITE_LAT_SUM], acc[WRITE_LAT_OPS]),
        queue=_nullable(acc[QUEUE_SUM], acc[QUEUE_SECONDS]),
        capacity_tb=capacity_tb,
    )


def _counts(layer: LoadSeries) -> FloatArray:
    """A layer's rates back as counts per interval (``acc[field, interval]``)."""
    sec = np.asarray(layer.seconds, dtype=np.float64)
    acc = np.zeros((N_FIELDS, sec.size))
    acc[SECONDS] = sec
    acc[READS] = np.asarray(layer.read_iops) * sec
    acc[WRITES] = np.asarray(layer.write_iops) * sec
    acc[READ_BYTES] = np.asarray(layer.read_mb_s) * 1e6 * sec
    acc[WRITE_BYTES] = np.asarray(layer.write_mb_s) * 1e6 * sec
    for ops, total, lat, count in (
        (READ_LAT_OPS, READ_LAT_SUM, layer.read_latency_ms, acc[READS]),
        (WRITE_LAT_OPS, WRITE_LAT_SUM, layer.write_latency_ms, acc[WRITES]),
    ):
        known = np.array([x is not None for x in lat])
        values = np.array([x if x is not None else 0.0 for x in lat], dtype=np.float64)
        acc[ops] = np.where(known, count, 0.0)
        acc[total] = np.where(known, values * count, 0.0)
    known_q = np.array([x is not None for x in layer.queue])
    q = np.array([x if x is not None else 0.0 for x in layer.queue], dtype=np.float64)
    acc[QUEUE_SECONDS] = np.where(known_q, sec, 0.0)
    acc[QUEUE_SUM] = q * acc[QUEUE_SECONDS]
    return acc


# ---- time zones -------------------------------------------------------------------------------

_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)


def parse_zone(text: str) -> tzinfo:
    """``UTC``, ``Z``, a fixed offset (``+01:00``, ``-0530``, ``UTC+2``) or an IANA zone name;
    ``ValueError`` for anything else."""
    s = text.strip()
    if s.upper() in ("UTC", "Z", "GMT", "+00:00", "-00:00"):
        return UTC
    m = _OFFSET.match(s)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise ValueError(f"not a UTC offset: {text!r}")
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if m.group(1) == "-" else delta)
    try:
        return ZoneInfo(s)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(
            f"not a time zone: {text!r} (give an IANA name such as Europe/Berlin, UTC, or an offset such as +01:00)"
        ) from None


def _zone(text: str | None, field: str) -> tzinfo | None:
    """:func:`parse_zone` of ``text`` (None stays None); an unknown zone an error at ``field``."""
    if text is None:
        return None
    try:
        return parse_zone(text)
    except ValueError as exc:
        raise InputError(field, str(exc)) from None


def _offset_text(offset: timedelta) -> str:
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _same_zone(a: tzinfo, b: tzinfo, at: datetime) -> bool:
    return a.utcoffset(at) == b.utcoffset(at)


def _utc_starts(layer: LoadSeries, zone: tzinfo, index: int) -> FloatArray:
    """UTC start [s since the epoch] of each interval of ``layer`` whose local clock is ``zone``;
    :class:`~models.base.InputError` for data in local times the zone's clock went through twice."""
    start = datetime.fromisoformat(layer.start)
    n = len(layer.seconds)
    local = np.array([(start + timedelta(seconds=i * layer.interval_s)) for i in range(n)])
    if isinstance(zone, timezone) or zone is UTC:
        off = zone.utcoffset(start) or timedelta(0)
        base = (start - off).replace(tzinfo=UTC).timestamp()
        return np.asarray(base + np.arange(n, dtype=np.float64) * layer.interval_s, dtype=np.float64)
    out = np.empty(n)
    for i, t in enumerate(local):
        first = t.replace(tzinfo=zone, fold=0)
        second = t.replace(tzinfo=zone, fold=1)
        if first.utcoffset() != second.utcoffset() and layer.seconds[i] > 0:
            raise InputError(
                f"layers.{index}.time_zone",
                f"{layer.name}: the file has samples at {t:%Y-%m-%d %H:%M}, a local time that "
                f"{zone} went through twice (the clocks went back): they cannot be placed on one "
                "clock; give the zone as a fixed offset (e.g. +01:00) if the file's clock did not "
                "change, or export the statistics in UTC",
            )
        out[i] = first.astimezone(UTC).timestamp()
    return out


# ---- the timeline -----------------------------------------------------------------------------


class TimelineLayer(Frozen):
    """One import placed on the engagement's clock."""

    series: LoadSeries
    time_zone: str | None = Field(
        default=None,
        max_length=64,
        description="the file's time zone (IANA name, UTC or an offset); required unless the file states it",
    )


class CapacitySource(Frozen):
    """Capacity without performance data (an RVTools group): it sets the engagement's capacity."""

    name: str = Field(min_length=1, max_length=200)
    capacity_tb: float = Field(gt=0.0, le=1e6, description="capacity in use [TB]")
    source: str = Field(min_length=1, max_length=300)


class TimelineOptions(Frozen):
    """How to resample and search the summed series."""

    resolution_s: float = Field(default=300.0, ge=60.0, le=3600.0, description="shortest grid interval [s]")
    window_minutes: int = Field(default=60, ge=1, le=1440)
    rate: RateStatistic = Field(default=RateStatistic.P95)
    night_start_hour: int = Field(default=22, ge=0, le=23)
    night_end_hour: int = Field(default=6, ge=0, le=23)
    month_end_days: int = Field(default=3, ge=1, le=10)
    windows: list[WindowKind] | None = Field(default=None, max_length=8)


class TimelineLayerSummary(Output):
    name: str
    source: str
    time_zone: str = Field(description="the zone used and its UTC offset at the start")
    start: str = Field(description="first interval with data, on the timeline's clock")
    end: str
    peak_iops: Explained
    peak_at: str
    mean_iops: float
    capacity_tb: float | None


class WindowShare(Output):
    """What each import carries in one window found on the sum."""

    window: str
    start: str
    end: str
    total_iops: float = Field(description="the sum's rate in the window (its statistic)")
    layers: dict[str, float] = Field(description="each import's own rate in the window (same statistic)")
    together: list[str] = Field(
        description="the imports busy in this window (at half of their own peak or more)"
    )


class Timeline(Output):
    """Imports lined up on one clock (see the module docstring)."""

    clock: str = Field(description="the clock times are shown on: a UTC offset")
    start: str
    end: str
    interval_s: float = Field(description="the grid's interval B [s]")
    layers: list[TimelineLayerSummary]
    times: list[str] = Field(description="start of each grid interval, on the timeline's clock")
    layer_iops: list[list[float | None]] = Field(
        description="per import, its IOPS per interval (null: no data)"
    )
    total_iops: list[float | None]
    coincident_peak: Explained
    coincident_peak_at: str
    sum_of_peaks: Explained
    diversity: Explained
    windows: list[DetectedWindow]
    shares: list[WindowShare]
    workloads: list[Workload]
    capacity_tb: Explained
    notes: list[str]


def _grid_interval(layers: list[LoadSeries], span_s: float, options: TimelineOptions) -> float:
    b = max(max(x.interval_s for x in layers), options.resolution_s)
    if span_s / b > MAX_POINTS:
        b = math.ceil(span_s / MAX_POINTS / 60.0) * 60.0
    return b


def _rebucket(
    acc: FloatArray, starts: FloatArray, width: float, origin: float, b: float, n: int
) -> FloatArray:
    """Counts of intervals starting at ``starts`` (``width`` long) spread over the grid
    ``origin + j x b`` (``j < n``) in proportion to their overlap (``width <= b``)."""
    out = np.zeros((acc.shape[0], n))
    rel = (starts - origin) / b
    j = np.floor(rel).astype(np.int64)
    # share of each interval in grid interval j; the rest falls in j + 1
    first = np.clip((j + 1 - rel) * b / width, 0.0, 1.0)
    for target, share in ((j, first), (j + 1, 1.0 - first)):
        ok = (target >= 0) & (target < n) & (share > 0)
        if ok.any():
            for f in range(acc.shape[0]):
                out[f] += np.bincount(target[ok], weights=acc[f][ok] * share[ok], minlength=n)[:n]
    return out


def _label(t: float, offset_s: float) -> str:
    return datetime.fromtimestamp(t + offset_s, UTC).strftime("%Y-%m-%d %H:%M")


def _capacity(
    layers: list[LoadSeries], sources: list[CapacitySource], notes: list[str]
) -> tuple[Callable[[list[int]], float], Explained]:
    own = [x.capacity_tb for x in layers]
    if sources:
        total = sum(s.capacity_tb for s in sources)
        names = ", ".join(s.name for s in sources[:6]) + (" ..." if len(sources) > 6 else "")
        if all(c is not None for c in own):
            own_total = sum(c for c in own if c is not None)
            shares = [(c or 0.0) / own_total for c in own]
            how = "in proportion to each import's own capacity figure"
        else:
            shares = [1.0 / len(layers)] * len(layers)
            how = "evenly (not every import states its capacity)"
        notes.append(
            f"capacity from {len(sources)} source(s) without performance data ({names}): "
            f"{fmt(total)} TB in use, split over the workloads {how}; it replaces the imports' own figures"
        )
        figure = explained(
            total,
            "TB",
            "C = sum of the capacity sources' capacity in use",
            " + ".join(fmt(s.capacity_tb) for s in sources[:12]) + f" = {fmt(total)} TB",
            source="; ".join(s.source for s in sources[:4])[:300],
        )
        return (lambda group: max(total * sum(shares[i] for i in group), 1e-6)), figure
    missing = [x.name for x in layers if x.capacity_tb is None]
    if missing:
        notes.append(
            f"{', '.join(missing)}: no capacity in the import: {PLACEHOLDER_CAPACITY_TB:g} TB stands in "
            "(add an RVTools or Live Optics capacity, or edit the workload)"
        )
    values = [c if c is not None else PLACEHOLDER_CAPACITY_TB for c in own]
    total = sum(values)
    figure = explained(
        total,
        "TB",
        "C = sum of each import's capacity",
        " + ".join(fmt(v) for v in values[:12]) + f" = {fmt(total)} TB",
    )
    return (lambda group: max(sum(values[i] for i in group), 1e-6)), figure


def line_up(
    layers: list[TimelineLayer],
    capacity: list[CapacitySource] | None = None,
    options: TimelineOptions | None = None,
) -> Timeline:
    """Line ``layers`` up on one clock (see the module docstring). Raises
    :class:`~models.base.InputError` naming the layer (``layers.<i>.time_zone``) for a zone that
    is missing, unknown, inconsistent with the file or ambiguous, and for series that do not
    overlap."""
    opts = options or TimelineOptions()
    sources = capacity or []
    if not layers:
        raise InputError("layers", "give at least one import with a time series")
    if len(layers) > MAX_LAYERS:
        raise InputError("layers", f"at most {MAX_LAYERS} imports")
    notes: list[str] = []
    placed: list[tuple[LoadSeries, FloatArray, tzinfo]] = []
    for i, layer in enumerate(layers):
        s = layer.series
        n = len(s.seconds)
        if any(len(a) != n for a in (s.read_iops, s.write_iops, s.read_mb_s, s.write_mb_s)) or any(
            len(a) != n for a in (s.read_latency_ms, s.write_latency_ms, s.queue)
        ):
            raise InputError(
                f"layers.{i}.series", "every list of the series must have one value per interval"
            )
        try:
            start = datetime.fromisoformat(s.start)
        except ValueError:
            raise InputError(f"layers.{i}.series.start", f"not an ISO date and time: {s.start!r}") from None
        if start.tzinfo is not None:
            raise InputError(f"layers.{i}.series.start", "the start is local time, without an offset")
        stated = _zone(s.zone, f"layers.{i}.series.zone")
        given = _zone(layer.time_zone, f"layers.{i}.time_zone")
        if stated is not None and given is not None and not _same_zone(stated, given, start):
            raise InputError(
                f"layers.{i}.time_zone",
                f"{s.name}: the file states its times in {s.zone}; the zone given, {layer.time_zone}, "
                "disagrees (leave the zone out, or check which file this is)",
            )
        zone = stated or given
        if zone is None:
            raise InputError(
                f"layers.{i}.time_zone",
                f"{s.name}: the file does not say which time zone its clock is in: give it (e.g. Europe/Berlin, UTC, +01:00)",
            )
        starts = _utc_starts(s, zone, i)
        placed.append((s, starts, zone))
    spans = []
    for s, starts, _ in placed:
        seen = np.asarray(s.seconds) > 0
        if not seen.any():
            spans.append((s.name, math.inf, -math.inf))
            continue
        spans.append((s.name, float(starts[seen].min()), float(starts[seen].max() + s.interval_s)))
    lo = max(a for _, a, _ in spans)
    hi = min(b for _, _, b in spans)
    if not hi > lo:
        listed = "; ".join(
            f"{name}: {_label(a, 0)} to {_label(b, 0)} UTC" if math.isfinite(a) else f"{name}: no data"
            for name, a, b in spans
        )
        raise InputError(
            "layers",
            f"the imports do not overlap in time ({listed}): check their time zones, or import files of the same period",
        )
    if any(a < lo - 1 or b > hi + 1 for _, a, b in spans):
        notes.append(
            f"only the span every import covers is summed: {_label(lo, 0)} to {_label(hi, 0)} UTC "
            f"({', '.join(name for name, a, b in spans if a < lo - 1 or b > hi + 1)} cover more)"
        )
    first_zone = placed[0][2]
    at = datetime.fromtimestamp(lo, UTC)
    offset = (
        first_zone.utcoffset(at.astimezone(first_zone).replace(tzinfo=None))
        if first_zone is not UTC
        else None
    )
    offset_s = (offset or timedelta(0)).total_seconds()
    b = _grid_interval([p[0] for p in placed], hi - lo, opts)
    origin = math.floor((lo + offset_s) / b) * b - offset_s  # grid aligned on the display clock
    n = max(1, math.ceil((hi - origin) / b))
    acc = np.zeros((N_FIELDS, len(placed), n))
    for k, (s, starts, _) in enumerate(placed):
        layer_acc = _counts(s)
        inside = (starts >= lo - s.interval_s) & (starts < hi)
        acc[:, k, :] = _rebucket(layer_acc[:, inside], starts[inside], s.interval_s, origin, b, n)
    clock = _offset_text(timedelta(seconds=offset_s))
    if isinstance(first_zone, ZoneInfo) and any(
        first_zone.utcoffset(datetime.fromtimestamp(t, UTC).replace(tzinfo=None)) != offset for t in (lo, hi)
    ):
        notes.append(f"times are shown at {clock} throughout, {first_zone}'s offset at the start")
    names = _unique([s.name for s, _, _ in placed])
    series = HostSeries(
        acc=acc,
        names=names,
        kinds=["import"] * len(placed),
        origin_s=origin + offset_s,
        bucket_s=b,
        interval_s=b,
        clock=True,
        samples=int((acc[SECONDS] > 0).sum()),
        dropped=0,
        coarsened=False,
    )
    everyone = list(range(len(placed)))
    tot = totals(series, everyone)
    hs_opts = HostStatsOptions(
        merge=False,
        rate=opts.rate,
        window_minutes=opts.window_minutes,
        night_start_hour=opts.night_start_hour,
        night_end_hour=opts.night_end_hour,
        month_end_days=opts.month_end_days,
        windows=opts.windows,
        resolution_s=min(3600.0, b),
        latency_target="none",  # lined-up series of several systems: no one system's latency to keep
    )
    windows = _with_import_peaks(series, tot, detect_windows(series, tot, hs_opts), opts)
    capacity_of, capacity_figure = _capacity([p[0] for p in placed], sources, notes)
    workloads = build_workloads(
        series, everyone, windows, hs_opts, source="timeline", name="timeline", capacity_tb=capacity_of
    )
    per_layer = [totals(series, [k]) for k in everyone]
    layer_iops = [
        [round(float(v), 3) if ok else None for v, ok in zip(t.iops, t.valid, strict=True)] for t in per_layer
    ]
    total_iops = [round(float(v), 3) if ok else None for v, ok in zip(tot.iops, tot.valid, strict=True)]
    every = f"{fmt(b / 60.0)}-minute"
    summaries = []
    peaks = []
    for k, t in enumerate(per_layer):
        v = np.where(t.valid, t.iops, -np.inf)
        j = int(np.argmax(v)) if t.valid.any() else 0
        peak = float(t.iops[j]) if t.valid.any() else 0.0
        peaks.append(peak)
        seen_at = np.flatnonzero(t.valid)
        s, _, zone = placed[k]
        zone_text = layers[k].time_zone or s.zone or ""
        summaries.append(
            TimelineLayerSummary(
                name=names[k],
                source=s.source,
                time_zone=f"{zone_text} ({_offset_text(zone.utcoffset(datetime.fromisoformat(s.start)) or timedelta(0))})",
                start=series.label(float(seen_at[0]) * b) if seen_at.size else "",
                end=series.label(float(seen_at[-1] + 1) * b) if seen_at.size else "",
                peak_iops=explained(
                    peak,
                    "IO/s",
                    f"P_i = max over the {every} intervals of IOPS_i",
                    f"P = {fmt(peak)} IO/s at {series.label(j * b)}",
                    source=s.source,
                ),
                peak_at=series.label(j * b),
                mean_iops=round(float(t.iops[t.valid].mean()), 3) if t.valid.any() else 0.0,
                capacity_tb=s.capacity_tb,
            )
        )
    valid = tot.valid
    jc = int(np.argmax(np.where(valid, tot.iops, -np.inf)))
    coincident = float(tot.iops[jc])
    sum_peaks = float(sum(peaks))
    coincident_figure = explained(
        coincident,
        "IO/s",
        f"P_coincident = max over the {every} intervals of sum_i IOPS_i",
        f"P_coincident = {fmt(coincident)} IO/s at {series.label(jc * b)} ("
        + " + ".join(f"{fmt(float(t.iops[jc]))} {names[k]}" for k, t in enumerate(per_layer))
        + ")",
    )
    sum_figure = explained(
        sum_peaks,
        "IO/s",
        f"P_sum = sum_i max over the {every} intervals of IOPS_i",
        "P_sum = " + " + ".join(fmt(p) for p in peaks) + f" = {fmt(sum_peaks)} IO/s",
    )
    diversity = sum_peaks / coincident if coincident > 0 else None
    diversity_figure = explained(
        diversity,
        "",
        "D_div = P_sum / P_coincident",
        f"D_div = {fmt(sum_peaks)} / {fmt(coincident)} = {fmt(diversity)}",
        source="[ieee-141]",
    )
    if diversity is not None and diversity > 1.05:
        notes.append(
            f"the imports do not peak together: the sum of their peaks ({fmt(sum_peaks)} IO/s) is "
            f"{fmt(diversity)} times the coincident peak ({fmt(coincident)} IO/s); the workloads are "
            "sized at their load in the windows found on the sum"
        )
    shares = _shares(windows, workloads, names, peaks)
    return Timeline(
        clock=clock,
        start=series.label(0.0),
        end=series.label(n * b),
        interval_s=b,
        layers=summaries,
        times=[series.label(j * b) for j in range(n)],
        layer_iops=layer_iops,
        total_iops=total_iops,
        coincident_peak=coincident_figure,
        coincident_peak_at=series.label(jc * b),
        sum_of_peaks=sum_figure,
        diversity=diversity_figure,
        windows=windows,
        shares=shares,
        workloads=workloads,
        capacity_tb=capacity_figure,
        notes=notes,
    )


def _with_import_peaks(
    series: HostSeries, tot: Totals, windows: list[DetectedWindow], opts: TimelineOptions
) -> list[DetectedWindow]:
    """``windows`` (found on the sum) and, offered after them, each import's own busiest span
    when it is another time: what every import carries then is sized too, so a load that peaks
    apart from the sum's peak (a reporting host in the afternoon) is never left out."""
    b = series.bucket_s
    k = min(series.buckets, max(1, int(round(opts.window_minutes * 60.0 / b))))
    offered = [w for w in windows if w.offered]
    spans = [(round(w.start_offset_s / b), round((w.start_offset_s + w.duration_s) / b)) for w in offered]
    added = []
    for i, name in enumerate(series.names):
        own = totals(series, [i])
        lo = busiest_span(own.iops, own.valid, k)
        if lo is None or not own.valid.any() or float(own.iops[own.valid].max()) <= 0:
            continue
        hi = lo + k
        if any(min(hi, b2) - max(lo, a2) >= k / 2 for a2, b2 in spans):
            continue
        spans.append((lo, hi))
        reason = (
            f"busiest {opts.window_minutes} min of {name} by IOPS, another time than the windows "
            "found on the sum: every import's load then"
        )
        load = span_load(tot, lo, hi, opts.rate, b)
        added.append(
            detected_window(series, WindowKind.IMPORT_PEAK, f"{name} peak"[:80], True, reason, lo, hi, load)
        )
    return offered + added + [w for w in windows if not w.offered]


def _unique(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        candidate, k = name[:80], 2
        while candidate in out:
            suffix = f" {k}"
            candidate, k = name[: 80 - len(suffix)] + suffix, k + 1
        out.append(candidate)
    return out


def _shares(
    windows: list[DetectedWindow], workloads: list[Workload], names: list[str], peaks: list[float]
) -> list[WindowShare]:
    out = []
    for w in windows:
        if not w.offered:
            continue
        layers = {}
        for wl in workloads:
            phase = next((p for p in wl.phases if p.window == w.name), None)
            if phase is not None:
                layers[wl.name] = round(phase.iops, 3)
        together = [
            name
            for name, peak in zip(names, peaks, strict=True)
            if peak > 0 and layers.get(name, 0.0) >= 0.5 * peak
        ]
        out.append(
            WindowShare(
                window=w.name,
                start=w.start,
                end=w.end,
                total_iops=round(w.load.iops.value or 0.0, 3),
                layers=layers,
                together=together,
            )
        )
    return out


__all__ = [
    "CapacitySource",
    "LoadSeries",
    "Timeline",
    "TimelineLayer",
    "TimelineOptions",
    "line_up",
    "load_series",
    "parse_zone",
]
