"""What every what-if shares: an evaluation reduced to its headline (:class:`Outcome`), the
engine call (:class:`Run`) and the tornado bars of one input moved down and up (:func:`tornado_bar`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import Field

from models.base import Output
from models.checks import check_words, located_words
from models.configuration import Configuration
from models.evaluate import (
    Check,
    DegradedMode,
    EvaluationResult,
    WindowResult,
    evaluate,
)
from models.explain import fmt
from models.parameters import EngineParameters
from models.workload import Workload

FAILOVER_CHECK = "controllers after failover"
"""A what-if check (one controller carrying everything): a headroom limit, not a busy share."""


# ---- reducing an evaluation ---------------------------------------------------------------------


class WindowOutcome(Output):
    """One window of an evaluation reduced to its headline figures."""

    window: str
    passed: bool
    busiest: str = Field(description="component with the highest busy share")
    max_utilization_pct: float | None = Field(
        description="busy share of the busiest component [%]; null = saturated"
    )
    binding: str = Field(description="check nearest (or furthest past) its limit")
    binding_words: str = Field(description="the binding check in words (models.checks.check_words)")
    headroom_used_pct: float | None = Field(
        description="100 x value / limit of the binding check [%]; above 100 fails; null = saturated"
    )
    read_latency_ms: float | None = Field(description="IOPS-weighted read latency [ms]; null = saturated")
    read_latency_met: bool | None = Field(
        default=None,
        description="every read latency target of the window's phases met; null: no phase states a target",
    )


class Outcome(Output):
    """An evaluation reduced to what a what-if compares (see the module docstring)."""

    passed: bool
    binding: str = Field(description="'window: check' nearest (or furthest past) its limit")
    binding_words: str = Field(
        description="the binding check and its window in words, e.g. 'the drives in month-end batch' "
        "(models.checks.located_words)"
    )
    headroom_used_pct: float | None = Field(description="of the binding check [%]; null = saturated")
    binding_value: float | None = Field(
        description="the binding check's value (its unit below); null = saturated"
    )
    binding_unit: str = Field(description="% for a utilization, ms for a latency target")
    max_utilization_pct: float | None = Field(description="busiest component of any window [%]")
    read_latency_ms: float | None = Field(description="worst window's read latency [ms]; null = saturated")
    fill_pct: float | None = Field(description="capacity needed over usable [%]")
    windows: list[WindowOutcome]


def check_ratio(c: Check) -> float:
    """``value / limit`` of a check; infinity when saturated (value None)."""
    if c.value is None:
        return math.inf
    if c.limit <= 0:
        return math.inf if c.value > 0 else 0.0
    return c.value / c.limit


def finite_or_none(x: float) -> float | None:
    return x if math.isfinite(x) else None


def as_inf(x: float | None) -> float:
    """None (saturated) as infinity, for ordering."""
    return math.inf if x is None else x


def window_outcome(w: WindowResult, pools: int = 1) -> WindowOutcome:
    """Busiest component, binding check and read latency of one evaluated window (of a
    configuration of ``pools`` pools, which its words name when more than one)."""
    util = [c for c in w.checks if c.unit == "%"]
    busy = [c for c in util if c.name != FAILOVER_CHECK] or util
    if busy:
        top = max(busy, key=lambda c: as_inf(c.value))
        busiest, max_util = top.name, top.value
    else:
        busiest, max_util = "none", 0.0
    if w.checks:
        bind = max(w.checks, key=check_ratio)
        binding, used = bind.name, finite_or_none(100.0 * check_ratio(bind))
    else:
        binding, used = "none", 0.0
    targets = [c for c in w.checks if c.name.startswith("read latency:")]
    return WindowOutcome(
        window=w.window,
        passed=w.passed,
        busiest=busiest,
        max_utilization_pct=max_util,
        binding=binding,
        binding_words=check_words(binding, pools),
        headroom_used_pct=used,
        read_latency_ms=w.read_latency_ms,
        read_latency_met=all(c.passed for c in targets) if targets else None,
    )


def outcome(result: EvaluationResult) -> Outcome:
    """The headline of an evaluation: binding check over every window, busiest part, worst latency.

    Latency checks count for the binding check too (``latency / target``), so a window that
    misses its latency target with idle drives still binds on latency.
    """
    pools = len(result.capacity.pools)
    windows = [window_outcome(w, pools) for w in result.windows]
    best: tuple[float, str, Check] | None = None
    for w in result.windows:
        for c in w.checks:
            r = check_ratio(c)
            if best is None or r > best[0]:
                best = (r, w.window, c)
    used: float | None = 0.0
    value: float | None = None
    binding, unit = "none", "%"
    if best is not None:
        binding, used = f"{best[1]}: {best[2].name}", finite_or_none(100.0 * best[0])
        value, unit = best[2].value, best[2].unit
    max_util = max((as_inf(w.max_utilization_pct) for w in windows), default=0.0)
    lat = max((as_inf(w.read_latency_ms) for w in windows), default=0.0)
    return Outcome(
        passed=result.passed,
        binding=binding,
        binding_words=located_words(binding, pools),
        headroom_used_pct=used,
        binding_value=value,
        binding_unit=unit,
        max_utilization_pct=finite_or_none(max_util),
        read_latency_ms=finite_or_none(lat),
        fill_pct=result.capacity.fill_pct,
        windows=windows,
    )


# ---- the engine call ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """What one what-if evaluation needs (kept together so helpers pass one thing)."""

    params: EngineParameters | None
    degraded: DegradedMode

    def evaluate(self, workloads: list[Workload], cfg: Configuration, scale: float = 1.0) -> EvaluationResult:
        """The evaluation an analysis reduces to figures (:func:`outcome`, checks, hit ratios,
        capacity): neither the cold-cache case nor explanation texts, which none of them reads."""
        return evaluate(
            workloads,
            cfg,
            params=self.params,
            degraded=self.degraded,
            load_scale=scale,
            cold_cache=False,
            explain=False,
        )


# ---- tornado machinery --------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One changed input: its description, the changed inputs, and whether anything changed."""

    text: str
    workloads: list[Workload]
    configuration: Configuration
    scale: float = 1.0
    changed: bool = True


