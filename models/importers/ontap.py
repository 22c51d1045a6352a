"""ONTAP performance text: ``statistics show`` blocks and ``qos statistics ... show`` tables.

**statistics show** [netapp-ontap-statistics] prints one block per sample and instance::

    Object: volume
    Instance: vol1
    Start-time: 1/15/2024 10:00:00
    End-time: 1/15/2024 10:05:00
    Elapsed-time: 300s
    Scope: svm1
        Counter                                                     Value
        -------------------------------- --------------------------------
        read_data                                                 1.25MB
        read_latency                                               512us
        read_ops                                                     100

A block is the interval ending at ``End-time`` (its length ``Elapsed-time``) of one instance.
Counters of the ``volume`` object (``read_ops``, ``write_ops``, ``total_ops`` [per s],
``read_data``, ``write_data`` [B/s], ``read_latency``, ``write_latency``, ``avg_latency``) and of
the ``lun`` object (the same, latencies ``avg_read_latency``, ``avg_write_latency``) are read;
others are listed as not used. Values carry their unit as the CLI prints it: sizes ``B``,
``KB``, ``MB``, ``GB`` (taken as powers of 1024), latencies ``us`` or ``ms`` (a bare latency is in
microseconds, the counters' own unit).

**qos statistics volume performance show** (or ``workload``) [netapp-ontap-qos] prints a table
per iteration, ``Workload ID IOPS Throughput Latency``, sorted by IOPS, the first row
``-total-`` (left out: it is the sum of the others). It has no read/write split: the
``characteristics`` table of the same command family (``... Request size Read Concurrency``) in
the same file gives each workload's read share, else the option ``read_pct`` must; nor timestamps:
iterations are ``interval_s`` apart (the option must give it) and the series has no clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from models.base import InputError
from models.importers.common import ParseError
from models.importers.hoststats import ReadReport
from models.importers.series import SeriesBuilder, rates_from_roles
from models.importers.textutil import Clock
from models.importers.windows import HostStatsOptions

STAT_COUNTERS = {
    "read_ops": "r_iops",
    "write_ops": "w_iops",
    "total_ops": "t_iops",
    "read_data": "r_bps",
    "write_data": "w_bps",
    "read_latency": "r_lat_ms",
    "write_latency": "w_lat_ms",
    "avg_read_latency": "r_lat_ms",
    "avg_write_latency": "w_lat_ms",
    "avg_latency": "t_lat_ms",
}
SIZE_UNITS = {"": 1.0, "B": 1.0, "KB": 1024.0, "MB": 1024.0**2, "GB": 1024.0**3, "TB": 1024.0**4}
TIME_UNITS_MS = {"us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1000.0}
MAX_QOS_ROWS = 2_000_000

_VALUE = re.compile(r"^([-+]?[\d,]*\.?\d+)\s*([A-Za-zµ%]*)(?:/s(?:ec)?)?$")
_FIELD = re.compile(r"^(Object|Instance|Start-time|End-time|Elapsed-time|Scope|Counter|Node)\s*:\s*(.*)$")


def _quantity(text: str, role: str, line: int) -> float:
    """A CLI value in the builder's unit for ``role``: B/s for data, ms for latency."""
    s = text.strip()
    if s in ("-", ""):
        return float("nan")
    m = _VALUE.match(s)
    if m is None:
        raise ParseError(f"not a value: {text!r}", line)
    x = float(m.group(1).replace(",", ""))
    unit = m.group(2)
    if role.endswith("_lat_ms"):
        if unit == "":
            return x * 1e-3  # the latency counters count microseconds
        if unit not in TIME_UNITS_MS:
            raise ParseError(f"not a latency unit: {text!r}", line)
        return x * TIME_UNITS_MS[unit]
    if role.endswith("_bps") or role.endswith("_size"):
        if unit.upper() not in SIZE_UNITS:
            raise ParseError(f"not a size unit: {text!r}", line)
        return x * SIZE_UNITS[unit.upper()]
    if unit not in ("", "%"):
        raise ParseError(f"not a rate: {text!r}", line)
    return x


