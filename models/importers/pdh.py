"""PDH CSV/TSV: the counter-log format of Windows performance monitor, typeperf and relog
[ms-typeperf], which VMware esxtop's batch mode writes too [vmware-esxtop].

The first row is the header: ``"(PDH-CSV 4.0) (<time zone>)(<bias in minutes>)"`` then one counter
path per column, ``\\\\MACHINE\\Object(instance)\\Counter`` (instance optional, and it may itself
hold parentheses: ``Virtual Disk(SQL01 (uuid):scsi0:0)``). Each following row is a sample time
then the counter values, usually quoted; a blank (or single space) value is a missing sample.
Files written on a localised Windows keep the quoted commas but may write decimal commas
(``"12,5"``), and tools that re-save them use ``;`` or tabs between fields: the separator is the
character after the first field, the decimal mark is read from the values
(:func:`models.importers.textutil.decimal_mark`).

:func:`read_pdh` streams the rows in chunks (a few hundred rows at a time), converts only the
columns of the counters it uses, and hands each device's rates to the series builder; every other
counter is listed as unknown, never an error. A malformed value is a :class:`ParseError` naming
the line, the column and the counter.
"""

from __future__ import annotations

import csv
import itertools
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from models.importers.common import ParseError
from models.importers.hoststats import ReadReport
from models.importers.series import SeriesBuilder, rates_from_roles
from models.importers.textutil import Clock, decimal_mark, number, split_date_time
from models.importers.windows import HostStatsOptions

CHUNK_ROWS = 256
SNIFF_ROWS = 32


@dataclass(frozen=True)
class CounterPath:
    machine: str | None
    object: str
    instance: str | None
    counter: str


def parse_counter_path(text: str) -> CounterPath | None:
    """``\\\\HOST\\PhysicalDisk(0 C:)\\Disk Reads/sec`` -> its parts; None when it is not a path."""
    s = text.strip()
    machine = None
    if s.startswith("\\\\"):
        machine, sep, s = s[2:].partition("\\")
        if not sep:
            return None
    else:
        s = s.lstrip("\\")
    obj_part, sep, counter = s.rpartition("\\")
    if not sep or not obj_part or not counter:
        return None
    instance = None
    if obj_part.endswith(")") and "(" in obj_part:
        cut = obj_part.index("(")
        obj_part, instance = obj_part[:cut], obj_part[cut + 1 : -1]
    return CounterPath(machine, obj_part.strip(), instance, counter.strip())


Classification = tuple[str, str, str, float, int]
"""(device name, device kind, role, scale, rank): the value x scale is in the role's unit; of two
columns with the same role on one device the lower rank is used (``queue_part`` columns add)."""
Classify = Callable[[CounterPath], Classification | None]
STATIC_ROLES = frozenset({"free_pct", "free_mb"})
"""Roles that describe a device rather than its load (the last value read is kept)."""


def _floats(fields: Sequence[str], dec: str) -> list[float] | None:
    """The fields as numbers (blank: NaN), None when one is not a number."""
    try:  # the common case first: plain numbers
        if dec == ".":
            return list(map(float, fields))
        return [float(f.replace(",", ".")) for f in fields]
    except ValueError:
        pass
    try:
        return [number(f, dec) for f in fields]
    except ValueError:
        return None


def _rows(reader: Any) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each row; a row running over several lines (a quote left open)
    is an error at the line where it starts."""
    last = reader.line_num
    for row in reader:
        if reader.line_num > last + 1:
            raise ParseError("a quoted field is not closed on its line", last + 1)
        last = reader.line_num
        yield last, row


def _date_separator(head: list[tuple[int, list[str]]]) -> str:
    for _, row in head:
        parts = split_date_time(row[0]) if row else None
        if parts is not None:
            return parts[3]
    return "/"


def _delimiter(header: str) -> str:
    if header.startswith('"'):
        end = 1
        while True:
            end = header.find('"', end)
            if end < 0:
                break
            if header[end + 1 : end + 2] == '"':
                end += 2
                continue
            nxt = header[end + 1 : end + 2]
            return nxt if nxt in (",", ";", "\t") else ","
    candidates = [(header.find(c), c) for c in (",", ";", "\t") if c in header]
    return min(candidates)[1] if candidates else ","


DeviceColumns = dict[str, tuple[str, dict[str, list[tuple[int, float]]]]]
"""device -> (kind, role -> [(column, scale)]): the columns each device's rates add up."""


