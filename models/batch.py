"""Vectorized evaluation of many candidate configurations at once, with the engine's own formulas.

A *family* is one array x drive x RAID layout x flash-cache size, built the way
:func:`models.catalog.build_configuration` builds it (one pool, the array's default ports, no
tiering); each of its candidate drive counts is a *row* (whole RAID groups, within the array's
drive, node and shelf limits). Rows of every family are evaluated together as numpy arrays.

Nothing here restates the physics. What does not depend on the drive count is computed once per
*state* (array, flash cache, nodes) with the scalar engine functions: cache shares and hit ratios
(:mod:`models.cache_share`; every Che solve of one working set batched through
:func:`models.cache.hit_ratio_curve`, :func:`level_hit_ratios_many`), controller load and
utilization (:func:`models.controller.controller_load`), ports and the front-end latency
(:class:`models.latency.FrontEnd`). The drive work of each *segment* (rows sharing a family and a
state) and window is priced by :func:`models.pool.plan_work` on the access plans of
:mod:`models.raid`, with arrays over segments where the scalar engine passes floats. Per row, the
span, the queue, the utilizations and the wait come from :func:`models.pool.planned_span`,
:func:`models.pool.pool_state` and :func:`models.pool.miss_path`, the functions
:func:`models.pool.pool_load` calls, on arrays of rows.

Scope: single-pool configurations, no tiering, normal operation (``degraded="none"``), load
scale 1, workloads without a pool name (or naming ``"pool"``). That is everything a catalog family
is; anything else must go through :func:`models.size.size` and :func:`models.evaluate.evaluate`.

Agreement with ``evaluate()``: the same functions, summed in another order (relative differences
~1e-13), hit ratios within ~1e-10. Configurations the batch picks are confirmed with
``evaluate()`` by :mod:`models.recommend`.

Kept as one module (about 1,870 lines), over the engine's 1,000-line limit until it is split
(#29: candidate space, row results, segment plans): one class lays out the candidate space
(families, segments, states) and evaluates it column-wise, and its stages share that layout's
index arrays. The bookkeeping formulas it shared with the scalar engine (hot spares, shelves, rack
units, power and cost, the node count, the back-end bus, the pass rule) are imported from the
modules that own them; the read-latency composition and the window's IOPS-weighted latency are
still restated here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from models import cache as cache_model
from models.architecture import (
    full_stripe_reads,
    network_utilization,
    node_stripes,
    remote_copies,
    spans_nodes,
    stream_prefetch_kib,
    written_layout,
)
from models.base import InputError
from models.bill import enclosure_cost_usd, enclosure_power_w, enclosure_rack_units, shelves_needed
from models.buildable import hosts_needed
from models.cache_share import cache_shares_gb
from models.capacity import hot_spares, physical_needed_tb
from models.catalog import ArrayModel, build_configuration
from models.checks import TOLERANCE, describe, within, within_array
from models.cluster import nodes_for_drives
from models.configuration import Configuration, HeadroomTargets, SparePolicy
from models.controller import (
    ControllerLoad,
    HaMode,
    backend_bus_pct,
    controller_load,
    controller_utilization,
    cpu_response_ms,
    cpu_seconds_per_second,
)
from models.drives import (
    DriveKind,
    DriveSpec,
    DriveTimes,
    Num,
    drive_times,
    drive_writes_per_day,
    positioning_units,
    ssd_latency_ms,
)
from models.latency import FrontEnd, sequential_extra_ms
from models.parameters import EngineParameters
from models.pool import (
    PoolState,
    PoolWork,
    RoleWork,
    Work,
    miss_path,
    ncq_parameters,
    plan_work,
    planned_span,
    pool_state,
    pool_work,
    readahead_service_ms,
    stated_queue,
    wear_kib_per_drive,
    where_work,
)
from models.ports import port_utilization
from models.raid import (
    AccessPlan,
    RaidLayout,
    RaidScheme,
    capacity_efficiency,
    in_front_end_units,
    read_plan,
    stream_read_plan,
    stream_run_kib,
    stream_segment_kib,
    stream_write_plan,
    write_plan,
)
from models.reduction import (
    METADATA_KIB,
    IoReduction,
    compressed_read,
    dedupes_inline,
    packs_compressed,
)
from models.units import GIB, TB
from models.workload import Phase, Workload, windows_of

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

POOL = "pool"
"""Name of the one pool of a catalog-built configuration."""

CHUNK_ROWS = 1 << 15
"""Rows evaluated per numpy pass (keeps the temporaries in cache)."""

FIRST_BLOCK_ROWS = 1
"""Rows per family in the first round of :meth:`BatchModel.first_passing` (half as many more each
round: 1, 2, 3, 4, 6, 9, ...; fewer rows past the first passing one than doubling, for a few more
rounds). One: with the capacity and drive-utilization floors most families pass at their first
candidate row (custom builds, bench workloads: 213 k rows evaluated, 362 k with two)."""

PRUNE_SHARE = 0.875
"""With ``prune``, the rows still passing are split off (:meth:`_Rows.subset`, every figure kept
so far gathered anew) only when at most this share of the rows evaluated so far is left. A failed
row evaluated along with the others stays failed (its flag is only ever cleared), and one more
window of a few such rows costs less CPU than the gathers."""

UTILIZATION_MARGIN = 1e-6
"""Relative margin of the drive-utilization lower bound (:meth:`BatchModel.drive_floors`): a row
is skipped only when its utilization must exceed the limit by more than this share, far beyond the
rounding of the few operations that compute it (~1e-15), so the skipped rows' verdicts are exact."""


# ---- families and rows ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Family:
    """One array x drive x RAID layout x flash-cache size [GB]; its rows are the drive counts.

    ``layout`` carries the scheme, width, full-stripe share and scatter (as the API resolves a
    WAFL layout age); :func:`family_configuration` builds a row's configuration.
    """

    array: ArrayModel
    drive: DriveSpec
    layout: RaidLayout
    flash_cache_gb: float = 0.0

    @property
    def label(self) -> str:
        """``"<model>, <drive>, <scheme> <width>[, <flash> GB flash]"``."""
        text = f"{self.array.model}, {self.drive.name}, {self.layout.scheme.value} {self.layout.group_width}"
        if self.flash_cache_gb:
            text += f", {self.flash_cache_gb:g} GB flash cache"
        return text


def spare_counts(drive_counts: IntArray, policy: SparePolicy) -> IntArray:
    """:func:`models.capacity.hot_spares` of one spare policy for many counts."""
    return np.asarray(hot_spares(drive_counts, policy.per_drives, policy.min_spares), dtype=np.int64)


def _nodes(array: ArrayModel, drive_counts: IntArray) -> IntArray:
    """Scale-out nodes for each drive count, as :func:`build_configuration` adds them (0 if not
    scale-out): ``max(base nodes, ceil((drives + spares) / drives per node))`` (:mod:`models.cluster`)."""
    so = array.scale_out
    if so is None:
        return np.zeros_like(drive_counts)
    if so.fixed_drives_per_node:
        return drive_counts // so.drives_per_node
    attached = drive_counts + spare_counts(drive_counts, array.spares)
    return np.asarray(nodes_for_drives(attached, so.drives_per_node, array.base_nodes), dtype=np.int64)


