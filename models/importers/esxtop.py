"""VMware ``esxtop -b`` (batch mode) CSV: the PDH CSV format with thousands of columns.

Disk objects used, as esxtop names them in batch output [vmware-esxtop]:

* ``Physical Disk SCSI Device(naa...)``: a LUN or local disk (kind ``device``, used by default);
* ``Physical Disk NFS Volume(datastore)``: an NFS datastore (kind ``volume``, used by default: its
  I/O does not pass through a SCSI device);
* ``Physical Disk Adapter(vmhba1)``: an HBA, the sum of its devices (``adapter``);
* ``Virtual Disk(vm)`` and ``Virtual Disk(vm:scsi0:0)``: a VM and one of its virtual disks
  (``vm``, ``vm-disk``), the guests' view of the same I/O.

Only one level should be summed (adapters, devices and VMs see the same I/O), so the default is
the devices and NFS volumes. Counters: ``Reads/sec``, ``Writes/sec`` (``Commands/sec`` as the
total), ``MBytes Read/sec`` and ``MBytes Written/sec`` (taken as 2^20 bytes), latency per
direction from ``Average Driver MilliSec/Read|Write`` (DAVG: the device and fabric, nearest to
what an array model predicts) else ``Average Guest MilliSec/...`` (GAVG, adds the ESXi kernel
queue) else ``Average MilliSec/...`` (virtual disks), and the queue as ``Active Commands`` +
``Queued Commands``. Every other counter (CPU, memory, network, kernel latency, errors) is listed
as unknown. Timestamps are the host's ``MM/DD/YYYY HH:MM:SS``.
"""

from __future__ import annotations

from collections.abc import Iterator

from models.importers.hoststats import HostFormat, ReadReport
from models.importers.pdh import Classification, CounterPath, read_pdh
from models.importers.series import SeriesBuilder
from models.importers.windows import HostStatsOptions
from models.units import MIB

OBJECTS = {
    "physical disk scsi device": "device",
    "physical disk nfs volume": "volume",
    "physical disk adapter": "adapter",
    "virtual disk": "vm",
}
COUNTERS: dict[str, tuple[str, float]] = {
    "reads/sec": ("r_iops", 1.0),
    "writes/sec": ("w_iops", 1.0),
    "commands/sec": ("t_iops", 1.0),
    "mbytes read/sec": ("r_bps", float(MIB)),
    "mbytes written/sec": ("w_bps", float(MIB)),
    "active commands": ("queue_part", 1.0),
    "queued commands": ("queue_part", 1.0),
}
LATENCY = {
    # counter -> (role, preference: lower wins)
    "average driver millisec/read": ("r_lat_ms", 0),
    "average driver millisec/write": ("w_lat_ms", 0),
    "average guest millisec/read": ("r_lat_ms", 1),
    "average guest millisec/write": ("w_lat_ms", 1),
    "average millisec/read": ("r_lat_ms", 2),
    "average millisec/write": ("w_lat_ms", 2),
}
LATENCY_NAMES = {0: "driver (DAVG)", 1: "guest (GAVG)", 2: "virtual disk"}


def read_esxtop(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read esxtop batch CSV (see the module docstring for the objects and counters)."""
    report = ReadReport(
        format=HostFormat.ESXTOP, default_kinds=[("device", "volume"), ("adapter",), ("vm",), ("vm-disk",)]
    )
    best_latency: dict[str, int] = {}

    def classify(path: CounterPath) -> Classification | None:
        kind = OBJECTS.get(path.object.lower())
        if kind is None or path.instance is None:
            return None
        if kind == "vm" and ":" in path.instance.rsplit(")", 1)[-1]:
            kind = "vm-disk"
        name = f"{path.object}({path.instance})"
        counter = path.counter.lower()
        if counter in COUNTERS:
            role, scale = COUNTERS[counter]
            return name, kind, role, scale, 0
        if counter in LATENCY:
            role, rank = LATENCY[counter]
            best = min(rank, best_latency.get(name, rank))
            best_latency[name] = best
            return name, kind, role, 1.0, rank
        return None

    _ = read_pdh(
        lines,
        builder,
        options,
        report,
        classify,
        "Physical Disk SCSI Device, Physical Disk NFS Volume, Physical Disk Adapter, Virtual Disk",
    )
    report.variant = "esxtop batch " + report.variant
    used = sorted(set(best_latency.values()))
    if used:
        report.variant += ", latency from " + " / ".join(LATENCY_NAMES[r] for r in used)
    return report
