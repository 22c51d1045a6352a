"""Reading a block I/O trace: the streaming loop over the per-format readers.

:class:`TraceReader` reads a binary stream (gzip or plain) in blocks of whole lines
(:mod:`models.traces.tokenize`), hands each block to the reader of its format
(:mod:`models.traces.formats`, detected from the first block unless given) and yields
:class:`~models.traces.records.Records` chunks in line order, so memory stays bounded whatever
the file size. The few lines the vectorized path cannot read (quoted fields, exponents, stray
spaces) go through each format's per-line Python parser, and what that cannot read either is
counted as malformed with its line number.

A file whose lines are more than half malformed raises :class:`MalformedTraceError` (a
``ValueError``) naming the format and a sample of the bad line numbers. Blank lines, comments,
headers and the summary that ``blkparse`` prints at the end are *ignored*, not malformed.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from models.traces.formats import READERS, BlockReader, detect_format
from models.traces.records import (
    MalformedTraceError,
    ParseState,
    Records,
    TraceError,
    TraceFormat,
    concat_records,
)
from models.traces.tokenize import DEFAULT_BLOCK_BYTES, line_parts

DEFAULT_CHUNK_RECORDS = 1 << 16
"""Records handed on at once: about one block of MSR text; small enough that the profile's
per-record temporaries (~20 arrays of this length) stay in the CPU caches and the heap."""
MALFORMED_LIMIT = 0.5
"""Share of (non-blank) lines that may be malformed before the file is rejected."""


class TraceReader:
    """Reads a trace stream into :class:`Records` chunks of about ``chunk_records`` rows.

    ``fmt`` None means detect from the first block. ``on_raw(n)`` receives the raw bytes read.
    ``max_text_bytes`` and ``max_records`` stop the reading with a :class:`TraceError` as soon as
    the (decompressed) text or the records pass them: a gzip bomb is refused at the cap, having
    held no more than a block in memory. After iteration, :meth:`report` tells what was read; :meth:`check` raises
    :class:`MalformedTraceError` when more than half of the (non-blank) lines were malformed.
    """

    def __init__(
        self,
        stream: BinaryIO,
        fmt: TraceFormat | None = None,
        block_bytes: int = DEFAULT_BLOCK_BYTES,
        chunk_records: int = DEFAULT_CHUNK_RECORDS,
        max_samples: int = 20,
        on_raw: Callable[[int], None] | None = None,
        max_text_bytes: int | None = None,
        max_records: int | None = None,
    ) -> None:
        self.stream = stream
        self.max_text_bytes = max_text_bytes
        self.max_records = max_records
        self.fmt = fmt
        self.block_bytes = block_bytes
        self.chunk_records = chunk_records
        self.max_samples = max_samples
        self.on_raw = on_raw
        self.state: ParseState | None = None

    def __iter__(self) -> Iterator[Records]:
        blocks = line_parts(self.stream, self.block_bytes, self.on_raw)
        line_no = 1
        pending: list[Records] = []
        pending_n = 0
        reader: BlockReader | None = None
        text_bytes = 0
        for buf in blocks:
            text_bytes += len(buf[0]) + len(buf[1])
            if self.max_text_bytes is not None and text_bytes > self.max_text_bytes:
                raise TraceError(
                    f"the trace holds more than {self.max_text_bytes:,} bytes of text once decompressed "
                    "(the server's limit): refused"
                )
            if reader is None:
                fmt = self.fmt or detect_format(buf[0][:65536] + bytes(buf[1][:65536]))
                self.state = ParseState(format=fmt, max_samples=self.max_samples)
                reader = READERS[fmt](self.state)
            records = reader.read_block(buf, line_no)
            line_no = reader.state.lines + 1
            if self.max_records is not None and reader.state.records > self.max_records:
                raise TraceError(
                    f"the trace holds more than {self.max_records:,} records (the server's limit): refused"
                )
            if len(records):
                pending.append(records)
                pending_n += len(records)
            if pending_n >= self.chunk_records:
                yield concat_records(pending)
                pending, pending_n = [], 0
        if reader is None:
            raise TraceError("the trace is empty")
        rest = reader.finish()
        reader.state.records += len(rest)
        if len(rest):
            pending.append(rest)
        if pending:
            yield concat_records(pending)

    def report(self) -> ParseState:
        if self.state is None:
            raise TraceError("the trace has not been read")
        return self.state

    def check(self) -> None:
        """MalformedTraceError if more than half of the lines were malformed (or none was a record)."""
        state = self.report()
        if state.malformed > MALFORMED_LIMIT * max(state.lines, 1) or (
            state.records == 0 and state.malformed
        ):
            raise MalformedTraceError(state.format, state.malformed, state.lines, state.samples)
        if state.records == 0:
            raise TraceError(f"no I/O records in the {state.format.value} trace")


def read_all(stream: BinaryIO, fmt: TraceFormat | None = None, **kwargs: Any) -> tuple[Records, ParseState]:
    """The whole trace as one :class:`Records` (for tests and small files) and the parse state."""
    reader = TraceReader(stream, fmt, **kwargs)
    records = concat_records(list(reader))
    reader.check()
    return records, reader.report()


def sniff(head: bytes, fmt: TraceFormat | None = None, max_samples: int = 10) -> ParseState:
    """Parse the first bytes of a trace (whole lines only) and apply the malformed-line rule.

    Lets an upload be refused at once; raises TraceError / MalformedTraceError like a full read.
    """
    data = head
    if head[:2] == b"\x1f\x8b":
        data = zlib.decompressobj(31).decompress(head, 8 * len(head) + 65536)
    cut = data.rfind(b"\n")
    text = data[: cut + 1] if cut >= 0 else data
    reader = TraceReader(io.BytesIO(text), fmt, max_samples=max_samples)
    for _ in reader:
        pass
    reader.check()
    return reader.report()


__all__ = ["DEFAULT_CHUNK_RECORDS", "TraceReader", "detect_format", "read_all", "sniff"]
