"""Host statistics -> workloads: read a file, pick the devices, find the windows, build phases.

:func:`import_host_stats` takes the file as an iterable of text lines (the caller opens it; the
memory used does not grow with the file: readers stream, the series is kept in bounded buckets,
see :mod:`models.importers.series`) and returns a :class:`HostStatsResult`: the workloads (one
phase per detected window), the windows found, a summary per device, the counters the reader did
not use, and notes on every assumption made.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import Field

from models.base import InputError, Output
from models.importers.common import ParseError
from models.importers.series import HostSeries, SeriesBuilder, totals
from models.importers.timeline import LoadSeries, load_series
from models.importers.windows import (
    DetectedWindow,
    DeviceSummary,
    HostStatsOptions,
    build_workloads,
    detect_windows,
    device_summary,
    has_io,
)
from models.workload import Workload


class HostFormat(StrEnum):
    IOSTAT = "iostat"
    """sysstat ``iostat -x`` or ``iostat -d`` text, with or without ``-t`` timestamps."""
    SAR = "sar"
    """sysstat ``sar -d`` text or ``sadf -d`` (semicolon-separated) output."""
    PERFMON = "perfmon"
    """Windows performance monitor CSV/TSV (``typeperf``, ``relog``): PhysicalDisk, LogicalDisk."""
    ESXTOP = "esxtop"
    """VMware ``esxtop -b`` batch CSV: disk adapters, devices, NFS volumes, virtual disks."""


MAX_UNKNOWN_LISTED = 200
PLACEHOLDER_CAPACITY_TB = 1.0


@dataclass
class ReadReport:
    """What a reader learned besides the samples it handed the builder."""

    format: StrEnum
    variant: str = ""
    host: str | None = None
    lines: int = 0
    notes: list[str] = field(default_factory=list)
    unknown: dict[str, int] = field(default_factory=dict)
    """counters or columns not used -> how many columns carried them"""
    default_kinds: list[tuple[str, ...]] = field(default_factory=lambda: [("disk",)])
    """device kinds chosen when no devices are named: the first group that has I/O"""
    capacities_gb: dict[str, float] = field(default_factory=dict)
    zone: str | None = None
    """the time zone the file states its times in (None: the host's local time, not stated)"""
    source: str = ""
    """what the rates were read from (sheet and columns, counters), for the figures' explanations"""

    def unknown_counter(self, name: str) -> None:
        self.unknown[name] = self.unknown.get(name, 0) + 1

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


Reader = Callable[[Iterator[str], SeriesBuilder, HostStatsOptions], ReadReport]


class SeriesImport(Output):
    """A time series read into workloads: what host and array statistics answer alike."""

    variant: str = Field(description="what the reader recognised: tool version, layout, locale")
    host: str | None
    clock: bool = Field(description="the file has clock times (else only the sampling order)")
    start: str
    end: str
    interval_s: float = Field(description="sampling interval of the file [s]")
    resolution_s: float = Field(description="interval the series was kept at [s]")
    lines: int
    samples: int = Field(description="device samples read")
    devices: list[DeviceSummary]
    windows: list[DetectedWindow]
    workloads: list[Workload]
    unknown_counters: list[str] = Field(description="counters or columns not used (the first 200)")
    unknown_counter_count: int
    notes: list[str]
    options: HostStatsOptions
    series: LoadSeries | None = Field(
        description="the chosen devices' load per interval, to line imports up on one timeline "
        "(null for a file without clock times)"
    )


class HostStatsResult(SeriesImport):
    """Host statistics read into workloads."""

    format: HostFormat


def _readers() -> dict[HostFormat, Reader]:
    from models.importers.esxtop import read_esxtop
    from models.importers.iostat import read_iostat
    from models.importers.perfmon import read_perfmon
    from models.importers.sar import read_sar

    return {
        HostFormat.IOSTAT: read_iostat,
        HostFormat.SAR: read_sar,
        HostFormat.PERFMON: read_perfmon,
        HostFormat.ESXTOP: read_esxtop,
    }


def _chosen(series: HostSeries, report: ReadReport, options: HostStatsOptions) -> tuple[list[int], list[int]]:
    """(chosen devices, default devices) as indices into ``series.names``."""
    defaults: list[int] = []
    for kinds in report.default_kinds:
        defaults = [i for i, k in enumerate(series.kinds) if k in kinds and has_io(series, i)]
        if defaults:
            break
    if not defaults:
        defaults = [i for i in range(len(series.names)) if has_io(series, i)] or list(
            range(len(series.names))
        )
    if options.devices is None:
        return defaults, defaults
    missing = [d for d in options.devices if d not in series.names]
    if missing:
        listed = ", ".join(repr(n) for n in series.names[:50])
        raise InputError(
            "devices", f"not in the file: {', '.join(map(repr, missing))}; the file has {listed}"
        )
    if not options.devices:
        raise InputError("devices", "choose at least one device")
    chosen = [series.names.index(d) for d in dict.fromkeys(options.devices)]
    return chosen, defaults


def import_host_stats(
    lines: Iterable[str], fmt: HostFormat | None = None, options: HostStatsOptions | None = None
) -> HostStatsResult:
    """Read host statistics (``fmt`` None: detect it) into workloads.

    Raises :class:`ParseError` for a file that cannot be read (naming the line and column) and
    :class:`~models.base.InputError` for options that do not fit the file (a device it lacks).
    """
    from models.importers.detect import detect_format

    found, fields = read_series(lines, fmt, options or HostStatsOptions(), _readers(), detect_format)
    return HostStatsResult(format=found, **fields)


F = TypeVar("F", bound=StrEnum)


def read_series(
    lines: Iterable[str],
    fmt: F | None,
    opts: HostStatsOptions,
    readers: Mapping[F, Reader],
    detect: Callable[[list[str]], F],
) -> tuple[F, dict[str, Any]]:
    """The format (``fmt``, else ``detect`` of the first 64 lines) and the :func:`analyse`
    fields of a text series read by that format's reader: what host and array imports share."""
    it = iter(lines)
    if fmt is None:
        head = list(itertools.islice(it, 64))
        fmt = detect(head)
        it = itertools.chain(head, it)
    builder = SeriesBuilder(
        interval_s=opts.interval_s, resolution_s=opts.resolution_s, max_cells=opts.max_cells
    )
    report = readers[fmt](it, builder, opts)
    return fmt, analyse(builder.finish(), report, opts)


def analyse(series: HostSeries, report: ReadReport, opts: HostStatsOptions) -> dict[str, Any]:
    """The fields of a :class:`SeriesImport` for a finished ``series``: the devices chosen, the
    windows found, the workloads, the per-device summaries and the timeline series."""
    if series.coarsened:
        report.note(
            f"the series is long: it is kept at {series.bucket_s:g} s intervals "
            f"(memory bound of {opts.max_cells:,} device-intervals)"
        )
    if series.dropped:
        report.note(f"{series.dropped} samples earlier than the first sample time were left out")
    chosen, defaults = _chosen(series, report, opts)
    tot = totals(series, chosen)
    windows = detect_windows(series, tot, opts)
    if report.source:
        windows = [
            w.model_copy(
                update={
                    "load": w.load.model_copy(
                        update={"iops": w.load.iops.model_copy(update={"source": report.source[:300]})}
                    )
                }
            )
            for w in windows
        ]
    capacity, capacity_note = _capacity(series, report, opts, len(chosen))
    if capacity_note:
        report.note(capacity_note)
    report.note(
        "the statistics do not say how random the I/O is: phases are 100 % random (conservative); "
        "lower random_pct if you know the workload streams"
    )
    report.note(
        "the queue the host kept is evidence, not an input: the phases state no concurrency (no "
        "command-queuing credit at the drives); set concurrency if the hosts will keep that many I/Os outstanding"
    )
    if opts.latency_target == "observed":
        report.note(
            "each phase's read latency target is the read latency the host saw in its window (rounded up to "
            "0.1 ms): a design slower than today's system does not meet it; change or clear it per phase "
            "(latency_target: none imports none)"
        )
    names = [series.names[i] for i in chosen]
    label = report.format.value
    where = f" on {report.host}" if report.host else ""
    source = f"{label}{where}: " + (", ".join(names) if len(names) <= 4 else f"{len(names)} devices")
    name = opts.workload_name or (f"{report.host}" if report.host else f"{label} import")[:80]
    workloads = build_workloads(series, chosen, windows, opts, source=source, name=name, capacity_tb=capacity)
    chosen_set = set(chosen)
    default_set = set(defaults)
    devices = [
        device_summary(
            series, i, i in chosen_set, i in default_set, report.capacities_gb.get(series.names[i])
        )
        for i in range(len(series.names))
    ]
    unknown = sorted(report.unknown)
    stated_capacity = (
        opts.capacity_tb
        if opts.capacity_tb is not None
        else (capacity(chosen) if report.capacities_gb else None)
    )
    return {
        "variant": report.variant,
        "host": report.host,
        "clock": series.clock,
        "start": series.label(0.0),
        "end": series.label(series.buckets * series.bucket_s),
        "interval_s": series.interval_s,
        "resolution_s": series.bucket_s,
        "lines": report.lines,
        "samples": series.samples,
        "devices": devices,
        "windows": windows,
        "workloads": workloads,
        "unknown_counters": unknown[:MAX_UNKNOWN_LISTED],
        "unknown_counter_count": len(unknown),
        "notes": report.notes,
        "options": opts,
        "series": load_series(
            series,
            chosen,
            name=name,
            source=source,
            zone=report.zone,
            capacity_tb=stated_capacity if stated_capacity and stated_capacity > 0 else None,
        ),
    }


def _capacity(
    series: HostSeries, report: ReadReport, options: HostStatsOptions, n_chosen: int
) -> tuple[Callable[[list[int]], float], str | None]:
    """A workload's capacity [TB] for a group of devices, and a note on where it came from."""
    known = report.capacities_gb
    if options.capacity_tb is not None:
        total = options.capacity_tb

        def stated(group: list[int]) -> float:
            return total if options.merge else total * len(group) / max(n_chosen, 1)

        note = None if options.merge else "the stated capacity is split evenly among the devices"
        return stated, note

    def from_counters(group: list[int]) -> float:
        sizes = [known.get(series.names[i]) for i in group]
        if sizes and all(s is not None for s in sizes):
            return sum(s for s in sizes if s is not None) / 1000.0
        return PLACEHOLDER_CAPACITY_TB

    if known:
        return from_counters, (
            "capacity from the volumes' free-space counters (size = free MB / free %); "
            f"devices without them get {PLACEHOLDER_CAPACITY_TB:g} TB: give capacity_tb"
        )
    return from_counters, (
        f"the statistics do not give the capacity: each workload has {PLACEHOLDER_CAPACITY_TB:g} TB "
        "standing in; give capacity_tb (or edit the workload)"
    )


__all__ = [
    "HostFormat",
    "HostStatsResult",
    "ParseError",
    "ReadReport",
    "SeriesImport",
    "analyse",
    "import_host_stats",
    "read_series",
]
