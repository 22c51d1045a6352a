"""Excel workbooks (``.xlsx``) read safely: sheets as rows of cells, errors naming sheet, row and column.

The caller hands over the file as a binary file object; nothing here opens a path. Before a byte
is parsed the file is checked for what an upload named ``.xlsx`` may really be [ecma-376]:

* an OLE2 compound file (``D0 CF 11 E0``): an encrypted (password-protected) workbook when it
  holds an ``EncryptedPackage`` stream (Office's agile or standard encryption [ms-offcrypto]),
  else a legacy Excel 97-2003 ``.xls``: both refused, saying what to do;
* not a zip at all, or a zip without ``xl/workbook.xml``: refused ("not an xlsx workbook");
* a zip bomb: the parts it will read may unpack to at most ``max_unpacked_bytes`` together and
  each part at most ``MAX_RATIO`` times its packed size (spreadsheet XML packs 5-20:1; a bomb of
  repeated bytes packs 1,000:1 and more). The declared sizes are checked first, then each part is
  unpacked once, counting, before the reader sees it (a part whose real size differs from the
  declared one fails its CRC there).

Cells are read with ``python-calamine`` (the Rust ``calamine`` reader): on a 50 MB workbook it
reads rows about ten times as fast as ``openpyxl``'s read-only mode (``bench/xlsx_import.py``).
A sheet is a :class:`Table`: the header row (the first row with text in it), its columns found
by name (case and spacing ignored, several accepted spellings per column), and the data rows.
"""

from __future__ import annotations

import io
import itertools
import re
import zipfile
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from typing import IO, Any
from xml.etree import ElementTree

from models.importers.common import ParseError

CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
MAX_RATIO = 200.0
"""Largest unpacked/packed ratio of a part (parts under 1 MiB unpacked are not held to it)."""
DEFAULT_MAX_UNPACKED_BYTES = 2 * 1024**3
"""Unpacked bytes of the parts read, together (a 50 MB workbook unpacks to about 300 MB)."""
EXCEL_EPOCH = datetime(1899, 12, 30)

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"


class WorkbookError(ParseError):
    """A workbook that cannot be imported, naming the sheet, row (1-based, as Excel numbers it)
    and column (by its header) at fault: ``sheet 'vInfo', row 12, column 'In Use MiB': ...``."""

    def __init__(
        self, message: str, sheet: str | None = None, row: int | None = None, column: str | None = None
    ) -> None:
        super().__init__(message, row, None, column)
        self.sheet = sheet
        where = []
        if sheet is not None:
            where.append(f"sheet {sheet!r}")
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {column!r}")
        self.args = (f"{', '.join(where)}: {message}" if where else message,)

    def __str__(self) -> str:
        return str(self.args[0])


def _norm(name: object) -> str:
    return re.sub(r"\s+", " ", str(name)).strip().lower()


