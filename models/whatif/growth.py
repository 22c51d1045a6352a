"""Growth projection: month by month as every workload grows, when each window and the capacity break."""

from __future__ import annotations

import math

from pydantic import Field

from models.base import InputError, Output
from models.checks import check_words
from models.configuration import Configuration
from models.evaluate import (
    DegradedMode,
    EvaluationResult,
)
from models.explain import fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import Assessed
from models.whatif.changes import (
    grow_workload,
)
from models.whatif.core import (
    Run,
    WindowOutcome,
    check_ratio,
    window_outcome,
)
from models.workload import Workload, windows_of

DEFAULT_HORIZON_MONTHS = 36
"""Growth horizon when no workload states one [months]."""


class GrowthPoint(Output):
    """One month of a growth projection (chart-ready)."""

    month: int
    factors: dict[str, float] = Field(description="growth factor of each workload since month 0")
    capacity_needed_tb: float | None
    fill_pct: float | None = Field(description="capacity needed over usable [%]")
    windows: list[WindowOutcome]


class WindowBreak(Output):
    """When a window first breaks a limit as the workloads grow (null = not within the horizon)."""

    window: str
    break_month: int | None = Field(description="first month failing a latency target or a headroom limit")
    latency_break_month: int | None
    headroom_break_month: int | None
    binding: str | None = Field(description="what fails first")
    binding_words: str | None = Field(description="what fails first in words (models.checks.check_words)")
    text: str


class GrowthProjection(Assessed):
    months: int
    step_months: int
    degraded: DegradedMode
    points: list[GrowthPoint]
    windows: list[WindowBreak]
    capacity_break_month: int | None = Field(
        description="first month the capacity needed exceeds the allowed fill"
    )
    first_break_month: int | None = Field(description="earliest break of any window or of capacity")
    first_break: str | None
    formula: str = Field(description="how each workload grows, with its rate")
    notes: list[str]
    text: str


def _horizon_months(workloads: list[Workload], months: int | None, notes: list[str]) -> int:
    if months is not None:
        if not 0 <= months <= 240:
            raise InputError("months", "must be between 0 and 240")
        return months
    years = max(w.horizon_years for w in workloads)
    if years <= 0:
        notes.append(f"no workload states a horizon: projected over {DEFAULT_HORIZON_MONTHS} months")
        return DEFAULT_HORIZON_MONTHS
    return math.ceil(years * 12 - 1e-9)


@holds_memo
def growth_projection(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    months: int | None = None,
    step_months: int = 1,
    grow_working_set: bool = True,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
) -> GrowthProjection:
    """Month-by-month projection as every workload grows at its ``growth_pct_per_year``.

    At month m workload i is scaled by ``f_i(m) = (1 + g_i / 100)^(m / 12)``: capacity, IOPS and
    MB/s, and (with ``grow_working_set``) its working set, since hot data grows with the data.
    ``months`` defaults to the longest horizon of the workloads (``horizon_years x 12``), or
    :data:`DEFAULT_HORIZON_MONTHS` when none states one; months are projected every
    ``step_months`` (and the last). A window breaks in the first projected month one of its checks
    fails: a read-latency target (latency break) or a utilization limit (headroom
    break); capacity breaks when the need exceeds the allowed fill. More growth never breaks
    later (the engine is monotone in load).
    """
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if not 1 <= step_months <= 120:
        raise InputError("step_months", "must be between 1 and 120")
    notes: list[str] = []
    horizon = _horizon_months(workloads, months, notes)
    run = Run(params, degraded)
    month_list = list(range(0, horizon + 1, step_months))
    if month_list[-1] != horizon:
        month_list.append(horizon)
    points: list[GrowthPoint] = []
    state: dict[str, tuple[int, str, str]] = {}
    for m in month_list:
        factors = {w.name: (1.0 + w.growth_pct_per_year / 100.0) ** (m / 12.0) for w in workloads}
        grown = [grow_workload(w, factors[w.name], grow_working_set) for w in workloads]
        res = run.evaluate(grown, configuration)
        points.append(
            GrowthPoint(
                month=m,
                factors=factors,
                capacity_needed_tb=res.capacity.needed_tb.value,
                fill_pct=res.capacity.fill_pct,
                windows=[window_outcome(w, len(configuration.pools)) for w in res.windows],
            )
        )
        _record_breaks(state, m, res)
    capacity_break = state.get("capacity")
    window_breaks: list[WindowBreak] = []
    for name in windows_of(workloads):
        lat = state.get(f"{name}|latency")
        head = state.get(f"{name}|headroom")
        first = min((x for x in (lat, head) if x is not None), key=lambda x: x[0], default=None)
        if first is None:
            text = f"{name}: within its latency targets and headroom limits through month {horizon}."
        else:
            text = f"{name}: breaks in month {first[0]}: {first[1]}."
        window_breaks.append(
            WindowBreak(
                window=name,
                break_month=first[0] if first else None,
                latency_break_month=lat[0] if lat else None,
                headroom_break_month=head[0] if head else None,
                binding=first[2] if first else None,
                binding_words=check_words(first[2], len(configuration.pools)) if first else None,
                text=text,
            )
        )
    candidates = [
        (b.break_month, f"{b.window}: {b.binding}") for b in window_breaks if b.break_month is not None
    ]
    if capacity_break is not None:
        candidates.append((capacity_break[0], "capacity"))
    first_all = min(candidates, key=lambda x: x[0], default=None)
    if first_all is None:
        text = f"Meets every target and limit for all {horizon} months projected."
    else:
        text = f"First break in month {first_all[0]}: {first_all[1]}."
        if capacity_break is not None and capacity_break[0] != first_all[0]:
            text += f" Capacity runs out in month {capacity_break[0]}."
    rates = ", ".join(f"{w.name} {fmt(w.growth_pct_per_year)}%/year" for w in workloads)
    return GrowthProjection(
        months=horizon,
        step_months=step_months,
        degraded=degraded,
        points=points,
        windows=window_breaks,
        capacity_break_month=capacity_break[0] if capacity_break else None,
        first_break_month=first_all[0] if first_all else None,
        first_break=first_all[1] if first_all else None,
        formula=f"f(m) = (1 + g / 100)^(m / 12) per workload ({rates}); capacity, IOPS, MB/s"
        + (" and working sets" if grow_working_set else "")
        + " grow by f(m)",
        notes=notes,
        text=text,
    )


def _record_breaks(state: dict[str, tuple[int, str, str]], month: int, res: EvaluationResult) -> None:
    """First failing month per window and kind (latency / headroom), and of capacity: the worst
    failing check of that month (largest value over limit)."""
    for w in res.windows:
        for kind, unit_is_ms in (("latency", True), ("headroom", False)):
            key = f"{w.window}|{kind}"
            failing = [c for c in w.checks if not c.passed and (c.unit == "ms") == unit_is_ms]
            if key not in state and failing:
                worst = max(failing, key=check_ratio)
                state[key] = (month, worst.text, worst.name)
    failing = [c for c in res.checks if not c.passed]
    if "capacity" not in state and failing:
        worst = max(failing, key=check_ratio)
        state["capacity"] = (month, worst.text, worst.name)
