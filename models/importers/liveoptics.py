"""Live Optics (formerly DPACK) project workbooks -> workloads with a phase per busy window.

A Live Optics collection exported to Excel has, for a vSphere project, the sheets ``Details``
(project key/values), ``VMs`` (one row per VM: ``VM Name``, ``Cluster``, ``Power State``,
``Virtual Disk Size (MiB)``, ``Virtual Disk Used (MiB)``; ``(MB)`` in older exports),
``VM Performance`` (per VM: ``Avg Read IOPS``, ``Avg Write IOPS``, ``Peak Read IOPS``,
``Peak Write IOPS``, ``Avg Read MB/s``, ``Avg Write MB/s``, ``Peak Read MB/s``,
``Peak Write MB/s``), ``ESX Performance`` (per host: ``Peak IOPS``, ``Average IOPS``,
``95% IOPS``, ``Peak Throughput MB/s``, ``Avg Throughput MB/s``) and ``Host Devices``
(``Capacity (GiB)``, ``Used Capacity (GiB)``, ``Free Capacity (GiB)``)
[liveoptics-workbook] [vmware-cloud-sizer-cli].

Performance is read two ways:

* **Time series**: a sheet with a time column (``Timestamp``, ``Time``, ``Sample Time``...), an
  optional server column (``Server``, ``Server Name``, ``Host``, ``VM Name``) and per-interval
  ``Read IOPS``, ``Write IOPS``, ``Read MB/s``, ``Write MB/s`` (optionally ``Read Latency (ms)``,
  ``Write Latency (ms)``, ``Queue Depth``) is found by its columns, whatever its name, and read
  like host statistics (:mod:`~models.importers.series`): the busy windows are detected, each
  becomes a phase at the options' statistic (95th percentile by default) with the observed
  latency as evidence, and the series can be lined up with other imports (:mod:`~models.importers.timeline`).
* **Summary** (no time series in the workbook): the aggregate workload gets a ``peak`` phase,
  ``IOPS = sum over VMs of (Peak Read IOPS + Peak Write IOPS)``: the sum of each VM's own peak,
  which overstates the coincident peak (conservative, and said so), and, when ``ESX Performance``
  has ``95% IOPS``, a ``95th percentile`` phase summing the hosts' 95th percentiles. The read
  share and I/O sizes come from the average columns (``size = MB/s / IOPS``).

Capacity comes from ``VMs`` (``Virtual Disk Used``, per VM: a time-series server named like a VM
gets that VM's capacity) else ``Host Devices`` (``Used Capacity``); MiB and GiB are binary and
become decimal TB for the workload (``TB = MiB x 2^20 / 10^12``). Throughput columns in ``MB/s``
are taken as 10^6 bytes per second. Every figure says which sheet, column and statistic it came from.
"""

from __future__ import annotations

from datetime import UTC
from enum import StrEnum
from typing import IO, Any

import numpy as np
from pydantic import Field

from models.base import InputError, Output
from models.explain import Explained, explained, fmt
from models.importers.common import merge_sizes
from models.importers.hoststats import ReadReport, SeriesImport, analyse
from models.importers.series import SeriesBuilder, rates_from_roles
from models.importers.timeline import LoadSeries
from models.importers.windows import HostStatsOptions
from models.importers.workbook import Table, Workbook, WorkbookError, open_workbook
from models.workload import Phase, Workload

MIB = 1024.0**2
GIB = 1024.0**3
CHUNK_ROWS = 8192


class WorkbookKind(StrEnum):
    LIVE_OPTICS = "live-optics"
    RVTOOLS = "rvtools"


