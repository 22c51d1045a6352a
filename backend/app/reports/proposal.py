"""The proposal: a saved report as a self-contained HTML document, printed to PDF (``pdf.py``).

It reads the stored snapshot (the JSON text a read returns, not the current schemas, so a report
saved by an older engine still renders) and shows its figures as saved, in the engine's words: the
verdict (and its confidence when the result has one), the bill and its money over time with the
three-ratio table, how busy each part is against its limit, the failure and growth cases, the
curves as vector charts, a math appendix with every explained figure's formula and numbers, the
calibration status (and model error when the result has it), the inputs and the report's link.

The document references nothing outside itself (no script, font, image or stylesheet URL), so the
browser printing it opens no other address. Print CSS keeps a heading with what follows it, keeps
tables rows and charts whole and repeats table headers on each page.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from html import escape
from typing import Any

from backend.app.reports.charts import Bar, Mark, Series, bar_chart, line_chart
from backend.app.reports.export import priced
from backend.app.reports.export import value_of as _v
from models.explain import number

KIND_TITLES = {
    "evaluate": "Evaluation",
    "size": "Sizing",
    "compare": "Comparison",
    "curves": "Curves",
    "recommend": "Recommendation",
    "raid-grid": "RAID grid",
    "growth": "Growth",
    "sensitivity": "Sensitivity",
    "ranges": "Ranges",
    "degraded": "Degraded modes",
    "building-blocks": "Building blocks",
    "replication": "Replication and DR",
    "expand": "Expansion",
    "quote-check": "Quote check",
    "consolidate": "Consolidation",
    "refresh": "Refresh",
}
APPENDIX_LIMIT = 600
"""Explained figures the appendix lists at most (an evaluation of many windows and phases has
hundreds; the report's JSON export has them all)."""

CSS = """
@page { size: A4; margin: 16mm 15mm 18mm 15mm;
  @bottom-right { content: "page " counter(page) " of " counter(pages); font-size: 8pt; color: #555; } }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9.5pt; color: #111;
  line-height: 1.35; margin: 0; }
h1 { font-size: 18pt; margin: 0 0 4pt; }
h2 { font-size: 13pt; margin: 14pt 0 5pt; border-bottom: 1px solid #999; padding-bottom: 2pt; }
h3 { font-size: 10.5pt; margin: 10pt 0 4pt; }
h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
.keep { break-inside: avoid; page-break-inside: avoid; }
p { margin: 3pt 0 5pt; orphans: 3; widows: 3; }
table { border-collapse: collapse; width: 100%; margin: 3pt 0 8pt; font-size: 8.5pt; }
thead { display: table-header-group; }
tr, svg, figure { break-inside: avoid; page-break-inside: avoid; }
th, td { border: 1px solid #bbb; padding: 2pt 4pt; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.pass { color: #1d6b3a; font-weight: bold; }
.fail { color: #a32020; font-weight: bold; }
.muted { color: #555; }
.verdict { font-size: 11.5pt; padding: 6pt 8pt; border: 2px solid #1d6b3a; margin: 6pt 0; }
.verdict.failed { border-color: #a32020; }
.meta td { border: none; padding: 1pt 6pt 1pt 0; }
.formula { font-family: "DejaVu Sans Mono", monospace; font-size: 7.5pt; }
.appendix td { font-size: 7.5pt; }
figure { margin: 6pt 0 10pt; }
svg.chart { max-width: 100%; height: auto; }
a { color: #1f5fa8; }
"""


# ---- small builders -------------------------------------------------------------------------------


def _n(x: Any, digits: int = 3) -> str:
    """A figure as the engine formats it; '-' when absent."""
    if x is None:
        return "-"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int | float):
        return number(float(x), digits) if not isinstance(x, int) else f"{x:,}"
    return escape(str(x))


