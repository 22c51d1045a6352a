"""The BOM workbook of a saved report (``.xlsx``, written with openpyxl).

A summary sheet (the report, its link and verdict, each configuration's money side by side and the
choice that flips as the reduction ratio drops), then one sheet per configuration the report
priced: its bill line by line (controllers, shelves, drives, cache, ports, licences) with quantity,
list price, discount, net price, support per year and over the years bought, power and rack units;
its cost year by year; and its cost at the three reduction ratios. Every figure is the engine's, as
saved (values, not spreadsheet formulas); like the CSV export it reads the stored JSON. Text that a
spreadsheet would run as a formula is written as text.
"""

from __future__ import annotations

import io
import re
from typing import Any

from backend.app.reports.export import priced
from backend.app.reports.export import value_of as _v

MONEY_FORMAT = "#,##0.00"
COUNT_FORMAT = "#,##0.##"
_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
BOM_HEADERS = (
    "Kind",
    "Item",
    "Quantity",
    "Unit",
    "Unit list price (USD)",
    "List price (USD)",
    "Discount (%)",
    "Net price ({cur})",
    "Support per year ({cur})",
    "Support years",
    "Support total ({cur})",
    "Power (W)",
    "Rack units (U)",
    "Included in",
    "Source",
)


def _text(x: Any) -> Any:
    """A cell value: numbers as numbers, text that starts like a formula kept as text."""
    if isinstance(x, str) and x[:1] in ("=", "+", "-", "@"):
        return "'" + x
    return x


def _sheet_name(index: int, name: str, taken: set[str]) -> str:
    base = _BAD_SHEET_CHARS.sub(" ", f"{index} {name}").strip()[:31] or f"Sheet {index}"
    out, k = base, 2
    while out.lower() in taken:
        suffix = f" ({k})"
        out, k = base[: 31 - len(suffix)] + suffix, k + 1
    taken.add(out.lower())
    return out


def _bom_sheet(ws: Any, t: dict[str, Any], bold: Any) -> None:
    cur = str(t.get("currency", "USD"))
    support_years = int(t.get("support_years") or 0)
    ws.append([f"Bill of materials: {t.get('configuration', '')}"])
    ws["A1"].font = bold
    ws.append(
        [
            f"Currency {cur} ({_text((t.get('exchange_rate') or {}).get('text', ''))}); support "
            f"{t.get('support_pct_per_year')}% of the net price a year for {support_years} years "
            f"(the catalog sells up to {t.get('support_max_years')})"
        ]
    )
    ws.append([])
    ws.append([h.format(cur=cur) for h in BOM_HEADERS])
    for cell in ws[ws.max_row]:
        cell.font = bold
    first = ws.max_row + 1
    for line in t.get("lines", []):
        support = line.get("support_per_year")
        ws.append(
            [
                line.get("kind"),
                _text(line.get("description")),
                line.get("quantity"),
                line.get("unit"),
                line.get("unit_list_usd"),
                line.get("list_usd"),
                line.get("discount_pct"),
                line.get("net"),
                support,
                support_years if not line.get("included") else 0,
                None if support is None else support * support_years,
                line.get("power_w"),
                line.get("rack_units"),
                "controllers" if line.get("included") else None,
                _text(line.get("source")),
            ]
        )
    last = ws.max_row
    for row in ws.iter_rows(min_row=first, max_row=last):
        for i in (4, 5, 7, 8, 10):
            row[i].number_format = MONEY_FORMAT
        row[2].number_format = COUNT_FORMAT
    capital = _v(t.get("capital"))
    support_year = _v(t.get("support_per_year"))
    ws.append(
        [
            "total",
            "",
            None,
            None,
            None,
            t.get("list_usd"),
            None,
            capital,
            support_year,
            support_years,
            None if support_year is None else support_year * support_years,
            sum(line.get("power_w") or 0.0 for line in t.get("lines", [])),
            sum(line.get("rack_units") or 0.0 for line in t.get("lines", [])),
        ]
    )
    for cell in ws[ws.max_row]:
        cell.font = bold
        if cell.column in (6, 8, 9, 11):
            cell.number_format = MONEY_FORMAT

    ws.append([])
    ws.append([f"Cost of ownership over {t.get('years')} years ({cur})"])
    ws.cell(ws.max_row, 1).font = bold
    ws.append(["Year", "Capital", "Support", "Energy", "Rack space", "Cumulative TCO"])
    for cell in ws[ws.max_row]:
        cell.font = bold
    for y in t.get("by_year", []):
        ws.append(
            [
                y.get("year"),
                y.get("capital"),
                y.get("support"),
                y.get("energy"),
                y.get("rack_space"),
                y.get("total"),
            ]
        )
        for cell in ws[ws.max_row][1:6]:
            cell.number_format = MONEY_FORMAT
    for key, label in (
        ("energy_per_year", "Energy a year"),
        ("rack_space_per_year", "Rack space a year"),
        ("total", "TCO"),
    ):
        fig = t.get(key) or {}
        ws.append([label, _v(fig), _text(fig.get("text", ""))])
        ws.cell(ws.max_row, 2).number_format = MONEY_FORMAT

    ws.append([])
    ws.append(
        [
            f"Cost at three data-reduction ratios (busiest window {t.get('busiest_window')}, {t.get('busiest_iops')} IOPS)"
        ]
    )
    ws.cell(ws.max_row, 1).font = bold
    ws.append(
        [
            "Case",
            "Ratio (x:1)",
            "Drives in RAID groups",
            "Drives added",
            "Usable TB",
            "Effective TB",
            f"TCO ({cur})",
            f"{cur} per effective TB",
            f"{cur} per 1,000 IOPS",
            "Holds the data",
            "Note",
            "Ratio source",
        ]
    )
    for cell in ws[ws.max_row]:
        cell.font = bold
    for c in t.get("ratios", []):
        ws.append(
            [
                c.get("label"),
                c.get("ratio"),
                c.get("drives"),
                c.get("drives_added"),
                c.get("usable_tb"),
                _v(c.get("effective_tb")),
                _v(c.get("tco")),
                _v(c.get("cost_per_effective_tb")),
                _v(c.get("cost_per_1000_iops")),
                bool(c.get("holds")),
                _text(c.get("note")),
                _text(c.get("ratio_source")),
            ]
        )
        for cell in ws[ws.max_row][6:9]:
            cell.number_format = MONEY_FORMAT
    for note in t.get("notes", []):
        ws.append([_text(note)])
    widths = {
        "A": 14,
        "B": 58,
        "C": 10,
        "D": 8,
        "E": 16,
        "F": 16,
        "G": 12,
        "H": 16,
        "I": 16,
        "J": 10,
        "K": 16,
        "L": 11,
        "M": 10,
    }
    for col, width in widths.items():
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A5"