class _Block:
    def __init__(self) -> None:
        self.object = ""
        self.instance = ""
        self.end: str | None = None
        self.elapsed_s: float | None = None
        self.line = 0
        self.values: dict[str, float] = {}


def read_ontap_statistics(
    lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions
) -> ReadReport:
    """Read ``statistics show`` blocks (see the module docstring)."""
    from models.importers.arraystats import ArrayFormat

    report = ReadReport(
        format=ArrayFormat.ONTAP_STATISTICS,
        variant="ONTAP statistics show",
        default_kinds=[("volume",), ("lun",)],
        source="counters read_ops, write_ops, read_data, write_data, read_latency, write_latency",
    )
    clock = Clock(options.date_order)
    blocks: list[_Block] = []
    block: _Block | None = None
    in_counters = False
    number = 0
    learned = False

    def flush() -> None:
        nonlocal learned
        if not blocks:
            return
        if not learned:
            clock.learn(b.end for b in blocks if b.end)
            learned = True
        _add_blocks(blocks, builder, report, clock, options)
        blocks.clear()

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        s = line.strip()
        m = _FIELD.match(s)
        if m is not None and m.group(1) != "Counter":
            key, value = m.group(1), m.group(2).strip()
            if key == "Object":
                block = _Block()
                block.object, block.line = value.lower(), number
                blocks.append(block)
                in_counters = False
                if len(blocks) >= 2048:
                    flush()
            elif block is not None:
                if key == "Instance":
                    block.instance = value
                elif key == "End-time":
                    block.end = value
                elif key == "Elapsed-time":
                    e = re.match(r"^(\d+(?:\.\d+)?)\s*s", value)
                    block.elapsed_s = float(e.group(1)) if e else None
            continue
        if block is None:
            continue
        if s.startswith("Counter") and s.endswith("Value"):
            in_counters = True
            continue
        if not in_counters or not s or set(s) <= {"-", " "}:
            if s.endswith(("::>", "*>")) or "::" in s:
                in_counters = False
            continue
        parts = s.split()
        if len(parts) < 2:
            continue
        name, value = parts[0].lower(), parts[-1]
        role = STAT_COUNTERS.get(name)
        if role is None:
            report.unknown_counter(f"{block.object}:{name}")
            continue
        block.values[role] = _quantity(value, role, number)
    flush()
    report.lines = number
    return report


def _add_blocks(
    blocks: list[_Block], builder: SeriesBuilder, report: ReadReport, clock: Clock, options: HostStatsOptions
) -> None:
    if builder.interval_s is None and options.interval_s is None:
        elapsed = next((b.elapsed_s for b in blocks if b.elapsed_s), None)
        if elapsed:
            builder.interval_s = elapsed
    by_roles: dict[tuple[str, ...], list[_Block]] = {}
    for b in blocks:
        if b.end is None:
            raise ParseError("a statistics block without End-time", b.line)
        if not b.values:
            continue
        by_roles.setdefault(tuple(sorted(b.values)), []).append(b)
    for roles, group in by_roles.items():
        t = np.asarray([clock.seconds(b.end or "", b.line) for b in group])
        dev = np.asarray(
            [builder.device(b.instance or b.object, b.object or "volume") for b in group], dtype=np.int64
        )
        arrays = {r: np.asarray([b.values[r] for b in group]) for r in roles}
        rates = rates_from_roles(arrays, report.notes, "the instances")
        if rates is not None:
            builder.add(t, dev, *rates)
    if clock.note:
        report.note(clock.note)


_QOS_HEADER = re.compile(r"^\s*Workload\s+ID\s+IOPS\s+Throughput\s+(Latency|Request\s+size)", re.IGNORECASE)


