"""Which host-statistics format a file is, from its first lines.

* ``(PDH-CSV 4.0)`` / ``(PDH-TSV 4.0)`` as the first field: a performance log; esxtop when its
  counters are ESXi objects (``Physical Cpu``, ``Group Cpu``, ``Physical Disk SCSI Device``,
  ``Virtual Disk``...), else Windows perfmon;
* ``# hostname;interval;timestamp;...``: ``sadf -d``;
* a line ``<time> [AM|PM] DEV tps ...``: ``sar -d``;
* a ``Device`` header line (``Device:`` in older sysstat) or an ``avg-cpu:`` line: ``iostat``.
"""

from __future__ import annotations

import re

from models.importers.common import ParseError
from models.importers.hoststats import HostFormat

ESX_OBJECTS = (
    "\\Physical Cpu",
    "\\Group Cpu",
    "\\Physical Disk SCSI Device(",
    "\\Physical Disk Adapter(",
    "\\Physical Disk NFS Volume(",
    "\\Virtual Disk(",
    "\\Memory\\Memory Overcommit",
)
_SAR_DEV = re.compile(r"^\d{1,2}:\d{2}:\d{2}(\s+[AP]M)?\s+DEV\s", re.IGNORECASE)


def detect_format(head: list[str]) -> HostFormat:
    """The format of a file whose first lines are ``head``; :class:`ParseError` when none fits."""
    lines = [h.lstrip("\ufeff") for h in head]
    first = next((x for x in lines if x.strip()), "")
    if first.lstrip('"').startswith(("(PDH-CSV", "(PDH-TSV")):
        return HostFormat.ESXTOP if any(obj in first for obj in ESX_OBJECTS) else HostFormat.PERFMON
    for line in lines:
        s = line.strip()
        if s.startswith("#") and ";" in s and "timestamp" in s:
            return HostFormat.SAR
        if _SAR_DEV.match(s):
            return HostFormat.SAR
        if s.startswith(("Device:", "Device ", "avg-cpu:")):
            return HostFormat.IOSTAT
    if first.lstrip().startswith("{"):
        raise ParseError("JSON output (iostat -o JSON, sadf -j) is not read: write the text report", 1)
    raise ParseError(
        "not a format this importer reads: iostat -x/-d text, sar -d or sadf -d output, a "
        "performance-monitor CSV (typeperf, relog) or esxtop batch CSV",
        1,
    )
