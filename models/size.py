"""Size a configuration family: the fewest drives (whole RAID groups) meeting every window.

Every constraint the sizing checks is monotone in the drive count: more groups give more
capacity, lower drive utilization and lower miss latency, and leave controller and port load
unchanged. So the smallest feasible group count is found by bisection (O(log n) evaluations),
not by a loop over every count. The binding constraint is the one that fails with one group
fewer. If the largest count the array allows still fails, the family is infeasible and the
failing checks at that count say why (e.g. the controllers, which no drive count can relieve).

Cache sizing: for each flash-cache option the fewest drives are found the same way; the
drives-vs-cache curve is returned and the cheapest option that meets every window is chosen
(fewest drives when prices are unknown).

Kept as one module (about 610 lines): the bisection over groups, the search over nodes of a
scale-out family and the flash-cache options build one sizing result and its explanation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from pydantic import Field

from models.base import InputError, Output
from models.buildable import hosts_needed, layout_words, spans_hosts
from models.capacity import min_group_width
from models.cases import Relaxation
from models.checks import check_words
from models.cluster import node_label, with_nodes
from models.configuration import Configuration, ReductionMode
from models.evaluate import DegradedMode, EvaluationResult, evaluate
from models.explain import fmt
from models.fewest import fewest_passing
from models.memo import holds_memo
from models.naming import plural
from models.parameters import EngineParameters
from models.raid import WAFL_SCHEMES
from models.reduction import dedupes_inline, packs_compressed
from models.tco import Tco
from models.verdict import Evaluations, Plan, judge, meets, plan, with_verdict
from models.whatif.uncertainty import Confidence
from models.workload import Workload

DEFAULT_MAX_DRIVES = 4000


class CacheOption(Output):
    """One point of the drives-vs-cache curve."""

    flash_cache_gb: float
    feasible: bool
    drives: int | None
    cost_usd: float | None
    binding_constraint: str


class Optimism(Output):
    """An optimism the user stated and the drives it saves: sizing without it needs more."""

    effect: str = Field(description="what was stated, in words")
    drives_saved: int = Field(description="drives sizing without the optimism adds (0: it saves none)")
    drives_without: int | None = Field(description="drives needed without it (None: infeasible without it)")


class SizingResult(Output):
    feasible: bool
    configuration: Configuration
    result: EvaluationResult
    pool: str
    drive_count: int
    groups: int
    binding_constraint: str = Field(
        description="the check that fails with one group fewer (or at the maximum)"
    )
    explanation: str
    evaluations: int
    cache_options: list[CacheOption]
    chosen_flash_cache_gb: float
    reasons: list[str] = Field(
        default_factory=list, description="why an infeasible family cannot meet the load"
    )
    nodes: int | None = Field(default=None, description="nodes (HA pairs) of a clustered configuration")
    nodes_added: int = Field(default=0, description="nodes (HA pairs) sizing added to the given ones")
    optimisms: list[Optimism] = Field(
        default_factory=list,
        description="every optimism the inputs state (a queue depth, short-stroking, a planned fill below the "
        "target, write absorption, a single stream, a measured layout) and the drives it saves",
    )
    tco: Tco | None = Field(
        default=None, description="money over time and the three-ratio table (models.tco), when priced"
    )
    confidence: Confidence | None = Field(
        default=None,
        description="sized to a stated confidence (models.confidence): the chance of meeting every case "
        "judged at the answer's drive count; null when not asked",
    )


def with_drive_count(
    cfg: Configuration, index: int, drives: int, flash_gb: float | None = None
) -> Configuration:
    """``cfg`` with ``drives`` in pool ``index`` (and ``flash_gb`` of flash cache, if given)."""
    pools = list(cfg.pools)
    pools[index] = pools[index].model_copy(update={"drive_count": drives})
    update: dict = {"pools": pools}
    if flash_gb is not None:
        update["cache"] = cfg.cache.model_copy(update={"flash_cache_gb": flash_gb})
    return cfg.model_copy(update=update)


def _failing(res: EvaluationResult) -> list[str]:
    out = [c.text for c in res.checks if not c.passed]
    for w in res.windows:
        out += [f"{w.window}: {c.text}" for c in w.checks if not c.passed]
    return out


def _first_failing_name(res: EvaluationResult) -> str:
    for c in res.checks:
        if not c.passed:
            return c.name
    for w in res.windows:
        for c in w.checks:
            if not c.passed:
                return f"{c.name} ({w.window})"
    return "none"


def _capacity_units(workloads: list[Workload], cfg: Configuration, index: int, step: int) -> int:
    """Smallest unit count whose usable capacity can hold the workloads (a lower bound)."""
    from models.capacity import physical_needed_tb, pool_capacity

    pool = cfg.pools[index]
    needed = sum(physical_needed_tb(w) for w in workloads) / (
        cfg.headroom.capacity_max_fill_pct / 100.0 or 1.0
    )
    others = sum(
        (pool_capacity(p, p.drive_count, cfg.capacity).usable_tb.value or 0.0)
        for i, p in enumerate(cfg.pools)
        if i != index and p.drive_count is not None
    )
    one = pool_capacity(pool, step, cfg.capacity).usable_tb.value or 0.0
    if one <= 0:
        return 1
    return max(1, math.floor(max(0.0, needed - others) / one * 0.98))


def _drive_pressure(res: EvaluationResult) -> float:
    """Largest drive utilization relative to its limit over all windows (drives scale ~1/N)."""
    worst = 0.0
    for w in res.windows:
        limit = 0.0
        for c in w.checks:
            if c.name.startswith("drives:") and c.value is not None and c.limit > 0:
                worst = max(worst, c.value / c.limit)
                limit = limit or c.limit
            elif c.name.startswith("drives:") and c.value is None:
                worst = max(worst, 2.0)
        if w.cold_cache is not None and limit > 0:  # the cold-cache case, where it was evaluated
            cold = w.cold_cache.drive_utilization_pct.values()
            worst = max(worst, *(2.0 if u is None else u / limit for u in cold))
    return worst


@dataclass(frozen=True)
class _Ask:
    """What one sizing asks: the workloads, the open pool, a flash-cache size and the engine options."""

    workloads: list[Workload]
    index: int
    flash_gb: float | None
    params: EngineParameters | None
    degraded: DegradedMode
    max_drives: int | None
    relax: list[Relaxation] | None = None  # the cases relaxed (judged only when ``degraded`` is none)
    at_least: tuple[int, int] = (0, 0)  # (nodes, drives) known to be needed at those nodes
    binding: bool = True  # name the check that fails with one group fewer (else "not asked")
    seen: dict[tuple[int, int], Evaluations] = field(default_factory=dict)
    """each judged count's evaluations by (nodes, drives), for the answer's verdict to read again"""


class _Probe(NamedTuple):
    """One drive count tried: whether it meets, the healthy evaluation, the first failing check's
    name (with its window and case), the failing checks' texts, the evaluations made and the
    drive pressure (busiest drive check over its limit, over every case evaluated)."""

    passed: bool
    result: EvaluationResult
    binding: str
    failing: list[str]
    evaluations: int
    pressure: float
    cases: Evaluations


def _probe(ask: _Ask, cfg: Configuration, cases: Plan | None) -> _Probe:
    """``cfg`` judged in every case of ``cases`` (:func:`models.verdict.meets`), or in the one mode
    ``ask.degraded`` when ``cases`` is None: unexplained evaluations, read for their verdicts."""
    if cases is None:
        res = evaluate(
            ask.workloads,
            cfg,
            params=ask.params,
            degraded=ask.degraded,
            cold_cache=False,
            explain=False,  # a probe: its pass, checks and drive pressure are read
        )
        return _Probe(res.passed, res, _first_failing_name(res), _failing(res), 1, _drive_pressure(res), {})
    ok, results, binding, failing = meets(ask.workloads, cfg, cases, params=ask.params)
    pressure = max(_drive_pressure(r) for r in results.values())
    nodes = cfg.cluster.nodes if cfg.cluster is not None else 0
    ask.seen[(nodes, cfg.pools[ask.index].drive_count or 0)] = results
    healthy = next(iter(results.values()))
    return _Probe(ok, healthy, binding, failing, len(results), pressure, results)


def _cases(ask: _Ask) -> Plan | None:
    """The cases a sizing judges (every one not relaxed), or None for a one-mode sizing."""
    return plan(ask.workloads, ask.relax) if ask.degraded is DegradedMode.NONE else None


def _size_one(ask: _Ask, cfg: Configuration) -> tuple[bool, int, EvaluationResult, str, int, list[str]]:
    workloads, index, flash_gb = ask.workloads, ask.index, ask.flash_gb
    max_drives = ask.max_drives
    cases = _cases(ask)
    pool = cfg.pools[index]
    w = pool.raid.group_width
    step = pool.raid.copies if pool.raid.scheme.value == "replica" else w
    lo_units = max(1, math.ceil(min_group_width(pool.raid) / step))
    if cfg.cluster is not None and cfg.cluster.controllers_per_node > 1:
        # an HA pair or appliance serves the drives it attaches: each one holds a group at least
        # (nodes added for their controllers come with drives, never as empty heads)
        lo_units = max(lo_units, cfg.cluster.nodes)
    others = sum(p.drive_count or 0 for i, p in enumerate(cfg.pools) if i != index)
    limit = max_drives or cfg.packaging.max_drives or DEFAULT_MAX_DRIVES
    # spares count against the array's drive limit: N + N/per + min
    sp = pool.spares
    cap = limit - others - sp.min_spares
    per = sp.per_drives
    usable_slots = cap if per is None else int(cap * per / (per + 1))
    hi_units = max(lo_units, usable_slots // step)
    evaluations = 0
    cache: dict[int, _Probe] = {}

    def run(units: int) -> _Probe:
        nonlocal evaluations
        if units not in cache:
            cache[units] = _probe(ask, with_drive_count(cfg, index, units * step, flash_gb), cases)
            evaluations += cache[units].evaluations
        return cache[units]

    # Start at the capacity lower bound (fewer units cannot hold the data), estimate the count
    # the busiest drive check needs (utilization ~ 1 / drives), then bracket and bisect. Every
    # check is monotone in the count, so bisection between a failing and a passing count finds
    # the smallest passing one; the estimate only saves evaluations.
    nodes, at_least = ask.at_least
    known_units = at_least // step if (cfg.cluster.nodes if cfg.cluster is not None else 0) == nodes else 0
    start = min(hi_units, max(lo_units, _capacity_units(workloads, cfg, index, step), known_units))
    first = run(start)
    if first.passed:
        lo, hi = start - 1, start  # below the capacity bound nothing passes
    else:
        ratio = first.pressure
        guess = min(hi_units, max(start + 1, math.ceil(start * ratio))) if ratio > 1 else start + 1
        lo, probe = start, guess
        while True:
            if run(probe).passed:
                hi = probe
                break
            if probe >= hi_units:
                top = run(hi_units)
                return False, hi_units * step, top.result, top.binding, evaluations, top.failing
            lo = probe
            probe = min(hi_units, probe + max(1, math.ceil(0.25 * probe)))
        hi = fewest_passing(lo, hi, lambda units: run(units).passed)
    res = run(hi).result
    if hi == lo_units:
        binding = "minimum group count"
    else:
        binding = run(hi - 1).binding if ask.binding or hi - 1 in cache else "not asked"
    return True, hi * step, res, binding, evaluations, []


@holds_memo
def size(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    flash_cache_options_gb: list[float] | None = None,
    params: EngineParameters | None = None,
    degraded: DegradedMode = DegradedMode.NONE,
    max_drives: int | None = None,
    relax: list[Relaxation] | None = None,
) -> SizingResult:
    """Smallest drive count (whole groups) of the pool whose ``drive_count`` is None.

    With ``degraded`` none (the default) the count meets every case :mod:`models.verdict` judges
    (healthy, a drive failed, rebuilding, failover, cold caches, at the growth horizon) but those
    ``relax`` names; the answer's result carries the verdict. With another ``degraded`` mode it
    meets that mode alone. With ``flash_cache_options_gb``, sizes once per option and keeps the
    cheapest feasible one.
    """
    open_pools = [i for i, p in enumerate(configuration.pools) if p.drive_count is None]
    if len(open_pools) != 1:
        raise InputError("pools", "exactly one pool must have drive_count unset (null) to be sized")
    index = open_pools[0]
    options = flash_cache_options_gb if flash_cache_options_gb else [configuration.cache.flash_cache_gb]
    if any(o < 0 or not math.isfinite(o) for o in options):
        raise InputError("flash_cache_options_gb", "cache sizes must be finite and >= 0")
    curve: list[CacheOption] = []
    best: tuple | None = None
    total_evals = 0
    seen: dict[float, dict[tuple[int, int], Evaluations]] = {}
    for gb in sorted(set(options)):
        ask = _Ask(workloads, index, gb, params, degraded, max_drives, relax)
        seen[gb] = ask.seen
        ok, drives, res, binding, n_eval, reasons, cfg_n = _size_nodes(ask, configuration)
        total_evals += n_eval
        curve.append(
            CacheOption(
                flash_cache_gb=gb,
                feasible=ok,
                drives=drives if ok else None,
                cost_usd=res.bill.cost_usd if ok else None,
                binding_constraint=binding,
            )
        )
        key = (0 if ok else 1, res.bill.cost_usd if res.bill.cost_usd is not None else 0.0, drives, gb)
        if best is None or key < best[0]:
            best = (key, ok, drives, res, binding, reasons, gb, cfg_n)
    assert best is not None
    _, ok, drives, res, binding, reasons, gb, cfg_n = best
    pool = configuration.pools[index]
    sized = with_drive_count(cfg_n, index, drives, gb)
    res = evaluate(workloads, sized, params=params, degraded=degraded)  # the answer, with its cold-cache case
    total_evals += 1
    if degraded is DegradedMode.NONE:
        nodes = cfg_n.cluster.nodes if cfg_n.cluster is not None else 0
        known = seen[gb].get((nodes, drives))
        res = with_verdict(res, judge(workloads, sized, relax, params=params, known=known))
    groups = math.ceil(drives / pool.raid.group_width) if pool.raid.scheme.value != "replica" else drives
    if ok:
        expl = (
            f"{drives} x {pool.drive.name} in {plural(groups, pool.raid.scheme.value + ' group')}"
            f" of {pool.raid.group_width} is the fewest that meets every window"
            + (" in every case judged" if degraded is DegradedMode.NONE else "")
            + "; "
            + (
                "it is the smallest count the scheme allows."
                if binding == "minimum group count"
                else f"with one group fewer, {_binding_words(binding, len(configuration.pools))} would pass its limit."
            )
            + f" Found by bisection in {total_evals} evaluations."
        )
        if len(curve) > 1:
            expl += f" Flash cache {fmt(gb)} GB is the cheapest of {len(curve)} cache options."
    else:
        expl = (
            f"No drive count up to {drives} meets every window: {_binding_words(binding, len(configuration.pools))}"
            " passes its limit even at the maximum; "
            "more drives cannot fix it."
        )
    optimisms: list[Optimism] = []
    # without an optimism a pool never needs fewer drives at the same nodes (more nodes bring cache)
    at_least = (cfg_n.cluster.nodes if cfg_n.cluster is not None else 0, drives)
    if ok:
        for effect, wl_without, cfg_without in _stated_optimisms(workloads, configuration, index):
            ok2, drives2, *_ = _size_nodes(
                _Ask(wl_without, index, gb, params, degraded, max_drives, relax, at_least, binding=False),
                cfg_without,
            )
            optimisms.append(
                Optimism(
                    effect=effect,
                    drives_saved=max(0, drives2 - drives) if ok2 else 0,
                    drives_without=drives2 if ok2 else None,
                )
            )
        if optimisms:
            expl += (
                " Stated optimisms: "
                + "; ".join(
                    _optimism_words(o)
                    if o.drives_without is not None
                    else f"{o.effect}: without it no drive count meets every window"
                    for o in optimisms
                )
                + "."
            )
    added = 0
    if configuration.cluster is not None and cfg_n.cluster is not None:
        added = cfg_n.cluster.nodes - configuration.cluster.nodes
        expl = _nodes_explanation(configuration, cfg_n, ok, binding) + (
            f"{drives} x {pool.drive.name} in {groups} {pool.raid.scheme.value} groups of "
            f"{pool.raid.group_width} then meets every window. Found in {total_evals} evaluations."
            if ok and added
            else expl
        )
    return SizingResult(
        feasible=ok,
        configuration=sized,
        result=res,
        pool=pool.name,
        drive_count=drives,
        groups=groups,
        binding_constraint=binding,
        explanation=expl,
        evaluations=total_evals,
        cache_options=curve,
        chosen_flash_cache_gb=gb,
        reasons=reasons,
        nodes=None if cfg_n.cluster is None else cfg_n.cluster.nodes,
        nodes_added=added,
        optimisms=optimisms,
    )


_Sized = tuple[bool, int, EvaluationResult, str, int, list[str], Configuration]


def _size_nodes(ask: _Ask, cfg: Configuration) -> _Sized:
    """:func:`_size_one` at the configuration's nodes; a cluster that cannot meet every window there
    gets more nodes (HA pairs): the fewest between its nodes and the family's maximum that can,
    found by bisection (controllers, ports and drive slots only grow with the nodes). The binding
    constraint then names the node count and what failed with one node fewer."""
    cluster = cfg.cluster
    if cluster is not None and spans_hosts(cfg):
        # a layout placed one piece per host starts at the hosts it needs (models.buildable)
        need = hosts_needed(cfg.pools[ask.index].raid)
        if need is not None and cluster.nodes < need[0]:
            if need[0] > cluster.max_nodes:
                raise InputError(
                    f"pools.{ask.index}.raid",
                    f"{layout_words(cfg.pools[ask.index].raid)} needs at least {need[0]} hosts; the family "
                    f"grows to {cluster.max_nodes}",
                )
            cfg = with_nodes(cfg, need[0])
            cluster = cfg.cluster
            assert cluster is not None
    evaluations = 0
    memo: dict[int, _Sized] = {}

    def at(nodes: int) -> _Sized:
        nonlocal evaluations
        if nodes not in memo:
            cfg_n = cfg if cluster is None or nodes == cluster.nodes else with_nodes(cfg, nodes)
            if cluster is not None and cluster.fixed_drives_per_node:
                memo[nodes] = _size_fixed(ask, cfg_n)
            else:
                memo[nodes] = (*_size_one(ask, cfg_n), cfg_n)
            evaluations += memo[nodes][4]
        return memo[nodes]

    if cluster is None:
        return at(0)
    lo = cluster.nodes
    first = at(lo)
    if first[0] or lo >= cluster.max_nodes:
        return _counted(first, evaluations)
    top = at(cluster.max_nodes)
    if not top[0]:
        return _counted(top, evaluations)
    hi = fewest_passing(lo, cluster.max_nodes, lambda nodes: at(nodes)[0])
    ok, drives, res, _, _, reasons, cfg_n = at(hi)
    binding = f"{cluster.unit} count ({at(hi - 1)[3]} fails with {node_label(cluster, hi - 1)})"
    return ok, drives, res, binding, evaluations, reasons, cfg_n


def _counted(sized: _Sized, evaluations: int) -> _Sized:
    ok, drives, res, binding, _, reasons, cfg_n = sized
    return ok, drives, res, binding, evaluations, reasons, cfg_n


def _size_fixed(ask: _Ask, cfg: Configuration) -> _Sized:
    """Nodes holding a fixed number of drives: the node count fixes the drive count (no search)."""
    cluster = cfg.cluster
    assert cluster is not None and cluster.max_drives_per_node is not None
    drives = cluster.nodes * cluster.max_drives_per_node
    # its pass and checks are read; size() evaluates the answer again
    got = _probe(ask, with_drive_count(cfg, ask.index, drives, ask.flash_gb), _cases(ask))
    binding = "minimum node count" if got.passed else got.binding
    return got.passed, drives, got.result, binding, got.evaluations, [] if got.passed else got.failing, cfg


def _binding_words(binding: str, pools: int) -> str:
    """A binding check's name in words, with the window and case it failed in:
    ``drives:pool (nightly export, while a drive rebuilds)`` -> ``the drives (nightly export, ...)``."""
    name, sep, where = binding.partition(" (")
    return check_words(name, pools) + (f" ({where}" if sep else "")


def _nodes_explanation(given: Configuration, sized: Configuration, ok: bool, binding: str) -> str:
    """What sizing did to the node count, for the explanation."""
    a, b = given.cluster, sized.cluster
    assert a is not None and b is not None
    if b.nodes == a.nodes:
        return f"{node_label(b, b.nodes)}. "
    if ok:
        return (
            f"Adds {b.nodes - a.nodes} {b.unit}(s): {node_label(b, b.nodes)} is the fewest that meets "
            f"every window, the binding change is the {binding}. "
        )
    return f"Even {node_label(b, b.nodes)}, the family's maximum, cannot meet every window. "


def _phase_update(workloads: list[Workload], field: str, value: object) -> list[Workload]:
    return [
        w.model_copy(update={"phases": [ph.model_copy(update={field: value}) for ph in w.phases]})
        for w in workloads
    ]


def _optimism_words(o: Optimism) -> str:
    """What a stated optimism saves, in words: ``"<effect>: saves 4 drives (292 without it)"``."""
    if not o.drives_saved:
        return f"{o.effect}: saves no drive"
    return f"{o.effect}: saves {plural(o.drives_saved, 'drive')} ({o.drives_without} without it)"


def _stated_optimisms(
    workloads: list[Workload], cfg: Configuration, index: int
) -> list[tuple[str, list[Workload], Configuration]]:
    """Each optimism the inputs state, with the workloads and configuration that leave it out.

    Stated queue depths (command-queuing credit), short-stroked drives, a planned fill below the
    capacity fill target (shorter seeks, emptier stripes), overwrites absorbed in the write cache,
    single sequential streams, inline data reduction on the I/O path (:mod:`models.reduction`), and
    a write-anywhere layout measured fresher than its fill implies.
    """
    out: list[tuple[str, list[Workload], Configuration]] = []
    phases = [ph for w in workloads for ph in w.phases]
    pool = cfg.pools[index]

    def with_pool(**update: object) -> Configuration:
        return cfg.model_copy(
            update={
                "pools": [p if i != index else p.model_copy(update=update) for i, p in enumerate(cfg.pools)]
            }
        )

    if any(ph.concurrency is not None for ph in phases):
        depth = max(ph.concurrency or 0.0 for ph in phases)
        out.append(
            (
                f"a stated queue of up to {fmt(depth)} outstanding I/Os (command queuing)",
                _phase_update(workloads, "concurrency", None),
                cfg,
            )
        )
    if pool.drive_fraction_used is not None and pool.drive_fraction_used < 1.0:
        out.append(
            (
                f"short-stroking to {fmt(100 * pool.drive_fraction_used)}% of each drive",
                workloads,
                with_pool(drive_fraction_used=None),
            )
        )
    target = cfg.headroom.capacity_max_fill_pct
    if pool.planned_fill_pct is not None and pool.planned_fill_pct < target:
        out.append(
            (
                f"a planned fill of {fmt(pool.planned_fill_pct)}% (target {fmt(target)}%)",
                workloads,
                with_pool(planned_fill_pct=None),
            )
        )
    if any(ph.write_overwrite_pct > 0 for ph in phases):
        out.append(
            (
                "overwrites absorbed in the write cache",
                _phase_update(workloads, "write_overwrite_pct", 0.0),
                cfg,
            )
        )
    if any(ph.sequential_streams == 1 for ph in phases):
        out.append(
            (
                "single sequential streams (no seek between readaheads)",
                _phase_update(workloads, "sequential_streams", None),
                cfg,
            )
        )
    reduction = _inline_reduction(workloads, cfg)
    if reduction is not None:
        out.append(reduction)
    if pool.raid.scheme in WAFL_SCHEMES and pool.raid.full_stripe_share is not None:
        out.append(
            (
                f"a measured write-anywhere layout (stripes {fmt(100 * pool.raid.full_stripe_share)}% free)",
                workloads,
                with_pool(raid=pool.raid.model_copy(update={"full_stripe_share": None, "scatter": 0.0})),
            )
        )
    return out


def _inline_reduction(
    workloads: list[Workload], cfg: Configuration
) -> tuple[str, list[Workload], Configuration] | None:
    """Inline dedupe or compression on the I/O path (:mod:`models.reduction`) when the
    configuration declares it and a workload states a ratio it acts on; left out, the same
    reduction is done after the writes land (post-process: capacity unchanged)."""
    arch = cfg.architecture
    dedupe = dedupes_inline(arch) and any(w.dedupe_ratio > 1 for w in workloads)
    compress = packs_compressed(arch) and any(w.compression_ratio > 1 for w in workloads)
    if arch is None or not (dedupe or compress):
        return None
    words = []
    if dedupe:
        words.append(
            f"inline deduplication (up to {fmt(max(w.dedupe_ratio for w in workloads))}:1: duplicate writes "
            "reach the drives as metadata updates)"
        )
    if compress:
        words.append(
            f"inline compression (up to {fmt(max(w.compression_ratio for w in workloads))}:1 packed into "
            "the stripes written)"
        )
    later = ReductionMode.POST_PROCESS
    without = arch.model_copy(
        update={
            "dedupe": later if dedupe else arch.dedupe,
            "compression": later if compress else arch.compression,
        }
    )
    return " and ".join(words), workloads, cfg.model_copy(update={"architecture": without})
