"""Block I/O traces: read (MSR/SNIA CSV, blkparse, fio iolog, Alibaba, Tencent CBS, SNIA SPC,
plain CSV; gzip), profile, cache miss-ratio curves, measured tiering, and the trace turned into a
sizing workload.

Modules: :mod:`~models.traces.records` (records, formats, errors), :mod:`~models.traces.tokenize`
(byte blocks, fields and numbers), :mod:`~models.traces.formats` (one reader per format,
detection), :mod:`~models.traces.parse` (the streaming reading loop), :mod:`~models.traces.keys`
(counting by key), :mod:`~models.traces.builder` (the streaming accumulator and its partitions),
:mod:`~models.traces.merge` (partitions merged), :mod:`~models.traces.volumes` (volume filter and
summary), :mod:`~models.traces.profile` (rates, peaks, mix, sequentiality, working sets),
:mod:`~models.traces.mrc` (stack distances, SHARDS, libCacheSim policies),
:mod:`~models.traces.heat` (tier table), :mod:`~models.traces.analyze` (the whole analysis and
the derived workload), :mod:`~models.traces.synthetic` (generator and writers).
"""

from models.traces.analyze import DerivedWorkload, SkewFit, TraceAnalysis, TraceOptions, analyze_trace
from models.traces.records import MalformedTraceError, TraceCancelled, TraceError, TraceFormat

__all__ = [
    "DerivedWorkload",
    "MalformedTraceError",
    "SkewFit",
    "TraceAnalysis",
    "TraceCancelled",
    "TraceError",
    "TraceFormat",
    "TraceOptions",
    "analyze_trace",
]