def _figures_sheet(ws: Any, title: str, rows: list[tuple[str, Any]], bold: Any) -> None:
    ws.append([title])
    ws["A1"].font = bold
    for name, value in rows:
        ws.append([_text(name), _text(value) if isinstance(value, str) else value])
    ws.column_dimensions["A"].width = 40
    ws.column_dimensions["B"].width = 60


def _analysis_rows(snapshot: dict[str, Any]) -> list[tuple[str, Any]]:
    """The headline figures of the report (what a recomputation diffs)."""
    return [(name, value) for name, value in (snapshot.get("headline") or {}).items()]


def to_xlsx(snapshot: dict[str, Any], link: str) -> bytes:
    """The workbook of ``snapshot`` (bytes of an ``.xlsx`` file)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    bold = Font(bold=True)
    wb = Workbook()
    ws = wb.active
    ws.title = "Summary"
    money = priced(snapshot)
    ws.append([_text(str(snapshot.get("name", "Report")))])
    ws["A1"].font = Font(bold=True, size=14)
    for label, value in (
        ("Analysis", snapshot.get("kind")),
        ("Saved", snapshot.get("created_at")),
        ("Engine", snapshot.get("engine_version")),
        ("Catalog", snapshot.get("catalog_version")),
        ("Report", link),
    ):
        ws.append([label, _text(value)])
    ws.cell(ws.max_row, 2).hyperlink = link
    ws.append([])
    if money:
        cur = money[0].get("currency", "USD")
        ws.append(
            [
                "Configuration",
                "List (USD)",
                f"Capital ({cur})",
                f"Support a year ({cur})",
                f"Energy a year ({cur})",
                f"TCO ({cur})",
                f"TCO, no reduction ({cur})",
                f"TCO, expected ({cur})",
                f"TCO, claimed ({cur})",
                "Years",
            ]
        )
        for cell in ws[ws.max_row]:
            cell.font = bold
        for t in money:
            by_case = {c.get("case"): _v(c.get("tco")) for c in t.get("ratios", [])}
            ws.append(
                [
                    _text(t.get("configuration")),
                    t.get("list_usd"),
                    _v(t.get("capital")),
                    _v(t.get("support_per_year")),
                    _v(t.get("energy_per_year")),
                    _v(t.get("total")),
                    by_case.get("pessimistic"),
                    by_case.get("expected"),
                    by_case.get("claimed"),
                    t.get("years"),
                ]
            )
            for cell in ws[ws.max_row][1:9]:
                cell.number_format = MONEY_FORMAT
        flip = _flip_words(snapshot)
        if flip:
            ws.append([])
            ws.append([_text(flip)])
        ws.append([])
    ws.append(["Headline figures"])
    ws.cell(ws.max_row, 1).font = bold
    for name, value in _analysis_rows(snapshot):
        ws.append([_text(name), _text(value) if isinstance(value, str) else value])
    ws.column_dimensions["A"].width = 48
    for col in "BCDEFGHIJ":
        ws.column_dimensions[col].width = 18

    taken = {"summary"}
    for i, t in enumerate(money, start=1):
        _bom_sheet(wb.create_sheet(_sheet_name(i, str(t.get("configuration", "")), taken)), t, bold)
    if snapshot.get("kind") == "building-blocks":
        sizing = (snapshot.get("result") or {}).get("sizing") or {}
        rows = [(k.replace("_", " "), v) for k, v in sizing.items() if not isinstance(v, dict | list)]
        _figures_sheet(
            wb.create_sheet(_sheet_name(1, "Building blocks", taken)), "Building blocks", rows, bold
        )
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _flip_words(snapshot: dict[str, Any]) -> str | None:
    result = snapshot.get("result") or {}
    flip = result.get("ratio_flip") if isinstance(result, dict) else None
    return flip.get("words") if isinstance(flip, dict) else None
