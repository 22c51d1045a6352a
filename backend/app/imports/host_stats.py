"""Host statistics uploads (iostat, sar, perfmon, esxtop), array exports (ONTAP, PowerStore, the
generic CSV) and collector workbooks (Live Optics, RVTools) read with :mod:`models.importers`;
imports lined up on one timeline; and the "what you have now" check of observed against
predicted latency (:mod:`models.evidence`).

An upload is spooled to a temporary file (in memory up to 1 MiB, on disk beyond), then read as
text in a worker thread: gzip is recognised by its magic bytes, the encoding by its byte-order
mark, else UTF-8 when the head decodes as UTF-8, else Windows-1252 (what perfmon writes on
Western European systems). Lines are read with a length limit, so a file without line breaks
cannot fill the memory; a decompressed gzip stream stops at the upload limit. Parse errors are a
422 at ``body.file`` naming the line and column; options that do not fit the file (a device it
does not have) a 422 at ``query.<option>``. Workbooks (gzip or not) are read from the spooled
file as they are: the engine refuses encrypted, legacy or broken ones and zip bombs, naming the
sheet, row and column of any cell it cannot read; their unpacked size is held to the same limit.
"""

from __future__ import annotations

import codecs
import gzip
import io
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from backend.app.core.errors import InvalidInput
from backend.app.core.uploads import SPOOL_MEMORY_BYTES
from backend.app.engine.context import SizingContext
from backend.app.imports.schemas import (
    ArrayStatsImport,
    HostStatsImport,
    LiveOpticsImport,
    ObservedRequest,
    RVToolsImport,
    TimelineRequest,
)
from backend.app.sizing import service as sizing
from backend.app.sizing.schemas import EvaluateRequest
from models import evidence
from models.base import InputError
from models.importers import HostFormat, HostStatsOptions, ParseError, import_host_stats
from models.importers.arraystats import ArrayFormat, ArrayStatsOptions, import_array_stats
from models.importers.liveoptics import LiveOpticsResult, import_live_optics
from models.importers.rvtools import GroupBy, RVToolsResult, import_rvtools
from models.importers.timeline import Timeline, line_up
from models.site_fit import SiteFit, fit_site, site_configuration

T = TypeVar("T")
U = TypeVar("U")

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


MAX_READ_CPU_S = 60.0
"""Most CPU time [s] reading one upload may take (unpacking and parsing, in its worker thread): a
gzip bomb capped in size still took about 25 minutes to parse 2 GiB of unpacked lines."""


class _Capped(io.RawIOBase):
    """A binary stream that refuses to give more than ``limit`` bytes (a gzip bomb stops there),
    or to go on once its reader has used :data:`MAX_READ_CPU_S` of CPU time since it opened."""

    def __init__(self, inner: IO[bytes] | gzip.GzipFile, limit: int) -> None:
        self.inner = inner
        self.limit = limit
        self.read_bytes = 0
        self.cpu_deadline = time.thread_time() + MAX_READ_CPU_S

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        self.read_bytes += len(data)
        if self.read_bytes > self.limit:
            raise ParseError(f"the file unpacks to more than {self.limit:,} bytes")
        if time.thread_time() > self.cpu_deadline:
            raise ParseError(
                f"reading the file took more than {MAX_READ_CPU_S:g} s of CPU time "
                f"({self.read_bytes:,} bytes unpacked): send a smaller file or a shorter period"
            )
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


def _read(
    raw: IO[bytes],
    size: int,
    filename: str,
    read: Callable[[IO[bytes]], BaseModel],
    wrap: Callable[..., U],
) -> U:
    """``read(raw)`` timed and answered with the upload's name and size; an error a 422 naming
    the file's line/sheet (``body.file``) or the option (``query.<name>``)."""
    started = time.perf_counter()
    if size == 0:
        raise InvalidInput.at(FILE, "the file is empty", "missing")
    try:
        result = read(raw)
    except ParseError as exc:
        raise InvalidInput.at(FILE, str(exc), "parse_error") from exc
    except InputError as exc:
        raise InvalidInput.at(("query", exc.field), exc.reason) from exc
    except (gzip.BadGzipFile, EOFError, OSError) as exc:
        raise InvalidInput.at(FILE, f"the file cannot be read: {exc}", "parse_error") from exc
    except ValueError as exc:  # a figure the engine's Workload refuses
        raise InvalidInput.at(FILE, f"the imported workload is not valid: {exc}", "parse_error") from exc
    return wrap(
        **result.model_dump(),
        filename=filename[:255],
        size_bytes=size,
        seconds=round(time.perf_counter() - started, 4),
    )


