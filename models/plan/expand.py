"""Expand what you have: shelves, drives of another model or generation, flash cache, nodes.

The installed configuration is evaluated (:func:`models.evaluate.evaluate`) as it is and as
expanded, window by window, and (when the workloads grow) projected month by month
(:func:`models.whatif.growth_projection`) to say when each breaks.

How an expansion changes the configuration:

* ``shelves``: full shelves of the first pool's drive (``drives per shelf`` each) join the first
  pool; the spares the bigger pool needs come out of them::

      N' = N + S x d_shelf - (spares(N') - spares(N))       (the smallest N' that satisfies it)

* a ``group`` of another drive model is a pool of its own (an aggregate or RAID pool: each group
  its own drives, performance modelled on its own drive), with the first pool's RAID layout
  unless it names one; workloads it names move onto it. A group naming an existing pool joins
  it, which only the same drive model may (a RAID group is one drive model);
* ``flash_cache_gb`` adds to the flash read cache (a size the array sells, when it states them);
* ``nodes`` adds nodes (HA pairs) to a clustered system (:func:`models.cluster.with_nodes`).

Limits, each a :class:`~models.base.InputError` naming the field that passes it: a drive the
array does not take (``expansion.groups.i.drive_id``), drives with spares beyond the array's
maximum, or shelves beyond its maximum (``expansion.shelves``, else the last group's ``count``).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field, model_validator

from models.base import Frozen, InputError, NonNegFloat, Output
from models.capacity import raid_groups, spare_count
from models.catalog import ArrayModel
from models.cluster import with_nodes
from models.configuration import Configuration, DrivePool
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.explain import Explained, explained, fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.raid import RaidLayout
from models.results import EvaluationResult
from models.whatif import GrowthProjection, growth_projection, window_outcome
from models.workload import Workload


class AddedGroup(Frozen):
    """Drives of one model added: a pool of their own, or joining the pool ``pool`` names."""

    drive_id: str = Field(min_length=1, max_length=80, description="catalog or custom drive id")
    count: int = Field(ge=1, le=100000, description="drives in RAID groups (spares excluded)")
    raid: RaidLayout | None = Field(default=None, description="null = the first pool's layout")
    pool: str | None = Field(
        default=None, min_length=1, max_length=80, description="an existing pool to join; null = a new pool"
    )
    workloads: list[str] = Field(
        default_factory=list, max_length=32, description="workloads moved onto the new pool"
    )

    @model_validator(mode="after")
    def _check(self) -> AddedGroup:
        if self.pool is not None and (self.workloads or self.raid is not None):
            raise ValueError("a group joining an existing pool takes its layout and moves no workloads")
        return self


class Expansion(Frozen):
    """What is added to an installed configuration."""

    shelves: int = Field(default=0, ge=0, le=1000, description="full shelves of the first pool's drive")
    groups: list[AddedGroup] = Field(default_factory=list, max_length=4)
    flash_cache_gb: NonNegFloat = Field(default=0.0, le=1e6, description="flash read cache added [GB]")
    nodes: int = Field(default=0, ge=0, le=1000, description="nodes (HA pairs) added to a clustered system")
    months: int | None = Field(
        default=None, ge=1, le=240, description="growth horizon [months]; null = the workloads' longest"
    )


class WindowGain(Output):
    """One window before and after the expansion."""

    window: str
    passed_before: bool
    passed_after: bool
    headroom_used_before_pct: float | None = Field(description="binding check, 100 x value / limit [%]")
    headroom_used_after_pct: float | None
    binding_before: str
    binding_after: str
    read_latency_before_ms: float | None
    read_latency_after_ms: float | None
    drive_busy_before_pct: float | None = Field(description="busiest pool's drives [%]")
    drive_busy_after_pct: float | None


class ExpansionResult(Output):
    configuration: Configuration = Field(description="the expanded configuration")
    before: EvaluationResult
    after: EvaluationResult
    added: list[str] = Field(description="what was added, in words")
    drives_added: Explained
    shelves_added: Explained
    usable_tb_added: Explained
    cost_added_usd: Explained
    windows: list[WindowGain]
    growth_before: GrowthProjection | None = None
    growth_after: GrowthProjection | None = None
    breaks_before_month: int | None = Field(
        default=None, description="first month the installed system breaks"
    )
    breaks_after_month: int | None = Field(default=None, description="first month the expanded system breaks")
    text: str


def shelf_drives(count: int, shelves: int, per_shelf: int, pool: DrivePool) -> int:
    """``N'``: the pool's drives (spares excluded) after ``shelves`` full shelves join it."""
    total = count + spare_count(count, pool.spares) + shelves * per_shelf
    n = total - spare_count(count, pool.spares)
    while n > count and n + spare_count(n, pool.spares) > total:
        n -= 1
    return n


def _busiest_pool(res: EvaluationResult, window: str) -> float | None:
    w = next(w for w in res.windows if w.window == window)
    values = [p.drive_utilization_pct.value for p in w.pools]
    return None if any(v is None for v in values) else max(v for v in values if v is not None)


def _limit_field(expansion: Expansion) -> str:
    if expansion.shelves:
        return "expansion.shelves"
    if expansion.groups:
        return f"expansion.groups.{len(expansion.groups) - 1}.count"
    return "expansion.nodes"


def expanded_configuration(
    base: Configuration,
    expansion: Expansion,
    workloads: list[Workload],
    *,
    drives: Mapping[str, DriveSpec],
    array: ArrayModel | None = None,
) -> tuple[Configuration, list[Workload], list[str]]:
    """The configuration with ``expansion`` added, the workloads (some moved to new pools) and the additions in words."""
    if not (expansion.shelves or expansion.groups or expansion.flash_cache_gb or expansion.nodes):
        raise InputError("expansion", "adds nothing: give shelves, groups, flash_cache_gb or nodes")
    first = base.pools[0]
    if first.drive_count is None:
        raise InputError("pools.0.drive_count", "the installed configuration needs its drive count")
    pools = list(base.pools)
    added: list[str] = []
    moved: dict[str, str] = {}
    if expansion.shelves:
        per = base.packaging.drives_per_shelf
        n = shelf_drives(first.drive_count, expansion.shelves, per, first)
        try:
            raid_groups(n, first.raid)
        except InputError as exc:
            raise InputError("expansion.shelves", exc.reason) from exc
        pools[0] = first.model_copy(update={"drive_count": n})
        added.append(
            f"{expansion.shelves} shelf(s) of {per} x {first.drive.name}: pool {first.name} "
            f"{first.drive_count} -> {n} drives"
        )
    names = {w.name for w in workloads}
    for i, g in enumerate(expansion.groups):
        field = f"expansion.groups.{i}"
        drive = drives.get(g.drive_id)
        if drive is None:
            raise InputError(f"{field}.drive_id", f"unknown drive {g.drive_id!r}")
        if array is not None and not array.any_drive and g.drive_id not in array.drives:
            raise InputError(
                f"{field}.drive_id",
                f"{array.model} cannot take {drive.name}: it mixes only the drives it supports "
                f"({', '.join(array.drives)})",
            )
        if g.pool is not None:
            index = next((j for j, p in enumerate(pools) if p.name == g.pool), None)
            if index is None:
                raise InputError(f"{field}.pool", f"unknown pool {g.pool!r}")
            pool = pools[index]
            if pool.drive.id != drive.id:
                raise InputError(
                    f"{field}.drive_id",
                    f"cannot join pool {pool.name}: its RAID groups are {pool.drive.name} and a group is one "
                    "drive model; add these drives as a group of their own (pool null)",
                )
            assert pool.drive_count is not None
            count = pool.drive_count + g.count
            try:
                raid_groups(count, pool.raid)
            except InputError as exc:
                raise InputError(f"{field}.count", exc.reason) from exc
            pools[index] = pool.model_copy(update={"drive_count": count})
            added.append(f"{g.count} x {drive.name} join pool {pool.name} ({pool.drive_count} -> {count})")
            continue
        layout = g.raid or first.raid
        try:
            raid_groups(g.count, layout)
        except InputError as exc:
            raise InputError(f"{field}.count", exc.reason) from exc
        name = f"expansion {i + 1}"
        pools.append(DrivePool(name=name, drive=drive, drive_count=g.count, raid=layout, spares=first.spares))
        for w in g.workloads:
            if w not in names:
                raise InputError(f"{field}.workloads", f"names no workload: {w!r}")
            moved[w] = name
        added.append(
            f"{g.count} x {drive.name} in {layout.scheme.value} groups of {layout.group_width} as pool {name!r}"
            + (f", carrying {', '.join(g.workloads)}" if g.workloads else "")
        )
    if len(pools) > 8:
        raise InputError("expansion.groups", "at most 8 pools in one configuration")
    cfg = base.model_copy(update={"pools": pools, "name": f"{base.name} + expansion"})
    if expansion.flash_cache_gb:
        gb = base.cache.flash_cache_gb + expansion.flash_cache_gb
        if array is not None and array.flash_cache and not any(o.offers(gb) for o in array.flash_cache):
            sizes = sorted({s for o in array.flash_cache for s in o.sizes_gb})
            raise InputError(
                "expansion.flash_cache_gb",
                f"{fmt(gb)} GB in all is not a flash cache size {array.model} sells ({', '.join(fmt(s) for s in sizes)} GB)",
            )
        if array is not None and not array.flash_cache:
            raise InputError("expansion.flash_cache_gb", f"{array.model} takes no flash cache")
        cfg = cfg.model_copy(update={"cache": cfg.cache.model_copy(update={"flash_cache_gb": gb})})
        added.append(f"flash cache {fmt(base.cache.flash_cache_gb)} -> {fmt(gb)} GB")
    if expansion.nodes:
        if cfg.cluster is None:
            raise InputError("expansion.nodes", "this configuration is not clustered: it has no nodes to add")
        nodes = cfg.cluster.nodes + expansion.nodes
        try:
            cfg = with_nodes(cfg, nodes)
        except InputError as exc:
            raise InputError("expansion.nodes", exc.reason) from exc
        added.append(f"{expansion.nodes} {cfg.cluster.unit}(s): {nodes} in all" if cfg.cluster else "")
    moved_workloads = [
        w.model_copy(update={"pool": moved[w.name]}) if w.name in moved else w for w in workloads
    ]
    return cfg, moved_workloads, added


def _limits(
    cfg: Configuration, after: EvaluationResult, expansion: Expansion, array: ArrayModel | None
) -> None:
    total = after.bill.drives + after.bill.spares
    limits = [x for x in (cfg.packaging.max_drives, array.max_drives if array else None) if x is not None]
    if cfg.cluster is not None and cfg.cluster.drive_limit is not None:
        limits.append(cfg.cluster.drive_limit)
    if limits and total > min(limits):
        raise InputError(
            _limit_field(expansion),
            f"the expanded system holds {total} drives with spares, beyond the array's maximum of {min(limits)}",
        )
    max_shelves = cfg.packaging.max_shelves
    if max_shelves is not None and after.bill.shelves > max_shelves:
        raise InputError(
            _limit_field(expansion),
            f"the expanded system needs {after.bill.shelves} shelves, beyond the array's maximum of {max_shelves}",
        )


def _delta(name: str, unit: str, before: float | None, after: float | None) -> Explained:
    value = None if before is None or after is None else after - before
    return explained(
        value,
        unit,
        f"{name} added = after - before",
        f"{name} added = {fmt(after)} - {fmt(before)} = {fmt(value)} {unit}"
        if value is not None
        else f"{name}: unknown (a part has no figure)",
        before=before,
        after=after,
    )


@holds_memo
def expand(
    workloads: list[Workload],
    base: Configuration,
    expansion: Expansion,
    *,
    drives: Mapping[str, DriveSpec],
    array: ArrayModel | None = None,
    params: EngineParameters | None = None,
) -> ExpansionResult:
    """The installed ``base`` and ``base`` + ``expansion`` side by side, per window and over growth.

    ``drives`` maps the drive ids an expansion may name to their specs; ``array`` (the catalog
    record ``base`` was built from, if any) states the drives it takes and its limits.
    """
    cfg, moved, added = expanded_configuration(base, expansion, workloads, drives=drives, array=array)
    before = evaluate(workloads, base, params=params, cold_cache=False)
    after = evaluate(moved, cfg, params=params, cold_cache=False)
    _limits(cfg, after, expansion, array)
    windows = []
    for wb, wa in zip(before.windows, after.windows, strict=True):
        ob, oa = window_outcome(wb), window_outcome(wa)
        windows.append(
            WindowGain(
                window=wb.window,
                passed_before=wb.passed,
                passed_after=wa.passed,
                headroom_used_before_pct=ob.headroom_used_pct,
                headroom_used_after_pct=oa.headroom_used_pct,
                binding_before=ob.binding,
                binding_after=oa.binding,
                read_latency_before_ms=wb.read_latency_ms,
                read_latency_after_ms=wa.read_latency_ms,
                drive_busy_before_pct=_busiest_pool(before, wb.window),
                drive_busy_after_pct=_busiest_pool(after, wa.window),
            )
        )
    growth_b = growth_a = None
    if any(w.growth_pct_per_year > 0 for w in workloads):
        growth_b = growth_projection(workloads, base, months=expansion.months, params=params)
        growth_a = growth_projection(moved, cfg, months=expansion.months, params=params)
    breaks_b = growth_b.first_break_month if growth_b else None
    breaks_a = growth_a.first_break_month if growth_a else None
    gains = ", ".join(
        f"{w.window} {fmt(w.headroom_used_before_pct)} -> {fmt(w.headroom_used_after_pct)} % of its binding limit"
        for w in windows
    )
    text = f"Adding {'; '.join(added)}: {gains}."
    if growth_a is not None:
        text += (
            f" With growth it breaks again in month {breaks_a} ({growth_a.first_break})"
            if breaks_a is not None
            else f" With growth it holds for the {growth_a.months} months projected"
        ) + (f" (as installed: month {breaks_b})." if breaks_b is not None else ".")
    return ExpansionResult(
        configuration=cfg,
        before=before,
        after=after,
        added=added,
        drives_added=_delta(
            "drives", "drives", before.bill.drives + before.bill.spares, after.bill.drives + after.bill.spares
        ),
        shelves_added=_delta("shelves", "shelves", before.bill.shelves, after.bill.shelves),
        usable_tb_added=_delta("usable", "TB", before.capacity.usable_tb, after.capacity.usable_tb),
        cost_added_usd=_delta("cost", "USD", before.bill.cost_usd, after.bill.cost_usd),
        windows=windows,
        growth_before=growth_b,
        growth_after=growth_a,
        breaks_before_month=breaks_b,
        breaks_after_month=breaks_a,
        text=text,
    )