class Table:
    """One sheet: its header row and data rows (see the module docstring)."""

    def __init__(self, sheet: str, header: list[str], header_row: int, rows: Iterator[list[Any]]) -> None:
        self.sheet = sheet
        self.header = header
        self.header_row = header_row
        self._rows = rows
        self._index: dict[str, int] = {}
        for i, h in enumerate(header):
            self._index.setdefault(_norm(h), i)

    def find(self, *names: str) -> int | None:
        """The index of the first of ``names`` the header has, else None."""
        for n in names:
            i = self._index.get(_norm(n))
            if i is not None:
                return i
        return None

    def column(self, *names: str) -> int:
        """Like :meth:`find`, but a missing column is a :class:`WorkbookError` listing the sheet's."""
        i = self.find(*names)
        if i is None:
            wanted = " or ".join(repr(n) for n in names)
            have = ", ".join(repr(h) for h in self.header if h)[:600]
            raise WorkbookError(f"no column {wanted}; the sheet has {have}", self.sheet, self.header_row)
        return i

    def name_of(self, i: int) -> str:
        return self.header[i]

    def rows(self) -> Iterator[tuple[int, list[Any]]]:
        """(row number, cells) of the data rows, blank rows left out."""
        number = self.header_row
        for row in self._rows:
            number += 1
            if any(c is not None and c != "" for c in row):
                yield number, row

    def chunks(self, size: int) -> Iterator[tuple[int, list[list[Any]]]]:
        """The data rows in lists of ``size`` (blank rows included), each with the row number of
        its first: for readers that convert whole columns at once."""
        number = self.header_row + 1
        while chunk := list(itertools.islice(self._rows, size)):
            yield number, chunk
            number += len(chunk)

    def number(self, row: list[Any], i: int, number: int, *, blank: float | None = None) -> float | None:
        """Cell ``i`` of ``row`` as a float (``blank`` when empty); text that is no number is a
        :class:`WorkbookError` naming the cell."""
        v = row[i] if i < len(row) else None
        if v is None or v == "":
            return blank
        if isinstance(v, bool):
            raise WorkbookError(f"not a number: {v!r}", self.sheet, number, self.header[i])
        if isinstance(v, int | float):
            return float(v)
        try:
            return float(str(v).replace(",", "").strip())
        except ValueError:
            raise WorkbookError(f"not a number: {v!r}", self.sheet, number, self.header[i]) from None

    def text(self, row: list[Any], i: int) -> str:
        v = row[i] if i < len(row) else None
        if v is None:
            return ""
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v).strip()

    def moment(self, row: list[Any], i: int, number: int) -> datetime:
        """Cell ``i`` as a date and time: a date cell, an Excel serial day, or ISO text."""
        v = row[i] if i < len(row) else None
        if isinstance(v, datetime):
            return v.replace(tzinfo=None) if v.tzinfo is None else v
        if isinstance(v, date):
            return datetime(v.year, v.month, v.day)
        if isinstance(v, time):
            raise WorkbookError(f"a time without a date: {v!r}", self.sheet, number, self.header[i])
        if isinstance(v, int | float) and not isinstance(v, bool):
            return EXCEL_EPOCH + timedelta(days=float(v))
        if isinstance(v, str) and v.strip():
            try:
                return datetime.fromisoformat(v.strip().replace("Z", "+00:00"))
            except ValueError:
                pass
        raise WorkbookError(f"not a date and time: {v!r}", self.sheet, number, self.header[i])


