"""One reader per trace format, and format detection from the first lines.

Each format module has a reader class (a :class:`~models.traces.formats.base.BlockReader`) and a
``looks_like(row)`` test of one (stripped, non-comment) line; :func:`detect_format` lets the
first 100 lines vote.
"""

from __future__ import annotations

from collections.abc import Callable

from models.traces.formats import blkparse, columns, fio, msr, plain_csv
from models.traces.formats.base import BlockReader
from models.traces.records import TraceError, TraceFormat

READERS: dict[TraceFormat, type[BlockReader]] = {
    TraceFormat.CSV: plain_csv.CsvReader,
    TraceFormat.MSR: msr.MsrReader,
    TraceFormat.BLKPARSE: blkparse.BlkparseReader,
    TraceFormat.FIO_IOLOG: fio.FioReader,
    TraceFormat.ALIBABA: columns.AlibabaReader,
    TraceFormat.TENCENT: columns.TencentReader,
    TraceFormat.SPC: columns.SpcReader,
}
"""The reader of each format."""

_VOTERS: list[tuple[TraceFormat, Callable[[str], bool]]] = [
    (TraceFormat.BLKPARSE, blkparse.looks_like),
    (TraceFormat.MSR, msr.looks_like),
    (TraceFormat.ALIBABA, columns.alibaba_looks_like),  # before plain CSV: five fields, R/W second
    (TraceFormat.TENCENT, columns.tencent_looks_like),
    (TraceFormat.SPC, columns.spc_looks_like),
    (TraceFormat.CSV, plain_csv.looks_like),
]
"""Row tests in order: a row votes for the first format that accepts it."""


def detect_format(head: bytes) -> TraceFormat:
    """The format of a trace from its first (decompressed) bytes; TraceError if none fits.

    fio: a ``fio version 2|3 iolog`` first line. Otherwise each of the first 100 lines votes for
    the first format whose ``looks_like`` accepts it; the winner needs about half of the lines.
    """
    text = head.decode("utf-8", "replace")
    rows = [r.strip() for r in text.splitlines()[:200] if r.strip() and not r.lstrip().startswith("#")]
    if not rows:
        raise TraceError("the trace is empty")
    if fio.looks_like(rows[0]):
        return TraceFormat.FIO_IOLOG
    votes = {f: 0 for f in TraceFormat}
    for row in rows[:100]:
        for fmt, test in _VOTERS:
            if test(row):
                votes[fmt] += 1
                break
    best = max(votes, key=lambda f: votes[f])
    if votes[best] == 0 or votes[best] < 0.5 * min(len(rows), 100) - 1:
        raise TraceError(
            "cannot tell the trace format from its first lines (expected MSR/SNIA CSV, blkparse text, "
            "fio iolog v2/v3, the Alibaba Cloud or Tencent CBS block trace, SNIA SPC/UMass, or plain CSV "
            "time_s,op,offset,size)"
        )
    return best


__all__ = ["READERS", "BlockReader", "detect_format"]