class TornadoBar(Output):
    """One input moved down and up (one at a time), and what that does to the result.

    Deltas are against the base; headroom deltas are percentage points of headroom used (the
    binding check's value over its limit). ``swing_pts`` is ``|high - low|`` of headroom used,
    null when one end saturates (ranked first).
    """

    input: str
    label: str
    low_setting: str
    high_setting: str
    applicable: bool
    low: Outcome
    high: Outcome
    headroom_low_delta_pts: float | None
    headroom_high_delta_pts: float | None
    latency_low_delta_ms: float | None
    latency_high_delta_ms: float | None
    swing_pts: float | None
    latency_swing_ms: float | None
    rank: int = 0


def _delta(x: float | None, base: float | None) -> float | None:
    if x is None or base is None:
        return None
    return x - base


def _swing(a: float | None, b: float | None) -> float | None:
    if a is None and b is None:
        return 0.0
    if a is None or b is None:
        return None
    return abs(b - a)


def tornado_bar(
    name: str, label: str, base: Outcome, low: Variant, high: Variant, run: Run
) -> tuple[TornadoBar, Outcome, Outcome]:
    def out(v: Variant) -> Outcome:
        if not v.changed:
            return base
        return outcome(run.evaluate(v.workloads, v.configuration, v.scale))

    lo, hi = out(low), out(high)
    bar = TornadoBar(
        input=name,
        label=label,
        low_setting=low.text,
        high_setting=high.text,
        applicable=low.changed or high.changed,
        low=lo,
        high=hi,
        headroom_low_delta_pts=_delta(lo.headroom_used_pct, base.headroom_used_pct),
        headroom_high_delta_pts=_delta(hi.headroom_used_pct, base.headroom_used_pct),
        latency_low_delta_ms=_delta(lo.read_latency_ms, base.read_latency_ms),
        latency_high_delta_ms=_delta(hi.read_latency_ms, base.read_latency_ms),
        swing_pts=_swing(lo.headroom_used_pct, hi.headroom_used_pct),
        latency_swing_ms=_swing(lo.read_latency_ms, hi.read_latency_ms),
    )
    return bar, lo, hi


def rank_bars(bars: list[TornadoBar]) -> list[TornadoBar]:
    """Biggest headroom swing first (a saturating end counts as infinite), then latency swing."""
    ordered = sorted(
        bars, key=lambda b: (not b.applicable, -as_inf(b.swing_pts), -as_inf(b.latency_swing_ms), b.input)
    )
    return [b.model_copy(update={"rank": i + 1}) for i, b in enumerate(ordered)]


def swing_text(b: TornadoBar) -> str:
    if b.swing_pts is None:
        return f"{b.label} saturates a component at one end"
    return f"{b.label} moves headroom used by {fmt(b.swing_pts)} points"
