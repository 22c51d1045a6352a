"""Side-by-side comparison of evaluated configurations, and changes between two sets of figures.

Each evaluation is reduced to its headline (:func:`headline`): drives to buy, usable capacity, list
cost, pass/fail, and per window the read latency, controller busy and busiest drive pool. A
comparison (:func:`compare`) puts the headlines side by side with each one's difference from the
first (the base)::

    delta_x = x_config - x_base        (None when either value is unknown, e.g. a saturated latency)

Busy figures are in percent, so their deltas are percentage points. The same headline, flattened
to named figures (:func:`figures`), is what a recomputed report diffs against the original
(:func:`figure_changes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from pydantic import Field

from models.base import InputError, Output
from models.evaluate import EvaluationResult

Figure = float | int | str | bool | None


class WindowFigures(Output):
    """One window's headline: latency and how busy the controllers and drives are."""

    window: str
    read_latency_ms: float | None = Field(description="IOPS-weighted read latency [ms]; null when saturated")
    write_latency_ms: float | None = Field(
        description="IOPS-weighted write latency [ms]; null when saturated"
    )
    controller_busy_pct: float | None = Field(description="controller utilization [%]")
    drive_busy_pct: float | None = Field(description="utilization of the busiest drive pool [%]")
    passed: bool


class Headline(Output):
    """The figures a comparison puts side by side for one configuration."""

    configuration: str
    drives: int = Field(description="drives in RAID groups (data + parity)")
    spares: int
    drives_total: int = Field(description="drives to buy: drives + spares")
    usable_tb: float = Field(description="usable capacity [TB]")
    cost_usd: float | None = Field(description="list cost [USD]; null when the catalog lacks a price")
    passed: bool
    bottleneck: str
    bottleneck_words: str = Field(description="the bottleneck in words, e.g. 'the drives (month-end batch)'")
    windows: list[WindowFigures]


class PassChange(StrEnum):
    SAME = "same"
    NOW_PASSES = "now passes"
    NOW_FAILS = "now fails"


class WindowDelta(Output):
    """Differences in one window, configuration minus base (null when either side is unknown)."""

    window: str
    read_latency_ms: float | None
    write_latency_ms: float | None
    controller_busy_pct: float | None = Field(description="percentage points")
    drive_busy_pct: float | None = Field(description="percentage points")


class Delta(Output):
    """A configuration's headline minus the base's."""

    drives_total: int
    usable_tb: float
    cost_usd: float | None
    passed: PassChange
    windows: list[WindowDelta] = Field(description="windows of the configuration, in its order")


class ComparisonColumn(Output):
    headline: Headline
    delta: Delta = Field(description="against the first configuration (all zero for the first)")


class Comparison(Output):
    base: str = Field(description="name of the first configuration, the base of every delta")
    columns: list[ComparisonColumn]


def _max_or_none(values: Sequence[float | None]) -> float | None:
    if not values or any(v is None for v in values):
        return None
    return max(v for v in values if v is not None)


