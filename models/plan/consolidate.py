"""Consolidate N workloads onto M arrays at the least cost, every window and the capacity fitting.

Workloads whose phases share a window name run at the same time (one timeline): an array's
windows add up the phases placed on it (:func:`models.evaluate.evaluate`). Each array is either
one of the *fixed* arrays (already owned: given with their drive counts; a placement must pass
as they are, at no cost) or a new array of a *candidate* family (a configuration with one pool's
drive count open), sized for exactly the workloads placed on it (:func:`models.size.size`): its
cost is the sized bill. A placement *fits* when the sized (or fixed) array passes every check of
every window (utilization limits including the controllers after a failover, latency targets)
and the capacity check: the engine's own verdict; with ``failure_cases`` also in each failure
case named (a drive failed, rebuilding, a controller down: the family sized for each, the most
drives kept).

Objective ``f(array)``: ``cost`` the list cost [USD], ``arrays`` one per array (ties broken by
cost), ``rack_units`` the bill's rack units; fixed arrays count 0. Minimised over placements by:

1. **greedy** (first-fit decreasing by the workload's share of the total capacity plus its share
   of the total peak IOPS): each workload goes where it adds the least, ``f(S + w) - f(S)`` on a
   fixed or open array, or ``f({w})`` on a new array of the cheapest family;
2. **improvement**: moving one workload to another array (or closing an array whose last
   workload moves) and re-choosing each new array's family are applied while one lowers the total,
   at most ``passes`` rounds.

A heuristic, not a proof of optimality (the problem is bin packing with sized bins): the answer
says so. Every sizing is kept by (family, set of workloads), so a set is sized once; a set whose array
sized for it less one workload still passes with it added takes that array as it is (one
evaluation instead of a sizing: the fewest drives never fall as workloads are added).

With calibration margins each new array states what they cost it
(:func:`models.margins.margin_cost`): its family sized for its workloads as the records state
them, against the count sized with the margins; the answer's text names it per array.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from models.base import Frozen, InputError, Output
from models.configuration import Configuration
from models.evaluate import evaluate
from models.explain import fmt
from models.margins import AS_STATED, Margining, distinct, margin_cost, with_words
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import Margin, without_margins
from models.results import DegradedMode, EvaluationResult, worst_window
from models.size import SizingResult, size
from models.whatif import outcome
from models.workload import Workload

Objective = Literal["cost", "arrays", "rack_units"]


class ConsolidateOptions(Frozen):
    objective: Objective = Field(default="cost", description="what to minimise (fixed arrays count 0)")
    fixed_only: bool = Field(default=False, description="place onto the fixed arrays only (buy nothing)")
    passes: int = Field(default=3, ge=0, le=20, description="improvement rounds after the greedy placement")
    max_drives: int | None = Field(default=None, ge=1, le=100000, description="largest drive count to size")
    failure_cases: list[DegradedMode] = Field(
        default_factory=list,
        max_length=3,
        description="each placement also passes every window with a drive failed, rebuilding, or a controller down",
    )


class ArrayPlacement(Output):
    name: str
    fixed: bool = Field(description="one of the arrays already owned")
    candidate: int = Field(description="index into the candidates (or the fixed arrays when fixed)")
    configuration: Configuration
    workloads: list[str]
    cost_usd: float | None = Field(description="list cost of the sized bill (0 counted for a fixed array)")
    rack_units: float
    drives: int
    busiest_window: str
    headroom_used_pct: float | None = Field(description="binding check of the busiest window [% of limit]")
    result: EvaluationResult


class Unplaced(Output):
    workload: str
    reason: str


class Consolidation(Output):
    objective: Objective
    arrays: list[ArrayPlacement]
    unplaced: list[Unplaced]
    total_cost_usd: float | None = Field(description="list cost of the new arrays")
    total_rack_units: float
    objective_value: float
    sizings: int = Field(description="distinct (family, workload set) sizings and fixed-array evaluations")
    method: str
    text: str


_Key = tuple[bool, int, frozenset[str]]


class _Solver:
    def __init__(
        self,
        workloads: list[Workload],
        candidates: list[Configuration],
        fixed: list[Configuration],
        options: ConsolidateOptions,
        params: EngineParameters | None,
        margining: Margining = AS_STATED,
    ) -> None:
        self.by_name = {w.name: w for w in workloads}
        self.order = [w.name for w in workloads]
        self.candidates, self.fixed, self.options, self.params = candidates, fixed, options, params
        self.margining = margining
        self.kept: dict[_Key, EvaluationResult | None] = {}
        self.configs: dict[_Key, Configuration] = {}
        """Each array as stated (a new array's drive count as sized with the margins)."""
        self.margins: dict[_Key, list[Margin]] = {}
        """The margins each set was computed with on its array (its class follows the set placed)."""
        self.sizings: dict[_Key, SizingResult] = {}
        """The sizing each new array's count comes from (one sized for a smaller set that passes)."""
        self.why: dict[_Key, str] = {}
        """What keeps a set off an array (the first failing check), for the sets that cannot fit."""

    def _workloads(self, names: frozenset[str]) -> list[Workload]:
        return [self.by_name[n] for n in self.order if n in names]

    def result(self, key: _Key) -> EvaluationResult | None:
        """The passing evaluation of a set on an array (sized when new), or None when it cannot fit."""
        if key not in self.kept:
            fixed, index, names = key
            wl = self._workloads(names)
            if fixed:
                cfg = self.fixed[index]
                run_on, self.margins[key] = self.margining.run_on(cfg, wl)
                res = evaluate(wl, run_on, params=self.params, cold_cache=False)
                fits = res.passed and all(
                    evaluate(wl, run_on, params=self.params, degraded=m, cold_cache=False).passed
                    for m in self.options.failure_cases
                )
                self.kept[key] = res if fits else None
                self.configs[key] = cfg
                if not fits:
                    self.why[key] = f"{cfg.name}: {res.bottleneck}"
            else:
                kept = self._as_sized(wl, key)
                self.kept[key], self.configs[key], self.margins[key] = kept or self._sized(
                    wl, self.candidates[index], key
                )
        return self.kept[key]

    def _as_sized(
        self, wl: list[Workload], key: _Key
    ) -> tuple[EvaluationResult, Configuration, list[Margin]] | None:
        """The array already sized for the set less one workload, when it passes with that one added.

        Every check is monotone in the drive count, so the fewest drives for the larger set are at
        least those for the smaller one: when that count passes, it is the answer, at the cost of one
        evaluation instead of a sizing. (Not with failure cases, whose sizing runs per case.)"""
        if self.options.failure_cases:
            return None
        _, index, names = key
        for name in sorted(names):
            smaller: _Key = (False, index, names - {name})
            if smaller[2] and self.kept.get(smaller) is not None:
                cfg = self.configs[smaller]
                run_on, margins = self.margining.run_on(cfg, wl)
                res = evaluate(wl, run_on, params=self.params, cold_cache=False)
                if res.passed:
                    self.sizings[key] = self.sizings[smaller]
                    return res, cfg, margins
        return None

    def _sized(
        self, wl: list[Workload], family: Configuration, key: _Key
    ) -> tuple[EvaluationResult | None, Configuration, list[Margin]]:
        """The family sized for the set (:meth:`_sizings`, the most drives any case needs), evaluated
        normally: computed with the set's margins, the configuration kept as stated."""
        run_on, margins = self.margining.run_on(family, wl)
        runs = self._sizings(wl, run_on)
        most = _most(runs)
        if not most.feasible:
            self.why[key] = f"{family.name}: {most.binding_constraint} even at {most.drive_count} drives"
            return None, family, margins
        self.sizings[key] = most
        stated = without_margins(most.configuration, family) if margins else most.configuration
        if most is runs[0]:
            return most.result, stated, margins
        res = evaluate(wl, most.configuration, params=self.params, cold_cache=False)
        return (res if res.passed else None), stated, margins

    def _sizings(self, wl: list[Workload], family: Configuration) -> list[SizingResult]:
        """The family sized for the set in normal operation, then in each failure case asked for."""
        return [
            size(wl, family, params=self.params, max_drives=self.options.max_drives, degraded=m)
            for m in (DegradedMode.NONE, *self.options.failure_cases)
        ]

    def margin_cost(self, key: _Key) -> str | None:
        """What the margins cost a new array (:func:`models.margins.margin_cost`): its family sized
        for the set as its records state it against the count sized with them; None without margins."""
        fixed, index, names = key
        if fixed or not self.margins.get(key) or key not in self.sizings:
            return None
        stated = _most(self._sizings(self._workloads(names), self.candidates[index]))
        return margin_cost(stated, self.sizings[key])

    def value(self, key: _Key) -> float:
        """``f`` of a set on an array; infinity when it cannot fit; 0 for an empty set or a fixed array."""
        if not key[2]:
            return 0.0
        res = self.result(key)
        if res is None:
            return math.inf
        if key[0]:
            return 0.0
        objective = self.options.objective
        if objective == "rack_units":
            return res.bill.rack_units
        cost = res.bill.cost_usd
        if cost is None:
            raise InputError(
                f"candidates.{key[1]}",
                "has no list price (a part lacks one): minimise arrays or rack_units instead",
            )
        return 1e12 + cost if objective == "arrays" else cost

    def best_new(self, names: frozenset[str]) -> tuple[float, int]:
        """The cheapest candidate family for a new array holding ``names``."""
        options = [(self.value((False, k, names)), k) for k in range(len(self.candidates))]
        return min(options) if options else (math.inf, -1)


def _most(runs: list[SizingResult]) -> SizingResult:
    """The first sizing no drive count meets, else the one needing the most drives (every check is
    monotone in the drive count, so that count meets every case)."""
    failing = next((r for r in runs if not r.feasible), None)
    return failing or max(runs, key=lambda r: r.drive_count)


def _share(w: Workload, total_tb: float, total_iops: float) -> float:
    peak = max((p.effective_iops for p in w.phases), default=0.0)
    return w.capacity_tb / total_tb + (peak / total_iops if total_iops > 0 else 0.0)


@holds_memo
def consolidate(
    workloads: list[Workload],
    candidates: list[Configuration],
    *,
    fixed: list[Configuration] | None = None,
    options: ConsolidateOptions | None = None,
    params: EngineParameters | None = None,
    margining: Margining = AS_STATED,
) -> Consolidation:
    """Place ``workloads`` on the ``fixed`` arrays and on new arrays of the ``candidates`` (families),
    each set computed with ``margining``'s margins for its class (the arrays answered as stated)."""
    opts = options or ConsolidateOptions()
    owned = fixed or []
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    if len({w.name for w in workloads}) != len(workloads):
        raise InputError("workloads", "workload names must be unique")
    if opts.fixed_only and not owned:
        raise InputError("options.fixed_only", "needs at least one fixed array")
    if not opts.fixed_only and not candidates:
        raise InputError("candidates", "give at least one candidate family (or fixed arrays with fixed_only)")
    for i, c in enumerate(candidates):
        if sum(1 for p in c.pools if p.drive_count is None) != 1:
            raise InputError(
                f"candidates.{i}", "a candidate is a family: exactly one pool's drive_count null"
            )
    for i, c in enumerate(owned):
        if any(p.drive_count is None for p in c.pools):
            raise InputError(f"fixed.{i}", "a fixed array is installed: every pool needs its drive count")
    solver = _Solver(workloads, [] if opts.fixed_only else candidates, owned, opts, params, margining)
    total_tb = sum(w.capacity_tb for w in workloads)
    total_iops = sum(max((p.effective_iops for p in w.phases), default=0.0) for w in workloads)
    order = sorted(workloads, key=lambda w: -_share(w, total_tb, total_iops))
    # arrays: [fixed?, index, names]
    arrays: list[list] = [[True, j, frozenset()] for j in range(len(owned))]
    unplaced: list[Unplaced] = []
    for w in order:
        best: tuple[float, int] | None = None  # (delta, array position or -1 - candidate)
        for pos, (is_fixed, index, names) in enumerate(arrays):
            grown = names | {w.name}
            delta = solver.value((is_fixed, index, grown)) - solver.value((is_fixed, index, names))
            if delta < math.inf and (best is None or delta < best[0]):
                best = (delta, pos)
        value, k = solver.best_new(frozenset({w.name}))
        if value < math.inf and (best is None or value < best[0]):
            best = (value, -1 - k)
        if best is None:
            alone = frozenset({w.name})
            why = [
                solver.why[(False, k, alone)]
                for k in range(len(solver.candidates))
                if (False, k, alone) in solver.why
            ]
            unplaced.append(
                Unplaced(
                    workload=w.name,
                    reason="fits on no fixed array beside the workloads already there"
                    + ("" if opts.fixed_only else ", nor on any candidate family by itself")
                    + (f" ({'; '.join(why)})" if why else ""),
                )
            )
            continue
        if best[1] >= 0:
            arrays[best[1]][2] = arrays[best[1]][2] | {w.name}
        else:
            arrays.append([False, -1 - best[1], frozenset({w.name})])
    for _ in range(opts.passes):
        if not _improve(solver, arrays):
            break
    placed = [_placement(solver, a, i) for i, a in enumerate(arrays) if a[2]]
    new = [p for p in placed if not p.fixed]
    costs = [p.cost_usd for p in new]
    total_cost = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
    total = sum(solver.value((a[0], a[1], a[2])) for a in arrays)
    objective_value = float(len(new)) if opts.objective == "arrays" else total
    text = (
        f"{len(workloads) - len(unplaced)} workloads on {len(placed)} arrays "
        f"({sum(1 for p in placed if p.fixed)} already owned, {len(new)} new"
        + (f", {fmt(total_cost)} USD list" if total_cost is not None else "")
        + ")"
        + (f"; {len(unplaced)} fit nowhere: {', '.join(u.workload for u in unplaced)}" if unplaced else "")
        + "."
    )
    text = with_words(text, distinct([p.result.calibration.margins for p in placed if p.result.calibration]))
    costs_text = [
        f"{p.name}: {p.result.calibration.margin_cost}"
        for p in new
        if p.result.calibration is not None and p.result.calibration.margin_cost
    ]
    if costs_text:
        text += " " + " ".join(costs_text)
    return Consolidation(
        objective=opts.objective,
        arrays=placed,
        unplaced=unplaced,
        total_cost_usd=total_cost,
        total_rack_units=sum(p.rack_units for p in placed),
        objective_value=objective_value,
        sizings=len(solver.kept),
        method="greedy placement (largest share of capacity and peak IOPS first), then single moves and "
        f"family changes while they lower the {opts.objective} (a heuristic: no proof of optimality)",
        text=text,
    )


def _improve(solver: _Solver, arrays: list[list]) -> bool:
    """One round of single moves and family changes; True when anything improved."""
    improved = False
    for src in arrays:
        for name in sorted(src[2]):
            if name not in src[2]:
                continue
            rest = src[2] - {name}
            gain = solver.value((src[0], src[1], src[2])) - solver.value((src[0], src[1], rest))
            for dst in arrays:
                if dst is src:
                    continue
                grown = dst[2] | {name}
                cost = solver.value((dst[0], dst[1], grown)) - solver.value((dst[0], dst[1], dst[2]))
                if cost < gain - 1e-6:
                    src[2], dst[2] = rest, grown
                    improved = True
                    break
    for a in arrays:
        if a[0] or not a[2]:
            continue
        value, k = solver.best_new(a[2])
        if value < solver.value((False, a[1], a[2])) - 1e-6:
            a[1] = k
            improved = True
    return improved


def _placement(solver: _Solver, array: list, position: int) -> ArrayPlacement:
    key: _Key = (array[0], array[1], array[2])
    res = solver.result(key)
    assert res is not None
    cfg = solver.configs[key]
    cost = solver.margin_cost(key)
    res = solver.margining.assessed(res, cfg, solver._workloads(key[2]), solver.margins[key], cost)
    busiest = worst_window(res.windows)
    return ArrayPlacement(
        name=cfg.name if array[0] else f"new {position + 1}: {cfg.name}",
        fixed=array[0],
        candidate=array[1],
        configuration=cfg,
        workloads=[n for n in solver.order if n in array[2]],
        cost_usd=0.0 if array[0] else res.bill.cost_usd,
        rack_units=res.bill.rack_units,
        drives=res.bill.drives + res.bill.spares,
        busiest_window=busiest.window if busiest else "",
        headroom_used_pct=outcome(res).headroom_used_pct,
        result=res,
    )