TIME_COLUMNS = ("Timestamp", "Time Stamp", "Time", "Sample Time", "Date Time", "DateTime", "Date")
SERVER_COLUMNS = ("Server", "Server Name", "Host", "Host Name", "VM Name", "VM", "Object", "Name")
SERIES_COLUMNS: dict[str, tuple[tuple[str, ...], float]] = {
    # role -> (accepted headers, scale to the builder's unit)
    "r_iops": (("Read IOPS",), 1.0),
    "w_iops": (("Write IOPS",), 1.0),
    "t_iops": (("IOPS", "Total IOPS"), 1.0),
    "r_bps": (("Read MB/s", "Read Throughput (MB/s)", "Read Throughput MB/s"), 1e6),
    "w_bps": (("Write MB/s", "Write Throughput (MB/s)", "Write Throughput MB/s"), 1e6),
    "t_bps": (("Throughput (MB/s)", "Throughput MB/s", "Total MB/s"), 1e6),
    "r_lat_ms": (("Read Latency (ms)", "Read Latency"), 1.0),
    "w_lat_ms": (("Write Latency (ms)", "Write Latency"), 1.0),
    "t_lat_ms": (("Latency (ms)", "Average Latency (ms)"), 1.0),
    "queue": (("Queue Depth", "Avg Queue Depth", "Average Queue Depth"), 1.0),
}


class LiveOpticsResult(Output):
    """A Live Optics workbook read into workloads."""

    format: WorkbookKind = WorkbookKind.LIVE_OPTICS
    sheets: list[str] = Field(description="the workbook's sheets")
    project: dict[str, str] = Field(description="the Details sheet's key/values (the first 40)")
    performance: str = Field(description="'time series' (sheet named in stats_sheet) or 'summary'")
    stats_sheet: str | None
    statistic: str = Field(description="the statistic the phases' IOPS are")
    stats: SeriesImport | None = Field(description="the time series read like host statistics")
    figures: list[Explained] = Field(
        description="each figure, with the sheet, columns and statistic behind it"
    )
    capacity_tb: Explained | None
    vms: int
    workloads: list[Workload]
    series: LoadSeries | None
    notes: list[str]


def _summary_figure(
    value: float, unit: str, what: str, sheet: str, columns: list[str], rows: int
) -> Explained:
    cols = " + ".join(repr(c) for c in columns)
    return explained(
        value,
        unit,
        f"{what} = sum over the {rows} rows of {cols}",
        f"{what} = {fmt(value)} {unit}",
        source=f"sheet {sheet!r}, columns {', '.join(repr(c) for c in columns)}"[:300],
    )


def _series_sheet(book: Workbook) -> Table | None:
    for table in book.tables():
        if table.find(*TIME_COLUMNS) is None:
            continue
        has = {role for role, (names, _) in SERIES_COLUMNS.items() if table.find(*names) is not None}
        if {"r_iops", "w_iops"} <= has or "t_iops" in has:
            return table
    return None


def _read_series(table: Table, builder: SeriesBuilder, report: ReadReport) -> None:
    t_col = table.column(*TIME_COLUMNS)
    s_col = table.find(*SERVER_COLUMNS)
    roles = {}
    for role, (names, scale) in SERIES_COLUMNS.items():
        i = table.find(*names)
        if i is not None:
            roles[role] = (i, scale)
    used = {t_col, *(i for i, _ in roles.values())} | ({s_col} if s_col is not None else set())
    for i, h in enumerate(table.header):
        if i not in used and h:
            report.unknown_counter(h)
    report.source = (
        f"sheet {table.sheet!r}, columns " + ", ".join(repr(table.name_of(i)) for i, _ in roles.values())
    )[:300]
    columns = [i for i, _ in roles.values()]
    rows = 0
    for first, chunk in table.chunks(CHUNK_ROWS):
        kept = [(first + k, r) for k, r in enumerate(chunk) if r[t_col] is not None and r[t_col] != ""]
        if not kept:
            continue
        numbers = [n for n, _ in kept]
        cells = [r for _, r in kept]
        times = _seconds(table, t_col, numbers, cells)
        values = _numbers(table, columns, numbers, cells)
        if s_col is None:
            devices = np.full(len(cells), builder.device("all servers", "server"), dtype=np.int64)
        else:
            keys = [r[s_col] for r in cells]
            ids = {c: builder.device(_name(c), "server") for c in dict.fromkeys(keys)}
            devices = np.fromiter(map(ids.__getitem__, keys), dtype=np.int64, count=len(keys))
        arrays = {role: values[:, k] * scale for k, (role, (_, scale)) in enumerate(roles.items())}
        rates = rates_from_roles(arrays, report.notes, "the servers")
        if rates is not None:
            builder.add(times, devices, *rates)
        rows += len(cells)
    report.lines = rows
    report.zone = None
    if not rows:
        raise WorkbookError("the time series has no rows", table.sheet)


