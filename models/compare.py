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
from typing import NamedTuple

from pydantic import BaseModel, Field

from models.base import InputError, Output
from models.configuration import Configuration, DrivePool
from models.evaluate import EvaluationResult
from models.explain import Explained
from models.field_labels import ITEMS, LABELS, NOT_A_DIFFERENCE, FieldLabel, change_words
from models.memo import holds_memo

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
    parity_busy_pct: float | None = Field(
        default=None,
        description="dedicated parity drives of the busiest pool that has them [%]; null: none (parity "
        "rotates, or copies) or saturated",
    )
    backend_bus_busy_pct: float | None = Field(
        default=None, description="controllers' back-end buses [%]; null: the controller states none"
    )
    cluster_network_busy_pct: float | None = Field(
        default=None, description="each scale-out node's cluster-network link [%]; null: not scale-out"
    )
    years_to_wear_out: float | None = Field(
        default=None,
        description="flash wear at this window's write rate: years until the first pool's rated writes are "
        "used up; null: no drive with an endurance rating",
    )
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
    failures_tolerated: int | None = Field(
        default=None,
        description="drive failures every RAID group (or set of copies) survives: the fewest of any pool",
    )
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
    parity_busy_pct: float | None = Field(default=None, description="percentage points")


class Delta(Output):
    """A configuration's headline minus the base's."""

    drives_total: int
    usable_tb: float
    cost_usd: float | None
    passed: PassChange
    windows: list[WindowDelta] = Field(description="windows of the configuration, in its order")


class Significance(Output):
    """The smallest difference in one unit that matters to a person choosing between designs:
    ``max(absolute, relative x |larger value|)``."""

    unit: str
    absolute: float
    relative: float


SIGNIFICANCE: list[Significance] = [
    Significance(unit="ms", absolute=0.1, relative=0.05),  # a tenth of a millisecond and 5%
    Significance(unit="%", absolute=1.0, relative=0.0),  # one percentage point of busy time
    Significance(unit="", absolute=1.0, relative=0.0),  # one drive (counts)
    Significance(unit="TB", absolute=0.0, relative=0.01),
    Significance(unit="USD", absolute=0.0, relative=0.01),
    Significance(unit="IOPS", absolute=0.0, relative=0.02),
    Significance(unit="per write", absolute=0.05, relative=0.0),
    Significance(unit="years", absolute=0.5, relative=0.0),
]
"""Where a difference matters (:func:`matters`); a unit not listed: any difference does."""

BEST_RULE = (
    "A value is marked best only where it beats another by at least the difference that matters in its "
    "unit: max(absolute, relative x the larger value): 0.1 ms and 5% for latency, 1 percentage point for "
    "busy time, 1 for counts, 1% for capacity and money, 2% for IOPS, 0.05 for a write penalty, half a "
    "year for wear; values within that of the best share it, and a row where every value does marks none."
)


def matters(unit: str, a: float, b: float) -> bool:
    """Whether ``a`` and ``b`` differ by as much as matters in ``unit`` (:data:`SIGNIFICANCE`)."""
    rule = next((r for r in SIGNIFICANCE if r.unit == unit), None)
    step = 0.0 if rule is None else max(rule.absolute, rule.relative * max(abs(a), abs(b)))
    gap = abs(a - b)
    return gap >= step and gap > 1e-9 * max(1.0, abs(a), abs(b))


class ComparisonColumn(Output):
    headline: Headline
    delta: Delta = Field(description="against the first configuration (all zero for the first)")


class Comparison(Output):
    base: str = Field(description="name of the first configuration, the base of every delta")
    columns: list[ComparisonColumn]
    significance: list[Significance] = Field(
        default_factory=lambda: list(SIGNIFICANCE), description="the difference that matters in each unit"
    )
    best_rule: str = Field(default=BEST_RULE, description="when a value is marked best, in words")


def _max_or_none(values: Sequence[float | None]) -> float | None:
    if not values or any(v is None for v in values):
        return None
    return max(v for v in values if v is not None)


