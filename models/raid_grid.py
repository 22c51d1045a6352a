"""The RAID grid: one workload and drive in every scheme an array offers, side by side.

Like the free RAID calculators, but every figure is the engine's: each scheme's configuration is
sized for the workload (:func:`models.size.size`, the fewest whole groups meeting every window)
and its row reads the sized result::

    drives             N + spares (the sizing's drive count, and the spare policy's)
    usable / raw       usable TB / raw TB of the sized pool (right-sizing, RAID, spares, reserves)
    cost / usable TB   list cost / usable TB
    cost / 1,000 IOPS  list cost / (front-end IOPS of the busiest window / 1,000)
    failures           drive failures one group survives (:func:`models.raid.tolerated_failures`)
    rebuild            hours to rebuild one drive under the busiest window's load (the pool's
                       ``rebuild_hours`` evaluated with a group rebuilding)
    latency            read and write latency of the busiest window at the sized count
"""

from __future__ import annotations

from pydantic import Field

from models.base import InputError, Output
from models.configuration import Configuration
from models.evaluate import DegradedMode, evaluate
from models.explain import Explained, explained, fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.raid import RaidScheme, tolerated_failures
from models.size import size
from models.support import scheme_name
from models.workload import Workload, windows_of


class RaidGridRow(Output):
    scheme: RaidScheme
    scheme_name: str
    group_width: int
    configuration: str = Field(description="name of the sized configuration")
    feasible: bool
    drives: int = Field(description="drives in RAID groups (excl. spares)")
    spares: int
    usable_tb: float
    usable_raw_pct: Explained
    cost_per_usable_tb: Explained
    cost_per_1000_iops: Explained
    failures_tolerated: int = Field(description="drive failures one group survives")
    rebuild_hours: Explained | None = Field(description="one drive rebuilt under load; null for RAID 0")
    read_latency_ms: float | None = Field(description="busiest window; null when saturated")
    write_latency_ms: float | None
    write_penalty: Explained | None = Field(description="back-end writes per front-end write, busiest window")
    binding_constraint: str
    passed: bool


class RaidGrid(Output):
    window: str = Field(description="the busiest window (most front-end IOPS): latency and cost per IOPS")
    frontend_iops: float
    rows: list[RaidGridRow]


def busiest_window(workloads: list[Workload]) -> tuple[str, float]:
    """(window, front-end IOPS) of the window with the most front-end IOPS (the first on a tie)."""
    load = {w: 0.0 for w in windows_of(workloads)}
    for workload in workloads:
        for ph in workload.phases:
            load[ph.window] += ph.effective_iops
    window = max(load, key=lambda k: load[k])
    return window, load[window]


def _per(cost: float | None, amount: float, unit: str, formula: str, what: str) -> Explained:
    if cost is None or amount <= 0:
        why = "a part has no list price" if cost is None else f"no {what}"
        return explained(None, unit, formula, f"unknown: {why}")
    value = cost / amount
    return explained(value, unit, formula, f"{fmt(cost)} USD / {fmt(amount)} {what} = {fmt(value)} {unit}")


def grid_row(
    workloads: list[Workload], family: Configuration, *, params: EngineParameters | None = None
) -> RaidGridRow:
    """One scheme's row: ``family`` (one pool, drive count open) sized for ``workloads``."""
    sized = size(workloads, family, params=params)
    result = sized.result
    window, _ = busiest_window(workloads)
    w = next(x for x in result.windows if x.window == window)
    layout = sized.configuration.pools[0].raid
    cost = result.bill.cost_usd
    capacity = result.capacity
    rebuild: Explained | None = None
    if layout.scheme is not RaidScheme.RAID0:
        rebuilding = evaluate(workloads, sized.configuration, params=params, degraded=DegradedMode.REBUILDING)
        hours = [p.rebuild_hours for x in rebuilding.windows if x.window == window for p in x.pools]
        rebuild = next((h for h in hours if h is not None), None)
    return RaidGridRow(
        scheme=layout.scheme,
        scheme_name=scheme_name(layout.scheme),
        group_width=layout.group_width,
        configuration=sized.configuration.name,
        feasible=sized.feasible,
        drives=result.bill.drives,
        spares=result.bill.spares,
        usable_tb=capacity.usable_tb,
        usable_raw_pct=explained(
            capacity.usable_raw_pct,
            "%",
            "usable / raw",
            f"{fmt(capacity.usable_tb)} TB usable / {fmt(capacity.raw_tb)} TB raw = {fmt(capacity.usable_raw_pct)}%",
            usable_tb=capacity.usable_tb,
            raw_tb=capacity.raw_tb,
        ),
        cost_per_usable_tb=_per(cost, capacity.usable_tb, "USD/TB", "cost / usable TB", "TB usable"),
        cost_per_1000_iops=_per(
            cost, w.frontend_iops / 1000.0, "USD/kIOPS", "cost / (IOPS / 1,000)", "thousand IOPS"
        ),
        failures_tolerated=tolerated_failures(layout),
        rebuild_hours=rebuild,
        read_latency_ms=w.read_latency_ms,
        write_latency_ms=w.write_latency_ms,
        write_penalty=w.pools[0].write_penalty if w.pools else None,
        binding_constraint=sized.binding_constraint,
        passed=result.passed,
    )


@holds_memo
def raid_grid(
    workloads: list[Workload],
    families: list[Configuration],
    *,
    params: EngineParameters | None = None,
) -> RaidGrid:
    """Rows for ``families`` (one per scheme, each one pool with its drive count open), in order.

    A scheme the engine cannot size (e.g. it never fits the array) raises :class:`InputError`
    naming ``schemes.i``.
    """
    if not families:
        raise InputError("schemes", "no RAID scheme to compare")
    rows = []
    for i, family in enumerate(families):
        try:
            rows.append(grid_row(workloads, family, params=params))
        except InputError as exc:
            raise InputError(f"schemes.{i}", f"{family.pools[0].raid.scheme.value}: {exc.reason}") from exc
    window, iops = busiest_window(workloads)
    return RaidGrid(window=window, frontend_iops=iops, rows=rows)


__all__ = ["RaidGrid", "RaidGridRow", "busiest_window", "grid_row", "raid_grid"]