def family_counts(array: ArrayModel, layout: RaidLayout) -> IntArray:
    """Candidate drive counts of a family, ascending: whole groups that ``build_configuration`` accepts.

    Steps of the group width (of ``copies`` drives for replication; of whole nodes too when nodes
    hold a fixed number of drives), from one group (or the minimum nodes) up to the array's
    ``max_drives`` with hot spares, ``scale_out.max_nodes`` and ``packaging.max_shelves``.
    """
    step = layout.copies if layout.scheme is RaidScheme.REPLICA else layout.group_width
    first = step
    so = array.scale_out
    if so is not None and so.fixed_drives_per_node:
        step = math.lcm(step, so.drives_per_node)
        first = max(step, -(-so.min_nodes * so.drives_per_node // step) * step)
    counts = np.arange(first, array.max_drives + 1, step, dtype=np.int64)
    spares = spare_counts(counts, array.spares)  # what evaluate() bills and build_configuration checks
    ok = counts + spares <= array.max_drives
    pk = array.packaging
    base = array.base_nodes
    max_shelves: IntArray | int | None
    if so is not None:  # a cluster's node enclosures and shelf limit are per node (models.cluster)
        nodes = _nodes(array, counts)
        ok &= nodes <= so.max_nodes
        need = hosts_needed(layout)
        if need is not None:
            ok &= (
                nodes >= need[0]
            )  # one piece per host: fewer nodes cannot hold the layout (models.buildable)
        in_nodes = nodes * (pk.drives_in_controller_enclosure // base)
        max_shelves = None if pk.max_shelves is None else nodes * (pk.max_shelves // base)
    else:
        in_nodes = np.full_like(counts, pk.drives_in_controller_enclosure)
        max_shelves = pk.max_shelves
    if max_shelves is not None:
        ok &= shelves_needed(counts + spares, in_nodes, pk.drives_per_shelf) <= max_shelves
    return counts[ok]


def family_configuration(
    family: Family,
    drive_count: int,
    headroom: HeadroomTargets | None = None,
    name: str | None = None,
) -> Configuration:
    """The configuration of one row: :func:`build_configuration` with the family's layout and headroom."""
    lay = family.layout
    config = build_configuration(
        family.array,
        family.drive,
        lay.scheme,
        group_width=lay.group_width,
        drive_count=drive_count,
        flash_cache_gb=family.flash_cache_gb,
        layout_full_stripe_share=lay.full_stripe_share,
        name=name,
    )
    pool = config.pools[0]
    update: dict = {"pools": [pool.model_copy(update={"raid": lay})]}
    if name is None and family.flash_cache_gb:
        update["name"] = f"{config.name}, {family.flash_cache_gb:g} GB flash cache"[:120]
    if headroom is not None:
        update["headroom"] = headroom
    return config.model_copy(update=update)


@dataclass(frozen=True)
class CandidateSpace:
    """Every row of every family: ``family[r]`` and ``drive_count[r]``; family f owns rows
    ``starts[f]:starts[f + 1]``, its drive counts ``counts[f]`` in ascending order (families of one
    array and layout share one array of counts).

    ``family`` and ``drive_count`` (one entry per row: ~20 million with custom builds) are built
    on first use; :meth:`family_of` and :meth:`count_of` answer for a few rows without them.
    """

    families: tuple[Family, ...]
    counts: tuple[IntArray, ...]
    starts: IntArray

    @property
    def rows(self) -> int:
        return int(self.starts[-1])

    @cached_property
    def family(self) -> IntArray:
        return np.repeat(np.arange(len(self.counts), dtype=np.int64), np.diff(self.starts))

    @cached_property
    def drive_count(self) -> IntArray:
        return np.concatenate(self.counts) if self.counts else np.zeros(0, dtype=np.int64)

    @cached_property
    def _distinct_counts(self) -> tuple[IntArray, IntArray]:
        """The distinct count arrays end to end, and per family where its own begins there
        minus its first row (``count_of(r) = table[base[family] + r]``)."""
        where: dict[int, int] = {}
        parts: list[IntArray] = []
        base = np.empty(len(self.counts), dtype=np.int64)
        at = 0
        for f, c in enumerate(self.counts):
            k = where.get(id(c))
            if k is None:
                k = where[id(c)] = at
                parts.append(c)
                at += c.size
            base[f] = k - self.starts[f]
        return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)), base

    def family_of(self, rows: IntArray | int) -> IntArray:
        """The family of each of ``rows`` (``family[rows]``)."""
        if "family" in self.__dict__:
            return self.family[rows]
        return np.searchsorted(self.starts, rows, side="right").astype(np.int64) - 1

    def count_of(self, rows: IntArray | int, family: IntArray | None = None) -> IntArray:
        """The drive count of each of ``rows`` (``drive_count[rows]``); ``family`` their families if known."""
        if "drive_count" in self.__dict__:
            return self.drive_count[rows]
        table, base = self._distinct_counts
        fam = self.family_of(rows) if family is None else family
        return table[base[fam] + np.asarray(rows, dtype=np.int64)]


def candidate_space(families: Sequence[Family]) -> CandidateSpace:
    """Lay out the rows of ``families`` (counts from :func:`family_counts`)."""
    memo: dict[tuple, IntArray] = {}
    by_object: dict[tuple[int, int], IntArray] = {}  # the same, by the (array, layout) objects
    parts: list[IntArray] = []
    for fam in families:
        counts = by_object.get((id(fam.array), id(fam.layout)))
        if counts is None:
            lay = fam.layout
            key = (fam.array.id, lay.scheme, lay.group_width, lay.copies)
            counts = memo.get(key)
            if counts is None:
                counts = memo[key] = family_counts(fam.array, lay)
            by_object[(id(fam.array), id(fam.layout))] = counts
        parts.append(counts)
    sizes = np.fromiter((p.size for p in parts), dtype=np.int64, count=len(parts))
    starts = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    return CandidateSpace(families=tuple(families), counts=tuple(parts), starts=starts)


# ---- results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowCheck:
    """One check of one row, named as :func:`evaluate` names it (``window`` None for capacity)."""

    name: str
    window: str | None
    value: float  # inf when saturated
    limit: float
    unit: str

    @property
    def passed(self) -> bool:
        return within(self.value, self.limit)

    @property
    def ratio(self) -> float:
        return self.value / self.limit if self.limit > 0 else (0.0 if self.value <= 0 else math.inf)

    @property
    def words(self) -> str:
        """The check in one line, in its own unit (:func:`models.checks.describe`)."""
        return describe(self.name, self.value, self.limit, self.window)


@dataclass(frozen=True)
class RowDetail:
    """Every figure of some rows: arrays over those rows, ``[window, row]`` for per-window ones."""

    rows: IntArray
    windows: tuple[str, ...]
    drive_count: IntArray
    spares: IntArray
    shelves: IntArray
    rack_units: FloatArray
    power_w: FloatArray  # nan where the catalog has no figure
    cost_usd: FloatArray  # nan where the catalog has no price
    usable_tb: FloatArray
    fill_pct: FloatArray
    capacity_limit_pct: float
    drive_pct: FloatArray
    parity_pct: FloatArray  # dedicated parity drives; 0 where the layout has none
    drive_limit_pct: float
    controller_pct: FloatArray
    controller_limit_pct: FloatArray  # per row (HA pairs and single controllers differ)
    failover_pct: FloatArray  # nan where there is no failover check
    failover_limit_pct: float
    port_pct: FloatArray
    port_limit_pct: float
    read_latency_ms: FloatArray  # IOPS-weighted read latency of the window; inf when saturated
    targets: list[tuple[int, str, float]]  # (window index, "workload/phase", target [ms]) of targeted phases
    phase_latency_ms: FloatArray  # [target, row] read latency of each targeted phase; inf when saturated
    passed: BoolArray
    dedicated_parity: BoolArray  # rows whose layout has parity drives (RAID-DP/TEC)
    dwpd: FloatArray  # [window, row] drive writes per day the window needs (flash endurance)
    rated_dwpd: FloatArray  # per row: the drive's rated DWPD; nan where it has none (no check)
    network_pct: FloatArray  # [window, row] cluster-network links busy; nan where not scale-out

    def load_ratio(self, latency: bool = True, front_end: bool = True) -> FloatArray:
        """The busiest check of each row as a share of its limit (1 = at the limit; inf if saturated);
        without the read-latency targets when ``latency`` is False, without controllers and ports
        (capacity and drives only) when ``front_end`` is False."""

        def ratio(value: FloatArray, limit: FloatArray | float) -> FloatArray:
            lim = np.broadcast_to(np.asarray(limit, dtype=np.float64), value.shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.where(lim > 0, value / np.where(lim > 0, lim, 1.0), np.where(value > 0, np.inf, 0.0))
            return np.asarray(np.where(np.isnan(value), 0.0, r), dtype=np.float64)

        worst = ratio(self.fill_pct, self.capacity_limit_pct)
        for wi in range(len(self.windows)):
            worst = np.maximum(worst, ratio(self.drive_pct[wi], self.drive_limit_pct))
            worst = np.maximum(worst, ratio(self.parity_pct[wi], self.drive_limit_pct))
            worst = np.maximum(
                worst, np.where(np.isnan(self.rated_dwpd), 0.0, ratio(self.dwpd[wi], self.rated_dwpd))
            )
            if not front_end:
                continue
            worst = np.maximum(worst, ratio(self.controller_pct[wi], self.controller_limit_pct))
            worst = np.maximum(worst, ratio(self.failover_pct[wi], self.failover_limit_pct))
            worst = np.maximum(worst, ratio(self.port_pct[wi], self.port_limit_pct))
            worst = np.maximum(worst, ratio(self.network_pct[wi], self.port_limit_pct))
        if latency:
            for t, (_, _, target) in enumerate(self.targets):
                worst = np.maximum(worst, ratio(self.phase_latency_ms[t], target))
        return worst

    def checks(self, j: int) -> list[RowCheck]:
        """The checks of row ``j`` (an index into :attr:`rows`) in evaluate()'s order."""
        out = [RowCheck("capacity", None, float(min(self.fill_pct[j], 1e9)), self.capacity_limit_pct, "%")]
        for wi, window in enumerate(self.windows):
            out.append(
                RowCheck(f"drives:{POOL}", window, float(self.drive_pct[wi, j]), self.drive_limit_pct, "%")
            )
            if self.dedicated_parity[j]:
                out.append(
                    RowCheck(
                        f"parity drives:{POOL}",
                        window,
                        float(self.parity_pct[wi, j]),
                        self.drive_limit_pct,
                        "%",
                    )
                )
            if not math.isnan(self.rated_dwpd[j]):
                out.append(
                    RowCheck(
                        f"endurance:{POOL}",
                        window,
                        float(self.dwpd[wi, j]),
                        float(self.rated_dwpd[j]),
                        "DWPD",
                    )
                )
            out.append(
                RowCheck(
                    "controllers",
                    window,
                    float(self.controller_pct[wi, j]),
                    float(self.controller_limit_pct[j]),
                    "%",
                )
            )
            if not math.isnan(self.failover_pct[wi, j]):
                out.append(
                    RowCheck(
                        "controllers after failover",
                        window,
                        float(self.failover_pct[wi, j]),
                        self.failover_limit_pct,
                        "%",
                    )
                )
            out.append(RowCheck("ports", window, float(self.port_pct[wi, j]), self.port_limit_pct, "%"))
            if not math.isnan(self.network_pct[wi, j]):
                out.append(
                    RowCheck(
                        "cluster network", window, float(self.network_pct[wi, j]), self.port_limit_pct, "%"
                    )
                )
            for t, (twi, name, target) in enumerate(self.targets):
                if twi == wi:
                    out.append(
                        RowCheck(
                            f"read latency:{name}", window, float(self.phase_latency_ms[t, j]), target, "ms"
                        )
                    )
        return out


@dataclass(frozen=True)
class BatchEvaluation:
    """Verdict of every row; :meth:`detail` gives every figure of chosen rows.

    With ``first_only`` (:func:`evaluate_batch`), ``passed`` holds only each family's first passing
    row: the rows after it were not evaluated.
    """

    space: CandidateSpace
    passed: BoolArray
    modelled_rows: int  # rows whose drive model ran (the others failed capacity or a front-end check)
    model: BatchModel
    first_only: bool = False

    @property
    def capacity_passed(self) -> BoolArray:
        """Whether each row holds the workloads within the capacity headroom."""
        sp = self.space
        return self.model._capacity_ok(np.arange(sp.rows, dtype=np.int64), sp.family)

    def detail(self, rows: npt.ArrayLike) -> RowDetail:
        return self.model.detail(np.asarray(rows, dtype=np.int64))

    def first_passing(self) -> IntArray:
        """Per family, the first (fewest drives) row that passes; -1 where none does."""
        sp = self.space
        n = sp.rows
        if n == 0:
            return np.full(len(sp.families), -1, dtype=np.int64)
        # the passing rows in order; each family's first is the first at or after its start
        idx = np.flatnonzero(self.passed)
        at = np.searchsorted(idx, sp.starts[:-1])
        first = idx[np.minimum(at, max(idx.size - 1, 0))] if idx.size else np.full(at.size, n)
        return np.where((at < idx.size) & (first < sp.starts[1:]), first, -1).astype(np.int64)


# ---- the model -----------------------------------------------------------------------------------


@dataclass
class _Member:
    """One phase of a window: the rates of :func:`models.pool.pool_work`'s per-phase arithmetic."""

    workload: Workload
    phase: Phase
    iops: float
    rf: float
    rnd: float
    reads: float
    writes_be: float
    ws_gb: float
    mean_kib: float
    target_ms: float | None


@dataclass
class _State:
    """Front end of one (array, flash cache, nodes): everything that does not depend on the drives
    (the controllers' CPU does, through the back-end I/Os of each family's layout: per segment)."""

    config: Configuration
    hits: list[list[tuple[float, float]]]  # [window][member] (h_dram, h_flash)
    loads: list[ControllerLoad]  # [window] front-end controller load (no back-end I/Os)
    controller_limit: float
    port_pct: list[float]
    port_ms: list[list[float]]  # [window][member] port response + host time; inf when ports saturate
    ok: list[bool]  # per window: ports within their limit


def _stack(rows: Sequence[tuple[float, ...]], width: int) -> FloatArray:
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), width)


def _columns(table: FloatArray, ix: IntArray, kind: type) -> Any:
    """The named tuple ``kind`` whose fields are the columns of ``table`` taken at rows ``ix``."""
    return kind(*(table[ix, k] for k in range(table.shape[1])))


def _gather(x: Any, ix: IntArray) -> Any:
    """``x`` (an array over some index) taken at ``ix``; one number (the same for every entry)
    stays that number. ``np.take``: the same values as ``x[ix]``, without fancy indexing's
    overhead (about a third less CPU for a chunk of rows; the batch path gathers dozens per chunk)."""
    return x if np.ndim(x) == 0 else np.take(x, ix)


def _take(work: Work, ix: IntArray, data_ops: bool = True) -> Work:
    """A segment-level :class:`Work` gathered onto rows: the role work the pool state, the wait
    and the wear read (a parity role's operations never are, the data role's only for the wait:
    ``data_ops``; left out, they are nan). A figure that is one number for every segment (no work
    of that kind: a workload without I/Os) stays that number."""

    def role(r: RoleWork, ops: bool) -> RoleWork:
        return RoleWork(
            _gather(r.read_ms, ix),
            _gather(r.write_ms, ix),
            _gather(r.read_pos, ix),
            _gather(r.write_pos, ix),
            _gather(r.ops, ix) if ops else math.nan,
            _gather(r.wear_kib, ix),
        )

    return Work(role(work.data, data_ops), role(work.parity, False))


@dataclass
class _Window:
    """Per segment, one window's drive work and what latency needs (arrays over segments)."""

    pool: PoolWork
    work: Work  # pool.work (reads plus writes), summed once: every chunk of rows reads it
    outstanding: FloatArray  # pool.outstanding, read_miss_rate, miss_fixed_ms per segment
    read_miss_rate: FloatArray
    miss_fixed_ms: FloatArray


def _gather_work(work: Work, ix: IntArray) -> Work:
    """Every figure of ``work`` (arrays over some index) taken at ``ix`` (:func:`_gather`)."""

    def role(r: RoleWork) -> RoleWork:
        return RoleWork(*(_gather(x, ix) for x in r))

    return Work(role(work.data), role(work.parity), _gather(work.backend_ios, ix), _gather(work.kib, ix))


class _Rows:
    """A set of rows (and their segments) with their window-independent figures, each worked out
    on first use and kept: drive counts, data and parity drives, span, and the per-segment drive
    times and constants gathered onto the rows.

    The verdict runs a chunk's rows through every window; without this memo each window
    recomputed the same counts and span and re-gathered the same segment figures, a large share
    of the batch path's CPU time. A figure is elementwise, so the figures of a subset (the rows
    still passing, :meth:`subset`) are the subset of the figures.
    """

    __slots__ = ("rows", "seg", "_memo")

    def __init__(self, rows: IntArray, seg: IntArray, memo: dict[str, Any] | None = None) -> None:
        self.rows = rows
        self.seg = seg
        self._memo: dict[str, Any] = {} if memo is None else memo

    def get(self, name: str, make: Callable[[], Any]) -> Any:
        """The figure ``name``, from ``make()`` the first time it is asked for."""
        value = self._memo.get(name)
        if value is None:
            value = self._memo[name] = make()
        return value

    def gathered(self, name: str, table: Any) -> Any:
        """``table`` (an array over segments, or one number) at these rows' segments, kept under ``name``."""
        return self.get(name, lambda: _gather(table, self.seg))

    def subset(self, ix: IntArray) -> _Rows:
        """The rows at positions ``ix``, with the figures worked out so far (arrays, numbers or
        tuples of them) taken at ``ix``."""

        def take(value: Any) -> Any:
            return tuple(_gather(x, ix) for x in value) if isinstance(value, tuple) else _gather(value, ix)

        return _Rows(self.rows[ix], self.seg[ix], {k: take(v) for k, v in self._memo.items()})


def _distinct(keys: IntArray, bound: int) -> tuple[IntArray, IntArray]:
    """``np.unique(keys, return_inverse=True)`` for keys in ``[0, bound)``, by a table of the
    keys present rather than a sort (the same ascending keys and inverse); by ``np.unique`` when
    the table would be much larger than the keys."""
    if bound > 8 * keys.size + 4096:
        distinct, inverse = np.unique(keys, return_inverse=True)
        return distinct.astype(np.int64), inverse.ravel().astype(np.int64)
    present = np.zeros(bound, dtype=bool)
    present[keys] = True
    rank = np.cumsum(present, dtype=np.int64) - 1
    return np.flatnonzero(present).astype(np.int64), rank[keys]


_NO_WORK = Work()
"""No drive work (every figure the number 0): the side a :class:`_SegmentPlans` does not price."""


class _SegmentPlans:
    """:class:`models.pool.PlanSource` of many segments at once: each layout's access plans (rows
    of a table, one per layout) priced on each distinct (layout, drive) pair of the segments, then
    gathered onto the segments (the same elementwise prices, once per pair rather than per segment:
    a family's segments, one per node count, share theirs).

    ``reads`` / ``writes`` False: that side's plans are :data:`_NO_WORK` (never priced), for a
    :func:`models.pool.pool_work` whose other side alone is wanted (:meth:`BatchModel._work`).
    ``any_packs`` / ``any_dedupes``: whether inline reduction applies anywhere (default: in these
    segments), so that plans of a subset of the segments price reduction as all of them do."""

    def __init__(
        self,
        model: BatchModel,
        lay: IntArray,
        drv: IntArray,
        arr: IntArray,
        *,
        reads: bool = True,
        writes: bool = True,
        any_packs: bool | None = None,
        any_dedupes: bool | None = None,
    ) -> None:
        self.model = model
        self.reads, self.writes = reads, writes
        nd = max(len(model.drives), 1)
        pairs, pair_of = _distinct(lay * nd + drv, max(len(model.layouts), 1) * nd)
        # priced per pair only where segments share pairs enough to pay for the gathers
        self.pair_of: IntArray | None = pair_of if 2 * pairs.size <= lay.size else None
        if self.pair_of is None:
            pairs = lay * nd + drv
        self.lay = pairs // nd
        self.times = _columns(model.d_times, pairs % nd, DriveTimes)
        self.memo: dict[tuple[float, bool], Work] = {}
        self.stream_memo: dict[tuple[bool, bool, float], Work] = {}
        # per segment: does its array compress into packed stripes / dedupe inline (models.reduction)
        arch = [a.architecture for a in model.arrays]
        self.packs = np.asarray([packs_compressed(a) for a in arch], dtype=bool)[arr]
        self.dedupes = np.asarray([dedupes_inline(a) for a in arch], dtype=bool)[arr]
        self.any_packs = bool(self.packs.any()) if any_packs is None else any_packs
        self.any_dedupes = bool(self.dedupes.any()) if any_dedupes is None else any_dedupes
        self.compressed_memo: dict[tuple[float, float, bool], Work] = {}
        self.metadata_memo: dict[float, Work] = {}

    def _priced(self, plan: AccessPlan, *, interleaved: bool = True) -> Work:
        """``plan`` (arrays over the pairs) priced on each pair's drive, gathered onto the segments."""
        work = plan_work(plan, self.times, interleaved=interleaved)
        return work if self.pair_of is None else _gather_work(work, self.pair_of)

    def _random(self, size_kib: float, read: bool) -> Work:
        got = self.memo.get((size_kib, read))
        if got is None:
            table = self.model._random_plans(size_kib)[0 if read else 1]
            got = self.memo[(size_kib, read)] = self._priced(_columns(table, self.lay, AccessPlan))
        return got

    def random(self, size_kib: float) -> tuple[Work, Work]:
        return (
            self._random(size_kib, True) if self.reads else _NO_WORK,
            self._random(size_kib, False) if self.writes else _NO_WORK,
        )

    def segment_kib(self, size_kib: float, readahead_kib: float | None = None) -> Num:
        mult = self.model.p.prefetch_multiplier
        seg = stream_segment_kib(np.take(self.model.l_prefetch, self.lay), size_kib, readahead_kib, mult)
        return seg if self.pair_of is None else np.take(seg, self.pair_of)

    def _stream(self, interleaved: bool, read: bool, size_kib: float) -> Work:
        got = self.stream_memo.get((interleaved, read, size_kib))
        if got is None:
            table = self.model._stream_plans(size_kib)[0 if read else 1]
            got = self.stream_memo[(interleaved, read, size_kib)] = self._priced(
                _columns(table, self.lay, AccessPlan), interleaved=interleaved
            )
        return got

    def streams(
        self, interleaved: bool, size_kib: float = 0.0, readahead_kib: float | None = None
    ) -> tuple[Work, Work]:
        # the least a stream request covers besides the prefetch (stream_segment_kib)
        size = max(size_kib * self.model.p.prefetch_multiplier, readahead_kib or 0.0)
        return (
            self._stream(interleaved, True, size) if self.reads else _NO_WORK,
            self._stream(interleaved, False, size) if self.writes else _NO_WORK,
        )

    def reduction(self, workload: Workload) -> IoReduction | None:
        c, d = workload.compression_ratio, workload.dedupe_ratio
        c_on = c > 1.0 and self.any_packs
        d_on = d > 1.0 and self.any_dedupes
        if not (c_on or d_on):
            return None
        return IoReduction(
            np.where(self.packs, c, 1.0) if c_on else 1.0, np.where(self.dedupes, d, 1.0) if d_on else 1.0
        )

    def _compressed(self, size_kib: float, ratio: float, read: bool) -> Work:
        got = self.compressed_memo.get((size_kib, ratio, read))
        if got is None:
            if read:
                rtab, _ = self.model._random_plans(size_kib)
                packed = self._priced(compressed_read(_columns(rtab, self.lay, AccessPlan), ratio))
            else:
                _, wtab = self.model._random_plans(size_kib / ratio)
                packed = self._priced(in_front_end_units(_columns(wtab, self.lay, AccessPlan), size_kib))
            got = self.compressed_memo[(size_kib, ratio, read)] = where_work(
                self.packs, packed, self._random(size_kib, read)
            )
        return got

    def compressed(self, size_kib: float, ratio: float) -> tuple[Work, Work]:
        return (
            self._compressed(size_kib, ratio, True) if self.reads else _NO_WORK,
            self._compressed(size_kib, ratio, False) if self.writes else _NO_WORK,
        )

    def metadata(self, size_kib: float) -> Work:
        if not self.writes:
            return _NO_WORK
        got = self.metadata_memo.get(size_kib)
        if got is None:
            _, wtab = self.model._random_plans(METADATA_KIB)
            got = self.metadata_memo[size_kib] = self._priced(
                in_front_end_units(_columns(wtab, self.lay, AccessPlan), size_kib)
            )
        return got


class BatchModel:
    """Prepared tables of one workload set over one candidate space (see the module docstring):
    per family its drive, layout and array; per row its capacity, state and segment; per state
    its front end; per segment and window the drive work (:meth:`_work`)."""

    def __init__(
        self,
        workloads: list[Workload],
        space: CandidateSpace,
        params: EngineParameters,
        headroom: HeadroomTargets,
    ) -> None:
        self.workloads = workloads
        self.space = space
        self.p = params
        self.headroom = headroom
        self.windows = tuple(windows_of(workloads))
        self.members = [
            [self._member(w, ph) for w in workloads for ph in w.phases if ph.window == window]
            for window in self.windows
        ]
        self.needed_tb = sum(physical_needed_tb(w) for w in workloads)
        self.window_mb_s = [sum(m.phase.effective_mb_s for m in members) for members in self.members]
        self.fill = headroom.capacity_max_fill_pct / 100.0
        self._tables()
        self._rows()
        self._states()
        self._work()

    # -- preparation

    @staticmethod
    def _member(w: Workload, ph: Phase) -> _Member:
        iops = ph.effective_iops
        rf = ph.read_pct / 100.0
        writes = iops * (1.0 - rf)
        return _Member(
            workload=w,
            phase=ph,
            iops=iops,
            rf=rf,
            rnd=ph.random_pct / 100.0,
            reads=iops * rf,
            writes_be=writes * (1.0 - ph.write_overwrite_pct / 100.0) * w.replication.io_amplification,
            ws_gb=w.working_set_for(ph),
            mean_kib=ph.mean_size_kib,
            target_ms=ph.read_latency_target_ms if ph.read_pct > 0 else None,
        )

    def _tables(self) -> None:
        """Per-family indices into the drive, layout and array tables; drive prices and layout geometry."""
        fams = self.space.families
        drive_ix: dict[str, int] = {}
        layout_ix: dict[tuple, int] = {}
        by_object: dict[tuple[int, float], int] = {}
        array_ix: dict[str, int] = {}
        self.drives: list[DriveSpec] = []
        self.layouts: list[tuple[RaidLayout, float]] = []  # (layout, aggregate fill)
        prefetches: list[float] = []  # each layout's array's stream prefetch [KiB]
        self.arrays: list[ArrayModel] = []
        nf = len(fams)
        fd = np.empty(nf, dtype=np.int64)
        fl = np.empty(nf, dtype=np.int64)
        fa = np.empty(nf, dtype=np.int64)
        # the families' own drive, array and layout objects (alive as long as the space) are
        # looked up by identity first: ~180 k families share a few hundred of each
        drive_of: dict[int, int] = {}
        pair_of: dict[tuple[int, int], tuple[int, int]] = {}  # (array, layout) -> (array, layout index)
        for f, fam in enumerate(fams):
            i = drive_of.get(id(fam.drive))
            if i is None:
                i = drive_ix.get(fam.drive.id)
                if i is None:
                    i = drive_ix[fam.drive.id] = len(self.drives)
                    self.drives.append(fam.drive)
                drive_of[id(fam.drive)] = i
            fd[f] = i
            got = pair_of.get((id(fam.array), id(fam.layout)))
            if got is None:
                k = array_ix.get(fam.array.id)
                if k is None:
                    k = array_ix[fam.array.id] = len(self.arrays)
                    self.arrays.append(fam.array)
                fill = self.fill * (1.0 - fam.array.capacity.filesystem_reserve_pct / 100.0)
                j = by_object.get((id(fam.layout), fill))
                if j is None:
                    lay = written_layout(fam.layout, fam.array.architecture)
                    prefetch = stream_prefetch_kib(fam.array.architecture, self.p.readahead_kib)
                    key = (tuple(getattr(lay, name) for name in RaidLayout.model_fields), fill, prefetch)
                    j = layout_ix.get(key)
                    if j is None:
                        j = layout_ix[key] = len(self.layouts)
                        self.layouts.append((lay, fill))
                        prefetches.append(prefetch)
                    by_object[(id(lay), fill)] = j
                got = pair_of[(id(fam.array), id(fam.layout))] = (k, j)
            fa[f], fl[f] = got
        self.fam_drive, self.fam_layout, self.fam_array = fd, fl, fa
        self.l_prefetch = np.asarray(prefetches, dtype=np.float64)

        d = self.drives
        self.d_times = _stack([tuple(drive_times(x, self.fill)) for x in d], len(DriveTimes._fields))
        self.d_hdd = np.asarray([x.kind is DriveKind.HDD for x in d], dtype=bool)
        self.d_units = np.asarray([positioning_units(x) for x in d], dtype=np.float64)
        ncq = [ncq_parameters(x, self.p) for x in d]
        self.d_g = np.asarray([g for g, _, _ in ncq], dtype=np.float64)
        self.d_h = np.asarray([h for _, h, _ in ncq], dtype=np.float64)
        self.d_limit = np.asarray([lim for _, _, lim in ncq], dtype=np.float64)
        self.d_rs_tb = np.asarray([x.usable_gib * GIB / TB for x in d], dtype=np.float64)
        # endurance: DWPD per wear KiB/s on one drive (drives.drive_writes_per_day) and the rating (nan: none)
        self.d_dwpd_per_kib = np.asarray([drive_writes_per_day(1.0, x) for x in d], dtype=np.float64)
        self.d_rated_dwpd = np.asarray(
            [math.nan if x.endurance_dwpd is None else x.endurance_dwpd for x in d], dtype=np.float64
        )

        lays = [lay for lay, _ in self.layouts]
        self.l_eff = np.asarray([capacity_efficiency(x) for x in lays], dtype=np.float64)
        self.l_width = np.asarray([x.group_width for x in lays], dtype=np.float64)
        self.l_parity = np.asarray(
            [x.parity_drives if x.dedicated_parity else 0 for x in lays], dtype=np.float64
        )
        self.l_scatter = np.asarray([x.scatter for x in lays], dtype=np.float64)
        self._stream_memo: dict[float, tuple[FloatArray, FloatArray]] = {}
        self.l_ra_run = np.asarray(
            [stream_run_kib(x, ra) for x, ra in zip(lays, self.l_prefetch, strict=True)], dtype=np.float64
        )
        self._plan_memo: dict[float, tuple[FloatArray, FloatArray]] = {}
        # the bill's per-array spare policy and per-drive power and price (None -> nan)
        self.a_spare_per = np.asarray(
            [math.nan if a.spares.per_drives is None else a.spares.per_drives for a in self.arrays],
            dtype=np.float64,
        )
        self.a_spare_min = np.asarray([a.spares.min_spares for a in self.arrays], dtype=np.int64)
        self.d_power_w = np.asarray([x.power_w for x in d], dtype=np.float64)
        self.d_price_usd = np.asarray([x.price_usd for x in d], dtype=np.float64)
        self.a_keep = np.asarray(
            [
                (1 - a.capacity.filesystem_reserve_pct / 100.0)
                * (1 - a.capacity.snapshot_reserve_pct / 100.0)
                for a in self.arrays
            ],
            dtype=np.float64,
        )

    def _stream_plans(self, size_kib: float) -> tuple[FloatArray, FloatArray]:
        """Sequential read and write plans of every layout for I/Os (or a host readahead) of
        ``size_kib``, each request :func:`models.raid.stream_segment_kib` of its array's prefetch
        and the size (rows of a table)."""
        got = self._stream_memo.get(size_kib)
        if got is None:
            width = len(AccessPlan._fields)
            segs = [float(stream_segment_kib(ra, size_kib)) for ra in self.l_prefetch]
            lays = [lay for lay, _ in self.layouts]
            got = self._stream_memo[size_kib] = (
                _stack([tuple(stream_read_plan(x, g)) for x, g in zip(lays, segs, strict=True)], width),
                _stack([tuple(stream_write_plan(x, g)) for x, g in zip(lays, segs, strict=True)], width),
            )
        return got

    def _random_plans(self, size: float) -> tuple[FloatArray, FloatArray]:
        """Random read and write access plans of every layout at one I/O size (rows of a table)."""
        got = self._plan_memo.get(size)
        if got is None:
            width = len(AccessPlan._fields)
            run = self.p.stripe_run_kib
            got = (
                _stack([tuple(read_plan(x, size)) for x, _ in self.layouts], width),
                _stack(
                    [tuple(write_plan(x, size, fill=f, stripe_run_kib=run)) for x, f in self.layouts], width
                ),
            )
            self._plan_memo[size] = got
        return got

    def _rows(self) -> None:
        """Row constants that do not depend on the window (capacity), and the rows' states and segments."""
        sp = self.space
        # usable = n x efficiency x C_right-sized x (1 - reserves) [TB]: per family the factor of
        # n (rows compute it when evaluated: memory and time, ~20 million rows with custom builds)
        self.fam_usable_per_drive = (
            self.l_eff[self.fam_layout] * self.d_rs_tb[self.fam_drive] * self.a_keep[self.fam_array]
        )
        self._row_seg: IntArray | None = None

        # states: (array, flash cache, nodes, layout); scale-out arrays add nodes with the drive
        # count, and their node CPU depends on an erasure-coded layout (a write's chunk operations,
        # models.controller.controller_load), so their erasure-coded states are per layout too.
        # Segments: runs of rows sharing a family and a state (one per family unless nodes grow).
        nfam = len(sp.families)
        rows_of = sp.starts[1:] - sp.starts[:-1]
        scale_out = np.asarray([a.scale_out is not None for a in self.arrays], dtype=bool).reshape(-1)
        so_fam = scale_out[self.fam_array] & (rows_of > 0)
        pieces = np.where(rows_of > 0, 1, 0)
        so_ix = np.flatnonzero(so_fam)
        run_nodes_parts: list[IntArray] = []
        run_len_parts: list[IntArray] = []
        # nodes of every drive count of a scale-out family (:func:`_nodes`), then its runs (nodes
        # never fall as drives grow, so each run is one node count); once per array and array of
        # counts (the families of one array and layout share their counts)
        runs_memo: dict[tuple[str, int], tuple[IntArray, IntArray]] = {}
        for f in so_ix.tolist():
            array = sp.families[f].array
            counts = sp.counts[f]
            memo_key = (array.id, id(counts))
            got = runs_memo.get(memo_key)
            if got is None:
                nodes = _nodes(array, counts)
                first = np.ones(nodes.size, dtype=bool)
                first[1:] = nodes[1:] != nodes[:-1]
                run_at = np.flatnonzero(first)
                got = runs_memo[memo_key] = (nodes[run_at], np.diff(np.append(run_at, nodes.size)))
            run_nodes_parts.append(got[0])
            run_len_parts.append(got[1])
            pieces[f] = got[0].size
        run_nodes = np.concatenate(run_nodes_parts) if run_nodes_parts else np.zeros(0, dtype=np.int64)
        run_len = np.concatenate(run_len_parts) if run_len_parts else np.zeros(0, dtype=np.int64)
        nseg = int(pieces.sum())
        seg_family = np.repeat(np.arange(nfam, dtype=np.int64), pieces)
        seg_len = rows_of[seg_family]
        seg_nodes = np.zeros(nseg, dtype=np.int64)
        on_so = so_fam[seg_family]
        seg_len[on_so] = run_len
        seg_nodes[on_so] = run_nodes
        # number the states in the order segments first meet them
        flash = self.fam_flash_gb = np.asarray([f.flash_cache_gb for f in sp.families], dtype=np.float64)
        flash_values, flash_ix = np.unique(flash, return_inverse=True)
        seg_array = self.fam_array[seg_family]
        n_layouts = int(self.fam_layout.max(initial=0)) + 2
        # only an erasure-coded layout (as written) changes a node's CPU (models.architecture.node_stripes
        # is None for every other layout), so other layouts share their (array, flash, nodes) state
        erasure = np.asarray([lay.scheme is RaidScheme.ERASURE for lay, _ in self.layouts], dtype=bool)
        fam_lay = self.fam_layout[seg_family]
        seg_layout = np.where(on_so & erasure[fam_lay], fam_lay + 1, 0)  # 0: not an erasure-coded scale-out
        key = (
            (seg_array * flash_values.size + flash_ix[seg_family]) * (int(seg_nodes.max(initial=0)) + 1)
            + seg_nodes
        ) * n_layouts + seg_layout
        _, first_seg, inverse = np.unique(key, return_index=True, return_inverse=True)
        rank = np.empty(first_seg.size, dtype=np.int64)
        rank[np.argsort(first_seg, kind="stable")] = np.arange(first_seg.size, dtype=np.int64)
        seg_state = rank[inverse.ravel()]
        self.state_keys: list[tuple[str, float, int, int]] = [
            (
                self.arrays[int(seg_array[g])].id,
                sp.families[int(seg_family[g])].flash_cache_gb,
                int(seg_nodes[g]),
                int(seg_layout[g]),
            )
            for g in np.sort(first_seg)
        ]
        self.seg_family = seg_family
        self.seg_state = seg_state
        self.seg_start = np.cumsum(seg_len) - seg_len
        self.seg_len = seg_len

    @property
    def seg(self) -> IntArray:
        """The segment of every row (built on first use)."""
        if self._row_seg is None:
            self._row_seg = np.repeat(np.arange(self.seg_len.size, dtype=np.int64), self.seg_len)
        return self._row_seg

    def _segments(self, rows: IntArray) -> IntArray:
        """The segment of each of ``rows`` (``seg[rows]``)."""
        if self._row_seg is not None:
            return np.take(self._row_seg, rows)
        return np.searchsorted(self.seg_start, rows, side="right").astype(np.int64) - 1

    def _usable_tb(self, rows: IntArray, fam: IntArray, n_int: IntArray | None = None) -> FloatArray:
        """Usable capacity of ``rows`` (of families ``fam``; ``n_int`` their drive counts, if
        known) [TB]: n x the family's usable TB per drive."""
        n = self.space.count_of(rows, fam) if n_int is None else n_int
        return n * self.fam_usable_per_drive[fam]

    def _row_usable_tb(self, at: _Rows) -> tuple[IntArray, FloatArray]:
        """Drive count and usable capacity [TB] of the rows ``at`` (:meth:`_usable_tb`), kept in
        ``at``: the capacity check and the drive model both read them."""
        fam = at.gathered("family", self.seg_family)
        n_int = at.get("n_int", lambda: self.space.count_of(at.rows, fam))
        return n_int, at.get("usable_tb", lambda: self._usable_tb(at.rows, fam, n_int))

    def _capacity_ok(self, rows: IntArray, fam: IntArray, usable_tb: FloatArray | None = None) -> BoolArray:
        """Whether ``rows`` (of families ``fam``) hold the workloads within the capacity headroom
        (``usable_tb`` their usable capacity, if known).
        Within a family it never turns false as drives grow (usable grows with n: fill never rises)."""
        return within_array(self._fill_pct(rows, fam, usable_tb), self.headroom.capacity_max_fill_pct)

    def _fill_pct(self, rows: IntArray, fam: IntArray, usable_tb: FloatArray | None = None) -> FloatArray:
        """Capacity needed / usable [%] (inf without usable capacity)."""
        usable = self._usable_tb(rows, fam) if usable_tb is None else usable_tb
        return np.divide(100.0 * self.needed_tb, usable, out=np.full_like(usable, np.inf), where=usable > 0)

    def _states(self) -> None:
        """Front-end figures of every state: caches, controllers, ports (see :meth:`_state`)."""
        _, first_seg = np.unique(self.seg_state, return_index=True)
        configs = []
        for s in range(len(self.state_keys)):
            seg = int(first_seg[s])
            row = int(self.seg_start[seg])
            f = int(self.seg_family[seg])
            family = self.space.families[f]
            count = int(self.space.counts[f][row - int(self.space.starts[f])])
            configs.append(family_configuration(family, count, self.headroom))
        # cache shares per state and window, then every hit ratio at once
        share_memo: dict[tuple, int] = {}
        # cache shares depend on the state only through the cache size: once per (window, size)
        shares_memo: dict[tuple[int, float], Any] = {}

        def shares(wi: int, total_gb: float, ws_list: list[float], rr: list[float]) -> Any:
            got = shares_memo.get((wi, total_gb))
            if got is None:
                got = shares_memo[(wi, total_gb)] = cache_shares_gb(total_gb, ws_list, rr)
            return got

        window_rates = [  # per window: each phase's working set and random-read rate
            (
                [m.ws_gb for m in members],
                [
                    m.phase.effective_iops * m.phase.read_pct / 100.0 * m.phase.random_pct / 100.0
                    for m in members
                ],
            )
            for members in self.members
        ]
        queries: list[tuple] = []
        slots: list[list[list[int]]] = []  # [state][window][member] -> query index (-1: no working set)
        for cfg in configs:
            ctrl, ccfg = cfg.controller, cfg.cache
            dram_total = ctrl.dram_cache_gb * ctrl.serving
            flash_total = ccfg.flash_cache_gb * (ctrl.serving / ctrl.serving)
            per_window = []
            for wi, (members, (ws_list, rr)) in enumerate(zip(self.members, window_rates, strict=True)):
                dram_share = shares(wi, dram_total, ws_list, rr)
                both_share = shares(wi, dram_total + flash_total, ws_list, rr)
                ids = []
                for m, ws, d_gb, b_gb in zip(members, ws_list, dram_share, both_share, strict=True):
                    if ws <= 0:
                        ids.append(-1)
                        continue
                    w = m.workload
                    query: tuple = (d_gb, max(0.0, b_gb - d_gb), ws, w.skew, ccfg.exclusive, w.dedupe_ratio)
                    query += (ccfg.dram_dedupe_aware, ccfg.dedupe_aware)
                    q = share_memo.get(query)
                    if q is None:
                        q = share_memo[query] = len(queries)
                        queries.append(query)
                    ids.append(q)
                per_window.append(ids)
            slots.append(per_window)
        hits = level_hit_ratios_many(queries)
        self.states = [
            self._state(cfg, [[hits[q] if q >= 0 else (0.0, 0.0) for q in ids] for ids in slot])
            for cfg, slot in zip(configs, slots, strict=True)
        ]
        sts = self.states
        ns = len(sts)

        def table(get: Callable[[_State, int, int], float], wi: int) -> FloatArray:
            cols = len(self.members[wi])
            values = [[get(st, wi, i) for i in range(cols)] for st in sts]
            return np.asarray(values, dtype=np.float64).reshape(ns, cols)

        nw = len(self.windows)
        self.st_hd = [table(lambda st, w, i: st.hits[w][i][0], wi) for wi in range(nw)]
        self.st_hf = [table(lambda st, w, i: st.hits[w][i][1], wi) for wi in range(nw)]
        # read latency of a phase = c + k x R_miss, with (the latency module's R_read regrouped)
        # c = front end + rnd (h_d t_hit + h_f t_flash + miss t_hit) + (1 - rnd) t_hit (inf when saturated),
        # k = rnd x miss; the controller part of the front end depends on the segment (:meth:`_work`)
        self.st_lat_k: list[FloatArray] = []
        for wi in range(nw):
            rnd = np.asarray([m.rnd for m in self.members[wi]], dtype=np.float64)[None, :]
            self.st_lat_k.append(rnd * np.maximum(0.0, 1 - self.st_hd[wi] - self.st_hf[wi]))
        pk = [st.config.packaging for st in sts]
        self.st_pack = np.asarray(
            [
                [
                    x.drives_in_controller_enclosure,
                    x.drives_per_shelf,
                    x.controller_rack_units,
                    x.shelf_rack_units,
                    x.controller_power_w,
                    x.shelf_power_w,
                    x.controller_price_usd,
                    x.shelf_price_usd,
                    x.flash_cache_price_usd_per_gb,
                ]
                for x in pk
            ],
            dtype=np.float64,
        ).reshape(ns, 9)
        self.st_ok = np.asarray([all(st.ok) for st in sts], dtype=bool).reshape(ns)
        self.st_ctrl_limit = np.asarray([st.controller_limit for st in sts], dtype=np.float64)
        self.st_port = np.asarray([st.port_pct for st in sts], dtype=np.float64).reshape(ns, nw)
        # cluster network (models.architecture.cluster_network): nodes and link rate; nan: no check
        net = [
            (st.config.cluster.nodes, st.config.controller.cluster_network_mb_s)
            if spans_nodes(st.config)
            and st.config.cluster is not None
            and st.config.controller.cluster_network_mb_s
            else (math.nan, math.nan)
            for st in sts
        ]
        self.st_net_nodes = np.asarray([n for n, _ in net], dtype=np.float64).reshape(ns)
        self.st_net_mb_s = np.asarray([r for _, r in net], dtype=np.float64).reshape(ns)

    def _state(self, cfg: Configuration, hits: list[list[tuple[float, float]]]) -> _State:
        """Ports, the front-end controller load and the port part of latency of one state, with the
        engine's own functions."""
        p = self.p
        ctrl = cfg.controller
        st = _State(
            config=cfg,
            hits=hits,
            loads=[],
            controller_limit=cfg.headroom.controller_limit_pct(ctrl.ha_mode),
            port_pct=[],
            port_ms=[],
            ok=[],
        )
        port_rate = max(pg.mb_s_per_port for pg in cfg.ports)
        for wi, members in enumerate(self.members):
            st.loads.append(
                controller_load(
                    [(m.workload, m.phase) for m in members],
                    hits[wi],
                    remote_copies=remote_copies(cfg.architecture),
                    stripes=node_stripes(cfg, [m.workload.pool or cfg.pools[0].name for m in members]),
                    full_stripe_reads=full_stripe_reads(cfg),
                )
            )
            mb_s = self.window_mb_s[wi]
            u_port = port_utilization(mb_s, cfg.ports)
            st.port_pct.append(100 * u_port)
            st.ok.append(within(100 * u_port, cfg.headroom.port_max_pct))
            front = FrontEnd(
                r_ctrl_ms=0.0,
                port_utilization=u_port,
                port_mb_s=port_rate,
                host_overhead_ms=p.host_overhead_ms,
                cache_hit_ms=ctrl.cache_hit_ms,
                write_ack_ms=ctrl.write_ack_ms,
            )
            st.port_ms.append(
                [math.inf if (f := front.time_ms(m.mean_kib)[0]) is None else f for m in members]
            )
        return st

    def _bus_ok(self, work: Work) -> BoolArray:
        """Per segment: the back-end bus within the port headroom where the controller states one
        (as :func:`models.evaluate.evaluate` checks it)."""
        mb_s = np.broadcast_to(np.asarray(work.kib, dtype=np.float64), self.seg_state.shape) * 1024.0 / 1e6
        ok = np.ones(self.seg_state.size, dtype=bool)
        for s, st in enumerate(self.states):
            ctrl = st.config.controller
            if ctrl.backend_mb_s is not None:
                at = self.state_segments[s]
                u = backend_bus_pct(mb_s[at], ctrl.backend_mb_s, ctrl.serving)
                ok[at] = within_array(u, self.headroom.port_max_pct)
        return ok

    def _controllers(self, wi: int, backend_ios: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per segment in window ``wi``: controller utilization, after a failover (nan: none) and
        CPU response [ms] (inf when saturated), with the back-end I/Os of the segment's layout
        (:func:`models.controller.controller_utilization` on arrays)."""
        nseg = backend_ios.size
        u = np.empty(nseg)
        fo = np.full(nseg, np.nan)
        r_ctrl = np.empty(nseg)
        for s, st in enumerate(self.states):
            at = self.state_segments[s]
            ctrl = st.config.controller
            load = st.loads[wi]
            cpu_s = cpu_seconds_per_second(load, ctrl, backend_ios=backend_ios[at])
            u[at] = controller_utilization(load, ctrl, ctrl.serving, cpu_s=cpu_s)
            r_ctrl[at] = cpu_response_ms(load, ctrl, np.asarray(u[at]), cpu_s=cpu_s)
            after = ctrl.serving_after_failover
            if ctrl.count >= 2 and after >= 1 and ctrl.ha_mode is not HaMode.SINGLE:
                fo[at] = controller_utilization(load, ctrl, after, cpu_s=cpu_s)
        return u, fo, r_ctrl

    def _work(self) -> None:
        """Per segment and window: the drive work of every phase and I/O size
        (:func:`models.pool.pool_work` with the segments' plans and hit ratios as arrays), then the
        controllers with the back-end I/Os it issues, and the front-end part of read latency."""
        seg_f = self.seg_family
        drv = self.fam_drive[seg_f]
        lay = self.fam_layout[seg_f]
        times = _columns(self.d_times, drv, DriveTimes)
        self.seg_times = times
        self.seg_g = self.d_g[drv]
        self.seg_h = self.d_h[drv]
        self.seg_limit = self.d_limit[drv]
        self.seg_hdd = self.d_hdd[drv]
        self.seg_units = self.d_units[drv]
        self.seg_scatter = self.l_scatter[lay]
        self.seg_width = self.l_width[lay]
        self.seg_parity = self.l_parity[lay]
        self.seg_ra_run = self.l_ra_run[lay]
        self.seg_prefetch = self.l_prefetch[lay]
        order = np.argsort(self.seg_state, kind="stable")
        bounds = np.searchsorted(self.seg_state[order], np.arange(len(self.states) + 1))
        self.state_segments = [order[bounds[s] : bounds[s + 1]] for s in range(len(self.states))]
        # the reads priced per segment (their misses depend on the state's hit ratios); the
        # writes, which do not, per (layout, drive, array) and gathered onto the segments
        seg_arr = self.fam_array[seg_f]
        na = max(len(self.arrays), 1)
        nd = max(len(self.drives), 1)
        triples, triple_of = _distinct((lay * nd + drv) * na + seg_arr, max(len(self.layouts), 1) * nd * na)
        read_plans = _SegmentPlans(self, lay, drv, seg_arr, writes=False)
        write_plans = _SegmentPlans(
            self,
            triples // (na * nd),
            triples // na % nd,
            triples % na,
            reads=False,
            any_packs=read_plans.any_packs,
            any_dedupes=read_plans.any_dedupes,
        )
        nseg = seg_f.size
        nw = len(self.windows)
        self.win: list[_Window] = []
        self.seg_ssd_latency: list[dict[int, FloatArray]] = []
        self.seg_ctrl = np.zeros((nw, nseg))
        self.seg_fo = np.zeros((nw, nseg))
        self.seg_lat_c: list[list[FloatArray]] = []  # [window][phase] per segment
        self.seg_lat_k: list[list[FloatArray]] = []
        seg_ok = self.st_ok[self.seg_state].copy()
        bus_ok = np.ones(nseg, dtype=bool)
        ctrl_limit = self.st_ctrl_limit[self.seg_state]
        hit_ms = np.asarray([st.config.controller.cache_hit_ms for st in self.states])[self.seg_state]
        flash_ms = np.asarray([st.config.cache.flash_hit_ms for st in self.states])[self.seg_state]
        ssd_drives = [i for i, d in enumerate(self.drives) if d.kind is not DriveKind.HDD]
        for wi, members in enumerate(self.members):
            hd = self.st_hd[wi][self.seg_state]
            hf = self.st_hf[wi][self.seg_state]
            items = [(m.workload, m.phase, hd[:, i], hf[:, i]) for i, m in enumerate(members)]
            pw = pool_work(items, read_plans)
            writes = pool_work([(m.workload, m.phase, 0.0, 0.0) for m in members], write_plans).writes
            pw.writes = _gather_work(writes, triple_of)
            work = pw.work
            self.win.append(
                _Window(
                    pw,
                    work,
                    *(
                        np.broadcast_to(np.asarray(x, dtype=np.float64), (nseg,)).copy()
                        for x in (pw.outstanding, pw.read_miss_rate, pw.miss_fixed_ms)
                    ),
                )
            )
            u, fo, r_ctrl = self._controllers(
                wi, np.broadcast_to(work.backend_ios, (nseg,)).astype(np.float64)
            )
            self.seg_ctrl[wi], self.seg_fo[wi] = 100 * u, 100 * fo
            seg_ok &= within_array(100 * u, ctrl_limit)
            bus_ok &= self._bus_ok(work)
            seg_ok &= np.isnan(fo) | within_array(100 * fo, self.headroom.failover_max_pct)
            port_ms = np.asarray([st.port_ms[wi] for st in self.states], dtype=np.float64).reshape(
                len(self.states), len(members)
            )[self.seg_state]
            rnd = np.asarray([m.rnd for m in members], dtype=np.float64)[None, :]
            front = r_ctrl[:, None] + port_ms
            miss = np.maximum(0.0, 1 - hd - hf)
            lat_c = (
                front
                + rnd * (hd * hit_ms[:, None] + hf * flash_ms[:, None] + miss * hit_ms[:, None])
                + (1 - rnd) * hit_ms[:, None]
            )
            # per phase, one contiguous column per segment (rows gather from 1-D tables)
            self.seg_lat_c.append([np.ascontiguousarray(lat_c[:, i]) for i in range(len(members))])
            self.seg_lat_k.append(
                [np.ascontiguousarray(self.st_lat_k[wi][self.seg_state, i]) for i in range(len(members))]
            )
            lat: dict[int, FloatArray] = {}
            for i, m in enumerate(members):
                if m.phase.read_pct <= 0 and m.target_ms is None:
                    continue
                v = np.zeros(nseg)
                for di in ssd_drives:
                    v[drv == di] = ssd_latency_ms(self.drives[di], m.mean_kib)
                lat[i] = v
            self.seg_ssd_latency.append(lat)
        self.seg_bus_ok = bus_ok
        self.seg_ok = seg_ok & bus_ok
        # per segment: what a row's checks read that does not depend on its drive count, looked up
        # once here rather than through the family and state tables for every chunk of rows
        seg_drive = self.fam_drive[seg_f]
        self.seg_dwpd_per_kib = self.d_dwpd_per_kib[seg_drive]
        self.seg_rated_dwpd = np.asarray(self.d_rated_dwpd[seg_drive], dtype=np.float64)  # nan: no rating
        nodes, link = self.st_net_nodes[self.seg_state], self.st_net_mb_s[self.seg_state]
        self.seg_net_pct = [
            np.asarray(
                100.0
                * network_utilization(
                    np.broadcast_to(np.asarray(w.work.kib, dtype=np.float64), (nseg,)) * 1024.0 / 1e6,
                    nodes,
                    link,
                ),
                dtype=np.float64,
            )
            for w in self.win
        ]

    # -- evaluation

    def _pool(
        self, wi: int, at: _Rows, latency: bool = True
    ) -> tuple[PoolState, FloatArray, FloatArray, FloatArray, FloatArray]:
        """The pool of each row of ``at`` in window ``wi``: its state (:func:`models.pool.pool_state`),
        mean read-miss service and drive wait (:func:`models.pool.miss_path`), the response of one
        readahead request (:func:`models.pool.readahead_service_ms` plus the wait) and the
        wear-weighted KiB/s written on one drive of the busiest role
        (:func:`models.pool.wear_kib_per_drive`). Without ``latency`` the service, wait and
        readahead figures are not worked out (empty arrays). What does not depend on the window
        is kept in ``at`` for the next window."""
        win = self.win[wi]
        seg = at.seg

        def counts() -> tuple[FloatArray, FloatArray, FloatArray]:
            """(data drives, parity drives, span) of each row, the drives in positioning units
            (models.pool.unit_roles)."""
            n_int, usable_tb = self._row_usable_tb(at)
            n = n_int.astype(np.float64)
            parity = n / np.take(self.seg_width, seg) * np.take(self.seg_parity, seg)
            usable_gb = usable_tb * 1000.0
            scatter = np.take(self.seg_scatter, seg)
            span = planned_span(1000.0 * self.needed_tb, usable_gb, self.fill, 1.0, scatter)
            units = at.gathered("units", self.seg_units)
            return (n - parity) * units, parity * units, span

        n_data, parity, span = at.get("counts", counts)
        # the role work the state, the wait and the wear read (a parity role's operations never are)
        work = _take(win.work, seg, latency)
        # only positioning enters the state and the wait: the rest of the prices are in the work
        t = self.seg_times
        times: Any = t._replace(
            overhead_ms=at.gathered("overhead_ms", t.overhead_ms) if latency else math.nan,
            stream_read_ms_per_kib=(
                at.gathered("stream_read_ms_per_kib", t.stream_read_ms_per_kib) if latency else math.nan
            ),
            read_pos_a=at.gathered("read_pos_a", t.read_pos_a),
            read_pos_b=at.gathered("read_pos_b", t.read_pos_b),
            write_pos_a=at.gathered("write_pos_a", t.write_pos_a),
            write_pos_b=at.gathered("write_pos_b", t.write_pos_b),
        )
        if win.pool.concurrency_stated:
            q_cap = stated_queue(
                np.take(win.outstanding, seg), True, n_data, at.gathered("limit", self.seg_limit)
            )
        else:  # one command per drive: nothing to gather
            q_cap = stated_queue(0.0, False, n_data, 0.0)
        # command queuing's gain enters the state only past one command per drive
        one_command = bool(np.all(np.asarray(q_cap) <= 1.0))
        g, h = (0.0, 1.0) if one_command else (at.gathered("g", self.seg_g), at.gathered("h", self.seg_h))
        state = pool_state(work, times, n_data, parity, span, q_cap, g, h)
        wear = wear_kib_per_drive(work, n_data, parity)
        if not latency:
            none = np.zeros(0)
            return state, none, none, none, wear
        mean_read, _, wait = miss_path(
            work,
            np.take(win.read_miss_rate, seg),
            np.take(win.miss_fixed_ms, seg),
            state,
            self.p.drive_service_scv,
        )
        ra_ms = readahead_service_ms(times, state.p_read, at.gathered("ra_run", self.seg_ra_run)) + wait
        return state, mean_read, wait, ra_ms, wear

    def _latencies(
        self, wi: int, at: _Rows, every: bool
    ) -> tuple[FloatArray, FloatArray, dict[int, FloatArray], FloatArray, FloatArray]:
        """Data and parity utilization of the rows ``at``, read latency of each phase (targeted
        ones, or ``every`` reading one), the window's IOPS-weighted read latency (inf when
        saturated) and the drive writes per day the window needs (:func:`models.pool.endurance_result`)."""
        rows, seg = at.rows, at.seg
        wanted = [
            i
            for i, m in enumerate(self.members[wi])
            if m.target_ms is not None or (every and m.phase.read_pct > 0)
        ]
        state, mean_read, wait, ra_ms, wear = self._pool(wi, at, latency=bool(wanted))
        dwpd = np.asarray(wear * at.gathered("dwpd_per_kib", self.seg_dwpd_per_kib), dtype=np.float64)
        phases: dict[int, FloatArray] = {}
        rl_sum = np.zeros(rows.size)
        r_w = 0.0
        saturated = np.zeros(rows.size, dtype=bool)
        if wanted:
            base = np.where(at.gathered("hdd", self.seg_hdd), mean_read, 0.0)
        for i in wanted:
            m = self.members[wi][i]
            r_miss = base + np.take(self.seg_ssd_latency[wi][i], seg) + wait  # one of the two is 0
            k = np.take(self.seg_lat_k[wi][i], seg)
            with np.errstate(invalid="ignore"):
                read_ms = np.take(self.seg_lat_c[wi][i], seg) + np.where(k > 0, k * r_miss, 0.0)
                if m.rnd < 1:
                    read_ms = read_ms + (1 - m.rnd) * sequential_extra_ms(
                        m.mean_kib, at.gathered("prefetch", self.seg_prefetch), ra_ms
                    )
            phases[i] = read_ms
            if every and m.phase.read_pct > 0:
                bad = ~np.isfinite(read_ms)
                saturated |= bad
                rl_sum += np.where(bad, 0.0, read_ms) * m.iops * m.rf
                r_w += m.iops * m.rf
        window = np.where(saturated, np.inf, rl_sum / r_w if r_w else 0.0)
        u = np.broadcast_to(np.asarray(state.u_data, dtype=np.float64), rows.shape)
        u_par = np.broadcast_to(np.asarray(state.u_parity, dtype=np.float64), rows.shape)
        return u, u_par, phases, np.asarray(window, dtype=np.float64), dwpd

    def _network_pct(self, wi: int, rows: IntArray, seg: IntArray) -> FloatArray:
        """Cluster-network utilization of each row in window ``wi`` [%] (nan: no network check)."""
        return np.take(self.seg_net_pct[wi], seg)

    def _verdict(
        self,
        rows: IntArray,
        good: BoolArray,
        prune: bool = True,
        segments: IntArray | None = None,
        known: _Rows | None = None,
    ) -> None:
        """Clear ``good`` (one flag per row of ``rows``, in ``segments`` if known) for rows failing
        the drive model in a window. ``known``: these rows with figures already worked out
        (:meth:`passed`'s capacity check).

        Window by window; with ``prune``, the rows still good are evaluated, with the failed ones
        among them unless they are many (:data:`PRUNE_SHARE`; a row's figures are elementwise:
        the same whichever rows it is evaluated with). The rows evaluated carry their
        window-independent figures (:class:`_Rows`) from one window to the next."""
        lim = self.headroom.drive_max_pct
        if known is None:
            known = _Rows(rows, self._segments(rows) if segments is None else segments)
        at = known
        sub = np.arange(good.size)
        for wi in range(len(self.windows)):
            if prune:
                if not good.any():
                    break
                # good only clears: the rows left are a subset of those evaluated so far
                still = np.flatnonzero(good if sub.size == good.size else good[sub])
                if still.size <= PRUNE_SHARE * sub.size:
                    sub = sub[still]
                    at = at.subset(still)
            u, u_par, phases, _, dwpd = self._latencies(wi, at, every=False)
            seg = at.seg
            keep = within_array(100 * u, lim) & within_array(100 * u_par, lim)
            rated = at.gathered("rated_dwpd", self.seg_rated_dwpd)
            keep &= np.isnan(rated) | within_array(dwpd, rated)
            net = self._network_pct(wi, at.rows, seg)
            keep &= np.isnan(net) | within_array(net, self.headroom.port_max_pct)
            for i, read_ms in phases.items():
                target = self.members[wi][i].target_ms
                assert target is not None
                keep &= within_array(read_ms, target)
            if sub.size == good.size:
                good &= keep
            else:
                good[sub] &= keep

    def passed(self, prune: bool = True) -> tuple[BoolArray, int]:
        """Verdict of every row and the number of rows whose drive model ran.

        Rows go through in contiguous chunks. With ``prune``, a chunk (or the rest of its windows)
        is skipped once every row in it fails capacity or a drive-independent check (controllers,
        failover, ports), or an earlier window: the verdict is the same.
        """
        n = self.space.rows
        ok = np.zeros(n, dtype=bool)
        modelled = 0
        if self._row_seg is None:  # every row is looked up: the segment of each, once
            self._row_seg = np.repeat(np.arange(self.seg_len.size, dtype=np.int64), self.seg_len)
        for lo in range(0, n, CHUNK_ROWS):
            hi = min(n, lo + CHUNK_ROWS)
            rows = np.arange(lo, hi, dtype=np.int64)
            seg = self._row_seg[lo:hi]  # contiguous rows: a view, not a gather
            at = _Rows(rows, seg)
            _, usable_tb = self._row_usable_tb(at)
            fam = at.gathered("family", self.seg_family)
            good = self._capacity_ok(rows, fam, usable_tb) & np.take(self.seg_ok, seg)
            if prune and not good.any():
                continue
            modelled += int(good.size if not prune else np.count_nonzero(good))
            self._verdict(rows, good, prune, known=at)
            ok[lo:hi] = good
        return ok, modelled

    def first_capacity_rows(self) -> IntArray:
        """Per family, its first row within the capacity headroom (``starts[f + 1]``: none).

        Bisection over every family at once: within a family capacity never fails once it passes
        (:meth:`_capacity_ok`), so the answer is the rows' own verdict without evaluating them all.
        """
        sp = self.space
        lo = sp.starts[:-1].copy()
        hi = sp.starts[1:].copy()
        live = np.flatnonzero(lo < hi)
        while live.size:
            mid = (lo[live] + hi[live]) // 2
            ok = self._capacity_ok(mid, live)
            hi[live] = np.where(ok, mid, hi[live])
            lo[live] = np.where(ok, lo[live], mid + 1)
            live = live[lo[live] < hi[live]]
        return lo

    def drive_floors(self) -> tuple[FloatArray, FloatArray]:
        """Per segment, the data drives and the dedicated parity drives below which a row must
        exceed the drive-utilization headroom in some window (0 where no bound is known).

        Within a segment (one family, one state) a role's utilization is ``busy / 1000 /
        drives`` (:func:`models.pool.role_utilization`) with the segment's own work, and the busy
        time ``fixed + read positionings x P_read + write positionings x P_write`` is at least
        its value at the least positioning any row can have: the span (:func:`models.pool.planned_span`)
        lies between its value at the planned fill and 1, whatever the drive count, and the
        command-queuing factor of the data drives between ``1 / (1 + g)`` and 1
        (:func:`models.pool.queue_fixed_point`; 1 unless the window states its concurrency). So a
        row whose data drives are fewer than ``busy_min / (10 x limit)`` fails. The limit is
        raised by :data:`UTILIZATION_MARGIN` so that rounding cannot turn a skipped row's verdict.
        Only segments whose work and positioning terms are all non-negative get a bound (no
        cancellation: each figure is exact to a few ulps).
        """
        nseg = self.seg_len.size
        limit = (self.headroom.drive_max_pct + TOLERANCE) * (1.0 + UTILIZATION_MARGIN)
        t = self.seg_times
        s0 = min(1.0, self.fill)  # planned_span: s0 = min(1, max(footprint / usable, fill)) in [s0, 1]
        span_fill = s0 + self.seg_scatter * (1.0 - s0)  # and s = s0 + scatter (1 - s0) from it; 1 at s0 = 1
        with np.errstate(invalid="ignore"):
            roots = (np.sqrt(np.minimum(span_fill, 1.0)), np.sqrt(np.maximum(span_fill, 1.0)))

        def least(a: FloatArray, b: FloatArray, factors: tuple[Any, ...]) -> FloatArray:
            """The least positioning ``(a + b sqrt(span)) x factor`` over the corners of the ranges
            (nan, hence no bound, where a corner is undefined)."""
            out = np.full(nseg, np.inf)
            with np.errstate(invalid="ignore"):
                for root in roots:
                    for f in factors:
                        out = np.minimum(out, (a + b * root) * f)
            return out

        one = (1.0,)
        pr1, pw1 = least(t.read_pos_a, t.read_pos_b, one), least(t.write_pos_a, t.write_pos_b, one)
        gain = self.seg_g > 0  # (x + h) / ((1 + g) x + h) >= 1 / (1 + g) needs h >= 0 (else no bound)
        lowest = np.where(self.seg_h >= 0, 1.0 / (1.0 + np.where(gain, self.seg_g, 1.0)), -np.inf)
        queued = (np.where(gain, lowest, 1.0), 1.0)
        prq, pwq = least(t.read_pos_a, t.read_pos_b, queued), least(t.write_pos_a, t.write_pos_b, queued)

        def floor(role: RoleWork, p_read: FloatArray, p_write: FloatArray) -> FloatArray:
            terms = [np.broadcast_to(np.asarray(x, dtype=np.float64), (nseg,)) for x in role[:4]]
            read_ms, write_ms, read_pos, write_pos = terms
            with np.errstate(invalid="ignore"):
                busy = read_ms + write_ms + read_pos * p_read + write_pos * p_write
                sound = (read_ms >= 0) & (write_ms >= 0) & (read_pos >= 0) & (write_pos >= 0)
                sound &= (p_read >= 0) & (p_write >= 0) & ~np.isnan(busy)
            return np.where(sound, busy / (10.0 * limit), 0.0)

        data = np.zeros(nseg)
        parity = np.zeros(nseg)
        for win in self.win:
            stated = win.pool.concurrency_stated
            data = np.maximum(data, floor(win.work.data, prq if stated else pr1, pwq if stated else pw1))
            parity = np.maximum(parity, floor(win.work.parity, pr1, pw1))
        return data, parity

    def first_drive_rows(self, lo: IntArray) -> IntArray:
        """Per segment, its first row at or after ``lo`` with at least the drives of
        :meth:`drive_floors` (the segment's end: none). The rows before it fail the drive model.

        Bisection over every segment at once: a row's data and parity drives grow with its drive
        count (whole groups of one layout), so once a row has enough, every later row has.
        """
        need_data, need_parity = self.drive_floors()
        hi = self.seg_start + self.seg_len
        lo = lo.copy()

        def short(rows: IntArray, g: IntArray) -> BoolArray:
            """Whether ``rows`` (of segments ``g``) have fewer drives of a role than it needs."""
            n = self.space.count_of(rows, self.seg_family[g]).astype(np.float64)
            # as _pool counts them: in positioning units
            parity = n / self.seg_width[g] * self.seg_parity[g] * self.seg_units[g]
            data = (
                n * self.seg_units[g] - parity
            )  # a role without drives has utilization 0 (role_utilization)
            out = (data > 0) & (np.maximum(data, 1) < need_data[g])
            return out | ((parity > 0) & (np.maximum(parity, 1) < need_parity[g]))

        live = np.flatnonzero((lo < hi) & ((need_data > 1.0) | (need_parity > 1.0)))
        live = live[short(lo[live], live)]  # the rest keep their first row
        lo[live] += 1
        live = live[lo[live] < hi[live]]
        while live.size:
            mid = (lo[live] + hi[live]) // 2
            few = short(mid, live)
            hi[live] = np.where(few, hi[live], mid)
            lo[live] = np.where(few, mid + 1, lo[live])
            live = live[lo[live] < hi[live]]
        return lo

    def first_passing(self) -> tuple[IntArray, int]:
        """Per family, its first (fewest drives) passing row (-1: none), and the number of rows
        whose drive model ran.

        A family's candidates are its rows within the capacity headroom (from
        :meth:`first_capacity_rows` on) in segments passing the drive-independent checks, from
        each segment's :meth:`first_drive_rows` on (fewer drives must fail drive utilization). They are
        evaluated in ascending drive count, in blocks that grow by half each round
        (``FIRST_BLOCK_ROWS`` first), every family's block together, up to the family's first
        passing row: the rows after it are never evaluated. The same row as the first passing one
        of :meth:`passed` (a row's verdict does not depend on the rows evaluated with it).
        """
        sp = self.space
        nf = len(sp.families)
        first = np.full(nf, -1, dtype=np.int64)
        # candidates as intervals, one per segment: [max(segment start, first row within capacity), end)
        cap = self.first_capacity_rows()
        seg_lo = self.first_drive_rows(np.maximum(self.seg_start, cap[self.seg_family]))
        seg_n = np.where(self.seg_ok, np.maximum(0, self.seg_start + self.seg_len - seg_lo), 0)
        seg_at = np.cumsum(seg_n) - seg_n  # where each segment's candidates begin among all of them
        fam_n = np.bincount(self.seg_family, weights=seg_n, minlength=nf).astype(np.int64)
        pos = np.cumsum(fam_n) - fam_n  # each family's next candidate
        end = pos + fam_n
        active = np.flatnonzero(fam_n > 0)
        block = FIRST_BLOCK_ROWS
        modelled = 0
        while active.size:
            lens = np.minimum(end[active] - pos[active], block)
            offsets = np.cumsum(lens) - lens
            total = int(lens.sum())
            ix = np.repeat(pos[active] - offsets, lens) + np.arange(total, dtype=np.int64)
            g = np.searchsorted(seg_at, ix, side="right") - 1
            rows = seg_lo[g] + (ix - seg_at[g])
            good = np.ones(total, dtype=bool)
            for lo in range(0, total, CHUNK_ROWS):
                part = slice(lo, lo + CHUNK_ROWS)
                self._verdict(rows[part], good[part], segments=g[part])
            modelled += total
            # the first passing row of each family in this round (rows ascend within a family)
            hit = np.flatnonzero(good)
            owner = np.searchsorted(offsets, hit, side="right") - 1
            done, at = np.unique(owner, return_index=True)
            first[active[done]] = rows[hit[at]]
            pos[active] += lens
            still = np.ones(active.size, dtype=bool)
            still[done] = False
            active = active[still & (pos[active] < end[active])]
            block += max(1, block // 2)
        return first, modelled

    def detail(self, rows: IntArray) -> RowDetail:
        """Every figure of ``rows`` (meant for a few thousand rows: the chosen ones)."""
        rows = np.asarray(rows, dtype=np.int64)
        seg = self._segments(rows)
        at = _Rows(rows, seg)
        state = self.seg_state[seg]
        nw = len(self.windows)
        k = rows.size
        drive = np.zeros((nw, k))
        parity = np.zeros((nw, k))
        lat = np.zeros((nw, k))
        wear = np.zeros((nw, k))
        network = np.zeros((nw, k))
        rated = at.gathered("rated_dwpd", self.seg_rated_dwpd)
        targets = [
            (wi, f"{m.workload.name}/{m.phase.name}", float(m.target_ms), i)
            for wi, ms in enumerate(self.members)
            for i, m in enumerate(ms)
            if m.target_ms is not None
        ]
        phase_lat = np.zeros((len(targets), k))
        for wi in range(nw):
            u, u_par, phases, window, dwpd = self._latencies(wi, at, every=True)
            drive[wi] = 100 * u
            parity[wi] = 100 * u_par
            wear[wi] = dwpd
            network[wi] = self._network_pct(wi, rows, seg)
            lat[wi] = window
            for t, (twi, _, _, i) in enumerate(targets):
                if twi == wi:
                    phase_lat[t] = phases[i]
        # the bill: :func:`models.bill.bill_of_materials` for a single pool, over rows
        # the drive counts and usable capacity the drive model worked out (kept in ``at``)
        n, usable_tb = self._row_usable_tb(at)
        fam_ix = at.gathered("family", self.seg_family)
        arr = self.fam_array[fam_ix]
        drv = self.fam_drive[fam_ix]
        spares = np.asarray(hot_spares(n, self.a_spare_per[arr], self.a_spare_min[arr]), dtype=np.int64)
        total = n + spares
        pk = self.st_pack[state]
        shelf_n = np.asarray(shelves_needed(total, pk[:, 0], pk[:, 1]), dtype=np.float64)
        ru = enclosure_rack_units(shelf_n, pk[:, 2], pk[:, 3])
        flash_gb = self.fam_flash_gb[fam_ix]
        power = enclosure_power_w(shelf_n, pk[:, 4], pk[:, 5]) + total * self.d_power_w[drv]
        cost = (
            enclosure_cost_usd(shelf_n, pk[:, 6], pk[:, 7], flash_gb, pk[:, 8])
            + total * self.d_price_usd[drv]
        )
        shelves = shelf_n.astype(np.int64)
        hr = self.headroom
        ctrl = self.seg_ctrl[:, seg]
        fo = self.seg_fo[:, seg]
        port = self.st_port[state].T
        ctrl_limit = self.st_ctrl_limit[state]
        passed = self._capacity_ok(rows, fam_ix, usable_tb)
        passed &= np.all(within_array(drive, hr.drive_max_pct), axis=0)
        passed &= np.all(within_array(parity, hr.drive_max_pct), axis=0)
        passed &= np.isnan(rated) | np.all(within_array(wear, rated), axis=0)
        passed &= np.all(within_array(ctrl, ctrl_limit), axis=0)
        passed &= np.all(np.isnan(fo) | within_array(fo, hr.failover_max_pct), axis=0)
        passed &= np.all(within_array(port, hr.port_max_pct), axis=0)
        passed &= self.seg_bus_ok[seg]
        passed &= np.all(np.isnan(network) | within_array(network, hr.port_max_pct), axis=0)
        for t, (_, _, target, _) in enumerate(targets):
            passed &= within_array(phase_lat[t], target)
        return RowDetail(
            rows=rows,
            windows=self.windows,
            drive_count=n,
            spares=spares,
            shelves=shelves,
            rack_units=ru,
            power_w=power,
            cost_usd=cost,
            usable_tb=usable_tb,
            fill_pct=self._fill_pct(rows, fam_ix, usable_tb),
            capacity_limit_pct=hr.capacity_max_fill_pct,
            drive_pct=drive,
            parity_pct=parity,
            drive_limit_pct=hr.drive_max_pct,
            controller_pct=ctrl,
            controller_limit_pct=ctrl_limit,
            failover_pct=fo,
            failover_limit_pct=hr.failover_max_pct,
            port_pct=port,
            port_limit_pct=hr.port_max_pct,
            read_latency_ms=lat,
            targets=[(wi, name, target) for wi, name, target, _ in targets],
            phase_latency_ms=phase_lat,
            passed=passed,
            dedicated_parity=self.seg_parity[seg] > 0,
            dwpd=wear,
            rated_dwpd=rated,
            network_pct=network,
        )


def level_hit_ratios_many(queries: Sequence[tuple]) -> list[tuple[float, float]]:
    """:func:`models.cache.level_hit_ratios` for many caches at once: ``(h_dram, h_flash)`` per query.

    Each query is ``(dram_gb, flash_gb, working_set_gb, skew, exclusive, dedupe_ratio,
    dram_dedupe_aware, flash_dedupe_aware)``. The same formulas (dedupe-aware levels see
    ``W / R``, ``h_flash = H(D' + F') - H(D')``, or ``H(max(D', F')) - H(D')`` if inclusive), with
    every Che solve of one working set and skew done together by :func:`models.cache.hit_ratio_curve`
    (agrees with :func:`models.cache.che_hit_ratio` to ~1e-10).
    """
    prepared = []
    sizes: dict[tuple, set[float]] = {}
    for d, f, ws, skew, exclusive, ratio, dram_aware, flash_aware in queries:
        if ratio > 1.0 and (dram_aware or flash_aware):
            ws = ws / ratio
            d = d if dram_aware else d / ratio
            f = f if flash_aware else f / ratio
        both = d + f if exclusive else max(d, f)
        prepared.append((ws, skew, d, both))
        sizes.setdefault((ws, skew), set()).update((d, both))
    table: dict[tuple, dict[float, float]] = {}
    for (ws, skew), values in sizes.items():
        ordered = sorted(values)
        curve = cache_model.hit_ratio_curve(ordered, ws, skew)
        table[(ws, skew)] = dict(zip(ordered, (float(h) for h in curve), strict=True))
    out = []
    for ws, skew, d, both in prepared:
        h = table[(ws, skew)]
        out.append((h[d], max(0.0, h[both] - h[d])))
    return out


def check_batchable(workloads: list[Workload]) -> None:
    """Raise :class:`InputError` unless every workload can live in the single pool of a catalog family."""
    if not workloads:
        raise InputError("workloads", "at least one workload is needed")
    names = [w.name for w in workloads]
    if len(set(names)) != len(names):
        raise InputError("workloads", "workload names must be unique")
    for i, w in enumerate(workloads):
        if w.pool is not None and w.pool != POOL:
            raise InputError(
                f"workloads.{i}.pool",
                f"catalog configurations have one pool named {POOL!r}: leave pool unset",
            )


def evaluate_batch(
    workloads: list[Workload],
    space: CandidateSpace,
    *,
    params: EngineParameters | None = None,
    headroom: HeadroomTargets | None = None,
    prune: bool = True,
    first_only: bool = False,
) -> BatchEvaluation:
    """Evaluate every row of ``space`` against every window of ``workloads`` (see the module docstring).

    ``headroom`` is applied to every row (as :func:`family_configuration` does). With ``prune``,
    rows failing capacity or a drive-independent check skip the drive model (their verdict is the same).
    With ``first_only``, each family's rows are evaluated only up to its first passing one
    (:meth:`BatchModel.first_passing`; ``passed`` marks those rows alone, ``prune`` is implied).
    """
    check_batchable(workloads)
    model = BatchModel(workloads, space, params or EngineParameters(), headroom or HeadroomTargets())
    if first_only:
        first, modelled = model.first_passing()
        ok = np.zeros(space.rows, dtype=bool)
        ok[first[first >= 0]] = True
    else:
        ok, modelled = model.passed(prune)
    return BatchEvaluation(
        space=space,
        passed=ok,
        modelled_rows=modelled,
        model=model,
        first_only=first_only,
    )
