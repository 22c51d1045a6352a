"""Windows performance-monitor logs (``typeperf -f CSV``, ``relog -f csv``, perfmon's CSV/TSV).

Counters used, of the ``PhysicalDisk`` and ``LogicalDisk`` objects (names as Microsoft documents
them, [ms-perfdisk]):

=============================  ===============  ============================================
counter                        role             unit
=============================  ===============  ============================================
Disk Reads/sec, Disk Writes/sec  r/w IOPS       I/O per s
Disk Transfers/sec             total IOPS       I/O per s (splits by bytes without the two)
Disk Read/Write Bytes/sec      r/w bytes        B per s
Avg. Disk Bytes/Read, /Write   size per I/O     B (bytes = rate x size when bytes are absent)
Avg. Disk sec/Read, /Write     latency          s (x 1000 -> ms); sec/Transfer for both
Avg. Disk Queue Length         queue            outstanding I/Os (else read + write queues)
% Idle Time                    busy = 100 - idle  %
% Free Space, Free Megabytes   capacity         LogicalDisk: size = free MB / (free % / 100)
=============================  ===============  ============================================

``Free Megabytes`` counts 2^20 bytes. Devices are named as their counter path has them
(``PhysicalDisk(0 C:)``, ``LogicalDisk(D:)``); ``_Total`` instances are aggregates. By default the
physical disks are used (volumes stack on them: counting both would double the I/O); volumes
when the log has no physical disks. A physical disk's capacity is the sum of its volumes' (its
instance name lists their drive letters).
"""

from __future__ import annotations

from collections.abc import Iterator

from models.importers.hoststats import HostFormat, ReadReport
from models.importers.pdh import Classification, CounterPath, read_pdh
from models.importers.series import SeriesBuilder
from models.importers.windows import HostStatsOptions
from models.units import GB, MIB

COUNTERS: dict[str, tuple[str, float]] = {
    "disk reads/sec": ("r_iops", 1.0),
    "disk writes/sec": ("w_iops", 1.0),
    "disk transfers/sec": ("t_iops", 1.0),
    "disk read bytes/sec": ("r_bps", 1.0),
    "disk write bytes/sec": ("w_bps", 1.0),
    "disk bytes/sec": ("t_bps", 1.0),
    "avg. disk bytes/read": ("r_size", 1.0),
    "avg. disk bytes/write": ("w_size", 1.0),
    "avg. disk bytes/transfer": ("t_size", 1.0),
    "avg. disk sec/read": ("r_lat_ms", 1000.0),
    "avg. disk sec/write": ("w_lat_ms", 1000.0),
    "avg. disk sec/transfer": ("t_lat_ms", 1000.0),
    "avg. disk queue length": ("queue", 1.0),
    "avg. disk read queue length": ("queue_part", 1.0),
    "avg. disk write queue length": ("queue_part", 1.0),
    "% idle time": ("idle_pct", 1.0),
    "% free space": ("free_pct", 1.0),
    "free megabytes": ("free_mb", 1.0),
}
OBJECTS = {"physicaldisk": "disk", "logicaldisk": "volume"}


def read_perfmon(lines: Iterator[str], builder: SeriesBuilder, options: HostStatsOptions) -> ReadReport:
    """Read a performance-monitor CSV/TSV log (see the module docstring for the counters)."""
    report = ReadReport(format=HostFormat.PERFMON, default_kinds=[("disk",), ("volume",), ("aggregate",)])

    def classify(path: CounterPath) -> Classification | None:
        kind = OBJECTS.get(path.object.lower())
        role = COUNTERS.get(path.counter.lower())
        if kind is None or role is None or path.instance is None:
            return None
        if path.instance.lower() == "_total":
            kind = "aggregate"
        return f"{path.object}({path.instance})", kind, role[0], role[1], 0

    static = read_pdh(lines, builder, options, report, classify, "PhysicalDisk, LogicalDisk")
    report.variant = "typeperf/relog " + report.variant
    volumes: dict[str, float] = {}
    for name, values in static.items():
        free_mb, free_pct = values.get("free_mb"), values.get("free_pct")
        if free_mb is not None and free_pct is not None and free_pct > 0:
            volumes[name] = free_mb * MIB / (free_pct / 100.0) / GB
    report.capacities_gb = {name: round(gb, 3) for name, gb in volumes.items()}
    letters = {n[n.index("(") + 1 : -1].upper(): gb for n, gb in volumes.items() if n.endswith(":)")}
    for name in builder.names:
        if name.startswith("PhysicalDisk(") and not name.endswith("_Total)"):
            drives = [tok.upper() for tok in name[len("PhysicalDisk(") : -1].split() if tok.endswith(":")]
            if drives and all(d in letters for d in drives):
                report.capacities_gb[name] = round(sum(letters[d] for d in drives), 3)
    return report
