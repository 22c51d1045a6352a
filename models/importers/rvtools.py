"""RVTools workbooks (a VMware vSphere inventory) -> capacity per datastore, cluster, folder or host.

RVTools exports one sheet per vSphere view [rvtools-docs]; read here:

* ``vInfo``, one row per VM: ``VM``, ``Powerstate``, ``Template``, ``Provisioned MiB`` and
  ``In Use MiB`` (``MB`` in exports before RVTools 4.1: the same binary unit), ``Datacenter``,
  ``Cluster``, ``Host``, ``Folder``;
* ``vDatastore``, one row per datastore: ``Name``, ``Type``, ``Capacity MiB``,
  ``Provisioned MiB``, ``In Use MiB``, ``Free MiB``, ``# VMs``;
* ``vDisk`` (``VM``, ``Capacity MiB``, ``Thin``) and ``vPartition`` (``VM``, ``Capacity MiB``,
  ``Consumed MiB``), when present, for the totals per virtual disk and as the guests see them;
* ``vHost`` (``Host``, ``Cluster``), when present, for the number of hosts per cluster.

Grouped by datastore, a group is a ``vDatastore`` row: in use, provisioned, free, capacity. By
cluster, folder or host, a group sums the ``vInfo`` rows of its VMs: in use (what the VMs'
files take today, thin disks as far as they are filled) and provisioned (what they may grow to
when every thin disk fills). A group's workload capacity is its *in use* (``TB = MiB x 2^20 /
10^12``); ``provisioned / in use - 1`` is the growth already promised to the VMs, a stated
ceiling rather than a rate. RVTools has no performance data: no IOPS are invented, every VM is
listed as without performance until a Live Optics, host or array import covers it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import IO

from pydantic import Field

from models.base import Output
from models.explain import Explained, explained, fmt
from models.importers.liveoptics import WorkbookKind
from models.importers.timeline import CapacitySource
from models.importers.workbook import Table, WorkbookError, open_workbook

MIB = 1024.0**2
MAX_LISTED = 500


class GroupBy(StrEnum):
    DATASTORE = "datastore"
    CLUSTER = "cluster"
    FOLDER = "folder"
    HOST = "host"


class CapacityGroup(Output):
    name: str
    vms: int
    in_use_gb: float = Field(description="capacity in use [GB, decimal]")
    provisioned_gb: float = Field(description="capacity provisioned to the VMs [GB]")
    free_gb: float | None = Field(description="datastore free space [GB] (datastores only)")
    capacity_gb: float | None = Field(description="datastore capacity [GB] (datastores only)")
    capacity_tb: Explained = Field(description="the workload capacity: in use [TB]")
    growth_to_provisioned_pct: float | None = Field(
        description="provisioned / in use - 1 [%]: the growth thin disks may still take"
    )


class RVToolsResult(Output):
    """An RVTools workbook read into capacities."""

    format: WorkbookKind = WorkbookKind.RVTOOLS
    sheets: list[str]
    group_by: GroupBy
    groups: list[CapacityGroup]
    vms: int
    powered_on: int
    templates: int
    in_use_tb: Explained
    provisioned_tb: Explained
    disks: Explained | None = Field(description="vDisk: provisioned capacity of the virtual disks")
    guest_used_tb: Explained | None = Field(description="vPartition: capacity the guests see in use")
    hosts: int | None
    vms_without_performance: list[str] = Field(
        description="every VM (the first 500): RVTools has no performance"
    )
    capacity_sources: list[CapacitySource] = Field(description="the groups, to set a timeline's capacity")
    notes: list[str]


def _mib(t: Table, *names: str) -> int:
    return t.column(*(f"{n} MiB" for n in names), *(f"{n} MB" for n in names))


def _tb(mib: float) -> float:
    return mib * MIB / 1e12


def _sum_column(t: Table, col: int) -> tuple[float, int]:
    total, rows = 0.0, 0
    for number, row in t.rows():
        total += t.number(row, col, number, blank=0.0) or 0.0
        rows += 1
    return total, rows


def _figure(mib: float, what: str, sheet: str, column: str, rows: int, unit_note: str = "") -> Explained:
    tb = _tb(mib)
    return explained(
        tb,
        "TB",
        f"{what} = sum over the {rows} rows of {column!r} x 2^20 / 10^12{unit_note}",
        f"{what} = {fmt(mib)} MiB = {fmt(tb)} TB",
        source=f"sheet {sheet!r}, column {column!r}",
    )


def import_rvtools(
    raw: bytes | IO[bytes], group_by: GroupBy = GroupBy.CLUSTER, *, max_unpacked_bytes: int | None = None
) -> RVToolsResult:
    """Read an RVTools workbook (see the module docstring); :class:`WorkbookError` names the
    sheet, row and column at fault."""
    book = open_workbook(raw, **({"max_unpacked_bytes": max_unpacked_bytes} if max_unpacked_bytes else {}))
    if book.has("vInfo") is None and book.has("VMs", "VM Performance"):
        raise WorkbookError("this is a Live Optics workbook (VMs, VM Performance): import it as Live Optics")
    info = book.table("vInfo")
    vm_col = info.column("VM")
    prov_col = _mib(info, "Provisioned")
    used_col = _mib(info, "In Use")
    power_col = info.find("Powerstate", "Power State")
    template_col = info.find("Template")
    key_col = None
    if group_by != GroupBy.DATASTORE:
        key_col = info.column({"cluster": "Cluster", "folder": "Folder", "host": "Host"}[group_by.value])
    names: list[str] = []
    on = 0
    templates = 0
    groups: dict[str, list[float]] = {}
    total_used = total_prov = 0.0
    for number, row in info.rows():
        vm = info.text(row, vm_col)
        names.append(vm)
        used = info.number(row, used_col, number, blank=0.0) or 0.0
        prov = info.number(row, prov_col, number, blank=0.0) or 0.0
        total_used += used
        total_prov += prov
        if power_col is not None and info.text(row, power_col).lower() == "poweredon":
            on += 1
        if template_col is not None and info.text(row, template_col).lower() in ("true", "1", "yes"):
            templates += 1
        if key_col is not None:
            key = info.text(row, key_col) or "(none)"
            g = groups.setdefault(key, [0.0, 0.0, 0.0])
            g[0] += 1
            g[1] += used
            g[2] += prov
    if not names:
        raise WorkbookError("no VMs", info.sheet)
    used_name, prov_name = info.name_of(used_col), info.name_of(prov_col)
    result_groups: list[CapacityGroup] = []
    if group_by == GroupBy.DATASTORE:
        ds = book.table("vDatastore")
        name_col = ds.column("Name", "Datastore")
        cols = {k: _mib(ds, k) for k in ("Capacity", "Provisioned", "In Use", "Free")}
        vms_col = ds.find("# VMs", "# VMs total", "VMs")
        for number, row in ds.rows():
            v = {k: ds.number(row, c, number, blank=0.0) or 0.0 for k, c in cols.items()}
            count = int(ds.number(row, vms_col, number, blank=0.0) or 0) if vms_col is not None else 0
            result_groups.append(
                _group(
                    ds.text(row, name_col),
                    count,
                    v["In Use"],
                    v["Provisioned"],
                    v["Free"],
                    v["Capacity"],
                    ds.sheet,
                    ds.name_of(cols["In Use"]),
                )
            )
    else:
        for key, (n_vms, used, prov) in sorted(groups.items()):
            result_groups.append(_group(key, int(n_vms), used, prov, None, None, info.sheet, used_name))
    notes = [
        f"RVTools has no performance data: IOPS are not known for the {len(names)} VMs; import Live "
        "Optics, host or array statistics for them (their capacity is counted here)",
        "in use counts thin disks as far as they are filled; provisioned is what they may grow to",
    ]
    if templates:
        notes.append(f"{templates} templates are counted (their disks take space)")
    disks = guest = None
    if (sheet := book.has("vDisk")) is not None:
        d = book.table(sheet)
        col = _mib(d, "Capacity")
        mib, rows = _sum_column(d, col)
        disks = _figure(mib, "C_disks", d.sheet, d.name_of(col), rows)
    if (sheet := book.has("vPartition")) is not None:
        p = book.table(sheet)
        col = _mib(p, "Consumed")
        mib, rows = _sum_column(p, col)
        guest = _figure(mib, "C_guest", p.sheet, p.name_of(col), rows)
    hosts = None
    if (sheet := book.has("vHost")) is not None:
        h = book.table(sheet)
        h.column("Host")
        hosts = sum(1 for _ in h.rows())
    return RVToolsResult(
        sheets=book.sheet_names,
        group_by=group_by,
        groups=result_groups,
        vms=len(names),
        powered_on=on,
        templates=templates,
        in_use_tb=_figure(total_used, "C_in_use", info.sheet, used_name, len(names)),
        provisioned_tb=_figure(total_prov, "C_provisioned", info.sheet, prov_name, len(names)),
        disks=disks,
        guest_used_tb=guest,
        hosts=hosts,
        vms_without_performance=names[:MAX_LISTED],
        capacity_sources=[
            CapacitySource(
                name=g.name[:200] or "(none)",
                capacity_tb=max(g.capacity_tb.value or 0.0, 1e-6),
                source=f"RVTools {group_by.value} {g.name}: {g.capacity_tb.source}"[:300],
            )
            for g in result_groups
            if (g.capacity_tb.value or 0.0) > 0
        ],
        notes=notes,
    )


def _group(
    name: str,
    vms: int,
    used_mib: float,
    prov_mib: float,
    free_mib: float | None,
    capacity_mib: float | None,
    sheet: str,
    column: str,
) -> CapacityGroup:
    gb = MIB / 1e9
    return CapacityGroup(
        name=name,
        vms=vms,
        in_use_gb=round(used_mib * gb, 3),
        provisioned_gb=round(prov_mib * gb, 3),
        free_gb=None if free_mib is None else round(free_mib * gb, 3),
        capacity_gb=None if capacity_mib is None else round(capacity_mib * gb, 3),
        capacity_tb=_figure(used_mib, "C", sheet, column, max(vms, 1)),
        growth_to_provisioned_pct=round((prov_mib / used_mib - 1.0) * 100.0, 2) if used_mib > 0 else None,
    )


__all__ = ["CapacityGroup", "GroupBy", "RVToolsResult", "import_rvtools"]