def _device_columns(
    header: list[str],
    paths: list[CounterPath | None],
    machines: set[str],
    classify: Classify,
    report: ReadReport,
) -> tuple[DeviceColumns, dict[str, dict[str, int]]]:
    """The header's columns by device and role (the best-ranked counter of each role; every
    ``queue_part``), and the columns of static roles (``free_pct``, ``free_mb``); unknown
    counters go to ``report``. Device names carry the machine when the log has several."""
    devices: DeviceColumns = {}
    static: dict[str, dict[str, int]] = {}
    ranks: dict[tuple[str, str], int] = {}
    for j, path in enumerate(paths[1:], start=1):
        if path is None:
            report.unknown_counter(header[j].strip() or f"(column {j + 1}: empty header)")
            continue
        found = classify(path)
        if found is None:
            report.unknown_counter(f"{path.object}\\{path.counter}")
            continue
        device, kind, role, scale, rank = found
        if len(machines) > 1 and path.machine:
            device = f"\\\\{path.machine}\\{device}"
        if role in STATIC_ROLES:
            static.setdefault(device, {})[role] = j
            continue
        entry = devices.setdefault(device, (kind, {}))
        if role == "queue_part" or role not in entry[1]:
            entry[1].setdefault(role, []).append((j, scale))
            ranks[(device, role)] = rank
        elif rank < ranks[(device, role)]:
            entry[1][role] = [(j, scale)]
            ranks[(device, role)] = rank
    return devices, static


def _first_rows(rows: Iterator[tuple[int, list[str]]], reader: Any) -> list[tuple[int, list[str]]]:
    """Up to :data:`SNIFF_ROWS` non-blank rows with their line numbers (to sniff the formats)."""
    head: list[tuple[int, list[str]]] = []
    for _, row in rows:
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        head.append((reader.line_num, row))
        if len(head) >= SNIFF_ROWS:
            break
    return head


def _role_sums(
    m: np.ndarray, roles: dict[str, list[tuple[int, float]]], pos: dict[int, int]
) -> dict[str, np.ndarray]:
    """Each role's series over a chunk of rows ``m``: its columns scaled and added."""
    arrays: dict[str, np.ndarray] = {}
    for role, cols in roles.items():
        total = None
        for j, scale in cols:
            col = m[:, pos[j]] * scale
            total = col if total is None else total + col
        if total is not None:
            arrays[role] = total
    return arrays


def _keep_last(
    m: np.ndarray, static: dict[str, dict[str, int]], pos: dict[int, int], last: dict[str, dict[str, float]]
) -> None:
    """The last finite value of each static role in a chunk of rows ``m``, into ``last``."""
    for name, roles in static.items():
        for role, j in roles.items():
            col = m[:, pos[j]]
            ok = col[np.isfinite(col)]
            if ok.size:
                last.setdefault(name, {})[role] = float(ok[-1])


