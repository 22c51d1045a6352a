"""``sar -d`` text and ``sadf -d`` output (sysstat), for the block-device activity.

``sar -d``: a banner with the host and the date, then per interval a header line
``<time> DEV tps rkB/s ...`` and one line per device ``<time> <device> <values>``; times are
``HH:MM:SS`` or ``HH:MM:SS AM``, a time earlier than the one before is the next day; ``Average:``
lines and ``LINUX RESTART`` lines are skipped; a new banner starts a new day (concatenated daily
files). ``sadf -d``: ``;``-separated rows ``host;interval;timestamp;DEV;...`` under a
``# hostname;interval;timestamp;DEV;...`` header, with the interval and a full timestamp per row
(``2024-01-15 00:10:01 UTC``: UTC unless written with ``-t``; the windows use the clock as
written, noted); sections of other activities are skipped.

sar gives transfers per second (``tps``) and the bytes read and written but not reads and writes
per second apart: the rates are split by the byte shares (reads and writes assumed of one mean
size, noted) and one ``await`` serves both directions.
"""

from __future__ import annotations

from collections.abc import Iterator

from models.importers.common import ParseError
from models.importers.hoststats import HostFormat, ReadReport
from models.importers.series import SeriesBuilder
from models.importers.sysstat import (
    DEFAULT_NOTE,
    LINUX_DEFAULTS,
    SampleChunks,
    banner,
    column_roles,
    device_kind,
    to_float,
)
from models.importers.textutil import Clock, number, time_of_day
from models.importers.windows import HostStatsOptions