def _name(cell: Any) -> str:
    if cell is None or cell == "":
        return "(unnamed)"
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell).strip() or "(unnamed)"


def _seconds(table: Table, col: int, numbers: list[int], rows: list[list[Any]]) -> np.ndarray:
    """Column ``col`` of ``rows`` as seconds since the epoch (the file's clock): date cells at
    once, anything else (text, serial days) cell by cell, naming a cell that is no time."""
    try:
        stamps = np.asarray([r[col] for r in rows], dtype="datetime64[s]")
        return stamps.astype(np.int64).astype(np.float64)
    except (TypeError, ValueError):
        pass
    out = np.empty(len(rows))
    for k, (n, r) in enumerate(zip(numbers, rows, strict=True)):
        t = table.moment(r, col, n)
        if t.tzinfo is not None:
            raise WorkbookError(
                "a time with a UTC offset: give the sheet's times in one clock, without offsets",
                table.sheet,
                n,
                table.name_of(col),
            )
        out[k] = t.replace(tzinfo=UTC).timestamp()
    return out


def _numbers(table: Table, columns: list[int], numbers: list[int], rows: list[list[Any]]) -> np.ndarray:
    """Columns ``columns`` of ``rows`` as floats (blank: NaN), the cell at fault named."""
    try:
        return np.asarray([[r[i] for i in columns] for r in rows], dtype=np.float64)
    except (TypeError, ValueError):
        pass
    return np.asarray(
        [
            [table.number(r, i, n, blank=float("nan")) for i in columns]
            for n, r in zip(numbers, rows, strict=True)
        ],
        dtype=np.float64,
    )


def _vm_capacity(book: Workbook, report: ReadReport, figures: list[Explained]) -> tuple[float | None, int]:
    """Total used capacity [TB] of the VMs (and per VM into ``report.capacities_gb``), VM count."""
    sheet = book.has("VMs")
    if sheet is not None:
        t = book.table(sheet)
        name = t.column("VM Name", "VM")
        used = t.column("Virtual Disk Used (MiB)", "Virtual Disk Used (MB)")
        total = 0.0
        n = 0
        for number, row in t.rows():
            mib = t.number(row, used, number, blank=0.0) or 0.0
            total += mib
            n += 1
            vm = t.text(row, name)
            if vm:
                report.capacities_gb[vm] = report.capacities_gb.get(vm, 0.0) + mib * MIB / 1e9
        tb = total * MIB / 1e12
        figures.append(
            explained(
                tb,
                "TB",
                f"C = sum over the {n} VMs of {t.name_of(used)} x 2^20 / 10^12",
                f"C = {fmt(total)} MiB = {fmt(tb)} TB",
                source=f"sheet {t.sheet!r}, column {t.name_of(used)!r}",
            )
        )
        return tb, n
    sheet = book.has("Host Devices")
    if sheet is not None:
        t = book.table(sheet)
        used = t.column("Used Capacity (GiB)", "Used Capacity (GB)")
        gib = sum(t.number(row, used, number, blank=0.0) or 0.0 for number, row in t.rows())
        tb = gib * GIB / 1e12
        figures.append(
            explained(
                tb,
                "TB",
                f"C = sum of {t.name_of(used)} x 2^30 / 10^12",
                f"C = {fmt(gib)} GiB = {fmt(tb)} TB",
                source=f"sheet {t.sheet!r}, column {t.name_of(used)!r}",
            )
        )
        return tb, 0
    return None, 0


