"""Host statistics uploads (iostat, sar, perfmon, esxtop) read with :mod:`models.importers`, and the
"what you have now" check of observed against predicted latency (:mod:`models.evidence`).

An upload is spooled to a temporary file (in memory up to 1 MiB, on disk beyond), then read as
text in a worker thread: gzip is recognised by its magic bytes, the encoding by its byte-order
mark, else UTF-8 when the head decodes as UTF-8, else Windows-1252 (what perfmon writes on
Western European systems). Lines are read with a length limit, so a file without line breaks
cannot fill the memory; a decompressed gzip stream stops at the upload limit. Parse errors are a
422 at ``body.file`` naming the line and column; options that do not fit the file (a device it
does not have) a 422 at ``query.<option>``.
"""

from __future__ import annotations

import codecs
import gzip
import io
import time
from collections.abc import Iterator
from typing import IO, Any

from pydantic import ValidationError

from backend.app.core.errors import InvalidInput
from backend.app.engine.context import SizingContext
from backend.app.imports.schemas import HostStatsImport, ObservedRequest
from backend.app.sizing import service as sizing
from backend.app.sizing.schemas import EvaluateRequest
from models import evidence
from models.base import InputError
from models.importers import HostFormat, HostStatsOptions, ParseError, import_host_stats

FILE = ("body", "file")
MAX_LINE_CHARS = 16 * 1024 * 1024
"""Longest line read (an esxtop header with 100,000 counters is about 10 MB)."""
SNIFF_BYTES = 64 * 1024


def parse_options(values: dict[str, Any]) -> HostStatsOptions:
    """The query parameters as options; a bad one is a 422 at ``query.<name>``."""
    try:
        return HostStatsOptions(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as exc:
        raise InvalidInput(
            [(("query", *map(str, e["loc"])), e["msg"], e["type"]) for e in exc.errors()]
        ) from exc


class _Capped(io.RawIOBase):
    """A binary stream that refuses to give more than ``limit`` bytes (a gzip bomb stops there)."""

    def __init__(self, inner: IO[bytes] | gzip.GzipFile, limit: int) -> None:
        self.inner = inner
        self.limit = limit
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        self.read_bytes += len(data)
        if self.read_bytes > self.limit:
            raise ParseError(f"the file unpacks to more than {self.limit:,} bytes")
        buffer[: len(data)] = data
        return len(data)


def _encoding(head: bytes) -> str:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not just a character cut at the end of the head
            return "cp1252"
    return "utf-8"


def text_lines(raw: IO[bytes], limit_bytes: int) -> Iterator[str]:
    """The lines of an upload (gzip or not, any of the encodings above), each at most
    ``MAX_LINE_CHARS`` long; :class:`ParseError` naming the line that is longer."""
    magic = raw.read(2)
    raw.seek(0)
    binary: IO[bytes] | gzip.GzipFile = raw
    if magic == b"\x1f\x8b":
        binary = gzip.GzipFile(fileobj=raw, mode="rb")
    buffered = io.BufferedReader(_Capped(binary, limit_bytes), buffer_size=SNIFF_BYTES)
    head = buffered.peek(SNIFF_BYTES)[:SNIFF_BYTES]
    text = io.TextIOWrapper(buffered, encoding=_encoding(head), errors="replace", newline=None)
    number = 0
    while True:
        line = text.readline(MAX_LINE_CHARS)
        if not line:
            return
        number += 1
        if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
            raise ParseError(f"the line is longer than {MAX_LINE_CHARS:,} characters", number)
        yield line


def read_upload(
    raw: IO[bytes], size: int, filename: str, fmt: HostFormat | None, options: HostStatsOptions, limit: int
) -> HostStatsImport:
    """Read an uploaded file into workloads (runs in a worker thread)."""
    started = time.perf_counter()
    if size == 0:
        raise InvalidInput.at(FILE, "the file is empty", "missing")
    try:
        result = import_host_stats(text_lines(raw, limit), fmt, options)
    except ParseError as exc:
        raise InvalidInput.at(FILE, str(exc), "parse_error") from exc
    except InputError as exc:
        raise InvalidInput.at(("query", exc.field), exc.reason) from exc
    except (gzip.BadGzipFile, EOFError, OSError) as exc:
        raise InvalidInput.at(FILE, f"the file cannot be read: {exc}", "parse_error") from exc
    except ValueError as exc:  # a figure the engine's Workload refuses
        raise InvalidInput.at(FILE, f"the imported workload is not valid: {exc}", "parse_error") from exc
    return HostStatsImport(
        **result.model_dump(),
        filename=filename[:255],
        size_bytes=size,
        seconds=round(time.perf_counter() - started, 4),
    )


def observed(body: ObservedRequest, ctx: SizingContext) -> evidence.ObservedComparison:
    """The configuration the statistics came from, evaluated at the observed loads, beside them."""
    try:
        at_load = evidence.at_observed_load(body.workloads)
    except InputError as exc:
        raise InvalidInput.at(("body", exc.field), exc.reason) from exc
    result = sizing.evaluate(EvaluateRequest(workloads=at_load, configuration=body.configuration), ctx)
    return evidence.compare_observed(at_load, result)
