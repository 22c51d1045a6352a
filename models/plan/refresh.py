"""Refresh: the current system's observed workloads sized onto a successor, side by side.

The workloads (typically imported from host statistics or array exports, their phases carrying
what the host measured) are

* evaluated on the current configuration at their sizing rates, and at the loads the host observed
  (:func:`models.evidence.at_observed_load`, :func:`models.evidence.compare_observed`): measured
  beside modelled, "what you have now";
* sized onto the successor family (:func:`models.size.size`); with calibration margins, what they
  cost it (:meth:`models.margins.Margining.sized`: drives and nodes against the family sized as
  stated), in the answer's text.

Per window the measured figures (observed IOPS summed over the window's phases, the host's read
latency weighted by those IOPS: ``sum(iops_i x t_i) / sum(iops_i)`` over phases with a latency)
stand beside the current system's modelled ones and the successor's; the bills (drives, rack
units, power, list cost) side by side.
"""

from __future__ import annotations

from pydantic import Field

from models.base import Output
from models.compare import Figure, FigureChange
from models.configuration import Configuration
from models.evaluate import evaluate
from models.evidence import ObservedComparison, at_observed_load, compare_observed
from models.explain import fmt
from models.margins import AS_STATED, Margining, distinct, with_words
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.results import EvaluationResult
from models.size import SizingResult, size
from models.whatif import outcome
from models.workload import Workload, windows_of


class RefreshWindow(Output):
    window: str
    observed_iops: float | None = Field(description="sum of the host's mean IOPS over the window's phases")
    observed_read_latency_ms: float | None = Field(description="host read latency, weighted by observed IOPS")
    current_read_latency_ms: float | None = Field(
        description="the current system modelled, at the sizing rates"
    )
    current_headroom_used_pct: float | None
    current_passed: bool
    successor_read_latency_ms: float | None
    successor_headroom_used_pct: float | None
    successor_passed: bool


class RefreshResult(Output):
    current: EvaluationResult = Field(description="the current system at the workloads' sizing rates")
    observed: ObservedComparison | None = Field(
        description="the current system at the observed loads beside the host's latency (null: nothing observed)"
    )
    successor: SizingResult
    windows: list[RefreshWindow]
    side_by_side: list[FigureChange] = Field(description="current (before) and successor (after) bills")
    text: str


def observed_window(workloads: list[Workload], window: str) -> tuple[float | None, float | None]:
    """(observed IOPS, IOPS-weighted observed read latency [ms]) of ``window``; None where nothing was observed."""
    seen = [p.observed for w in workloads for p in w.phases if p.window == window and p.observed is not None]
    if not seen:
        return None, None
    iops = sum(o.iops for o in seen)
    timed = [(o.iops, o.read_latency_ms) for o in seen if o.read_latency_ms is not None]
    weight = sum(i for i, _ in timed)
    latency = sum(i * t for i, t in timed) / weight if timed and weight > 0 else None
    return iops, latency


def _change(name: str, before: Figure, after: Figure) -> FigureChange:
    numbers = isinstance(before, int | float) and isinstance(after, int | float)
    delta = float(after) - float(before) if numbers else None  # type: ignore[arg-type]
    return FigureChange(figure=name, before=before, after=after, delta=delta, changed=before != after)


@holds_memo
def refresh(
    workloads: list[Workload],
    current: Configuration,
    successor: Configuration,
    *,
    params: EngineParameters | None = None,
    margining: Margining = AS_STATED,
) -> RefreshResult:
    """``current`` as it runs today (modelled and measured) and ``successor`` (a family) sized for the
    same workloads, each computed with ``margining``'s margins (the modelled beside the measured as
    ``/import/observed`` sets them) and answered as stated."""
    run_now, margins_now = margining.run_on(current, workloads)
    now = margining.assessed(
        evaluate(workloads, run_now, params=params, cold_cache=False), current, workloads, margins_now
    )
    observed = None
    if any(p.observed is not None for w in workloads for p in w.phases):
        at_load = at_observed_load(workloads)
        run_seen, margins_seen = margining.run_on(current, at_load)
        seen = evaluate(at_load, run_seen, params=params, cold_cache=False)
        observed = compare_observed(at_load, margining.assessed(seen, current, at_load, margins_seen))
    sized, _ = margining.sized(successor, workloads, lambda f: size(workloads, f, params=params))
    nxt = sized.result
    margins_next = nxt.calibration.margins if nxt.calibration is not None else []
    on, nx = outcome(now), outcome(nxt)
    windows = []
    for i, window in enumerate(windows_of(workloads)):
        iops, latency = observed_window(workloads, window)
        a, b = now.windows[i], nxt.windows[i]
        windows.append(
            RefreshWindow(
                window=window,
                observed_iops=iops,
                observed_read_latency_ms=latency,
                current_read_latency_ms=a.read_latency_ms,
                current_headroom_used_pct=on.windows[i].headroom_used_pct,
                current_passed=a.passed,
                successor_read_latency_ms=b.read_latency_ms,
                successor_headroom_used_pct=nx.windows[i].headroom_used_pct,
                successor_passed=b.passed,
            )
        )
    side = [
        _change("drives", now.bill.drives + now.bill.spares, nxt.bill.drives + nxt.bill.spares),
        _change("shelves", now.bill.shelves, nxt.bill.shelves),
        _change("rack_units", now.bill.rack_units, nxt.bill.rack_units),
        _change("power_w", now.bill.power_w, nxt.bill.power_w),
        _change("cost_usd", now.bill.cost_usd, nxt.bill.cost_usd),
        _change("usable_tb", now.capacity.usable_tb, nxt.capacity.usable_tb),
        _change("passed", now.passed, nxt.passed),
    ]
    text = (
        f"{current.name} today: {'meets' if now.passed else 'misses'} every window ({now.bottleneck}); "
        f"{sized.configuration.name}: {'meets them with' if sized.feasible else 'cannot meet them even at'} "
        f"{nxt.bill.drives + nxt.bill.spares} drives in {fmt(nxt.bill.rack_units)} U "
        f"(today {now.bill.drives + now.bill.spares} drives in {fmt(now.bill.rack_units)} U)."
    )
    text = with_words(text, distinct([margins_now, margins_next]))
    if nxt.calibration is not None and nxt.calibration.margin_cost:
        text += f" {sized.configuration.name}: {nxt.calibration.margin_cost}"
    return RefreshResult(
        current=now, observed=observed, successor=sized, windows=windows, side_by_side=side, text=text
    )
