"""Vector charts for the proposal: inline SVG from the figures of a saved report.

Plain SVG text (no script, no external reference), sized in CSS pixels for an A4 page: 170 mm of
text width is about 640 px, so 12 px ticks print at 9 pt. Every number drawn is one of the report's
figures; the charts only place them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

WIDTH = 640
FONT = 12
LABEL_CHARS = 33
"""Longest bar label drawn in full (12 px text in the 222 px left of the bars); longer ones end in '…'."""
COLORS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#555555")


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[float, float]]
    dashed: bool = False


@dataclass(frozen=True)
class Mark:
    """A vertical line at ``x`` with a label (an operating point, a headroom limit)."""

    x: float
    label: str
    color: str = "#555555"


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None
    limit: float | None = None
    passed: bool = True


@dataclass
class _Axis:
    lo: float
    hi: float
    log: bool = False
    ticks: list[float] = field(default_factory=list)


def _nice_step(span: float, count: int = 5) -> float:
    raw = span / max(count, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _axis(values: Sequence[float], log: bool = False, zero: bool = True) -> _Axis:
    vals = [v for v in values if math.isfinite(v) and (v > 0 or not log)]
    if not vals:
        return _Axis(0.0, 1.0, False, [0.0, 0.5, 1.0])
    lo, hi = min(vals), max(vals)
    if log:
        lo_e, hi_e = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
        if hi_e == lo_e:
            hi_e += 1
        return _Axis(10.0**lo_e, 10.0**hi_e, True, [10.0**e for e in range(lo_e, hi_e + 1)])
    if zero:
        lo = min(0.0, lo)
    if hi == lo:
        hi = lo + 1.0
    step = _nice_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    n = round((hi - lo) / step)
    return _Axis(lo, hi, False, [lo + i * step for i in range(n + 1)])


def _label(x: float) -> str:
    ax = abs(x)
    if ax >= 1e6:
        return f"{x / 1e6:g}M"
    if ax >= 1e4:
        return f"{x / 1e3:g}k"
    if ax >= 100 or x == int(x):
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _pos(a: _Axis, v: float, start: float, length: float) -> float:
    if a.log:
        t = (math.log10(max(v, a.lo)) - math.log10(a.lo)) / (math.log10(a.hi) - math.log10(a.lo))
    else:
        t = (v - a.lo) / (a.hi - a.lo)
    return start + max(0.0, min(1.0, t)) * length


def line_chart(
    title: str,
    series: Sequence[Series],
    x_label: str,
    y_label: str,
    *,
    x_log: bool = False,
    marks: Sequence[Mark] = (),
    height: int = 300,
    y_max: float | None = None,
    y_cap: float | None = None,
) -> str:
    """A line chart of ``series`` with axes, ticks, a legend and vertical ``marks``; with ``y_cap``,
    the y axis stops there and a line going higher leaves the chart at its top edge (said below it)."""
    left, right, top, bottom = 64, 16, 28 + 16 * len(series), 48
    w, h = WIDTH - left - right, height - top - bottom
    xs = [p[0] for s in series for p in s.points] + [m.x for m in marks]
    ys = [p[1] for s in series for p in s.points]
    capped = y_cap is not None and any(y > y_cap for y in ys)
    if capped:
        ys = [min(y, y_cap or y) for y in ys]
    xa = _axis(xs, log=x_log)
    ya = _axis([*ys, *([y_max] if y_max is not None else [])])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<text x="{left}" y="16" font-size="{FONT + 1}" font-weight="bold">{escape(title)}</text>',
    ]
    for t in ya.ticks:
        y = _pos(ya, t, top + h, -h)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + w}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        out.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="{FONT}" text-anchor="end">{_label(t)}</text>'
        )
    for t in xa.ticks:
        x = _pos(xa, t, left, w)
        out.append(f'<line x1="{x:.1f}" y1="{top + h}" x2="{x:.1f}" y2="{top + h + 4}" stroke="#333"/>')
        out.append(
            f'<text x="{x:.1f}" y="{top + h + 18}" font-size="{FONT}" text-anchor="middle">{_label(t)}</text>'
        )
    out.append(f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#333"/>')
    out.append(
        f'<text x="{left + w / 2:.1f}" y="{height - 8}" font-size="{FONT}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    out.append(
        f'<text x="14" y="{top + h / 2:.1f}" font-size="{FONT}" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + h / 2:.1f})">{escape(y_label)}</text>'
    )
    for m in marks:
        x = _pos(xa, m.x, left, w)
        out.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + h}" stroke="{m.color}" '
            'stroke-dasharray="4 3"/>'
        )
        out.append(f'<text x="{x + 3:.1f}" y="{top + 12}" font-size="{FONT - 1}">{escape(m.label)}</text>')
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = " ".join(
            f"{_pos(xa, x, left, w):.1f},{_pos(ya, min(y, ya.hi), top + h, -h):.1f}"
            for x, y in s.points
            if math.isfinite(y) and (x > 0 or not x_log)
        )
        dash = ' stroke-dasharray="6 4"' if s.dashed else ""
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        ly = top + 14 + 16 * i
        lx = left + w - 190
        out.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/>'
        )
        out.append(f'<text x="{lx + 24}" y="{ly + 4}" font-size="{FONT}">{escape(s.name)}</text>')
    out.append("</svg>")
    return "".join(out)


def bar_chart(title: str, bars: Sequence[Bar], unit: str = "%") -> str:
    """Horizontal bars (how busy each part is) with each limit marked."""
    row, left, right, top = 24, 230, 60, 28
    height = top + row * len(bars) + 36
    w = WIDTH - left - right
    top_value = max([b.value or 0.0 for b in bars] + [b.limit or 0.0 for b in bars] + [1.0])
    xa = _axis([0.0, min(top_value, 1e6)])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<text x="0" y="16" font-size="{FONT + 1}" font-weight="bold">{escape(title)}</text>',
    ]
    for t in xa.ticks:
        x = _pos(xa, t, left, w)
        out.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + row * len(bars)}" stroke="#e3e3e3"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{top + row * len(bars) + 16}" font-size="{FONT}" '
            f'text-anchor="middle">{_label(t)}</text>'
        )
    for i, b in enumerate(bars):
        y = top + i * row
        label = b.label if len(b.label) <= LABEL_CHARS else b.label[: LABEL_CHARS - 1] + "…"
        out.append(
            f'<text x="{left - 8}" y="{y + row / 2 + 4:.1f}" font-size="{FONT}" text-anchor="end">'
            f"<title>{escape(b.label)}</title>{escape(label)}</text>"
        )
        value = b.value if b.value is not None else xa.hi
        x1 = _pos(xa, value, left, w)
        color = "#2e8b57" if b.passed else "#c0392b"
        out.append(
            f'<rect x="{left}" y="{y + 5}" width="{x1 - left:.1f}" height="{row - 10}" fill="{color}" '
            'fill-opacity="0.75"/>'
        )
        text = "saturated" if b.value is None else f"{_label(b.value)} {unit}"
        out.append(f'<text x="{x1 + 4:.1f}" y="{y + row / 2 + 4:.1f}" font-size="{FONT - 1}">{text}</text>')
        if b.limit is not None:
            xl = _pos(xa, b.limit, left, w)
            out.append(
                f'<line x1="{xl:.1f}" y1="{y + 2}" x2="{xl:.1f}" y2="{y + row - 2}" stroke="#111" '
                'stroke-width="2"/>'
            )
    if any(b.limit is not None for b in bars):
        out.append(
            f'<text x="{left}" y="{height - 4}" font-size="{FONT - 1}">bar: how busy; black tick: the limit '
            f"({escape(unit)})</text>"
        )
    out.append("</svg>")
    return "".join(out)