def _summary_phases(book: Workbook, figures: list[Explained], notes: list[str]) -> list[Phase]:
    """The ``peak`` (and ``95th percentile``) phases of a workbook without a time series."""
    sheet = book.has("VM Performance")
    if sheet is None:
        raise WorkbookError(
            "no performance in the workbook: neither a time series sheet (Timestamp, Read IOPS, "
            "Write IOPS...) nor the 'VM Performance' sheet"
        )
    t = book.table(sheet)
    cols = {
        key: t.column(key)
        for key in (
            "Peak Read IOPS",
            "Peak Write IOPS",
            "Avg Read IOPS",
            "Avg Write IOPS",
            "Avg Read MB/s",
            "Avg Write MB/s",
        )
    }
    sums = dict.fromkeys(cols, 0.0)
    rows = 0
    for number, row in t.rows():
        rows += 1
        for key, i in cols.items():
            sums[key] += t.number(row, i, number, blank=0.0) or 0.0
    peak = sums["Peak Read IOPS"] + sums["Peak Write IOPS"]
    avg_r, avg_w = sums["Avg Read IOPS"], sums["Avg Write IOPS"]
    read_pct = 100.0 * avg_r / (avg_r + avg_w) if avg_r + avg_w > 0 else 0.0
    r_kib = sums["Avg Read MB/s"] * 1e6 / avg_r / 1024.0 if avg_r > 0 else 4.0
    w_kib = sums["Avg Write MB/s"] * 1e6 / avg_w / 1024.0 if avg_w > 0 else 4.0
    sizes = merge_sizes(
        [(round(min(r_kib, 16384.0), 3), read_pct), (round(min(w_kib, 16384.0), 3), 100.0 - read_pct)]
    )
    figures.append(
        _summary_figure(peak, "IO/s", "IOPS_peak", t.sheet, ["Peak Read IOPS", "Peak Write IOPS"], rows)
    )
    figures.append(
        explained(
            read_pct,
            "%",
            "read % = sum Avg Read IOPS / sum (Avg Read IOPS + Avg Write IOPS)",
            f"read % = {fmt(avg_r)} / {fmt(avg_r + avg_w)} = {fmt(read_pct)} %",
            source=f"sheet {t.sheet!r}, columns 'Avg Read IOPS', 'Avg Write IOPS'",
        )
    )
    notes.append(
        "the workbook has no time series: the peak phase sums each VM's own peak (they need not "
        "coincide, so this overstates the coincident peak: conservative); no busy windows can be found"
    )
    phases = [
        Phase(
            name="peak",
            window="peak",
            iops=round(peak, 3),
            read_pct=round(read_pct, 4),
            random_pct=100.0,
            io_sizes=sizes,
        )
    ]
    esx = book.has("ESX Performance")
    if esx is not None:
        e = book.table(esx)
        p95 = e.find("95% IOPS", "95th Percentile IOPS")
        if p95 is not None:
            hosts = [e.number(row, p95, number, blank=0.0) or 0.0 for number, row in e.rows()]
            total = sum(hosts)
            figures.append(_summary_figure(total, "IO/s", "IOPS_p95", e.sheet, [e.name_of(p95)], len(hosts)))
            if total > 0:
                phases.append(
                    Phase(
                        name="95th percentile",
                        window="95th percentile",
                        iops=round(total, 3),
                        read_pct=round(read_pct, 4),
                        random_pct=100.0,
                        io_sizes=sizes,
                    )
                )
    return phases