def read_sar(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read ``sar -d`` or ``sadf -d`` output (see the module docstring)."""
    first = next(lines, None)
    while first is not None and not first.strip():
        first = next(lines, None)
    if first is None:
        raise ParseError("the file is empty")
    if ";" in first and first.lstrip().startswith("#"):
        return _read_sadf(first, lines, builder, options)
    return _read_sar_text(first, lines, builder, options)


def _read_sar_text(
    first: str, lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions
) -> ReadReport:
    report = ReadReport(format=HostFormat.SAR, default_kinds=LINUX_DEFAULTS)
    chunks = SampleChunks(builder, report)
    date_clock = Clock(options.date_order)
    day_s: float | None = None
    previous_tod: float | None = None
    columns: list[str] | None = None
    ampm = False
    kinds: dict[str, str] = {}
    layouts: list[str] = []
    line_no = 0
    clock_set = False
    pending_dates: list[str] = []
    for line_no, raw in enumerate(_with_first(first, lines), start=1):
        line = raw.strip()
        if not line:
            continue
        found = banner(line)
        if found:
            report.host = found[0]
            pending_dates.append(found[1])
            date_clock.learn(pending_dates)
            day_s = date_clock.seconds(found[1], line_no)
            previous_tod = None
            continue
        if line.startswith(("Average:", "Summary")) or "RESTART" in line:
            continue
        tokens = line.split()
        ampm = len(tokens) > 1 and tokens[1].upper() in ("AM", "PM")
        stamp = " ".join(tokens[:2]) if ampm else tokens[0]
        rest = tokens[2:] if ampm else tokens[1:]
        tod = time_of_day(stamp)
        if tod is None:
            raise ParseError(f"not a sar line (it should start with a time): {line[:60]!r}", line_no, 1)
        if rest and rest[0] == "DEV":
            columns = rest[1:]
            roles = column_roles(columns, report)
            chunks.layout(roles, date_clock)
            layout = " ".join(columns)
            if layout not in layouts:
                layouts.append(layout)
            continue
        if rest and len(rest) > 1 and not any(_numeric(x) for x in rest[1:]):
            columns = None  # the header of another activity (sar -A): its lines are not devices
            continue
        if columns is None:
            continue  # a line of another activity: not the devices
        if len(rest) != len(columns) + 1:
            raise ParseError(f"{len(rest) - 1} values where the DEV header has {len(columns)}", line_no)
        if previous_tod is not None and tod < previous_tod - 1.0:
            day_s = (day_s or 0.0) + 86400.0  # past midnight
        previous_tod = tod
        if not clock_set:
            clock_set = True
            if day_s is None:
                report.note("no sar banner with the date: times of day only (the dates are not known)")
        name = rest[0]
        values = []
        for i, tok in enumerate(rest[1:]):
            try:
                values.append(to_float(tok))
            except ValueError:
                column = i + (4 if ampm else 3)
                raise ParseError(f"not a number: {tok!r}", line_no, column, columns[i]) from None
        if name not in kinds:
            kinds[name] = device_kind(name)
        chunks.add((day_s or 0.0) + tod, builder.device(name, kinds[name]), values, date_clock)
    chunks.flush(date_clock)
    if not layouts:
        raise ParseError("no sar -d device header ('<time> DEV tps ...') found")
    if date_clock.note:
        report.note(date_clock.note)
    if any(k != "disk" for k in kinds.values()):
        report.note(DEFAULT_NOTE)
    report.variant = "sar -d text (" + "; ".join(layouts) + ")" + (", 12-hour clock" if ampm else "")
    report.lines = line_no
    return report


def _numeric(token: str) -> bool:
    try:
        to_float(token)
    except ValueError:
        return False
    return True


def _with_first(first: str, lines: Iterator[str]) -> Iterator[str]:
    yield first
    yield from lines


def _read_sadf(
    header_line: str, lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions
) -> ReadReport:
    report = ReadReport(format=HostFormat.SAR, default_kinds=LINUX_DEFAULTS)
    chunks = SampleChunks(builder, report)
    clock = Clock("ymd" if options.date_order == "auto" else options.date_order)
    columns: list[str] | None = None
    kinds: dict[str, str] = {}
    utc = False
    interval: float | None = None
    layouts: list[str] = []
    line_no = 0
    for line_no, raw in enumerate(_with_first(header_line, lines), start=1):
        line = raw.strip()
        if not line:
            continue
        fields = line.split(";")
        if line.startswith("#"):
            head = [f.strip() for f in line.lstrip("#").split(";")]
            if len(head) > 4 and head[3] == "DEV":
                columns = head[4:]
                chunks.layout(column_roles(columns, report), clock)
                layout = " ".join(columns)
                if layout not in layouts:
                    layouts.append(layout)
            else:
                columns = None  # another activity's section
            continue
        if columns is None:
            continue
        if len(fields) != len(columns) + 4:
            raise ParseError(f"{len(fields)} fields where the header has {len(columns) + 4}", line_no)
        host, every, stamp, name = fields[0], fields[1], fields[2].strip(), fields[3]
        report.host = host
        try:
            step = float(every)
        except ValueError:
            raise ParseError(f"not an interval: {every!r}", line_no, 2, "interval") from None
        if interval is None:
            interval = step
            builder.interval_s = options.interval_s or step
        if stamp.endswith("UTC"):
            utc = True
            stamp = stamp[:-3].strip()
        if stamp.replace(".", "", 1).isdigit():
            t = float(stamp)
        else:
            t = clock.seconds(stamp, line_no, 3)
        values = []
        for i, tok in enumerate(fields[4:]):
            try:
                values.append(number(tok, ","))
            except ValueError:
                raise ParseError(f"not a number: {tok!r}", line_no, i + 5, columns[i]) from None
        if name not in kinds:
            kinds[name] = device_kind(name)
        chunks.add(t, builder.device(name, kinds[name]), values, clock)
    chunks.flush(clock)
    if not layouts:
        raise ParseError("no sadf -d section with a DEV column found")
    if utc:
        report.note(
            "sadf -d wrote UTC times: the nightly and daily windows use UTC hours "
            "(write the file with sadf -d -t for the host's local time)"
        )
    if any(k != "disk" for k in kinds.values()):
        report.note(DEFAULT_NOTE)
    report.variant = "sadf -d (" + "; ".join(layouts) + ")" + (", UTC times" if utc else "")
    report.lines = line_no
    return report