def read_upload(
    raw: IO[bytes], size: int, filename: str, fmt: HostFormat | None, options: HostStatsOptions, limit: int
) -> HostStatsImport:
    """Read an uploaded file into workloads (runs in a worker thread)."""
    return _read(
        raw,
        size,
        filename,
        lambda f: import_host_stats(text_lines(f, limit), fmt, options),
        HostStatsImport,
    )


def read_array_upload(
    raw: IO[bytes], size: int, filename: str, fmt: ArrayFormat | None, options: ArrayStatsOptions, limit: int
) -> ArrayStatsImport:
    """Read an uploaded array export into workloads (runs in a worker thread)."""
    return _read(
        raw,
        size,
        filename,
        lambda f: import_array_stats(text_lines(f, limit), fmt, options),
        ArrayStatsImport,
    )


def unpacked(raw: IO[bytes], limit: int) -> IO[bytes]:
    """The upload itself, or, gzip-compressed, its content in a temporary file (at most ``limit``
    bytes: a gzip bomb stops there). The caller closes what it gets."""
    magic = raw.read(2)
    raw.seek(0)
    if magic != b"\x1f\x8b":
        return raw
    out = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY_BYTES)  # noqa: SIM115 - handed to the caller
    source = _Capped(gzip.GzipFile(fileobj=raw, mode="rb"), limit)
    try:
        shutil.copyfileobj(source, out, 1024**2)  # type: ignore[misc]
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return out


def read_live_optics(
    raw: IO[bytes], size: int, filename: str, options: HostStatsOptions, limit: int
) -> LiveOpticsImport:
    """Read an uploaded Live Optics workbook (gzip or not) into workloads (a worker thread)."""

    def read(f: IO[bytes]) -> LiveOpticsResult:
        book = unpacked(f, limit)
        try:
            return import_live_optics(book, options, max_unpacked_bytes=limit)
        finally:
            if book is not f:
                book.close()

    return _read(raw, size, filename, read, LiveOpticsImport)


def read_rvtools(raw: IO[bytes], size: int, filename: str, group_by: GroupBy, limit: int) -> RVToolsImport:
    """Read an uploaded RVTools workbook (gzip or not) into capacities (a worker thread)."""

    def read(f: IO[bytes]) -> RVToolsResult:
        book = unpacked(f, limit)
        try:
            return import_rvtools(book, group_by, max_unpacked_bytes=limit)
        finally:
            if book is not f:
                book.close()

    return _read(raw, size, filename, read, RVToolsImport)


def timeline(body: TimelineRequest) -> Timeline:
    """Imports lined up on one clock; an option or zone that does not fit is a 422 at its path."""
    try:
        return line_up(body.layers, body.capacity, body.options)
    except InputError as exc:
        raise InvalidInput.at(("body", *exc.field.split(".")), exc.reason) from exc
    except ParseError as exc:
        raise InvalidInput.at(("body", "layers"), str(exc)) from exc


def observed(body: ObservedRequest, ctx: SizingContext) -> evidence.ObservedComparison:
    """The configuration the statistics came from, evaluated at the observed loads, beside them."""
    try:
        at_load = evidence.at_observed_load(body.workloads)
    except InputError as exc:
        raise InvalidInput.at(("body", exc.field), exc.reason) from exc
    result = sizing.evaluate(EvaluateRequest(workloads=at_load, configuration=body.configuration), ctx)
    return evidence.compare_observed(at_load, result)


def site_fit(body: ObservedRequest, ctx: SizingContext) -> SiteFit:
    """The configuration the statistics came from, its controller costs and working sets fitted to
    the host's latencies (:func:`models.site_fit.fit_site`), as stated (no calibration margins: the
    fit replaces the estimate they stand for)."""
    config = ctx.configuration(body.configuration, ("body", "configuration"))
    fit = ctx.run(
        lambda: fit_site(body.workloads, config, params=ctx.params, fitted_on=datetime.now(UTC).date()),
        ("body", "configuration"),
    )
    # what the fitted system rests on now (its controller and drives fitted to the site) and its class's error
    return ctx.margining().assessed(fit, site_configuration(config, fit), fit.workloads)