def import_live_optics(
    raw: bytes | IO[bytes], options: HostStatsOptions | None = None, *, max_unpacked_bytes: int | None = None
) -> LiveOpticsResult:
    """Read a Live Optics workbook (see the module docstring). Raises
    :class:`~models.importers.workbook.WorkbookError` naming the sheet, row and column, and
    :class:`~models.base.InputError` for options that do not fit it."""
    opts = options or HostStatsOptions()
    book = open_workbook(raw, **({"max_unpacked_bytes": max_unpacked_bytes} if max_unpacked_bytes else {}))
    if book.has("vInfo") and not book.has("VMs", "VM Performance", "Details"):
        raise WorkbookError("this is an RVTools workbook (vInfo): import it as RVTools")
    figures: list[Explained] = []
    project: dict[str, Any] = {}
    details = book.has("Details")
    if details is not None:
        d = book.table(details)
        project[d.header[0]] = d.header[1] if len(d.header) > 1 else ""
        for _, row in d.rows():
            if row and row[0] is not None and len(project) < 40:
                project[str(row[0]).strip()] = "" if len(row) < 2 or row[1] is None else str(row[1]).strip()
    report = ReadReport(
        format=WorkbookKind.LIVE_OPTICS, variant="Live Optics workbook", default_kinds=[("server",)]
    )
    project_name = str(project.get("Project Name") or "").strip()[:80]
    if opts.workload_name is None and project_name:
        opts = opts.model_copy(update={"workload_name": project_name})
    capacity, vms = _vm_capacity(book, report, figures)
    table = _series_sheet(book)
    notes: list[str] = []
    if table is not None:
        builder = SeriesBuilder(
            interval_s=opts.interval_s, resolution_s=opts.resolution_s, max_cells=opts.max_cells
        )
        _read_series(table, builder, report)
        if not all(n in report.capacities_gb for n in builder.names):
            report.capacities_gb.clear()  # servers are not the VMs: the total capacity is the workload's
            if capacity is not None and opts.capacity_tb is None:
                opts = opts.model_copy(update={"capacity_tb": capacity})
        fields = analyse(builder.finish(), report, opts)
        stats = SeriesImport(**fields)
        if capacity is not None and stats.series is not None and stats.series.capacity_tb is None:
            stats = stats.model_copy(
                update={"series": stats.series.model_copy(update={"capacity_tb": capacity})}
            )
        statistic = {"p95": "95th percentile", "mean": "mean", "peak": "peak"}[opts.rate.value]
        return LiveOpticsResult(
            sheets=book.sheet_names,
            project=project,
            performance="time series",
            stats_sheet=table.sheet,
            statistic=f"{statistic} of the interval totals in each window",
            stats=stats,
            figures=figures + [w.load.iops for w in stats.windows if w.offered],
            capacity_tb=figures[0] if figures else None,
            vms=vms,
            workloads=stats.workloads,
            series=stats.series,
            notes=notes + stats.notes,
        )
    name = opts.workload_name or "Live Optics"
    cap = opts.capacity_tb or capacity
    if cap is None:
        notes.append(
            "the workbook gives no capacity (no VMs or Host Devices sheet): 1 TB stands in; give capacity_tb"
        )
        cap = 1.0
    phases = _summary_phases(book, figures, notes)
    try:
        workload = Workload(name=name, capacity_tb=max(cap, 1e-6), phases=phases)
    except ValueError as exc:
        raise InputError("capacity_tb", str(exc)) from exc
    return LiveOpticsResult(
        sheets=book.sheet_names,
        project=project,
        performance="summary",
        stats_sheet=None,
        statistic="sum of each VM's peak (non-coincident: conservative)",
        stats=None,
        figures=figures,
        capacity_tb=figures[0] if figures and figures[0].unit == "TB" else None,
        vms=vms,
        workloads=[workload],
        series=None,
        notes=notes,
    )


__all__ = ["LiveOpticsResult", "WorkbookKind", "import_live_optics"]
