"""Trace records, formats, parse reports and the errors trace reading raises.

A trace is read as a sequence of :class:`Records` chunks (columns as numpy arrays, one row per
I/O), never as a whole: memory stays bounded by the chunk size whatever the file size.

Nomenclature::

    t        seconds since the first record [s]        offset   byte address on its stream [B]
    size     bytes transferred [B]                      stream   disk / device / file id (0, 1, ...)
    latency  response time [s], NaN when not recorded  read     True for a read, False for a write
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from models.base import Output

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class TraceFormat(StrEnum):
    """Text trace formats the reader understands (each may be gzip-compressed)."""

    MSR = "msr"
    """SNIA IOTTA / MSR-Cambridge CSV [msr-cambridge-2008]: Timestamp (Windows filetime, 100 ns ticks), Hostname,
    DiskNumber, Type (Read/Write), Offset [B], Size [B], ResponseTime [100 ns ticks]."""
    BLKPARSE = "blkparse"
    """Default ``blkparse`` text output: device, CPU, sequence, time [s], PID, action, RWBS,
    sector + count (512-byte sectors). Q (queue) lines are the I/Os; without Q lines, D (issue),
    else C (complete). Response time: from an I/O's Q (or D) line to the next C line of the same
    device and sector (first queued, first completed)."""
    FIO_IOLOG = "fio"
    """fio iolog version 2 (``file action offset length``, time from ``wait`` lines [us]) or
    version 3 (``time_us file action offset length``)."""
    CSV = "csv"
    """Plain CSV: ``time_s,op,offset,size[,latency_ms]`` (op R/W or read/write; header optional)."""
    ALIBABA = "alibaba"
    """Alibaba Cloud block trace [alibaba-block-2020]: ``device_id,opcode,offset,length,timestamp`` (R/W, bytes, us)."""
    TENCENT = "tencent"
    """Tencent CBS trace [tencent-cbs-2020]: ``timestamp,offset,size,io_type,volume_id`` (s, 512 B sectors, 0 read/1 write)."""
    SPC = "spc"
    """SNIA IOTTA SPC format (UMass traces) [umass-spc-2002]: ``asu,lba,size,opcode,timestamp`` (sectors, bytes, r/w, s)."""


@dataclass
class Records:
    """One chunk of I/O records (columns of equal length)."""

    t: FloatArray
    read: BoolArray
    offset: IntArray
    size: IntArray
    stream: IntArray
    latency: FloatArray | None = None
    line: IntArray | None = None

    def __len__(self) -> int:
        return int(self.t.size)

    @staticmethod
    def empty() -> Records:
        return Records(
            t=np.zeros(0),
            read=np.zeros(0, dtype=bool),
            offset=np.zeros(0, dtype=np.int64),
            size=np.zeros(0, dtype=np.int64),
            stream=np.zeros(0, dtype=np.int64),
        )

    def take(self, index: npt.NDArray[np.intp] | BoolArray | slice) -> Records:
        return Records(
            t=self.t[index],
            read=self.read[index],
            offset=self.offset[index],
            size=self.size[index],
            stream=self.stream[index],
            latency=None if self.latency is None else self.latency[index],
            line=None if self.line is None else self.line[index],
        )


def concat_records(parts: list[Records]) -> Records:
    """The chunks one after the other (latency kept only if every chunk has it)."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return Records.empty()
    if len(parts) == 1:
        return parts[0]
    lat = [p.latency for p in parts]
    lines = [p.line for p in parts]
    return Records(
        t=np.concatenate([p.t for p in parts]),
        read=np.concatenate([p.read for p in parts]),
        offset=np.concatenate([p.offset for p in parts]),
        size=np.concatenate([p.size for p in parts]),
        stream=np.concatenate([p.stream for p in parts]),
        latency=None if any(x is None for x in lat) else np.concatenate(lat),  # type: ignore[arg-type]
        line=None if any(x is None for x in lines) else np.concatenate(lines),  # type: ignore[arg-type]
    )


class BadLine(Output):
    """A line that could not be read: its 1-based number and (the start of) its text."""

    line: int
    text: str


class ParseReport(Output):
    """What the reader made of the file's lines."""

    format: TraceFormat
    lines: int = 0
    records: int = 0
    ignored_lines: int = 0
    malformed_lines: int = 0
    malformed_samples: list[BadLine] = []
    streams: list[str] = []
    has_latency: bool = False
    has_timing: bool = True
    notes: list[str] = []


@dataclass
class ParseState:
    """Mutable counters kept while a file is read (see :class:`ParseReport`)."""

    format: TraceFormat
    max_samples: int = 20
    lines: int = 0
    records: int = 0
    ignored: int = 0
    malformed: int = 0
    samples: list[BadLine] = field(default_factory=list)
    stream_names: dict[bytes, int] = field(default_factory=dict)
    has_latency: bool = False
    has_timing: bool = True
    notes: list[str] = field(default_factory=list)

    def bad(self, line_numbers: npt.ArrayLike, texts: list[str]) -> None:
        numbers = np.asarray(line_numbers, dtype=np.int64)
        self.malformed += int(numbers.size)
        room = self.max_samples - len(self.samples)
        for n, text in zip(numbers[: max(room, 0)].tolist(), texts[: max(room, 0)], strict=False):
            self.samples.append(BadLine(line=int(n), text=text[:200]))

    def stream_id(self, name: bytes) -> int:
        if name not in self.stream_names:
            self.stream_names[name] = len(self.stream_names)
        return self.stream_names[name]

    def report(self) -> ParseReport:
        return ParseReport(
            format=self.format,
            lines=self.lines,
            records=self.records,
            ignored_lines=self.ignored,
            malformed_lines=self.malformed,
            malformed_samples=list(self.samples),
            streams=[k.decode("utf-8", "replace") for k in self.stream_names][:1000],
            has_latency=self.has_latency,
            has_timing=self.has_timing,
            notes=list(self.notes),
        )


class TraceError(ValueError):
    """A trace that cannot be analysed (unknown format, empty, ...)."""


class MalformedTraceError(TraceError):
    """More than half of the lines of a trace are malformed; names the format and samples lines."""

    def __init__(self, fmt: TraceFormat, malformed: int, lines: int, samples: list[BadLine]) -> None:
        self.format = fmt
        self.malformed = malformed
        self.lines = lines
        self.samples = samples
        shown = ", ".join(str(s.line) for s in samples[:10])
        super().__init__(
            f"not a valid {fmt.value} trace: {malformed:,} of {lines:,} lines are malformed "
            f"(e.g. lines {shown})"
        )

    def __reduce__(self) -> tuple[type[MalformedTraceError], tuple[TraceFormat, int, int, list[BadLine]]]:
        """Pickled with its fields (it crosses process boundaries from Dask workers)."""
        return (MalformedTraceError, (self.format, self.malformed, self.lines, self.samples))


class TraceCancelled(Exception):
    """The caller asked the analysis to stop (its ``should_stop`` returned True)."""