def read_ontap_qos(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read ``qos statistics ... performance|characteristics show`` tables (see the module docstring)."""
    from models.importers.arraystats import ArrayFormat

    report = ReadReport(
        format=ArrayFormat.ONTAP_QOS,
        variant="ONTAP qos statistics",
        default_kinds=[("workload",)],
        source="columns IOPS, Throughput, Latency (and Read of the characteristics table) per workload",
    )
    kind: str | None = None
    iteration = {"performance": -1, "characteristics": -1}
    perf: list[tuple[int, str, float, float, float]] = []  # iteration, workload, IOPS, B/s, latency ms
    chars: list[tuple[int, str, float, float, float]] = []  # iteration, workload, IOPS, B/s, read %
    number = 0
    for number, raw in enumerate(lines, start=1):
        s = raw.strip()
        m = _QOS_HEADER.match(s)
        if m is not None:
            kind = "performance" if m.group(1).lower() == "latency" else "characteristics"
            iteration[kind] += 1
            continue
        if kind is None or not s or set(s) <= {"-", " "}:
            continue
        parts = s.split()
        if parts[0] == "-total-" or "::" in s:
            continue
        if len(parts) < 5:
            continue
        try:
            iops = _quantity(parts[2], "t_iops", number)
            bps = _quantity(parts[3], "t_bps", number)
            if kind == "performance":
                perf.append((iteration[kind], parts[0], iops, bps, _quantity(parts[4], "t_lat_ms", number)))
            elif len(parts) >= 6:
                chars.append(
                    (iteration[kind], parts[0], iops, bps, _quantity(parts[5].rstrip("%"), "t_iops", number))
                )
        except ParseError:
            continue  # not a table row (a prompt, a message between iterations)
        if len(perf) + len(chars) > MAX_QOS_ROWS:
            raise ParseError(f"more than {MAX_QOS_ROWS:,} table rows: split the file", number)
    report.lines = number
    if not perf and not chars:
        raise ParseError("no qos statistics tables (Workload  ID  IOPS  Throughput  Latency ...)")
    interval = options.interval_s
    if interval is None:
        raise InputError(
            "interval_s",
            "qos statistics output has no timestamps: give the refresh interval of the run [s]",
        )
    builder.clock = False
    builder.interval_s = interval
    read_share = _read_shares(chars)
    rows = perf if perf else chars
    missing = sorted({w for _, w, *_ in rows if w not in read_share}) if perf else []
    fallback = getattr(options, "read_pct", None)
    if missing and fallback is None:
        raise InputError(
            "read_pct",
            "qos performance tables give total IOPS only: give the share of reads, or add the "
            f"characteristics table for {', '.join(missing[:5])}",
        )
    if missing:
        report.note(f"read share of {len(missing)} workload(s) taken as the {fallback:g} % given")
    t = np.asarray([(r[0] + 1) * interval for r in rows], dtype=np.float64)
    dev = np.asarray([builder.device(r[1], "workload") for r in rows], dtype=np.int64)
    iops_arr = np.asarray([r[2] for r in rows])
    bps_arr = np.asarray([r[3] for r in rows])
    if perf:
        share = np.asarray(
            [read_share.get(r[1], fallback if fallback is not None else 0.0) / 100.0 for r in rows]
        )
        lat = np.asarray([r[4] for r in rows])
    else:
        share = np.asarray([r[4] / 100.0 for r in rows])
        lat = np.full(len(rows), np.nan)
    rates = rates_from_roles(
        {
            "r_iops": iops_arr * share,
            "w_iops": iops_arr * (1.0 - share),
            "r_bps": bps_arr * share,
            "w_bps": bps_arr * (1.0 - share),
            "t_lat_ms": lat,
        },
        report.notes,
        "the workloads",
    )
    if rates is not None:
        builder.add(t, dev, *rates)
    report.note(
        "qos statistics give one throughput for reads and writes: it is split by the read share of "
        "I/Os (reads and writes taken as the same mean size); the latency is one figure for both"
    )
    return report


def _read_shares(chars: list[tuple[int, str, float, float, float]]) -> dict[str, float]:
    """Each workload's read share [%], weighted by IOPS over the characteristics rows."""
    acc: dict[str, list[float]] = {}
    for _, w, iops, _, read in chars:
        a = acc.setdefault(w, [0.0, 0.0])
        a[0] += iops * read
        a[1] += iops
    return {w: a[0] / a[1] for w, a in acc.items() if a[1] > 0}


__all__ = ["read_ontap_qos", "read_ontap_statistics"]
