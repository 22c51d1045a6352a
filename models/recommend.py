"""Recommend configurations from the whole catalog: every family sized minimally, ranked, with a Pareto front.

1. Families (:func:`catalog_families`): every array x supported drive x RAID scheme x allowed group
   width x flash-cache option (none, or each size the array sells) that passes the filters (vendors,
   arrays, drive kinds and ids, RAID schemes). Custom-build arrays (``any_drive``, e.g. ``generic``)
   are left out unless asked for or named.
2. Every candidate drive count of every family is a row of :mod:`models.batch`, evaluated with
   numpy; each family's minimal configuration is its fewest drives meeting every window. Rows are
   evaluated in ascending drive count, every family's together, only up to the family's first
   passing row (``evaluate_batch(first_only=True)``), from the first row within the capacity
   headroom and with the drives its drive utilization needs (rows before must fail):
   ``stats.candidates`` counts the rows of the space, ``stats.modelled_candidates`` those evaluated.
3. Windows on the answer: ``max_cost_usd``, ``max_rack_units``, ``max_power_w``. A configuration
   without a list price (or power figure) cannot be shown to meet that window and is left out
   while it is set.
4. Ranking (stable): by list cost when known, then rack units, then the worst window's read
   latency; configurations without a price rank after every priced one; remaining ties by array
   id, drive id, RAID scheme, group width, flash cache (the family order), so equal inputs always
   give the same order. ``one_per`` keeps the best-ranked configuration per family (``family``),
   per array, drive and scheme (``scheme``, the default: widths and cache sizes collapsed) or per
   array.
5. Pareto front (:func:`pareto_front`) over the chosen objectives (default cost, rack units and
   read latency; ``power`` and ``headroom`` may be added), among the same configurations.
6. Every configuration returned is evaluated with :func:`models.evaluate.evaluate`; only those it
   passes are returned, with evaluate()'s figures (the batch calls the same pool functions, so
   they agree to ~1e-13 and the order is the same). Where it does not pass (a figure within
   rounding of a limit), the family is re-sized with the scalar path: :func:`models.size.size`, or,
   for scale-out arrays whose node count grows with the drives (``size()`` keeps the nodes fixed),
   a bisection over the family's counts with ``build_configuration`` + ``evaluate()``; the
   re-sized configuration keeps the family's place in the ranking (said in the notes).
7. Arrays none of whose families meets the workload are listed with their binding constraint in
   words ("controllers at 143% after failover (limit 100%) in day"), taken from the family that
   comes closest at the most drives it takes. Contradictory windows (a maximum cost below every
   feasible configuration) give an empty list and the reasons.

Kept as one module (about 900 lines): the steps above share the family and ranking tables.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from enum import StrEnum

import numpy as np
import numpy.typing as npt
from pydantic import Field, field_validator

from models import ENGINE_VERSION
from models.base import Frozen, InputError, Output, PositiveFloat
from models.batch import (
    BatchEvaluation,
    CandidateSpace,
    Family,
    RowCheck,
    RowDetail,
    candidate_space,
    check_batchable,
    evaluate_batch,
    family_configuration,
    family_counts,
)
from models.cases import HEALTHY_ONLY
from models.catalog import ArrayModel, Catalog
from models.checks import within_array
from models.compare import Headline, headline
from models.configuration import Configuration, HeadroomTargets
from models.drives import DriveKind, DriveSpec
from models.evaluate import EvaluationResult, evaluate
from models.explain import fmt
from models.fewest import fewest_passing
from models.memo import holds_memo
from models.naming import layout_label
from models.parameters import EngineParameters
from models.provenance import (
    ModelError,
    ModelErrorTable,
    ResultCalibration,
    band_factor,
    margin_parts,
    scaled_drive,
    without_margins,
)
from models.raid import RaidScheme, tolerated_failures
from models.size import size
from models.tco import RatioFlip, Tco
from models.workload import Workload

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class ParetoObjective(StrEnum):
    """What the Pareto front trades off (each minimized; headroom maximized)."""

    COST = "cost"
    RACK_UNITS = "rack-units"
    POWER = "power"
    READ_LATENCY = "read-latency"
    HEADROOM = "headroom"


class OnePer(StrEnum):
    """How many configurations per group the answer keeps (the best-ranked of each group)."""

    FAMILY = "family"
    SCHEME = "scheme"
    ARRAY = "array"


DEFAULT_PARETO = (ParetoObjective.COST, ParetoObjective.RACK_UNITS, ParetoObjective.READ_LATENCY)

RANKING_NOTE = (
    "Ranked by list cost, then rack units, then the worst window's read latency; configurations "
    "without a list price rank after every priced one; ties keep the catalog order (array, drive, "
    "RAID scheme, group width, flash cache)."
)


class RecommendConstraints(Frozen):
    """Which families to consider and the windows the answer must meet (all optional)."""

    vendors: list[str] | None = Field(
        default=None, min_length=1, max_length=32, description="array vendors, case-insensitive"
    )
    array_ids: list[str] | None = Field(default=None, min_length=1, max_length=64)
    drive_kinds: list[DriveKind] | None = Field(default=None, min_length=1, max_length=3)
    drive_ids: list[str] | None = Field(default=None, min_length=1, max_length=128)
    raid_schemes: list[RaidScheme] | None = Field(default=None, min_length=1, max_length=13)
    max_cost_usd: PositiveFloat | None = Field(default=None, description="list cost at most [USD]")
    max_rack_units: PositiveFloat | None = Field(default=None, description="rack space at most [U]")
    max_power_w: PositiveFloat | None = Field(default=None, description="power at most [W]")
    headroom: HeadroomTargets | None = Field(
        default=None, description="headroom targets for every configuration (default: HeadroomTargets())"
    )
    read_latency_target_ms: PositiveFloat | None = Field(
        default=None,
        description="read-latency target for every phase that reads (a phase's own tighter target stays) [ms]",
    )
    include_custom_builds: bool = Field(
        default=False, description="also consider custom-build arrays (any drive), e.g. 'generic'"
    )

    @field_validator("vendors", "array_ids", "drive_kinds", "drive_ids", "raid_schemes")
    @classmethod
    def _distinct(cls, values: list | None) -> list | None:
        if values is not None and len({str(v).lower() for v in values}) != len(values):
            raise ValueError("entries must be distinct")
        return values


class RecommendedConfiguration(Output):
    """One minimally sized family, confirmed by ``evaluate()``."""

    rank: int = Field(
        description="1 = best, among the configurations kept (one per group, see one_per), by the batch figures"
    )
    array_id: str
    vendor: str
    model: str
    drive_id: str
    drive_name: str
    drive_kind: DriveKind
    raid_scheme: RaidScheme
    group_width: int
    layout: str = Field(
        default="", description="the layout as a person names it: 'raid-dp 16', 'erasure 4+2', '3 copies'"
    )
    failures_tolerated: int = Field(
        default=0, description="drive failures one RAID group (or set of copies) survives"
    )
    flash_cache_gb: float
    drive_count: int = Field(description="drives in RAID groups (data + parity), excl. spares")
    nodes: int | None = Field(
        default=None, description="nodes (HA pairs) of a clustered family, as many as the drives need"
    )
    spares: int
    shelves: int
    rack_units: float
    power_w: float | None
    cost_usd: float | None = Field(description="list cost [USD]; null when the catalog lacks a price")
    usable_tb: float
    read_latency_ms: float | None = Field(description="worst window's IOPS-weighted read latency [ms]")
    headroom_pct: float = Field(
        description="100 x (1 - the busiest check's value / its limit): how far the nearest limit is [%]"
    )
    binding_constraint: str = Field(description="what fails with one group fewer, in words")
    on_pareto_front: bool
    calibration: ResultCalibration | None = Field(
        default=None, description="per part (drives, controller, cache, ports): status and source keys"
    )
    model_error: ModelError | None = Field(
        default=None, description="how far off predictions of this class of system have been (make validate)"
    )
    scalar_fallback: bool = Field(
        default=False, description="re-sized with the scalar path because evaluate() disagreed at the limit"
    )
    configuration: Configuration
    headline: Headline
    tco: Tco | None = Field(
        default=None, description="money over time and the three-ratio table, when priced"
    )


class InfeasibleArray(Output):
    """An array none of whose families meets the workload, and why."""

    array_id: str
    vendor: str
    model: str
    families: int
    binding_constraint: str = Field(description="the check furthest past its limit, in words")
    closest: str = Field(description="the family that comes closest, at the most drives it takes")
    reasons: list[str] = Field(description="every failing check of that configuration, worst first")


class RecommendStats(Output):
    families: int
    candidates: int = Field(description="rows: every drive count of every family")
    modelled_candidates: int = Field(
        description="rows whose drive model ran (the rest failed capacity or a drive-independent check, "
        "or come after their family's fewest passing drives)"
    )
    feasible_families: int
    batch_seconds: float
    candidates_per_second: float = Field(description="candidates (rows of the space) per batch second")
    total_seconds: float
    confirmed: int = Field(description="configurations evaluated with evaluate()")
    scalar_fallbacks: int


class Recommendation(Output):
    engine_version: str
    catalog_version: str
    configurations: list[RecommendedConfiguration] = Field(description="best first")
    pareto_front: list[RecommendedConfiguration] = Field(description="in rank order")
    pareto_objectives: list[ParetoObjective]
    infeasible: list[InfeasibleArray]
    reasons: list[str] = Field(description="why nothing (or less than asked) meets the windows")
    notes: list[str]
    stats: RecommendStats
    ratio_flip: RatioFlip | None = Field(
        default=None, description="the cheapest configuration at each reduction ratio, and whether it flips"
    )


# ---- families ------------------------------------------------------------------------------------


def _check_known(field: str, given: Sequence[str] | None, known: set[str], what: str) -> None:
    for i, value in enumerate(given or []):
        if value not in known:
            raise InputError(f"{field}.{i}", f"unknown {what} {value!r}")


def catalog_families(
    catalog: Catalog,
    constraints: RecommendConstraints | None = None,
    *,
    wafl_full_stripe_share: float | None = None,
    wafl_scatter: float = 0.0,
) -> list[Family]:
    """Every family of the catalog that passes the filters, in (array, drive, scheme, width, cache) order.

    RAID-DP/RAID-TEC layouts get ``wafl_full_stripe_share`` and ``wafl_scatter`` (a calibrated
    layout age); only the widths the vendor recommends building are candidates
    (:meth:`RaidOption.recommended_widths`); widths the engine rejects for a scheme (odd RAID10
    groups) are skipped. Unknown
    vendors, array or drive ids raise :class:`InputError` naming the list item.
    """
    c = constraints or RecommendConstraints()
    vendors = {a.vendor.lower(): a.vendor for a in catalog.arrays.values()}
    for i, v in enumerate(c.vendors or []):
        if v.lower() not in vendors:
            known = ", ".join(sorted(vendors.values()))
            raise InputError(f"constraints.vendors.{i}", f"unknown vendor {v!r} (catalog vendors: {known})")
    _check_known("constraints.array_ids", c.array_ids, set(catalog.arrays), "array")
    _check_known("constraints.drive_ids", c.drive_ids, set(catalog.drives), "drive")
    wanted_vendors = {v.lower() for v in c.vendors} if c.vendors else None
    named = set(c.array_ids or [])
    kinds = set(c.drive_kinds) if c.drive_kinds else None
    drive_ids = set(c.drive_ids) if c.drive_ids else None
    schemes = set(c.raid_schemes) if c.raid_schemes else None
    wafl = {RaidScheme.RAID_DP, RaidScheme.RAID_TEC}
    out: list[Family] = []
    for array in sorted(catalog.arrays.values(), key=lambda a: a.id):
        if named and array.id not in named:
            continue
        if wanted_vendors is not None and array.vendor.lower() not in wanted_vendors:
            continue
        if array.any_drive and not c.include_custom_builds and array.id not in named:
            continue
        drives = [
            d
            for d in sorted(catalog.drives_for(array), key=lambda d: d.id)
            if (kinds is None or d.kind in kinds) and (drive_ids is None or d.id in drive_ids)
        ]
        flash = [0.0, *sorted({s for f in array.flash_cache for s in f.sizes_gb})]
        layouts = []
        for option in sorted(array.raid, key=lambda r: r.scheme.value):
            if schemes is not None and option.scheme not in schemes:
                continue
            share = wafl_full_stripe_share if option.scheme in wafl else None
            scatter = wafl_scatter if option.scheme in wafl else 0.0
            for width in option.recommended_widths():  # no vendor builds a RAID-DP group of 4 disks
                try:
                    layout = option.layout(width, share)
                except ValueError:
                    continue
                layouts.append(layout.model_copy(update={"scatter": scatter}) if scatter else layout)
        for drive in drives:  # (array, drive, scheme, width, flash) order, as _family_key sorts
            out += [Family(array, drive, layout, gb) for layout in layouts for gb in flash]
    return out


def _family_key(f: Family) -> tuple[str, str, str, int, float]:
    return (f.array.id, f.drive.id, f.layout.scheme.value, f.layout.group_width, f.flash_cache_gb)


MARGINED_ID = "{id}@x{factor:.6g}"
"""The id of a record at a margin factor: the batch tells records apart by id, and one array (or
drive) can be in families of different classes, so at different factors."""


def margined_families(
    families: list[Family], workloads: list[Workload], table: ModelErrorTable | None
) -> list[Family]:
    """Each family with its estimated controller and drive at the pessimistic end of its class's
    error band, as the API sizes a family (:func:`models.provenance.with_margins` on the family's
    smallest configuration: the class and the parts' statuses depend only on the array, the drive
    and whether there is a flash cache). The controller's margin is the family's
    ``controller_factor`` (the batch applies it where it reads the controller, so the array's
    record is not copied and its families share their front ends); a margined drive is shared by
    every family with the same record and factor, under its own id (:data:`MARGINED_ID`), and the
    array's record offers it. :func:`recommend` states the answers under the records' own ids."""
    factors: dict[tuple[str, str, bool], tuple[float | None, float | None]] = {}
    firsts: dict[tuple, int | None] = {}  # the smallest drive count of each (array, layout)
    found: list[tuple[float | None, float | None]] = []
    for fam in families:
        key = (fam.array.id, fam.drive.id, fam.flash_cache_gb > 0)
        got = factors.get(key)
        if got is None:
            lay = fam.layout
            at = (fam.array.id, lay.scheme, lay.group_width, lay.copies)
            if at not in firsts:
                counts = family_counts(fam.array, lay)
                firsts[at] = int(counts[0]) if counts.size else None
            first = firsts[at]
            parts = (
                None if first is None else margin_parts(family_configuration(fam, first), workloads, table)
            )
            if parts is None:
                got = (None, None)
            else:
                f = band_factor(parts[0])
                got = (f if "controller" in parts[2] else None, f if "drives" in parts[2] else None)
            factors[key] = got
        found.append(got)
    drives: dict[tuple[str, float], DriveSpec] = {}
    offered: dict[str, set[str]] = {}  # array -> the margined drives it takes
    for fam, (_, f_drive) in zip(families, found, strict=True):
        if f_drive is not None:
            if (fam.drive.id, f_drive) not in drives:
                drives[(fam.drive.id, f_drive)] = scaled_drive(fam.drive, f_drive).model_copy(
                    update={"id": MARGINED_ID.format(id=fam.drive.id, factor=f_drive)}
                )
            offered.setdefault(fam.array.id, set()).add(drives[(fam.drive.id, f_drive)].id)
    arrays: dict[str, ArrayModel] = {}
    out: list[Family] = []
    for fam, (f_ctrl, f_drive) in zip(families, found, strict=True):
        if f_ctrl is None and f_drive is None:
            out.append(fam)
            continue
        array = fam.array
        if f_drive is not None:  # the array offers the margined drives (its own record otherwise)
            offering = arrays.get(fam.array.id)
            if offering is None:
                offering = arrays[fam.array.id] = fam.array.model_copy(
                    update={"drives": [*fam.array.drives, *sorted(offered[fam.array.id])]}
                )
            array = offering
        drive = fam.drive if f_drive is None else drives[(fam.drive.id, f_drive)]
        out.append(Family(array, drive, fam.layout, fam.flash_cache_gb, controller_factor=f_ctrl))
    return out


def _stated_index(ids: list[str]) -> IntArray:
    """One index per distinct id, in the order of first appearance (as the batch numbers records)."""
    if not ids:
        return np.zeros(0, dtype=np.int64)
    _, at, inverse = np.unique(np.asarray(ids), return_index=True, return_inverse=True)
    rank = np.empty(at.size, dtype=np.int64)
    rank[np.argsort(at, kind="stable")] = np.arange(at.size, dtype=np.int64)
    return rank[inverse.ravel()]


def _as_stated(
    items: list[tuple[RecommendedConfiguration, Family]], headroom: HeadroomTargets
) -> list[RecommendedConfiguration]:
    """``items`` found with margins, each configuration with its records' own controller and drive
    figures back (:func:`models.provenance.without_margins`): what is bought, as its records state it."""
    out = []
    for item, fam in items:
        original = family_configuration(fam, item.configuration.pools[0].drive_count or 1, headroom)
        config = without_margins(item.configuration, original).model_copy(update={"array_id": fam.array.id})
        out.append(
            item.model_copy(
                update={"array_id": fam.array.id, "drive_id": fam.drive.id, "configuration": config}
            )
        )
    return out


def with_read_latency_target(workloads: list[Workload], target_ms: float | None) -> list[Workload]:
    """Every phase that reads gets ``target_ms`` as its read-latency target (a tighter own target stays)."""
    if target_ms is None:
        return workloads
    out = []
    for w in workloads:
        phases = []
        for ph in w.phases:
            if ph.read_pct > 0:
                own = ph.read_latency_target_ms
                ph = ph.model_copy(
                    update={"read_latency_target_ms": target_ms if own is None else min(own, target_ms)}
                )
            phases.append(ph)
        out.append(w.model_copy(update={"phases": phases}))
    return out


# ---- ranking and the Pareto front ----------------------------------------------------------------


def rank_order(cost: FloatArray, rack_units: FloatArray, latency: FloatArray) -> IntArray:
    """Indices best first: priced before unpriced (nan cost), then cost, rack units, latency, index.

    Stable and total: equal keys keep their input order (the catalog's family order).
    """
    n = cost.size
    unpriced = np.isnan(cost)
    lat = np.where(np.isnan(latency), np.inf, latency)
    return np.lexsort((np.arange(n), lat, rack_units, np.where(unpriced, 0.0, cost), unpriced)).astype(
        np.int64
    )


def pareto_front(values: npt.ArrayLike) -> BoolArray:
    """Non-dominated rows of ``values`` (shape points x objectives, every objective minimized).

    A point is dominated when another is no worse in every objective and better in one. Of points
    with identical objectives only the first is kept. Exact: points are visited in lexicographic
    order (a dominating point always comes first), each checked against the front so far; a
    prefilter drops points dominated by the front of the first few hundred, vectorized.
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise InputError("values", "must be a 2-D array: points x objectives")
    n = v.shape[0]
    keep = np.zeros(n, dtype=bool)
    if n == 0:
        return keep
    order = np.lexsort(v.T[::-1])

    def front_of(idx: IntArray) -> list[int]:
        front: list[int] = []
        pts = np.empty((0, v.shape[1]))
        for i in idx:
            if pts.shape[0] and np.any(np.all(pts <= v[i], axis=1)):
                continue
            front.append(int(i))
            pts = np.vstack([pts, v[i]])
        return front

    head = front_of(order[:256])
    pts = v[head]
    dominated = np.zeros(n, dtype=bool)
    for p in pts:  # weakly dominated by a head front point (and not that point itself)
        dominated |= np.all(p <= v, axis=1)
    dominated[head] = False
    survivors = order[~dominated[order]]
    keep[front_of(survivors)] = True
    return keep


def _objective_values(
    objectives: Sequence[ParetoObjective],
    cost: FloatArray,
    ru: FloatArray,
    power: FloatArray,
    latency: FloatArray,
    headroom: FloatArray,
) -> FloatArray:
    cols = {
        ParetoObjective.COST: cost,
        ParetoObjective.RACK_UNITS: ru,
        ParetoObjective.POWER: power,
        ParetoObjective.READ_LATENCY: latency,
        ParetoObjective.HEADROOM: -headroom,
    }
    return np.stack([cols[o] for o in objectives], axis=1)


def _failing_worst_first(checks: list[RowCheck]) -> list[RowCheck]:
    """Failing checks, the resource furthest past its limit first; latency targets after the
    utilization checks (a saturated latency is the consequence of a saturated resource)."""
    return sorted((c for c in checks if not c.passed), key=lambda c: (c.unit == "ms", -c.ratio))


def _headroom_pct(res: EvaluationResult) -> float:
    worst = 0.0
    for check in [*res.checks, *(c for w in res.windows for c in w.checks)]:
        if check.value is None:
            return -math.inf
        if check.limit > 0:
            worst = max(worst, check.value / check.limit)
    return 100.0 * (1.0 - worst)


def _worst_latency(res: EvaluationResult) -> float | None:
    values = [w.read_latency_ms for w in res.windows]
    if any(v is None for v in values):
        return None
    return max((v for v in values if v is not None), default=0.0)


# ---- the recommendation -------------------------------------------------------------------------


def _scalar_minimum(
    family: Family,
    after: int,
    workloads: list[Workload],
    headroom: HeadroomTargets,
    params: EngineParameters,
) -> tuple[Configuration, EvaluationResult] | None:
    """The fewest drives above ``after`` that ``evaluate()`` passes, found without the batch.

    Non-scale-out arrays: :func:`models.size.size` (bisection on whole groups). Scale-out arrays
    grow nodes with the drives, which ``size()`` does not do, so their counts are bisected here
    with :func:`family_configuration` (``build_configuration``) and ``evaluate()``.
    """
    counts = [int(c) for c in family_counts(family.array, family.layout) if c > after]
    if not counts:
        return None
    if family.array.scale_out is None:
        base = family_configuration(family, counts[0], headroom)
        pool = base.pools[0].model_copy(update={"drive_count": None})
        sized = size(
            workloads,
            base.model_copy(update={"pools": [pool]}),
            params=params,
            max_drives=family.array.max_drives,
            relax=HEALTHY_ONLY,  # as the batch judges the families (healthy operation today)
        )
        if not sized.feasible or sized.drive_count not in counts:
            return None
        config = family_configuration(family, sized.drive_count, headroom)
        result = evaluate(workloads, config, params=params)
        return (config, result) if result.passed else None

    def run(i: int) -> tuple[Configuration, EvaluationResult]:
        config = family_configuration(family, counts[i], headroom)
        return config, evaluate(workloads, config, params=params)

    last = len(counts) - 1
    tried = {last: run(last)}
    if not tried[last][1].passed:
        return None

    def passes(i: int) -> bool:
        tried[i] = run(i)
        return tried[i][1].passed

    return tried[fewest_passing(-1, last, passes)]  # models.fewest: the bisection size() runs


def _binding(det: RowDetail, j: int) -> str:
    """The first failing check of row ``j`` in evaluate()'s order (as :func:`models.size.size` reports)."""
    first = next((c for c in det.checks(j) if not c.passed), None)
    return "none" if first is None else first.words


@holds_memo
def recommend(
    workloads: list[Workload],
    catalog: Catalog,
    constraints: RecommendConstraints | None = None,
    *,
    limit: int = 10,
    one_per: OnePer = OnePer.SCHEME,
    pareto: Sequence[ParetoObjective] = DEFAULT_PARETO,
    pareto_limit: int = 30,
    params: EngineParameters | None = None,
    wafl_full_stripe_share: float | None = None,
    wafl_scatter: float = 0.0,
    model_errors: ModelErrorTable | None = None,
) -> Recommendation:
    """Ranked, minimally sized configurations from the whole catalog (see the module docstring).

    With ``model_errors`` every family is sized with its estimated parts at the pessimistic end of
    its class's error band (:func:`margined_families`), and each configuration is returned as its
    records state it; without, every part as its record states it.

    ``limit`` configurations are returned (best first), and the Pareto front over ``pareto``
    (its ``pareto_limit`` best-ranked members when it is larger). Raises :class:`InputError` for
    workloads naming a pool, unknown ids in the filters, or bad options.
    """
    t_start = time.perf_counter()
    if not 1 <= limit <= 1000:
        raise InputError("limit", "must be between 1 and 1000")
    if not 0 <= pareto_limit <= 1000:
        raise InputError("pareto_limit", "must be between 0 and 1000")
    objectives = [ParetoObjective(o) for o in pareto]
    if len(objectives) < 2 or len(set(objectives)) != len(objectives):
        raise InputError("pareto", "give at least two distinct objectives")
    check_batchable(workloads)
    c = constraints or RecommendConstraints()
    p = params or EngineParameters()
    headroom = c.headroom or HeadroomTargets()
    wls = with_read_latency_target(workloads, c.read_latency_target_ms)
    families = catalog_families(
        catalog, c, wafl_full_stripe_share=wafl_full_stripe_share, wafl_scatter=wafl_scatter
    )
    notes = _notes(catalog, c)
    stated_families = families
    if model_errors is not None:
        families = margined_families(families, wls, model_errors)
        margined = sum(f is not s for f, s in zip(families, stated_families, strict=True))
        if margined:
            notes.append(
                f"Conservative by default: {margined} of {len(families)} families have estimated parts, sized at "
                "the pessimistic end of their class's error band (each configuration's calibration.margins); "
                "calibration_margin: as_stated sizes them as their records state them."
            )
    space = candidate_space(families)

    t_batch = time.perf_counter()
    ev = evaluate_batch(wls, space, params=p, headroom=headroom, first_only=True)
    first = ev.first_passing()
    batch_s = time.perf_counter() - t_batch
    feasible = np.flatnonzero(first >= 0)
    det = ev.detail(first[feasible])  # every figure of each family's fewest drives
    latency = np.max(det.read_latency_ms, axis=0) if det.read_latency_ms.shape[0] else np.zeros(feasible.size)
    head = 1.0 - det.load_ratio()

    reasons: list[str] = []
    if space.rows == 0:
        reasons.append("no catalog configuration matches the filters (vendors, arrays, drives, RAID schemes)")
    elif feasible.size == 0:
        reasons.append(
            "no configuration within the filters meets every window at any drive count; "
            "see infeasible for each array's binding constraint"
        )
    within = _within_limits(c, det, space, reasons, notes)

    # ranking, one per group (ranks count the configurations kept)
    cand = np.flatnonzero(within)  # indices into det
    order = cand[rank_order(det.cost_usd[cand], det.rack_units[cand], latency[cand])]
    stated = None if families is stated_families else _StatedRecords(stated_families)
    group = _group_ids(ev, one_per, stated)[space.family_of(det.rows[order])]
    _, first_of_group = np.unique(group, return_index=True)
    best = order[np.sort(first_of_group)]
    rank_of = np.zeros(feasible.size, dtype=np.int64)
    rank_of[best] = np.arange(1, best.size + 1)

    # the Pareto front among them (configurations lacking an objective's figure cannot be placed)
    values = _objective_values(objectives, det.cost_usd, det.rack_units, det.power_w, latency, head)
    placeable = best[np.all(np.isfinite(values[best]), axis=1)] if best.size else best
    front = placeable[pareto_front(values[placeable])] if placeable.size else placeable
    front = front[np.argsort(rank_of[front], kind="stable")]
    if front.size > pareto_limit:
        notes.append(
            f"The Pareto front has {front.size} configurations; the {pareto_limit} best-ranked are returned."
        )
        front = front[:pareto_limit]
    if placeable.size < best.size:
        notes.append(
            f"{best.size - placeable.size} configurations lack a figure for a Pareto objective and are not placed."
        )

    confirm = _Confirmation(ev, det, wls, headroom, p, rank_of, {int(k) for k in front}, notes)
    confirm.prefetch_binding([int(k) for k in best[: limit + 5]] + [int(k) for k in front])
    found: list[tuple[RecommendedConfiguration, int]] = []
    for k in best:
        if len(found) >= limit:
            break
        item = confirm.item(int(k))
        if item is not None:
            found.append((item, int(k)))
    on_front = [(item, int(k)) for k in front if (item := confirm.item(int(k))) is not None]
    configurations = [item for item, _ in found]
    pareto_items = [item for item, _ in on_front]
    if stated is not None:  # found with margins: each as its records state it

        def family(k: int) -> Family:
            return stated_families[int(space.family_of(int(det.rows[k])))]

        configurations = _as_stated([(item, family(k)) for item, k in found], headroom)
        pareto_items = _as_stated([(item, family(k)) for item, k in on_front], headroom)
    if within.any() and best.size < limit:
        reasons.append(
            f"only {best.size} configuration(s) (one per {one_per.value}) meet every window and limit"
        )
    return Recommendation(
        engine_version=ENGINE_VERSION,
        catalog_version=catalog.catalog_version,
        configurations=configurations,
        pareto_front=pareto_items,
        pareto_objectives=objectives,
        infeasible=_infeasible_arrays(ev, first, stated),
        reasons=reasons,
        notes=notes,
        stats=RecommendStats(
            families=len(families),
            candidates=space.rows,
            modelled_candidates=ev.modelled_rows,
            feasible_families=int(feasible.size),
            batch_seconds=batch_s,
            candidates_per_second=space.rows / batch_s if batch_s > 0 else 0.0,
            total_seconds=time.perf_counter() - t_start,
            confirmed=confirm.evaluations,
            scalar_fallbacks=confirm.fallbacks,
        ),
    )


def _notes(catalog: Catalog, c: RecommendConstraints) -> list[str]:
    notes = [RANKING_NOTE]
    if c.read_latency_target_ms is not None:
        notes.append(
            f"Every phase that reads has a read-latency target of at most {fmt(c.read_latency_target_ms)} ms."
        )
    if not c.include_custom_builds and not c.array_ids:
        custom = sorted(a.id for a in catalog.arrays.values() if a.any_drive)
        if custom:
            notes.append(
                f"Custom-build arrays ({', '.join(custom)}) are left out; include_custom_builds adds them."
            )
    return notes


def _within_limits(
    c: RecommendConstraints, det: RowDetail, space: CandidateSpace, reasons: list[str], notes: list[str]
) -> BoolArray:
    """Which feasible configurations meet ``max_cost_usd``, ``max_rack_units`` and ``max_power_w``;
    appends why none does (each limit below the smallest feasible figure, or the limits together)."""
    within = np.ones(det.rows.size, dtype=bool)
    limits = [
        ("max_cost_usd", c.max_cost_usd, det.cost_usd, "list price", lambda x: f"${fmt(x)}"),
        ("max_rack_units", c.max_rack_units, det.rack_units, "rack-unit figure", lambda x: f"{fmt(x)} U"),
        ("max_power_w", c.max_power_w, det.power_w, "power figure", lambda x: f"{fmt(x)} W"),
    ]
    before = len(reasons)
    for name, lim, values, what, show in limits:
        if lim is None or det.rows.size == 0:
            continue
        known = ~np.isnan(values)
        if not np.all(known):
            notes.append(
                f"{int((~known).sum())} configurations without a {what} are left out while {name} is set."
            )
        ok = known & within_array(np.where(known, values, np.inf), lim)
        within &= ok
        if np.any(ok):
            continue
        if np.any(known):
            k = int(np.flatnonzero(known)[np.argmin(values[known])])
            fam = space.families[int(space.family_of(det.rows[k]))]
            reasons.append(
                f"{name} {show(lim)} is below every configuration that meets the workload: the smallest is "
                f"{show(values[k])} ({int(det.drive_count[k])} x {fam.label})"
            )
        else:
            reasons.append(f"{name} is set but no configuration that meets the workload has a {what}")
    if det.rows.size and not np.any(within) and len(reasons) == before:
        names = " and ".join(name for name, lim, *_ in limits if lim is not None)
        reasons.append(f"each limit can be met alone, but no configuration meets {names} together")
    return within


class _Confirmation:
    """Builds the returned configurations: evaluate() each one, re-size where it disagrees, and
    say what fails with one group fewer."""

    def __init__(
        self,
        ev: BatchEvaluation,
        det: RowDetail,
        workloads: list[Workload],
        headroom: HeadroomTargets,
        params: EngineParameters,
        rank_of: IntArray,
        front: set[int],
        notes: list[str],
    ) -> None:
        self.ev, self.det, self.workloads = ev, det, workloads
        self.headroom, self.params = headroom, params
        self.rank_of, self.front, self.notes = rank_of, front, notes
        self.evaluations = 0
        self.fallbacks = 0
        self.made: dict[int, RecommendedConfiguration | None] = {}
        self.below: dict[int, str] = {}

    def _first_row(self, row: int) -> int:
        return int(self.ev.space.starts[int(self.ev.space.family_of(row))])

    def prefetch_binding(self, keys: list[int]) -> None:
        """What fails with one group fewer for ``keys`` (indices into ``det``), in one batch call."""
        keys = [
            k for k in dict.fromkeys(keys) if int(self.det.rows[k]) > self._first_row(int(self.det.rows[k]))
        ]
        below = self.ev.detail(np.asarray([int(self.det.rows[k]) - 1 for k in keys], dtype=np.int64))
        self.below.update({k: _binding(below, j) for j, k in enumerate(keys)})

    def item(self, k: int) -> RecommendedConfiguration | None:
        if k in self.made:
            return self.made[k]
        space = self.ev.space
        row = int(self.det.rows[k])
        fam = space.families[int(space.family_of(row))]
        n = int(space.count_of(row))
        config = family_configuration(fam, n, self.headroom)
        result = evaluate(self.workloads, config, params=self.params)
        self.evaluations += 1
        if result.passed:
            if k not in self.below and row > self._first_row(row):
                self.prefetch_binding([k])
            binding = (
                f"with one group fewer: {self.below[k]}"
                if k in self.below
                else "none: the smallest configuration the array allows"
            )
        else:
            self.fallbacks += 1
            found = _scalar_minimum(fam, n, self.workloads, self.headroom, self.params)
            if found is None:
                self.notes.append(
                    f"{fam.label}: evaluate() does not confirm {n} drives and no larger count passes; left out."
                )
                self.made[k] = None
                return None
            config, result = found
            self.notes.append(
                f"{fam.label}: evaluate() does not confirm the batch's {n} drives; re-sized by the scalar path to "
                f"{config.pools[0].drive_count}."
            )
            binding = "re-sized by the scalar path (see notes)"
        bill = result.bill
        out = RecommendedConfiguration(
            rank=int(self.rank_of[k]),
            array_id=fam.array.id,
            vendor=fam.array.vendor,
            model=fam.array.model,
            drive_id=fam.drive.id,
            drive_name=fam.drive.name,
            drive_kind=fam.drive.kind,
            raid_scheme=fam.layout.scheme,
            group_width=fam.layout.group_width,
            layout=layout_label(fam.layout),
            failures_tolerated=tolerated_failures(fam.layout),
            flash_cache_gb=fam.flash_cache_gb,
            drive_count=bill.drives,
            nodes=None if config.cluster is None else config.cluster.nodes,
            spares=bill.spares,
            shelves=bill.shelves,
            rack_units=bill.rack_units,
            power_w=bill.power_w,
            cost_usd=bill.cost_usd,
            usable_tb=result.capacity.usable_tb,
            read_latency_ms=_worst_latency(result),
            headroom_pct=_headroom_pct(result),
            binding_constraint=binding,
            on_pareto_front=k in self.front,
            scalar_fallback=binding.startswith("re-sized"),
            configuration=config,
            headline=headline(result),
        )
        self.made[k] = out
        return out


class _StatedRecords:
    """The arrays and drives of margined families under their records' own ids (the batch numbers
    a margined record apart, :data:`MARGINED_ID`): per family the index of its array and drive."""

    def __init__(self, families: list[Family]) -> None:
        self.fam_array = _stated_index([f.array.id for f in families])
        self.fam_drive = _stated_index([f.drive.id for f in families])
        self.arrays: dict[int, ArrayModel] = {}
        for f, k in zip(families, self.fam_array.tolist(), strict=True):
            self.arrays.setdefault(k, f.array)
        self.drive_count = int(self.fam_drive.max(initial=-1)) + 1


def _group_ids(ev: BatchEvaluation, one_per: OnePer, stated: _StatedRecords | None = None) -> IntArray:
    """A group number per family: the family itself, its (array, drive, scheme), or its array."""
    m = ev.model.tables
    n = len(ev.space.families)
    if one_per is OnePer.FAMILY:
        return np.arange(n, dtype=np.int64)
    fam_array = m.fam_array if stated is None else stated.fam_array
    if one_per is OnePer.ARRAY:
        return fam_array
    fam_drive, drives = (
        (m.fam_drive, len(m.drives)) if stated is None else (stated.fam_drive, stated.drive_count)
    )
    scheme = np.asarray([list(RaidScheme).index(lay.scheme) for lay, _ in m.layouts], dtype=np.int64)
    return (fam_array * drives + fam_drive) * len(RaidScheme) + scheme[m.fam_layout]


def _infeasible_arrays(
    ev: BatchEvaluation, first: IntArray, stated: _StatedRecords | None = None
) -> list[InfeasibleArray]:
    """Arrays with no feasible family: the family nearest its limits at its most drives, in words."""
    sp = ev.space
    m = ev.model.tables
    arrays = dict(enumerate(m.arrays)) if stated is None else stated.arrays
    nonempty = sp.starts[:-1] < sp.starts[1:]
    arr = m.fam_array if stated is None else stated.fam_array  # one entry per array id
    feasible_array = np.zeros(len(arrays), dtype=bool)
    feasible_array[arr[nonempty & (first >= 0)]] = True
    live = np.flatnonzero(nonempty & ~feasible_array[arr])  # the nonempty families of hopeless arrays
    if not live.size:
        return []
    # hopeless arrays in the order of their first nonempty family, each with its families ascending
    present, at = np.unique(arr[live], return_index=True)
    order = present[np.argsort(at, kind="stable")]
    rank = np.zeros(len(arrays), dtype=np.int64)
    rank[order] = np.arange(order.size)
    by_rank = live[np.argsort(rank[arr[live]], kind="stable")]
    sizes = np.bincount(rank[arr[live]], minlength=order.size)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    hopeless = {arrays[int(k)].id: by_rank[bounds[i] : bounds[i + 1]].tolist() for i, k in enumerate(order)}
    fams = by_rank.tolist()
    last_rows = sp.starts[1:][fams] - 1
    det = ev.detail(last_rows)
    # nearest its limits: busiest check first, then the busiest of capacity and drives
    ratio = det.load_ratio(latency=False)
    back = det.load_ratio(latency=False, front_end=False)
    out = []
    pos = 0
    for array_id, fs in hopeless.items():
        span = slice(pos, pos + len(fs))
        pos += len(fs)
        j = span.start + int(np.lexsort((back[span], ratio[span]))[0])
        fam = sp.families[fams[j]]
        failing = _failing_worst_first(det.checks(j))
        words = [x.words for x in failing]
        array: ArrayModel = fam.array  # vendor and model: a margined record keeps its record's
        out.append(
            InfeasibleArray(
                array_id=array_id,
                vendor=array.vendor,
                model=array.model,
                families=len(fs),
                binding_constraint=words[0] if words else "none",
                closest=f"{int(det.drive_count[j])} x {fam.label}",
                reasons=words,
            )
        )
    return out