class Workbook:
    """An xlsx workbook checked as the module docstring says; :meth:`table` reads a sheet."""

    def __init__(self, raw: IO[bytes], *, max_unpacked_bytes: int = DEFAULT_MAX_UNPACKED_BYTES) -> None:
        head = raw.read(8)
        raw.seek(0)
        if head.startswith(CFB_MAGIC):
            raise WorkbookError(_compound_file_reason(raw))
        if not head.startswith(ZIP_MAGIC):
            raise WorkbookError("not an xlsx workbook (an xlsx file is a zip archive; this one is not)")
        try:
            self._zip = zipfile.ZipFile(raw)
            infos = {i.filename: i for i in self._zip.infolist()}
        except (zipfile.BadZipFile, OSError) as exc:
            raise WorkbookError(f"not an xlsx workbook: the zip archive is damaged ({exc})") from None
        if "xl/workbook.xml" not in infos:
            raise WorkbookError("not an xlsx workbook: a zip archive without xl/workbook.xml")
        self._infos = infos
        self._budget = max_unpacked_bytes
        self._limit = max_unpacked_bytes
        self._checked: set[str] = set()
        self._parts = self._sheet_parts()
        for part in ("xl/workbook.xml", "xl/styles.xml", "xl/sharedStrings.xml"):
            if part in infos:
                self._check(part)
        from python_calamine import CalamineError, CalamineWorkbook

        raw.seek(0)
        try:
            self._book = CalamineWorkbook.from_filelike(raw)
        except CalamineError as exc:
            raise WorkbookError(f"the workbook cannot be read: {exc}") from None
        self.sheet_names: list[str] = list(self._book.sheet_names)
        self._sheets: dict[str, Any] = {}  # parsed sheets: calamine parses a whole sheet per call

    def _sheet_parts(self) -> dict[str, str]:
        """Sheet name -> zip part, from the workbook and its relationships."""
        try:
            book = ElementTree.fromstring(self._read_small("xl/workbook.xml"))
            rels_xml = self._read_small("xl/_rels/workbook.xml.rels")
            rels = {
                r.get("Id"): r.get("Target", "")
                for r in ElementTree.fromstring(rels_xml).iter(f"{_PKG_REL}Relationship")
            }
        except (ElementTree.ParseError, KeyError) as exc:
            raise WorkbookError(f"not an xlsx workbook: its sheet list cannot be read ({exc})") from None
        parts = {}
        for sheet in book.iter(f"{_MAIN}sheet"):
            target = rels.get(sheet.get(f"{_REL}id"), "")
            part = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            parts[sheet.get("name", "")] = part
        return parts

    def _read_small(self, part: str) -> bytes:
        self._check(part)
        return self._zip.read(part)

    def _check(self, part: str) -> None:
        """Unpack ``part`` once, counting, within the budget and the ratio (see the docstring)."""
        if part in self._checked:
            return
        info = self._infos.get(part)
        if info is None:
            raise KeyError(part)
        if info.file_size > self._budget:
            used = self._limit - self._budget
            raise WorkbookError(
                f"the workbook unpacks to {used + info.file_size:,} bytes or more ({part}), more than "
                f"the {self._limit:,} allowed (a zip bomb, or a workbook too large to import)"
            )
        limit = min(self._budget, max(1024**2, int(info.compress_size * MAX_RATIO)))
        if info.file_size > limit:
            raise WorkbookError(
                f"{part} unpacks {info.file_size / max(info.compress_size, 1):,.0f} times its packed "
                f"size ({info.file_size:,} bytes): refused as a zip bomb"
            )
        n = 0
        try:
            with self._zip.open(info) as f:
                while chunk := f.read(1024**2):
                    n += len(chunk)
                    if n > limit:
                        raise WorkbookError(
                            f"{part} unpacks to more than {limit:,} bytes: refused as a zip bomb"
                        )
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
            if isinstance(exc, WorkbookError):
                raise
            raise WorkbookError(f"the workbook is damaged: {part}: {exc}") from None
        self._budget -= n
        self._checked.add(part)

    def has(self, *names: str) -> str | None:
        """The first of ``names`` that is a sheet (case ignored), else None."""
        by_norm = {_norm(s): s for s in self.sheet_names}
        for n in names:
            if _norm(n) in by_norm:
                return by_norm[_norm(n)]
        return None

    def table(self, name: str, *, header_within: int = 20) -> Table:
        """Sheet ``name`` as a :class:`Table` (its header within the first ``header_within`` rows)."""
        sheet = self.has(name)
        if sheet is None:
            have = ", ".join(repr(s) for s in self.sheet_names)
            raise WorkbookError(f"the workbook has no sheet {name!r}; it has {have}")
        part = self._parts.get(sheet)
        if part is not None and part in self._infos:
            self._check(part)
        from python_calamine import CalamineError

        try:
            if sheet not in self._sheets:
                self._sheets[sheet] = self._book.get_sheet_by_name(sheet)
            rows = self._sheets[sheet].iter_rows()
        except CalamineError as exc:
            raise WorkbookError(f"the sheet cannot be read: {exc}", sheet) from None
        for number, row in enumerate(rows, start=1):
            if any(isinstance(c, str) and c.strip() for c in row):
                return Table(sheet, [str(c).strip() if c is not None else "" for c in row], number, rows)
            if number >= header_within:
                break
        raise WorkbookError("no header row (a row of column names) in the first rows", sheet)

    def tables(self) -> Iterator[Table]:
        """Every sheet that has a header row."""
        for name in self.sheet_names:
            try:
                yield self.table(name)
            except WorkbookError as exc:
                if "no header row" not in str(exc):
                    raise


def _compound_file_reason(raw: IO[bytes]) -> str:
    """Why an OLE2 compound file is refused: encrypted, or a legacy .xls."""
    data = raw.read(4 * 1024**2)
    raw.seek(0)
    if "EncryptedPackage".encode("utf-16-le") in data or "EncryptionInfo".encode("utf-16-le") in data:
        return (
            "the workbook is encrypted (password-protected): save a copy without a password and import that"
        )
    return "an Excel 97-2003 workbook (.xls), not an xlsx: save it as .xlsx (Excel Workbook) and import that"


def open_workbook(
    data: bytes | IO[bytes], *, max_unpacked_bytes: int = DEFAULT_MAX_UNPACKED_BYTES
) -> Workbook:
    """A :class:`Workbook` of ``data`` (bytes or a seekable binary file object)."""
    raw = io.BytesIO(data) if isinstance(data, bytes | bytearray) else data
    return Workbook(raw, max_unpacked_bytes=max_unpacked_bytes)


__all__ = ["Table", "Workbook", "WorkbookError", "open_workbook"]