def _money(x: Any, currency: str) -> str:
    return "unknown" if x is None else f"{_n(x)} {escape(currency)}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = ()) -> str:
    head = "".join(
        f'<th class="{"num" if i in numeric else ""}">{escape(h)}</th>' for i, h in enumerate(headers)
    )
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = cell if isinstance(cell, _Html) else _n(cell)
            cells.append(f'<td class="{"num" if i in numeric else ""}">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


class _Html(str):
    """Markup already escaped (a table cell that is not plain text)."""


def _pass(ok: Any) -> _Html:
    return _Html('<span class="pass">pass</span>' if ok else '<span class="fail">fail</span>')


def _section(title: str, first: str, rest: str = "") -> str:
    """A section whose heading stays on the page of its first block (no orphaned heading)."""
    return f'<section><div class="keep"><h2>{escape(title)}</h2>{first}</div>{rest}</section>'


def _sub(title: str, first: str, rest: str = "") -> str:
    return f'<div class="keep"><h3>{escape(title)}</h3>{first}</div>{rest}'


def _p(text: Any, cls: str = "") -> str:
    return f'<p class="{cls}">{escape(str(text))}</p>' if text else ""


def _figure(svg: str) -> str:
    return f"<figure>{svg}</figure>"


# ---- the evaluation --------------------------------------------------------------------------------


def _verdict(result: dict[str, Any], words: str | None = None) -> str:
    passed = bool(result.get("passed"))
    cls = "verdict" if passed else "verdict failed"
    text = words or (
        f"Meets every window. Busiest: {result.get('bottleneck', '')}."
        if passed
        else f"Does not meet every window: {result.get('bottleneck', '')}."
    )
    judged = result.get("verdict")
    if judged:  # the headline over every case decides, and names what was relaxed
        text = judged.get("headline") or text
    out = f'<div class="{cls}">{_pass(passed)} {escape(text)}</div>'
    if judged:
        if words and words != text:
            out += _p(words)
        out += _cases(judged)
    chance = result.get("confidence")
    if chance:  # a sizing to a stated confidence (models.confidence)
        target = chance.get("target_pct")
        out += _p(
            f"Chance of meeting every target: {_plain(chance.get('chance_pct'))}%"
            + (f" (sized to {_plain(target)}%)" if target is not None else "")
            + f". {chance.get('text', '')}"
        )
    return out


def _cases(judged: dict[str, Any]) -> str:
    """Every case the verdict judged, window by window (failing ones first), and its notes."""
    cases = judged.get("cases", [])
    order = {"fails": 0, "meets": 1, "relaxed": 2, "not applicable": 3}
    rows = [
        [c.get("case"), c.get("window") or "capacity", c.get("load"), c.get("status"), c.get("text")]
        for c in sorted(cases, key=lambda c: order.get(str(c.get("status")), 4))
    ]
    table = _table(["Case", "Window", "Load", "Verdict", "In words"], rows) if rows else ""
    notes = "".join(_p(n, "muted") for n in judged.get("notes", []))
    return _sub("Every case judged", table + notes)


def _plain(x: Any) -> str:
    """A value of unknown shape in words: a text, a number, or key: value pairs."""
    if isinstance(x, dict):
        if "text" in x and isinstance(x["text"], str) and x["text"]:
            return x["text"]
        return "; ".join(f"{k}: {_plain(v)}" for k, v in x.items() if not isinstance(v, dict | list))
    if isinstance(x, list):
        return ", ".join(_plain(v) for v in x)
    return str(number(float(x)) if isinstance(x, float) else x)


def _busy_bars(window: dict[str, Any]) -> list[Bar]:
    bars = []
    for c in window.get("checks", []):
        if c.get("unit") != "%":
            continue
        bars.append(
            Bar(
                label=_check_label(c),
                value=c.get("value"),
                limit=c.get("limit"),
                passed=c.get("passed", True),
            )
        )
    return bars


def _check_label(check: dict[str, Any]) -> str:
    name = str(check.get("name", ""))
    return name.replace(":", " ").replace("_", " ")


def _evaluation(result: dict[str, Any], title_prefix: str = "") -> str:
    out = []
    windows = result.get("windows", [])
    rows = [
        [
            w.get("window"),
            w.get("frontend_iops"),
            w.get("frontend_mb_s"),
            w.get("read_latency_ms"),
            w.get("write_latency_ms"),
            _pass(w.get("passed")),
            w.get("verdict") or w.get("bottleneck"),
        ]
        for w in windows
    ]
    out.append(
        _section(
            f"{title_prefix}Windows",
            _table(
                ["Window", "IOPS", "MB/s", "Read ms", "Write ms", "Verdict", "In words"],
                rows,
                numeric=(1, 2, 3, 4),
            ),
        )
    )
    charts = []
    for w in windows:
        bars = _busy_bars(w)
        if bars:
            charts.append(_figure(bar_chart(f"{w.get('window')}: how busy against the limits", bars)))
        rows = [[c.get("text"), _pass(c.get("passed"))] for c in w.get("checks", [])]
        charts.append(_sub(f"{w.get('window')}: every check", _table(["Check", ""], rows)))
    if charts:
        out.append(_section(f"{title_prefix}Busy figures against headroom", charts[0], "".join(charts[1:])))
    wear = [
        [w.get("window"), p.get("pool"), _v((p.get("endurance") or {}).get("years_to_wear_out"))]
        for w in windows
        for p in w.get("pools", [])
        if p.get("endurance")
    ]
    if wear:  # flash wear in years at each window's write rate, where a drive states its endurance
        out.append(
            _section(f"{title_prefix}Flash wear", _table(["Window", "Pool", "Years to wear out"], wear))
        )
    out.append(_failure(result, title_prefix))
    out.append(_capacity(result, title_prefix))
    return "".join(out)


def _failure(result: dict[str, Any], prefix: str) -> str:
    rows = []
    for w in result.get("windows", []):
        rows.append(
            [
                w.get("window"),
                _v(w.get("failover_utilization_pct")),
                w.get("failure_verdict") or "-",
            ]
        )
    pools = []
    for w in result.get("windows", []):
        for p in w.get("pools", []):
            f = p.get("failure")
            if f:
                pools.append(
                    [
                        f"{w.get('window')} / {p.get('pool')}",
                        f.get("failed_group_utilization_pct"),
                        f.get("rebuild_group_utilization_pct"),
                        _v(f.get("rebuild_hours")),
                        _v(f.get("unrecoverable_read_pct")),
                    ]
                )
    if not rows:
        return ""
    body = _table(["Window", "Controllers after failover (%)", "With a drive failed"], rows, numeric=(1,))
    rest = ""
    if pools:
        rest = _sub(
            "Drive failure and rebuild",
            _table(
                [
                    "Window / pool",
                    "Degraded group busy (%)",
                    "Rebuilding group busy (%)",
                    "Rebuild (h)",
                    "Unreadable sector (%)",
                ],
                pools,
                numeric=(1, 2, 3, 4),
            ),
        )
    return _section(f"{prefix}Failure cases", body, rest)


def _capacity(result: dict[str, Any], prefix: str) -> str:
    cap = result.get("capacity") or {}
    if not cap:
        return ""
    rows = [[s.get("text")] for s in cap.get("steps", []) if isinstance(s, dict)]
    head = (
        f"Raw {_n(cap.get('raw_tb'))} TB, usable {_n(cap.get('usable_tb'))} TB, needed "
        f"{_n(_v(cap.get('needed_tb')))} TB at the horizon (growth included): filled "
        f"{_n(cap.get('fill_pct'))}% of {_n(cap.get('max_fill_pct'))}% allowed."
    )
    return _section(f"{prefix}Capacity and growth", _p(head), _table(["Step"], rows) if rows else "")


def _bill(result: dict[str, Any]) -> str:
    bill = result.get("bill") or {}
    if not bill:
        return ""
    explain = bill.get("explain") or {}
    rows = [[k.replace("_", " "), _v(v), v.get("unit", ""), v.get("text", "")] for k, v in explain.items()]
    return _sub("Bill of materials (list)", _table(["Figure", "Value", "Unit", "How"], rows, numeric=(1,)))


# ---- money -----------------------------------------------------------------------------------------


def _tco(t: dict[str, Any] | None, title: str = "Money over time") -> str:
    if not t:
        return ""
    cur = str(t.get("currency", "USD"))
    lines = [
        [
            line.get("description"),
            line.get("quantity"),
            line.get("unit"),
            "included" if line.get("included") else line.get("unit_list_usd"),
            line.get("list_usd"),
            line.get("discount_pct"),
            line.get("net"),
            line.get("power_w"),
            line.get("rack_units"),
        ]
        for line in t.get("lines", [])
    ]
    table = _table(
        [
            "Item",
            "Qty",
            "Unit",
            "Unit list (USD)",
            "List (USD)",
            "Discount (%)",
            f"Net ({cur})",
            "Power (W)",
            "U",
        ],
        lines,
        numeric=(1, 3, 4, 5, 6, 7, 8),
    )
    summary = _table(
        ["Figure", "Value", "How"],
        [
            ["Exchange rate", _v(t.get("exchange_rate")), (t.get("exchange_rate") or {}).get("text")],
            ["Capital", _money(_v(t.get("capital")), cur), (t.get("capital") or {}).get("text")],
            [
                "Support a year",
                _money(_v(t.get("support_per_year")), cur),
                (t.get("support_per_year") or {}).get("text"),
            ],
            [
                "Energy a year",
                _money(_v(t.get("energy_per_year")), cur),
                (t.get("energy_per_year") or {}).get("text"),
            ],
            [
                "Rack space a year",
                _money(_v(t.get("rack_space_per_year")), cur),
                (t.get("rack_space_per_year") or {}).get("text"),
            ],
            [
                f"TCO over {t.get('years')} years",
                _money(_v(t.get("total")), cur),
                (t.get("total") or {}).get("text"),
            ],
        ],
    )
    years = _table(
        ["Year", f"Capital ({cur})", "Support", "Energy", "Rack space", "Cumulative TCO"],
        [
            [
                y.get("year"),
                y.get("capital"),
                y.get("support"),
                y.get("energy"),
                y.get("rack_space"),
                y.get("total"),
            ]
            for y in t.get("by_year", [])
        ],
        numeric=(1, 2, 3, 4, 5),
    )
    ratios = _table(
        [
            "Reduction",
            "Ratio",
            "Drives",
            "Effective TB",
            f"TCO ({cur})",
            f"{cur} / effective TB",
            f"{cur} / 1,000 IOPS",
            "Note",
        ],
        [
            [
                c.get("label"),
                c.get("ratio"),
                c.get("drives"),
                _v(c.get("effective_tb")),
                _v(c.get("tco")),
                _v(c.get("cost_per_effective_tb")),
                _v(c.get("cost_per_1000_iops")),
                c.get("note") or ("holds the data" if c.get("holds") else "does not hold the data"),
            ]
            for c in t.get("ratios", [])
        ],
        numeric=(1, 2, 3, 4, 5, 6),
    )
    sources = "".join(_p(f"{c.get('label')}: {c.get('ratio_source')}", "muted") for c in t.get("ratios", []))
    notes = "".join(_p(n, "muted") for n in t.get("notes", []))
    return (
        _sub(f"{title}: {t.get('configuration', '')}", table)
        + _sub("Cost of ownership", summary)
        + _sub("Year by year", years)
        + _sub(
            f"Cost at three data-reduction ratios (busiest window {t.get('busiest_window')}, "
            f"{_n(t.get('busiest_iops'))} IOPS)",
            ratios,
            sources + notes,
        )
    )


def _flip(flip: dict[str, Any] | None) -> str:
    return _p(flip.get("words")) if flip else ""


# ---- kinds -----------------------------------------------------------------------------------------


def _size(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    inner = r.get("result") or {}
    words = r.get("explanation")
    judged = {**inner, "passed": r.get("feasible") and inner.get("passed"), "confidence": r.get("confidence")}
    yield _section("Verdict", _verdict(judged, words))
    opt = [[o.get("effect"), o.get("drives_saved"), o.get("drives_without")] for o in r.get("optimisms", [])]
    if opt:
        yield _section(
            "Stated optimisms",
            _table(["What was stated", "Drives it saves", "Drives without it"], opt, numeric=(1, 2)),
        )
    yield _section("Bill and money", _bill(inner), _tco(r.get("tco")))
    yield _evaluation(inner)
    yield _curves(s.get("curves"))


def _evaluate(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    yield _section("Verdict", _verdict(r))
    yield _section("Bill and money", _bill(r), "".join(_tco(t) for t in s.get("tco", [])))
    yield _evaluation(r)
    yield _curves(s.get("curves"))


def _compare(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    cols = (r.get("comparison") or {}).get("columns", [])
    rows = []
    for c in cols:
        h = c.get("headline") or {}
        rows.append(
            [
                h.get("configuration"),
                h.get("drives_total"),
                h.get("usable_tb"),
                h.get("cost_usd"),
                _pass(h.get("passed")),
                h.get("bottleneck_words") or h.get("bottleneck"),
            ]
        )
    yield _section(
        "Verdict",
        _table(
            ["Configuration", "Drives", "Usable TB", "List USD", "Verdict", "Bottleneck"],
            rows,
            numeric=(1, 2, 3),
        ),
        _flip(r.get("ratio_flip")),
    )
    items = r.get("items", [])
    money = "".join(_tco(item.get("tco")) for item in items)
    if money:
        yield _section("Money over time", _flip(r.get("ratio_flip")) or _p(""), money)
    for i, item in enumerate(items, start=1):
        inner = item.get("result") or {}
        name = inner.get("configuration", f"configuration {i}")
        yield _section(f"[{i}] {name}", _verdict(inner), _p(item.get("note"), "muted") + _bill(inner))
        yield _evaluation(inner, title_prefix=f"[{i}] ")


def _curves(c: dict[str, Any] | None) -> str:
    if not c:
        return ""
    figs = []
    lvl = c.get("latency_vs_load")
    if lvl:
        pts = lvl.get("points", [])
        series = [
            Series(
                "read latency",
                [(p["iops"], p["read_latency_ms"]) for p in pts if p.get("read_latency_ms") is not None],
            ),
            Series(
                "average latency",
                [(p["iops"], p["avg_latency_ms"]) for p in pts if p.get("avg_latency_ms") is not None],
                dashed=True,
            ),
        ]
        marks = [Mark(lvl.get("operating_iops", 0.0), "operating point")]
        head = c.get("headroom") or {}
        if head.get("headroom_iops"):
            marks.append(Mark(head["headroom_iops"], "headroom limit", "#c0392b"))
        figs.append(
            _figure(line_chart(f"Latency against load, {c.get('window')}", series, "IOPS", "ms", marks=marks))
        )
    qd = c.get("queue_depth")
    if qd and qd.get("points"):
        pts = qd["points"]
        figs.append(
            _figure(
                line_chart(
                    f"IOPS against queue depth, {c.get('window')}",
                    [Series("IOPS", [(p["queue_depth"], p["iops"]) for p in pts])],
                    "outstanding I/Os",
                    "IOPS",
                    x_log=True,
                )
            )
        )
    hit = c.get("hit_ratio")
    if hit and hit.get("points"):
        pts = [p for p in hit["points"] if p.get("cache_gb", 0) > 0]
        figs.append(
            _figure(
                line_chart(
                    f"Read-hit ratio against cache size, {hit.get('workload')} / {hit.get('phase')}",
                    [Series("hit ratio", [(p["cache_gb"], p["hit_pct"]) for p in pts])],
                    "cache (GB)",
                    "hit %",
                    x_log=True,
                    marks=[Mark(hit.get("configured_cache_gb") or 1.0, "configured")],
                    y_max=100.0,
                )
            )
        )
    notes = "".join(_p(n, "muted") for n in c.get("notes", []))
    if not figs:
        return _section("Curves", notes or _p("No curve for this window.", "muted"))
    return _section("Curves", figs[0], "".join(figs[1:]) + notes)


def _curves_kind(s: dict[str, Any]) -> Iterator[str]:
    yield _curves(s["result"])
    yield "".join(_section("Money over time", _tco(t)) for t in s.get("tco", []))


def _recommend(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [
            c.get("rank"),
            f"{c.get('vendor')} {c.get('model')}",
            c.get("drive_name"),
            f"{c.get('raid_scheme')} ({c.get('group_width')})",
            c.get("drive_count"),
            c.get("cost_usd"),
            c.get("rack_units"),
            c.get("read_latency_ms"),
            c.get("headroom_pct"),
            _v((c.get("tco") or {}).get("total")),
        ]
        for c in r.get("configurations", [])
    ]
    cur = next((c["tco"]["currency"] for c in r.get("configurations", []) if c.get("tco")), "USD")
    first = _table(
        ["#", "Array", "Drive", "RAID", "Drives", "List USD", "U", "Read ms", "Headroom %", f"TCO ({cur})"],
        rows,
        numeric=(0, 4, 5, 6, 7, 8, 9),
    )
    reasons = "".join(_p(x) for x in r.get("reasons", []))
    yield _section("Recommended configurations", first, _flip(r.get("ratio_flip")) + reasons)
    money = "".join(_tco(c.get("tco"), f"[{c.get('rank')}]") for c in r.get("configurations", []))
    if money:
        yield _section("Money over time", _flip(r.get("ratio_flip")) or _p(""), money)
    inf = [[a.get("model"), a.get("binding_constraint"), a.get("closest")] for a in r.get("infeasible", [])]
    if inf:
        yield _section("Arrays that cannot meet the workload", _table(["Array", "Binding", "Closest"], inf))
    notes = "".join(_p(n, "muted") for n in r.get("notes", []))
    if notes:
        yield _section("Notes", notes)


def _raid_grid(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [
            row.get("scheme_name"),
            row.get("group_width"),
            row.get("drives"),
            row.get("spares"),
            row.get("usable_tb"),
            _v(row.get("cost_per_usable_tb")),
            _v(row.get("cost_per_1000_iops")),
            row.get("failures_tolerated"),
            _v(row.get("rebuild_hours")),
            row.get("read_latency_ms"),
            _pass(row.get("passed")),
        ]
        for row in r.get("rows", [])
    ]
    yield _section(
        f"Every RAID scheme, sized (busiest window {r.get('window')}, {_n(r.get('frontend_iops'))} IOPS)",
        _table(
            [
                "Scheme",
                "Width",
                "Drives",
                "Spares",
                "Usable TB",
                "USD/TB",
                "USD/kIOPS",
                "Failures",
                "Rebuild h",
                "Read ms",
                "",
            ],
            rows,
            numeric=(1, 2, 3, 4, 5, 6, 7, 8, 9),
        ),
    )
    yield "".join(_section("Money over time", _tco(t)) for t in s.get("tco", []))


def _outcome_row(label: str, o: dict[str, Any] | None) -> list[Any]:
    o = o or {}
    return [
        label,
        _pass(o.get("passed")),
        o.get("binding"),
        o.get("headroom_used_pct"),
        o.get("max_utilization_pct"),
        o.get("read_latency_ms"),
    ]


OUTCOME_HEAD = ["Case", "Verdict", "Binding", "Headroom used %", "Busiest %", "Read ms"]


def _growth(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    yield _section("Verdict", _p(r.get("text")), _p(r.get("formula"), "muted"))
    pts = r.get("points", [])
    windows = sorted({w.get("window") for p in pts for w in p.get("windows", [])})
    series = [
        Series(
            f"{name}: busiest",
            [
                (p["month"], w["max_utilization_pct"])
                for p in pts
                for w in p.get("windows", [])
                if w.get("window") == name and w.get("max_utilization_pct") is not None
            ],
        )
        for name in windows
    ]
    series.append(
        Series(
            "capacity fill",
            [(p["month"], p["fill_pct"]) for p in pts if p.get("fill_pct") is not None],
            dashed=True,
        )
    )
    chart = _figure(line_chart("How busy and how full, month by month", series, "month", "%"))
    breaks = _table(
        ["Window", "Breaks in month", "Latency break", "Headroom break", "What fails first"],
        [
            [
                w.get("window"),
                w.get("break_month"),
                w.get("latency_break_month"),
                w.get("headroom_break_month"),
                w.get("binding"),
            ]
            for w in r.get("windows", [])
        ],
        numeric=(1, 2, 3),
    )
    yield _section("Growth", chart, breaks + "".join(_p(n, "muted") for n in r.get("notes", [])))
    yield "".join(_section("Money over time", _tco(t)) for t in s.get("tco", []))


def _sensitivity(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    yield _section(
        "Verdict",
        _p(r.get("text")),
        _table(OUTCOME_HEAD, [_outcome_row("as given", r.get("base"))], numeric=(3, 4, 5)),
    )
    bars = [
        Bar(b.get("label", ""), b.get("swing_pts"), None)
        for b in r.get("bars", [])
        if b.get("applicable", True)
    ]
    rows = [
        [
            b.get("label"),
            b.get("low_setting"),
            b.get("high_setting"),
            b.get("headroom_low_delta_pts"),
            b.get("headroom_high_delta_pts"),
            b.get("swing_pts"),
        ]
        for b in r.get("bars", [])
    ]
    yield _section(
        "What moves the result most",
        _figure(bar_chart("Headroom swing of each input (points)", bars, unit="pts")),
        _table(
            ["Input", "Low", "High", "Low: headroom Δ pts", "High: headroom Δ pts", "Swing pts"],
            rows,
            numeric=(3, 4, 5),
        ),
    )
    yield "".join(_section("Money over time", _tco(t)) for t in s.get("tco", []))


def _ranges(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    yield _section(
        "Verdict",
        _p(r.get("text")),
        _table(
            OUTCOME_HEAD,
            [
                _outcome_row("optimistic", r.get("optimistic")),
                _outcome_row("expected", r.get("expected")),
                _outcome_row("pessimistic", r.get("pessimistic")),
            ],
            numeric=(3, 4, 5),
        ),
    )
    bands = [
        [name, b.get("low"), b.get("expected"), b.get("high"), b.get("unit")]
        for name, b in (
            ("headroom used", r.get("headroom_used_pct") or {}),
            ("busiest part", r.get("max_utilization_pct") or {}),
            ("read latency", r.get("read_latency_ms") or {}),
        )
    ]
    yield _section("Bands", _table(["Figure", "Low", "Expected", "High", "Unit"], bands, numeric=(1, 2, 3)))
    yield "".join(_section("Money over time", _tco(t)) for t in s.get("tco", []))


def _degraded(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        _outcome_row(m.get("mode", ""), m.get("outcome")) for m in r.get("modes", []) if m.get("available")
    ]
    yield _section("Verdict", _p(r.get("text")), _table(OUTCOME_HEAD, rows, numeric=(3, 4, 5)))
    exposure = [
        [
            m.get("mode"),
            e.get("pool"),
            _v(e.get("rebuild_hours")),
            _v(e.get("further_failure_pct")),
            e.get("text"),
        ]
        for m in r.get("modes", [])
        for e in m.get("rebuild", [])
    ]
    if exposure:
        yield _section(
            "Rebuild exposure",
            _table(["Mode", "Pool", "Rebuild h", "Another failure %", "In words"], exposure, numeric=(2, 3)),
        )
    for m in r.get("modes", []):
        if m.get("result"):
            yield _evaluation(m["result"], title_prefix=f"{m.get('mode')}: ")
    yield "".join(_section("Money over time", _tco(t)) for t in s.get("tco", []))


def _blocks(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    sizing = r.get("sizing") or {}
    rows = [[k.replace("_", " "), v] for k, v in sizing.items() if not isinstance(v, dict | list)]
    yield _section("Building blocks", _table(["Figure", "Value"], rows, numeric=(1,)))
    needs = [
        [n.get("need"), n.get("target"), n.get("unit"), n.get("blocks")] for n in sizing.get("needs", [])
    ]
    if needs:
        yield _section(
            "What each target needs", _table(["Need", "Target", "Unit", "Blocks"], needs, numeric=(1, 3))
        )


def _replication(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [
            w.get("window"),
            _v(w.get("write_mb_s")),
            _v(w.get("change_mb_s")),
            _v(w.get("bandwidth_mbit_s")),
            _v(w.get("lag_minutes")),
        ]
        for w in r.get("windows", [])
    ]
    yield _section(
        "Verdict",
        _p(r.get("text")),
        _table(["Window", "Writes MB/s", "Sent MB/s", "Link Mbit/s", "Lag min"], rows, numeric=(1, 2, 3, 4))
        + "".join(_p(n, "muted") for n in r.get("notes", [])),
    )
    if r.get("sync_write_ms"):
        yield _section("Synchronous write latency", _p(r["sync_write_ms"].get("text")))
    dr = r.get("dr")
    if dr:
        yield _section("DR array", _p(dr.get("text")))
        yield _evaluation(dr.get("failover", {}).get("result") or {}, title_prefix="DR failover: ")


def _expand(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [
            w.get("window"),
            w.get("headroom_used_before_pct"),
            w.get("headroom_used_after_pct"),
            w.get("read_latency_before_ms"),
            w.get("read_latency_after_ms"),
            w.get("binding_after"),
        ]
        for w in r.get("windows", [])
    ]
    added = [
        [k.replace("_", " "), _v(r.get(k))]
        for k in ("drives_added", "shelves_added", "usable_tb_added", "cost_added_usd")
    ]
    yield _section(
        "What the expansion buys",
        _p(r.get("text")),
        _table(["Figure", "Added"], added, numeric=(1,))
        + _table(
            ["Window", "Headroom used before %", "after %", "Read ms before", "after", "Binding after"],
            rows,
            numeric=(1, 2, 3, 4),
        ),
    )
    yield _evaluation(r.get("after") or {}, title_prefix="Expanded: ")


def _quote(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [f.get("area"), f.get("verdict"), f.get("amount"), f.get("unit"), f.get("text")]
        for f in r.get("findings", [])
    ]
    yield _section(
        "Second opinion",
        _p(r.get("text")),
        _table(["Area", "Verdict", "By", "Unit", "Why"], rows, numeric=(2,))
        + "".join(_p(label, "muted") for label in r.get("labels", [])),
    )
    yield _evaluation(r.get("evaluation") or {}, title_prefix="As quoted: ")


def _consolidate(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [
            a.get("name"),
            ", ".join(a.get("workloads", [])),
            a.get("drives"),
            a.get("cost_usd"),
            a.get("busiest_window"),
            a.get("headroom_used_pct"),
        ]
        for a in r.get("arrays", [])
    ]
    unplaced = [[u.get("workload"), u.get("reason")] for u in r.get("unplaced", [])]
    yield _section(
        "Placement",
        _p(r.get("text")),
        _table(
            ["Array", "Workloads", "Drives", "List USD", "Busiest window", "Headroom used %"],
            rows,
            numeric=(2, 3, 5),
        )
        + _p(r.get("method"), "muted"),
    )
    if unplaced:
        yield _section("Fit nowhere", _table(["Workload", "Why"], unplaced))


def _refresh(s: dict[str, Any]) -> Iterator[str]:
    r = s["result"]
    rows = [
        [
            w.get("window"),
            w.get("observed_iops"),
            w.get("observed_read_latency_ms"),
            w.get("current_read_latency_ms"),
            w.get("successor_read_latency_ms"),
            w.get("current_headroom_used_pct"),
            w.get("successor_headroom_used_pct"),
        ]
        for w in r.get("windows", [])
    ]
    side = [
        [c.get("figure"), c.get("before"), c.get("after"), c.get("delta")] for c in r.get("side_by_side", [])
    ]
    yield _section(
        "Today and the successor",
        _p(r.get("text")),
        _table(
            [
                "Window",
                "Observed IOPS",
                "Observed read ms",
                "Today read ms",
                "Successor read ms",
                "Today headroom %",
                "Successor %",
            ],
            rows,
            numeric=(1, 2, 3, 4, 5, 6),
        )
        + _table(["Figure", "Today", "Successor", "Change"], side, numeric=(1, 2, 3)),
    )


_KINDS = {
    "evaluate": _evaluate,
    "size": _size,
    "compare": _compare,
    "curves": _curves_kind,
    "recommend": _recommend,
    "raid-grid": _raid_grid,
    "growth": _growth,
    "sensitivity": _sensitivity,
    "ranges": _ranges,
    "degraded": _degraded,
    "building-blocks": _blocks,
    "replication": _replication,
    "expand": _expand,
    "quote-check": _quote,
    "consolidate": _consolidate,
    "refresh": _refresh,
}


# ---- appendix, calibration, inputs ------------------------------------------------------------------


_NAMING_KEYS = ("window", "pool", "workload", "phase", "scheme_name", "mode", "label")
_SKIPPED = frozenset({"inputs", "assumptions", "exchange_rates", "configuration", "uncertainty"})


def explained_figures(node: Any, names: tuple[str, ...] = ()) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every ``Explained`` figure under ``node`` with a readable label: the names of the window,
    pool, workload and phase it belongs to, then its own (``business hours / aggr0 /
    drive_utilization_pct``), depth first."""
    if isinstance(node, dict):
        own = tuple(str(node[k]) for k in _NAMING_KEYS if isinstance(node.get(k), str) and node.get(k))
        here = names + tuple(n for n in own if n not in names)
        for key, value in node.items():
            if key in _SKIPPED:
                continue
            if isinstance(value, dict) and {"formula", "text", "unit"} <= value.keys() and "value" in value:
                yield " / ".join((*here, key)), value
            elif isinstance(value, dict | list):
                yield from explained_figures(value, here)
    elif isinstance(node, list):
        for item in node:
            yield from explained_figures(item, names)


def _appendix(snapshot: dict[str, Any]) -> str:
    kind = snapshot.get("kind")
    result = snapshot.get("result") or {}
    sources: list[tuple[Any, tuple[str, ...]]] = []
    if kind == "compare":
        sources += [(item, (f"[{i}]",)) for i, item in enumerate(result.get("items", []), start=1)]
    elif kind == "recommend":
        sources += [(c, (f"[{c.get('rank')}]",)) for c in result.get("configurations", [])]
    else:
        sources.append((result, ()))
    sources += [(t, ("money",)) for t in snapshot.get("tco") or []]
    seen: set[tuple[str, str]] = set()
    rows = []
    for path, fig in (found for node, names in sources for found in explained_figures(node, names)):
        text = fig.get("text") or ""
        key = (path, text)
        if not text or key in seen:
            continue
        seen.add(key)
        rows.append(
            [path.strip(" /"), _Html(f'<span class="formula">{escape(fig.get("formula", ""))}</span>'), text]
        )
    more = ""
    if len(rows) > APPENDIX_LIMIT:
        more = _p(
            f"{len(rows) - APPENDIX_LIMIT} more explained figures are in the report's JSON export.", "muted"
        )
        rows = rows[:APPENDIX_LIMIT]
    if not rows:
        return ""
    table = f'<div class="appendix">{_table(["Figure", "Formula", "With the numbers"], rows)}</div>'
    return _section(
        "Appendix: the math behind each figure",
        _p("Each figure as the engine computed it: its formula, then the same with the numbers filled in."),
        table + more,
    )


def _calibration(s: dict[str, Any]) -> str:
    cal = s.get("calibration") or {}
    rows = [
        ["calibration release", cal.get("version") or "engine defaults (no calibration file)"],
        ["calibration file", cal.get("file") or "-"],
        ["file digest (SHA-256)", (cal.get("sha256") or "-")[:16]],
        ["default WAFL layout age", cal.get("default_layout") or "-"],
        ["calibrated layout ages", ", ".join(sorted((cal.get("layouts") or {}).keys())) or "-"],
    ]
    result = s.get("result") or {}
    # the answer's own, a sizing's result, or a plan's evaluation (quote, expansion after, refresh today)
    holders = [result] + [result.get(k) for k in _ASSESSED_IN]
    extra = ""
    for key in ("calibration", "model_error"):
        for holder in holders:
            if isinstance(holder, dict) and holder.get(key) is not None:
                value = holder[key]
                text = value.get("text") if isinstance(value, dict) else None  # the engine's own sentence
                extra += _sub(key.replace("_", " ").capitalize(), _p(text or _plain(value)))
                margins = value.get("margins") if isinstance(value, dict) else None
                if margins:  # conservative by default: each margin in the engine's words
                    extra += _p(
                        "Conservative by default: " + "; ".join(str(m.get("text")) for m in margins) + "."
                    )
                break
    return _section("Calibration", _table(["", ""], rows), extra)


_ASSESSED_IN = ("result", "evaluation", "after", "current", "primary")
"""Where a report's answer carries its calibration when not at the top: a sizing's result, a quote
check's evaluation, an expansion's system after, a refresh's system today, a replication's primary."""


def _inputs(s: dict[str, Any]) -> str:
    inputs = s.get("inputs") or {}
    rows = []
    for w in inputs.get("workloads", []):
        for ph in w.get("phases", []):
            rows.append(
                [
                    w.get("name"),
                    w.get("capacity_tb"),
                    w.get("growth_pct_per_year"),
                    f"{_n(w.get('dedupe_ratio', 1))} x {_n(w.get('compression_ratio', 1))}",
                    ph.get("window"),
                    ph.get("iops") or ph.get("mb_per_s"),
                    ph.get("read_pct"),
                    ph.get("io_size_kib"),
                    ph.get("read_latency_target_ms"),
                ]
            )
    first = (
        _table(
            [
                "Workload",
                "TB",
                "Growth %/y",
                "Dedupe x comp.",
                "Window",
                "IOPS (or MB/s)",
                "Read %",
                "I/O KiB",
                "Read target ms",
            ],
            rows,
            numeric=(1, 2, 5, 6, 7, 8),
        )
        if rows
        else _p("This analysis takes no workloads.", "muted")
    )
    cfgs = []
    for c in s.get("configurations", []):
        for p in c.get("pools", []):
            raid = p.get("raid") or {}
            cfgs.append(
                [
                    c.get("name"),
                    f"{(c.get('controller') or {}).get('count')} x {(c.get('controller') or {}).get('model')}",
                    (p.get("drive") or {}).get("name"),
                    p.get("drive_count") if p.get("drive_count") is not None else "sized",
                    f"{raid.get('scheme')} ({raid.get('group_width')})",
                ]
            )
    rest = (
        _sub("Configurations", _table(["Configuration", "Controllers", "Drive", "Drives", "RAID"], cfgs))
        if cfgs
        else ""
    )
    money = s.get("money") or inputs.get("money")
    if money:
        m = [
            [k.replace("_", " "), _plain(v) if not isinstance(v, dict) else _plain(v)]
            for k, v in money.items()
            if k != "exchange_rates"
        ]
        used = next(iter(priced(s)), {}).get("exchange_rate") or {}
        if used:
            m.append(["exchange rate", f"{used.get('text', '')}; {used.get('source') or ''}".strip("; ")])
        rest += _sub("Money assumptions", _table(["Assumption", "Value"], m))
    return _section("Inputs", first, rest)


def render(snapshot: dict[str, Any], link: str) -> str:
    """The proposal of ``snapshot`` as a self-contained HTML document."""
    kind = str(snapshot.get("kind", ""))
    title = escape(str(snapshot.get("name", "Report")))
    meta = _table(
        ["", ""],
        [
            ["Analysis", KIND_TITLES.get(kind, kind)],
            ["Saved", snapshot.get("created_at")],
            ["Engine / catalog", f"{snapshot.get('engine_version')} / {snapshot.get('catalog_version')}"],
            ["Report", _Html(f'<a href="{escape(link)}">{escape(link)}</a>')],
        ],
    )
    recomputed = ""
    if snapshot.get("recomputed_from"):
        changed = [c for c in snapshot.get("changes", []) if c.get("changed")]
        recomputed = _p(
            f"Recomputed from report {snapshot['recomputed_from']}: {len(changed)} headline figures changed.",
            "muted",
        )
    body = "".join(_KINDS.get(kind, lambda s: iter(()))(snapshot))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{CSS}</style></head><body>"
        f"<h1>{title}</h1>{meta}{recomputed}{body}"
        f"{_appendix(snapshot)}{_calibration(snapshot)}{_inputs(snapshot)}"
        f'<p class="muted">This proposal is the saved report {escape(str(snapshot.get("id", "")))}, '
        f'exactly as saved: <a href="{escape(link)}">{escape(link)}</a></p>'
        "</body></html>"
    )