def _min_or_none(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return min(known) if known else None


def _value(figure: Explained | None) -> float | None:
    return None if figure is None else figure.value


def headline(result: EvaluationResult) -> Headline:
    """Headline figures of one evaluation (drive busy: the busiest pool, null if any is saturated)."""
    windows = [
        WindowFigures(
            window=w.window,
            read_latency_ms=w.read_latency_ms,
            write_latency_ms=w.write_latency_ms,
            controller_busy_pct=w.controller_utilization_pct.value,
            drive_busy_pct=_max_or_none([p.drive_utilization_pct.value for p in w.pools]),
            parity_busy_pct=_max_or_none(
                [p.parity_utilization_pct.value for p in w.pools if p.parity_utilization_pct is not None]
            ),
            backend_bus_busy_pct=_value(w.backend_bus_utilization_pct),
            cluster_network_busy_pct=_value(w.cluster_network_utilization_pct),
            years_to_wear_out=_min_or_none(
                [p.endurance.years_to_wear_out.value for p in w.pools if p.endurance is not None]
            ),
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
        failures_tolerated=min(
            (p.failures_tolerated for p in result.capacity.pools if p.failures_tolerated is not None),
            default=None,
        ),
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
                parity_busy_pct=_minus(w.parity_busy_pct, b.parity_busy_pct if b else None),
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


@holds_memo
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
        for name in (
            "parity_busy_pct",
            "backend_bus_busy_pct",
            "cluster_network_busy_pct",
            "years_to_wear_out",
        ):
            value = getattr(w, name)
            if value is not None:  # a figure the configuration has (a report saved before it never had it)
                out[f"{prefix}{w.window}: {name}"] = value
    return out


class _Leaf(NamedTuple):
    label: FieldLabel
    prefix: str
    value: object


def _leaves(part: BaseModel, items: dict[str, str], path: str = "", prefix: str = "") -> dict[str, _Leaf]:
    """Every input of ``part`` by its dotted path (list items by index), with its label
    (:data:`models.field_labels.LABELS`) and the words said before it; ``items`` gets each list
    item's path and words."""
    out: dict[str, _Leaf] = {}
    owner = type(part)
    for name in type(part).model_fields:
        if name in NOT_A_DIFFERENCE:
            continue
        label, value, at = LABELS[owner][name], getattr(part, name), f"{path}.{name}" if path else name
        inner = prefix if owner is Configuration else f"{prefix} {label.words}".strip()
        if isinstance(value, BaseModel):
            out.update(_leaves(value, items, at, inner))
        elif (owner, name) in ITEMS:  # a list of parts: each item by its index, named when several
            for i, item in enumerate(value):
                which = item.name if isinstance(item, DrivePool) else i + 1
                items[f"{at}.{i}"] = f"{prefix} {ITEMS[owner, name]} {which}".strip()
                out.update(_leaves(item, items, f"{at}.{i}", items[f"{at}.{i}"] if len(value) > 1 else inner))
        else:
            out[at] = _Leaf(label, prefix, value)
    return out


def _within(path: str, parts: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``parts`` or inside one."""
    return any(path == c or path.startswith(c + ".") for c in parts)


def differences(
    base: Configuration, other: Configuration, compared: frozenset[str] = frozenset()
) -> list[str]:
    """Every input in which ``other`` differs from ``base``, in words with units
    (:func:`models.field_labels.change_words`: ``controller CPU per read hit 31 -> 10 µs``,
    ``flash cache 1,024 -> 0 GB``), leaving out names, sources and the ``compared`` paths (e.g. the
    RAID layout a scheme comparison compares, the drive count a sizing finds). A part one side does
    not have at all is said once (``scale-out cluster none -> stated``). The rule of a fair
    comparison: it changes only what it compares, and says every other difference."""
    out: list[str] = []
    skip: set[str] = set()
    for name, label in LABELS[Configuration].items():
        x, y = getattr(base, name), getattr(other, name)
        if name not in compared and (x is None) != (y is None):
            out.append(f"{label.words} {'none -> stated' if x is None else 'stated -> none'}")
            skip.add(name)
    items_a: dict[str, str] = {}
    items_b: dict[str, str] = {}
    a, b = _leaves(base, items_a), _leaves(other, items_b)
    for path, words in [*items_a.items(), *items_b.items()]:  # an item one side lacks: said once
        if (path in items_a) != (path in items_b) and not _within(path, [*compared, *skip]):
            out.append(f"{words} {'stated -> none' if path in items_a else 'none -> stated'}")
            skip.add(path)
    for path in [*a, *(p for p in b if p not in a)]:
        if _within(path, [*compared, *skip]):
            continue
        x, y = a.get(path), b.get(path)
        if x is not None and y is not None and x.value == y.value:
            continue
        leaf = x or y
        assert leaf is not None
        out.append(
            change_words(
                leaf.label, None if x is None else x.value, None if y is None else y.value, leaf.prefix
            )
        )
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
    "differences",
    "matters",
    "figure_changes",
    "figures",
    "headline",
]