def read_pdh(
    lines: Iterator[str],
    builder: SeriesBuilder,
    options: HostStatsOptions,
    report: ReadReport,
    classify: Classify,
    expected: str,
) -> dict[str, dict[str, float]]:
    """Stream a PDH CSV/TSV file into ``builder``; returns the last value of each device's
    static roles (``free_pct``, ``free_mb``). Fills ``report`` (variant, host, lines, unknown
    counters, notes). ``expected`` names the objects the classifier reads (for the error when the
    log has none of them)."""
    first = next(lines, None)
    if first is None:
        raise ParseError("the file is empty")
    first = first.lstrip("\ufeff")
    delim = _delimiter(first)
    reader = csv.reader(itertools.chain([first], lines), delimiter=delim, quotechar='"')
    header = next(reader)
    if not header or not header[0].strip().startswith("(PDH-"):
        raise ParseError(
            "not a performance-monitor log: the first column should be '(PDH-CSV 4.0) ...'", 1, 1
        )
    zone = header[0].strip()
    paths = [parse_counter_path(cell) for cell in header]
    machines = {p.machine for p in paths[1:] if p is not None and p.machine}
    devices, static = _device_columns(header, paths, machines, classify, report)
    if not devices:
        objects = sorted({p.object for p in paths[1:] if p is not None})
        raise ParseError(
            "no disk counters this reader knows in the log (it reads the English counter names: "
            f"{expected}); the log has the objects {', '.join(objects[:12]) or 'none'}",
            1,
        )
    report.host = ", ".join(sorted(machines)) if machines else None
    if len(machines) > 1:
        report.note(f"counters of {len(machines)} machines: device names carry the machine")
    columns = sorted({j for _, roles in devices.values() for cols in roles.values() for j, _ in cols})
    columns += sorted({j for roles in static.values() for j in roles.values()} - set(columns))
    pos = {j: p for p, j in enumerate(columns)}
    width = len(header)
    pick: Callable[[list[str]], Sequence[str]] = (
        operator.itemgetter(*columns) if len(columns) > 1 else lambda row: tuple(row[j] for j in columns)
    )

    # sniff the decimal mark and the date order from the first rows
    rows = _rows(reader)
    head = _first_rows(rows, reader)
    dec = decimal_mark(row[j] for _, row in head for j in columns if j < len(row)) or "."
    clock = Clock(options.date_order, dec)
    clock.learn(row[0] for _, row in head if row)
    if clock.note:
        report.note(clock.note)
    sep_name = {",": "comma", ";": "semicolon", "\t": "tab"}[delim]
    report.variant = (
        f"{zone.strip('()').split(')')[0]} log, {sep_name}-separated, decimal "
        f"{'comma' if dec == ',' else 'point'}, dates {clock.order_of(_date_separator(head))}"
    )

    indices = {name: builder.device(name, kind) for name, (kind, _) in devices.items()}
    usable = set(indices)
    last_static: dict[str, dict[str, float]] = {}
    short_row: tuple[int, int] | None = None
    rows_read = 0

    def flush(times: list[float], values: list[list[float]]) -> None:
        if not times:
            return
        t = np.asarray(times)
        m = np.asarray(values, dtype=np.float64)
        for name, (_, roles) in devices.items():
            if name not in usable:
                continue
            rates = rates_from_roles(_role_sums(m, roles, pos), report.notes, name)
            if rates is None:
                usable.discard(name)
                continue
            builder.add(t, np.full(t.size, indices[name]), *rates)
        _keep_last(m, static, pos, last_static)

    times: list[float] = []
    values: list[list[float]] = []
    for line_no, row in itertools.chain(head, rows):
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if short_row is not None:
            raise ParseError(f"{short_row[1]} fields where the header has {width}", short_row[0])
        if len(row) < width:
            short_row = (line_no, len(row))  # a file cut short ends with one: an error only mid-file
            continue
        rows_read += 1
        times.append(clock.seconds(row[0], line_no, 1))
        converted = _floats(pick(row), dec)
        if converted is None:
            bad = next(j for j in columns if _floats((row[j],), dec) is None)
            raise ParseError(f"not a number: {row[bad]!r}", line_no, bad + 1, header[bad])
        values.append(converted)
        if len(times) >= CHUNK_ROWS:
            flush(times, values)
            times, values = [], []
    flush(times, values)
    if short_row is not None:
        report.note(f"the last line ({short_row[0]}) is cut short: left out")
    report.lines = rows_read + 1
    if rows_read == 0:
        raise ParseError("the log has a header but no sample rows")
    return last_static