def headline(result: EvaluationResult) -> Headline:
    """Headline figures of one evaluation (drive busy: the busiest pool, null if any is saturated)."""
    windows = [
        WindowFigures(
            window=w.window,
            read_latency_ms=w.read_latency_ms,
            write_latency_ms=w.write_latency_ms,
            controller_busy_pct=w.controller_utilization_pct.value,
            drive_busy_pct=_max_or_none([p.drive_utilization_pct.value for p in w.pools]),
            passed=w.passed,
        )
        for w in result.windows
    ]
    bill = result.bill
    return Headline(
        configuration=result.configuration,
        drives=bill.drives,
        spares=bill.spares,
        drives_total=bill.drives + bill.spares,
        usable_tb=result.capacity.usable_tb,
        cost_usd=bill.cost_usd,
        passed=result.passed,
        bottleneck=result.bottleneck,
        bottleneck_words=result.bottleneck_words,
        windows=windows,
    )


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def delta(base: Headline, other: Headline) -> Delta:
    """``other - base`` figure by figure; windows are matched by name (null where the base lacks one)."""
    base_windows = {w.window: w for w in base.windows}
    windows = []
    for w in other.windows:
        b = base_windows.get(w.window)
        windows.append(
            WindowDelta(
                window=w.window,
                read_latency_ms=_minus(w.read_latency_ms, b.read_latency_ms if b else None),
                write_latency_ms=_minus(w.write_latency_ms, b.write_latency_ms if b else None),
                controller_busy_pct=_minus(w.controller_busy_pct, b.controller_busy_pct if b else None),
                drive_busy_pct=_minus(w.drive_busy_pct, b.drive_busy_pct if b else None),
            )
        )
    if other.passed == base.passed:
        passed = PassChange.SAME
    else:
        passed = PassChange.NOW_PASSES if other.passed else PassChange.NOW_FAILS
    return Delta(
        drives_total=other.drives_total - base.drives_total,
        usable_tb=other.usable_tb - base.usable_tb,
        cost_usd=_minus(other.cost_usd, base.cost_usd),
        passed=passed,
        windows=windows,
    )


def compare(results: Sequence[EvaluationResult]) -> Comparison:
    """Headlines of ``results`` side by side, each with its delta against the first."""
    if not results:
        raise InputError("configurations", "nothing to compare")
    heads = [headline(r) for r in results]
    return Comparison(
        base=heads[0].configuration,
        columns=[ComparisonColumn(headline=h, delta=delta(heads[0], h)) for h in heads],
    )


def figures(head: Headline, prefix: str = "") -> dict[str, Figure]:
    """The headline as named figures, e.g. ``{"drives_total": 26, "business hours: read_latency_ms": 4.2}``."""
    out: dict[str, Figure] = {
        f"{prefix}drives_total": head.drives_total,
        f"{prefix}usable_tb": head.usable_tb,
        f"{prefix}cost_usd": head.cost_usd,
        f"{prefix}passed": head.passed,
        f"{prefix}bottleneck": head.bottleneck,
    }
    for w in head.windows:
        out[f"{prefix}{w.window}: read_latency_ms"] = w.read_latency_ms
        out[f"{prefix}{w.window}: controller_busy_pct"] = w.controller_busy_pct
        out[f"{prefix}{w.window}: drive_busy_pct"] = w.drive_busy_pct
    return out


class FigureChange(Output):
    """One named figure before and after (null where a side does not have it)."""

    figure: str
    before: Figure
    after: Figure
    delta: float | None = Field(description="after - before for numbers, else null")
    changed: bool


def _is_number(x: Figure) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def figure_changes(
    before: Mapping[str, Figure], after: Mapping[str, Figure], rel_tol: float = 1e-9
) -> list[FigureChange]:
    """Every figure of ``before`` then the new ones of ``after``, with the change of each.

    Numbers count as changed when they differ by more than ``rel_tol`` relative (round-off from a
    recomputation is not a change).
    """
    out = []
    for name in [*before, *(k for k in after if k not in before)]:
        a, b = before.get(name), after.get(name)
        d: float | None = None
        if _is_number(a) and _is_number(b):
            assert isinstance(a, int | float) and isinstance(b, int | float)
            diff = float(b) - float(a)
            d = diff
            changed = abs(diff) > rel_tol * max(abs(a), abs(b))
        else:
            changed = a != b or (name in before) != (name in after)
        out.append(FigureChange(figure=name, before=a, after=b, delta=d, changed=changed))
    return out


__all__ = [
    "Comparison",
    "ComparisonColumn",
    "Delta",
    "FigureChange",
    "Headline",
    "PassChange",
    "WindowDelta",
    "WindowFigures",
    "compare",
    "delta",
    "figure_changes",
    "figures",
    "headline",
]
