"""Array-side performance exports -> workloads, like host statistics but from the array's view.

One reader per format, registered in :data:`READERS` (a new format is one module and two lines),
each feeding the same bounded series as the host readers (:mod:`~models.importers.series`), so
the windows, phases, observed latency and timeline series are made exactly as for host
statistics (:func:`~models.importers.hoststats.analyse`):

* ``ontap-statistics``: ONTAP ``statistics show`` text, one block per sample and instance
  (``Object:``, ``Instance:``, ``Start-time:``, ``End-time:``, then ``Counter  Value`` lines)
  [netapp-ontap-statistics] (:mod:`~models.importers.ontap`);
* ``ontap-qos``: ONTAP ``qos statistics volume performance show`` or ``... characteristics show``
  text, one table per iteration [netapp-ontap-qos] (:mod:`~models.importers.ontap`);
* ``powerstore``: a PowerStore metrics CSV with the REST API's field names (``timestamp``,
  ``volume_id``, ``read_iops``, ``read_bandwidth``, ``avg_read_latency``...) [dell-powerstore-api]
  (:mod:`~models.importers.arraycsv`);
* ``generic-csv``: the documented generic CSV ``timestamp, object, read_iops, write_iops,
  read_mb_s, write_mb_s, read_latency_ms, write_latency_ms`` (:mod:`~models.importers.arraycsv`).

:func:`detect_array_format` tells them apart from the first lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from pydantic import Field

from models.base import Pct
from models.importers.common import ParseError
from models.importers.hoststats import Reader, SeriesImport, read_series
from models.importers.windows import HostStatsOptions


class ArrayFormat(StrEnum):
    ONTAP_STATISTICS = "ontap-statistics"
    """ONTAP ``statistics show`` text (volume or LUN objects)."""
    ONTAP_QOS = "ontap-qos"
    """ONTAP ``qos statistics volume|workload performance|characteristics show`` text."""
    POWERSTORE = "powerstore"
    """PowerStore metrics CSV (REST API field names)."""
    GENERIC_CSV = "generic-csv"
    """timestamp, object, read_iops, write_iops, read_mb_s, write_mb_s, read_latency_ms, write_latency_ms."""


class ArrayStatsOptions(HostStatsOptions):
    """Host-statistics options, and what array exports may leave out."""

    read_pct: Pct | None = Field(
        default=None,
        description="share of reads, for exports that give only total IOPS (ONTAP qos performance)",
    )


class ArrayStatsResult(SeriesImport):
    """An array's performance export read into workloads."""

    format: ArrayFormat


def _readers() -> dict[ArrayFormat, Reader]:
    from models.importers.arraycsv import read_generic_csv, read_powerstore
    from models.importers.ontap import read_ontap_qos, read_ontap_statistics

    return {
        ArrayFormat.ONTAP_STATISTICS: read_ontap_statistics,
        ArrayFormat.ONTAP_QOS: read_ontap_qos,
        ArrayFormat.POWERSTORE: read_powerstore,
        ArrayFormat.GENERIC_CSV: read_generic_csv,
    }


_QOS_HEADER = re.compile(r"^\s*Workload\s+ID\s+IOPS\s+Throughput\b", re.IGNORECASE)


def detect_array_format(head: list[str]) -> ArrayFormat:
    """The format of an export whose first lines are ``head``; :class:`ParseError` when none fits."""
    lines = [h.lstrip("\ufeff") for h in head]
    if any(line.strip().startswith("Object:") for line in lines) and any(
        line.strip().startswith(("Counter", "Instance:")) for line in lines
    ):
        return ArrayFormat.ONTAP_STATISTICS
    if any(_QOS_HEADER.match(line) for line in lines):
        return ArrayFormat.ONTAP_QOS
    first = next((x for x in lines if x.strip()), "")
    fields = {f.strip().strip('"').lower() for f in re.split(r"[,;\t]", first)}
    if "timestamp" in fields and ("read_bandwidth" in fields or "avg_read_latency" in fields):
        return ArrayFormat.POWERSTORE
    if {"timestamp", "object", "read_iops", "write_iops"} <= fields:
        return ArrayFormat.GENERIC_CSV
    raise ParseError(
        "not an array export this importer reads: ONTAP 'statistics show' or 'qos statistics volume "
        "performance show' text, a PowerStore metrics CSV (timestamp, volume_id, read_iops, "
        "read_bandwidth, avg_read_latency...) or the generic CSV (timestamp, object, read_iops, "
        "write_iops, read_mb_s, write_mb_s, read_latency_ms, write_latency_ms)",
        1,
    )


def import_array_stats(
    lines: Iterable[str], fmt: ArrayFormat | None = None, options: ArrayStatsOptions | None = None
) -> ArrayStatsResult:
    """Read an array export (``fmt`` None: detect it) into workloads; errors as
    :func:`~models.importers.hoststats.import_host_stats` raises them."""
    found, fields = read_series(lines, fmt, options or ArrayStatsOptions(), _readers(), detect_array_format)
    return ArrayStatsResult(format=found, **fields)


__all__ = [
    "ArrayFormat",
    "ArrayStatsOptions",
    "ArrayStatsResult",
    "detect_array_format",
    "import_array_stats",
]
