"""``iostat`` text (sysstat): extended (``-x``) or basic (``-d``) device reports, with or without
``-t`` timestamps, in any of sysstat's column layouts (see :mod:`models.importers.sysstat`).

A report is a ``Device`` header line and one line per device; ``avg-cpu`` blocks between reports
are skipped. With ``-t`` a date-time line (``01/15/2024 09:00:01 AM``, ``15/01/24 09:00:01``,
``2024-01-15T09:00:01+0100``...) precedes each report and the series has a clock; without it the
reports are ``interval_s`` apart (iostat does not write its interval: give it, else 60 s is
assumed, with a note) and only the sampling order is known. The first report of an iostat run is
the average since boot, not an interval: it is left out unless ``skip_first`` is false (for files
written with ``-y``). Long device names that iostat writes on a line of their own are joined to
the values on the next line.
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
from models.importers.textutil import Clock, split_date_time
from models.importers.windows import HostStatsOptions

DEFAULT_INTERVAL_S = 60.0
LEARN_TIMESTAMPS = 48


def _layout(columns: list[str]) -> str:
    cols = {c.lower() for c in columns}
    units = "kB" if {"rkb/s", "kb_read/s"} & cols else "MB" if {"rmb/s", "mb_read/s"} & cols else "sectors"
    if "r/s" not in cols:
        return f"basic report (iostat -d: transfers per second, no read/write split), {units}"
    if "rareq-sz" in cols and "d/s" in cols:
        return f"extended, sysstat 12 layout with discard columns, {units}"
    if "rareq-sz" in cols:
        return f"extended, sysstat 11.6-12 layout (aqu-sz, rareq-sz), {units}"
    if "r_await" in cols:
        return f"extended, sysstat 9.1-11 layout (r_await/w_await, avgqu-sz), {units}"
    return f"extended, early sysstat layout (one await), {units}"


def read_iostat(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read iostat device reports (see the module docstring)."""
    report = ReadReport(format=HostFormat.IOSTAT, default_kinds=LINUX_DEFAULTS)
    chunks = SampleChunks(builder, report)
    columns: list[str] | None = None
    roles: dict[int, tuple[str, float]] = {}
    layouts: list[str] = []
    clock: Clock | None = None  # settled once the date order is known
    learner = Clock(options.date_order)
    stamps: list[str] = []
    next_time: str | None = None
    report_no = -1
    report_time: str | float | None = None
    timestamps = None  # True/False once the first report tells
    skip_cpu_values = False
    pending_name: tuple[int, str] | None = None
    line_no = 0
    kinds: dict[str, str] = {}

    for line_no, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            columns = None  # a device block ends at a blank line
            pending_name = None
            continue
        if skip_cpu_values:
            skip_cpu_values = False
            if line[0].isdigit() or line[0] == "-":
                continue
        found = banner(line) if line.startswith(("Linux", "SunOS", "AIX", "HP-UX")) else None
        if found:
            report.host = found[0]
            stamps.append(found[1])
            continue
        if line.startswith("avg-cpu:"):
            skip_cpu_values = True
            continue
        if line.startswith("Device"):
            columns = line.split()[1:]
            new_roles = column_roles(columns, report)
            if not layouts or layouts[-1] != _layout(columns):
                layouts.append(_layout(columns))
            report_no += 1
            if timestamps is None:
                timestamps = next_time is not None
                numbered = _numbered_reports(timestamps, builder, options, report)
                if numbered is not None:
                    clock = numbered
            if timestamps:
                if next_time is None:
                    raise ParseError("a report without the timestamp line the others have", line_no)
                report_time = next_time
            else:
                report_time = (report_no + 1) * builder.interval_s  # type: ignore[operator]
            next_time = None
            if roles != new_roles:
                chunks.layout(new_roles, clock)
                roles = new_roles
            continue
        if columns is None:
            if split_date_time(line) is not None:
                next_time = line
                if clock is None:
                    stamps.append(line)
                    if len(stamps) >= LEARN_TIMESTAMPS:
                        clock = _settle(learner, stamps, report)
                continue
            raise ParseError(f"not an iostat line: {line[:60]!r}", line_no)
        tokens = line.split()
        if len(tokens) == 1 and pending_name is None:
            pending_name = (line_no, tokens[0])  # a long name on its own line, values next
            continue
        if pending_name is not None:
            tokens = [pending_name[1], *tokens]
            pending_name = None
        if len(tokens) != len(columns) + 1:
            raise ParseError(f"{len(tokens) - 1} values where the header has {len(columns)}", line_no)
        if report_no == 0 and options.skip_first:
            continue
        name = tokens[0]
        values = _values(tokens[1:], columns, line_no)
        if name not in kinds:
            kinds[name] = device_kind(name)
        assert report_time is not None
        chunks.add(report_time, builder.device(name, kinds[name]), values, clock)
    if clock is None:
        clock = _settle(learner, stamps, report)
    chunks.flush(clock)
    if report_no < 0:
        raise ParseError("no iostat device report (a 'Device' header line) found")
    _describe(report, options, kinds, layouts, bool(timestamps))
    report.lines = line_no
    return report


def _settle(learner: Clock, stamps: list[str], report: ReadReport) -> Clock:
    """The clock, its date order learnt from the timestamps seen (noted when it had to guess)."""
    learner.learn(stamps)
    if learner.note:
        report.note(learner.note)
    return learner


def _numbered_reports(
    timestamps: bool, builder: SeriesBuilder, options: HostStatsOptions, report: ReadReport
) -> Clock | None:
    """Set the series' clock from the first report: its timestamps, or (without ``-t``) reports
    numbered ``interval_s`` apart; then a clock that reads no times, else None."""
    builder.clock = timestamps
    if timestamps:
        return None
    interval = options.interval_s or DEFAULT_INTERVAL_S
    builder.interval_s = interval
    if options.interval_s is None:
        report.note(
            f"no timestamps (iostat without -t): reports taken as {interval:g} s apart; "
            "give interval_s, the iostat interval"
        )
    return Clock("ymd")  # not used for times: reports are numbered


def _values(tokens: list[str], columns: list[str], line_no: int) -> list[float]:
    """A device line's numbers; a :class:`ParseError` at the first that is not one."""
    values = []
    for i, tok in enumerate(tokens):
        try:
            values.append(to_float(tok))
        except ValueError:
            raise ParseError(f"not a number: {tok!r}", line_no, i + 2, columns[i]) from None
    return values


def _describe(
    report: ReadReport, options: HostStatsOptions, kinds: dict[str, str], layouts: list[str], timestamps: bool
) -> None:
    """The report's notes on what was left out or assumed, and the variant read."""
    if options.skip_first:
        report.note(
            "the first report (iostat's average since boot) is left out; set skip_first=false "
            "if the file was written with -y"
        )
    if any(k != "disk" for k in kinds.values()):
        report.note(DEFAULT_NOTE)
    stamp_text = ", -t timestamps" if timestamps else ", no timestamps"
    report.variant = "iostat " + "; ".join(layouts) + stamp_text
