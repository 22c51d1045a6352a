"""Array exports as CSV: the generic layout and PowerStore's metrics.

**Generic CSV** (this product's own layout, for any array whose tool can write a table)::

    timestamp,object,read_iops,write_iops,read_mb_s,write_mb_s,read_latency_ms,write_latency_ms
    2024-01-15T10:05:00+01:00,vol1,420,180,3.3,1.4,0.8,0.4

One row per object and interval: ``timestamp`` is the *end* of the interval, ISO 8601 (``T`` or
a space between date and time), with an offset (``+01:00``, ``Z``) or without one (then the
array's local time, which the user states when lining imports up); the rates are averages over
the interval, ``MB`` meaning 10^6 bytes; the latencies are means per I/O [ms], and may be blank.
Columns may come in any order; other columns are listed as not used. Every row must agree on
whether it has an offset (a file that mixes them is refused, naming the row).

**PowerStore** metrics as CSV, with the field names of the PowerStore REST API's performance
metrics (``performance_metrics_by_volume``, ``..._by_appliance``, ``..._by_node``...)
[dell-powerstore-api]: ``timestamp`` (end of the sample period, UTC), the object's id
(``volume_id``, ``vg_id``, ``host_id``, ``node_id``, ``appliance_id`` or ``cluster_id``, the first
present), ``read_iops``, ``write_iops``, ``read_bandwidth`` and ``write_bandwidth`` [B/s],
``avg_read_latency`` and ``avg_write_latency`` [µs]; ``avg_read_size``/``avg_write_size`` [B]
stand in when the bandwidth columns are absent.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np

from models.importers.common import ParseError
from models.importers.hoststats import ReadReport
from models.importers.series import SeriesBuilder, rates_from_roles
from models.importers.windows import HostStatsOptions

CHUNK_ROWS = 8192

GENERIC = {
    # column -> (role, scale to the builder's units)
    "read_iops": ("r_iops", 1.0),
    "write_iops": ("w_iops", 1.0),
    "read_mb_s": ("r_bps", 1e6),
    "write_mb_s": ("w_bps", 1e6),
    "read_latency_ms": ("r_lat_ms", 1.0),
    "write_latency_ms": ("w_lat_ms", 1.0),
}
POWERSTORE = {
    "read_iops": ("r_iops", 1.0),
    "write_iops": ("w_iops", 1.0),
    "total_iops": ("t_iops", 1.0),
    "read_bandwidth": ("r_bps", 1.0),
    "write_bandwidth": ("w_bps", 1.0),
    "total_bandwidth": ("t_bps", 1.0),
    "avg_read_size": ("r_size", 1.0),
    "avg_write_size": ("w_size", 1.0),
    "avg_read_latency": ("r_lat_ms", 1e-3),
    "avg_write_latency": ("w_lat_ms", 1e-3),
}
POWERSTORE_IDS = ("volume_id", "vg_id", "volume_group_id", "host_id", "node_id", "appliance_id", "cluster_id")


def _separator(header: str) -> str:
    counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
    return max(counts, key=lambda s: counts[s])


class _Rows:
    """CSV rows into the builder: objects registered, times read, values in chunks."""

    def __init__(
        self, builder: SeriesBuilder, report: ReadReport, roles: dict[int, tuple[str, float]]
    ) -> None:
        self.builder = builder
        self.report = report
        self.roles = roles
        self.times: list[float] = []
        self.devices: list[int] = []
        self.values: list[list[float]] = []

    def add(self, t: float, device: int, values: list[float]) -> None:
        self.times.append(t)
        self.devices.append(device)
        self.values.append(values)
        if len(self.times) >= CHUNK_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.times:
            return
        m = np.asarray(self.values, dtype=np.float64)
        arrays: dict[str, np.ndarray] = {}
        for k, (role, scale) in enumerate(self.roles.values()):
            arrays[role] = m[:, k] * scale
        rates = rates_from_roles(arrays, self.report.notes, "the objects")
        if rates is not None:
            self.builder.add(np.asarray(self.times), np.asarray(self.devices, dtype=np.int64), *rates)
        self.times, self.devices, self.values = [], [], []


def _value(text: str, line: int, column: int, name: str) -> float:
    s = text.strip()
    if not s:
        return float("nan")
    try:
        return float(s)
    except ValueError:
        raise ParseError(f"not a number: {text!r}", line, column + 1, name) from None


class _Times:
    """ISO 8601 times of one file: all with an offset (read as UTC) or all without (local)."""

    def __init__(self) -> None:
        self.with_offset: bool | None = None

    def seconds(self, text: str, line: int, column: int) -> float:
        s = text.strip()
        try:
            t = datetime.fromisoformat(s.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise ParseError(
                f"not an ISO 8601 date and time: {text!r} (write 2024-01-15T10:05:00, with an offset such as +01:00 if known)",
                line,
                column + 1,
                "timestamp",
            ) from None
        offset = t.tzinfo is not None
        if self.with_offset is None:
            self.with_offset = offset
        elif offset != self.with_offset:
            had = "with" if self.with_offset else "without"
            raise ParseError(
                f"{text!r} {'has' if offset else 'has no'} UTC offset, but the earlier rows are {had} "
                "one: one file must use one clock",
                line,
                column + 1,
                "timestamp",
            )
        return t.timestamp() if offset else t.replace(tzinfo=UTC).timestamp()


def _read_csv(
    lines: Iterator[str],
    builder: SeriesBuilder,
    report: ReadReport,
    known: dict[str, tuple[str, float]],
    id_columns: tuple[str, ...],
) -> ReadReport:
    first = next((x for x in lines if x.strip()), "")
    if not first:
        raise ParseError("the file is empty", 1)
    sep = _separator(first)
    header = [h.strip().strip('"').lstrip("\ufeff") for h in next(csv.reader([first], delimiter=sep))]
    lower = [h.lower() for h in header]
    if "timestamp" not in lower:
        raise ParseError("no 'timestamp' column in the header", 1)
    t_col = lower.index("timestamp")
    id_col = next((lower.index(c) for c in id_columns if c in lower), None)
    if id_col is None:
        raise ParseError(f"no object column ({' or '.join(repr(c) for c in id_columns)}) in the header", 1)
    kind = lower[id_col].removesuffix("_id") or "object"
    report.default_kinds = [(kind,)]
    roles = {i: known[h] for i, h in enumerate(lower) if h in known}
    for i, h in enumerate(header):
        if i not in roles and i not in (t_col, id_col) and h:
            report.unknown_counter(h)
    if not roles:
        raise ParseError(f"no rate columns ({', '.join(known)}) in the header", 1)
    report.source = f"columns {', '.join(header[i] for i in roles)} per {header[id_col]}"[:300]
    rows = _Rows(builder, report, roles)
    times = _Times()
    number = 1
    for number, fields in enumerate(csv.reader(lines, delimiter=sep), start=2):
        if not fields or all(not f.strip() for f in fields):
            continue
        if len(fields) < len(header):
            raise ParseError(f"{len(fields)} fields, the header has {len(header)}", number)
        t = times.seconds(fields[t_col], number, t_col)
        device = builder.device(fields[id_col].strip() or "(unnamed)", kind)
        rows.add(t, device, [_value(fields[i], number, i, header[i]) for i in roles])
    rows.flush()
    report.lines = number
    report.zone = "UTC" if times.with_offset else None
    return report


def read_generic_csv(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read the generic CSV (see the module docstring)."""
    from models.importers.arraystats import ArrayFormat

    report = ReadReport(format=ArrayFormat.GENERIC_CSV, variant="generic CSV")
    return _read_csv(lines, builder, report, GENERIC, ("object",))


def read_powerstore(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read a PowerStore metrics CSV (see the module docstring)."""
    from models.importers.arraystats import ArrayFormat

    report = ReadReport(format=ArrayFormat.POWERSTORE, variant="PowerStore metrics CSV")
    _read_csv(lines, builder, report, POWERSTORE, POWERSTORE_IDS)
    if report.zone is None:
        report.note(
            "the timestamps have no offset: PowerStore writes UTC, state the zone if this file is local time"
        )
    return report


__all__ = ["read_generic_csv", "read_powerstore"]
