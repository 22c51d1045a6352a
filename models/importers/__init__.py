"""Importers: turn load-generator files and host statistics into workloads and phases.

Pure functions over text (the caller reads the file, or hands over an iterable of lines):

* load generators, one phase each: Iometer access specifications (:mod:`~models.importers.iometer`),
  fio job files and JSON results (:mod:`~models.importers.fio`);
* host statistics, a time series per device turned into workloads whose phases are the busy
  windows found in the series: ``iostat -x`` (:mod:`~models.importers.iostat`), ``sar -d`` and
  ``sadf -d`` (:mod:`~models.importers.sar`), Windows performance-monitor CSV
  (:mod:`~models.importers.perfmon`) and VMware ``esxtop`` batch CSV
  (:mod:`~models.importers.esxtop`); :func:`~models.importers.detect.detect_format` tells them apart
  and :mod:`~models.importers.series` turns any of them into workloads.
"""

from models.importers.common import ImportedPhase, IometerLine, ParseError
from models.importers.detect import detect_format
from models.importers.fio import parse_fio_job, parse_fio_json
from models.importers.hoststats import HostFormat, HostStatsResult, import_host_stats
from models.importers.iometer import IOMETER_HEADER, parse_iometer_spec, to_iometer_spec
from models.importers.windows import HostStatsOptions, RateStatistic, WindowKind

__all__ = [
    "IOMETER_HEADER",
    "HostFormat",
    "HostStatsOptions",
    "HostStatsResult",
    "ImportedPhase",
    "IometerLine",
    "ParseError",
    "RateStatistic",
    "WindowKind",
    "detect_format",
    "import_host_stats",
    "parse_fio_job",
    "parse_fio_json",
    "parse_iometer_spec",
    "to_iometer_spec",
]
