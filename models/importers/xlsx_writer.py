"""A minimal xlsx writer, for the example workbooks of tests, benchmarks and demonstrations.

Writes the parts a reader needs (``[Content_Types].xml``, the workbook, its relationships, a style
sheet with one date format, one worksheet per sheet) into a zip, streaming the rows: a workbook of
a million rows never sits in memory. Strings are inline (``t="inlineStr"``), numbers plain, dates
and times Excel serial days (days since 1899-12-30) in a cell styled ``m/d/yyyy h:mm`` (built-in
number format 22), as Excel writes them [ecma-376].

This is no general writer (no shared strings, formulas or formatting): the product reads
workbooks; it writes these only to exercise its readers.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import IO
from xml.sax.saxutils import escape

Cell = str | float | int | datetime | None

EXCEL_EPOCH = datetime(1899, 12, 30)

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/styles.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    "{sheets}</Types>"
)
_SHEET_TYPE = (
    '<Override PartName="/xl/worksheets/sheet{n}.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
    "</styleSheet>"
)
_NS = (
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)


def _column(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(65 + r) + name
    return name


def _cell(ref: str, value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        days = (value - EXCEL_EPOCH).total_seconds() / 86400.0
        return f'<c r="{ref}" s="1"><v>{days!r}</v></c>'
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'
    return f'<c r="{ref}"><v>{value!r}</v></c>'


def write_xlsx(out: IO[bytes], sheets: Mapping[str, Iterable[Sequence[Cell]]]) -> None:
    """Write ``sheets`` (name -> rows, the first row usually the header) as an xlsx into ``out``."""
    names = list(sheets)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr(
            "[Content_Types].xml",
            _CONTENT_TYPES.format(sheets="".join(_SHEET_TYPE.format(n=i + 1) for i in range(len(names)))),
        )
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr(
            "xl/workbook.xml",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f"<workbook {_NS}><sheets>"
            + "".join(
                f'<sheet name="{escape(n, {chr(34): "&quot;"})}" sheetId="{i + 1}" r:id="rId{i + 1}"/>'
                for i, n in enumerate(names)
            )
            + "</sheets></workbook>",
        )
        z.writestr(
            "xl/_rels/workbook.xml.rels",
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(
                f'<Relationship Id="rId{i + 1}" '
                'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
                f'Target="worksheets/sheet{i + 1}.xml"/>'
                for i in range(len(names))
            )
            + f'<Relationship Id="rId{len(names) + 1}" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
            'Target="styles.xml"/></Relationships>',
        )
        z.writestr("xl/styles.xml", _STYLES)
        for i, name in enumerate(names):
            with z.open(f"xl/worksheets/sheet{i + 1}.xml", "w", force_zip64=True) as part:
                part.write(
                    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {_NS}><sheetData>'.encode()
                )
                buffer: list[str] = []
                for r, row in enumerate(sheets[name]):
                    cells = "".join(_cell(f"{_column(c)}{r + 1}", v) for c, v in enumerate(row))
                    buffer.append(f'<row r="{r + 1}">{cells}</row>')
                    if len(buffer) >= 2048:
                        part.write("".join(buffer).encode())
                        buffer.clear()
                part.write(("".join(buffer) + "</sheetData></worksheet>").encode())
