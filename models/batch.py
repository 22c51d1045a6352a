"""Vectorized evaluation of many candidate configurations at once, mirroring :func:`models.evaluate.evaluate`.

A *family* is one array x drive x RAID layout x flash-cache size, built the way
:func:`models.catalog.build_configuration` builds it (one pool, the array's default ports, no
tiering); each of its candidate drive counts is a *row* (whole RAID groups, within the array's
drive, node and shelf limits). Rows of every family are evaluated together as numpy arrays.

What depends on the drive count, and is computed per row (one element per candidate):

* capacity: ``usable = n x efficiency x C_right-sized x (1 - reserves)``, fill = needed / usable;
* the seek span ``s = seek_span(W / usable)``, so ``t_seek = t_track + (t_avg - t_track) sqrt(s)``;
* drive utilization. Every busy-time term of :func:`models.evaluate._pool_demand` is linear in the
  positioning time ``P = (t_seek + t_rot) x ncq(q)``, so per family and window it reduces to
  ``busy = A + C x P`` with A (transfer and overhead) and C (positionings per second) summed once
  over the window's phases and I/O sizes: ``U = busy_read / 1000 / read drives + busy_write / 1000 / n``;
* the command-queuing fixed point ``q = 1 / (1 - U(q))``: with ``U(q) = a + b ncq(q)`` and
  ``ncq(q) = (x + h) / ((1 + g) x + h)``, ``x = q - 1``, it is the positive root of the quadratic
  ``((1+g)(1-a) - b) x^2 + (h (1 - U_1) - a (1+g) - b) x - h U_1 = 0`` (g = ``ncq_gain_max``,
  h = ``ncq_q_half``, U_1 the utilization at a queue of one), solved in closed form where
  :func:`models.evaluate._solve_pool` iterates; a root at 999 or beyond is the saturated queue of
  1,001 the iteration settles on;
* miss latency (M/G/1 at the drives) and each phase's read latency.

What does not depend on the drive count is computed once per *state* (array, flash cache, nodes)
with the engine's own scalar functions: cache shares (:func:`cache_shares_gb`), controller and
failover utilization, ports, and the front-end part of latency; hit ratios with the formulas of
:func:`models.cache.level_hit_ratios`, every Che solve of one working set batched through
:func:`models.cache.hit_ratio_curve` (:func:`level_hit_ratios_many`). Scale-out arrays grow nodes
with the drive count (as ``build_configuration`` does), so their rows span several states. Rows
sharing a family and a state form a *segment*; the drive model reduces to a few coefficients per
segment and window, and a row costs a square root and a few multiply-adds.

Scope: single-pool configurations, no tiering, normal operation (``degraded="none"``), load
scale 1, workloads without a pool name (or naming ``"pool"``). That is everything a catalog family
is; anything else must go through :func:`models.size.size` and :func:`models.evaluate.evaluate`.

Agreement with ``evaluate()``: same formulas, summed in a different order (relative differences
~1e-15), hit ratios within ~1e-10, and the command-queuing fixed point: ``evaluate()`` stops its damped iteration when the
queue moves less than 1e-6, which leaves the utilization within ~2e-7 relative of the root; above
~85% busy its iteration can stop after 200 steps without converging (it oscillates around the
root), where the two differ by up to ~1e-3 relative. Configurations the batch picks are confirmed
with ``evaluate()`` by :mod:`models.recommend`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from models import cache as cache_model
from models.base import InputError
from models.cache_share import cache_shares_gb
from models.capacity import physical_needed_tb
from models.catalog import ArrayModel, build_configuration
from models.configuration import Configuration, HeadroomTargets, SparePolicy
from models.controller import ControllerLoad, HaMode, controller_utilization, cpu_us_per_io
from models.drives import DriveKind, DriveSpec, ncq_factor, ssd_latency_ms, ssd_service_ms
from models.parameters import EngineParameters
from models.ports import port_utilization
from models.raid import (
    RaidLayout,
    RaidScheme,
    capacity_efficiency,
    random_read_fanout,
    sequential_write_cost,
    write_cost_split,
)
from models.units import GIB, KIB, MB, TB, transfer_ms
from models.workload import Phase, Workload, windows_of

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

POOL = "pool"
"""Name of the one pool of a catalog-built configuration."""

CHUNK_ROWS = 1 << 15
"""Rows evaluated per numpy pass (keeps the temporaries in cache)."""

_Q_DEEP = 1e9  # the "infinitely deep" queue of evaluate._solve_pool
_Q_SATURATED = 1001.0  # where evaluate's iteration settles when U >= 0.999 (q_new = 1 + 1000)


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
    """:func:`models.capacity.spare_count` for many counts: ``max(min_spares, ceil(n / per_drives))``."""
    if policy.per_drives is None:
        return np.full_like(drive_counts, policy.min_spares)
    return np.maximum(policy.min_spares, np.ceil(drive_counts / policy.per_drives).astype(np.int64))


def _nodes(array: ArrayModel, drive_counts: IntArray) -> IntArray:
    """Scale-out nodes for each drive count, as :func:`build_configuration` adds them (0 if not
    scale-out): ``max(base nodes, ceil((drives + spares) / drives per node))`` (:mod:`models.cluster`)."""
    so = array.scale_out
    if so is None:
        return np.zeros_like(drive_counts)
    if so.fixed_drives_per_node:
        return drive_counts // so.drives_per_node
    attached = drive_counts + spare_counts(drive_counts, array.spares)
    return np.maximum(array.base_nodes, -(-attached // so.drives_per_node))


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
        in_nodes = nodes * (pk.drives_in_controller_enclosure // base)
        max_shelves = None if pk.max_shelves is None else nodes * (pk.max_shelves // base)
    else:
        in_nodes = np.full_like(counts, pk.drives_in_controller_enclosure)
        max_shelves = pk.max_shelves
    if max_shelves is not None:
        shelves = np.ceil(np.maximum(0, counts + spares - in_nodes) / pk.drives_per_shelf)
        ok &= shelves <= max_shelves
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
    ``starts[f]:starts[f + 1]`` in ascending drive count."""

    families: tuple[Family, ...]
    family: IntArray
    drive_count: IntArray
    starts: IntArray

    @property
    def rows(self) -> int:
        return int(self.drive_count.size)


def candidate_space(families: Sequence[Family]) -> CandidateSpace:
    """Lay out the rows of ``families`` (counts from :func:`family_counts`)."""
    memo: dict[tuple, IntArray] = {}
    parts: list[IntArray] = []
    for fam in families:
        lay = fam.layout
        key = (fam.array.id, lay.scheme, lay.group_width, lay.copies)
        counts = memo.get(key)
        if counts is None:
            counts = memo[key] = family_counts(fam.array, lay)
        parts.append(counts)
    sizes = np.fromiter((p.size for p in parts), dtype=np.int64, count=len(parts))
    starts = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    counts_all = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return CandidateSpace(
        families=tuple(families),
        family=np.repeat(np.arange(len(parts), dtype=np.int64), sizes),
        drive_count=counts_all,
        starts=starts,
    )


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
        return math.isfinite(self.value) and self.value <= self.limit + 1e-9

    @property
    def ratio(self) -> float:
        return self.value / self.limit if self.limit > 0 else (0.0 if self.value <= 0 else math.inf)


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
            if not front_end:
                continue
            worst = np.maximum(worst, ratio(self.controller_pct[wi], self.controller_limit_pct))
            worst = np.maximum(worst, ratio(self.failover_pct[wi], self.failover_limit_pct))
            worst = np.maximum(worst, ratio(self.port_pct[wi], self.port_limit_pct))
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
    """Verdict of every row; :meth:`detail` gives every figure of chosen rows."""

    space: CandidateSpace
    passed: BoolArray
    capacity_passed: BoolArray
    modelled_rows: int  # rows whose drive model ran (the others failed capacity or a front-end check)
    model: BatchModel

    def detail(self, rows: npt.ArrayLike) -> RowDetail:
        return self.model.detail(np.asarray(rows, dtype=np.int64))

    def first_passing(self) -> IntArray:
        """Per family, the first (fewest drives) row that passes; -1 where none does."""
        sp = self.space
        n = sp.rows
        if n == 0:
            return np.full(len(sp.families), -1, dtype=np.int64)
        idx = np.where(self.passed, np.arange(n, dtype=np.int64), n)
        nonempty = sp.starts[:-1] < sp.starts[1:]
        out = np.full(len(sp.families), -1, dtype=np.int64)
        if np.any(nonempty):
            first = np.minimum.reduceat(idx, sp.starts[:-1][nonempty])
            out[nonempty] = np.where(first < n, first, -1)
        return out


# ---- the model -----------------------------------------------------------------------------------


@dataclass
class _Member:
    """One phase of a window: constants of evaluate()'s per-phase arithmetic."""

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
    """Front end of one (array, flash cache, nodes): everything that does not depend on the drives."""

    config: Configuration
    hits: list[list[tuple[float, float]]]  # [window][member] (h_dram, h_flash)
    controller_pct: list[float]
    controller_limit: float
    failover_pct: list[float | None]
    port_pct: list[float]
    front_ms: list[list[float]]  # [window][member]; inf when the controller or ports saturate
    ok: list[bool]  # per window: controllers, failover and ports within their limits


class BatchModel:
    """Prepared tables of one workload set over one candidate space (see the module docstring):
    per family its drive, layout and array; per row its capacity, state and segment; per state
    its front end; per segment and window the drive model's coefficients (:meth:`_coefficients`)."""

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
        self.ws_pool = [sum(m.ws_gb for m in ms) or 0.0 for ms in self.members]
        g, h = params.ncq_gain_max, params.ncq_q_half
        self.f_deep = ncq_factor(_Q_DEEP, g, h)
        self.queuing = g > 0
        self._tables()
        self._rows()
        self._states()
        self._coefficients()

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
        """Per-family indices into the drive, layout and array tables, and their parameters."""
        fams = self.space.families
        drive_ix: dict[str, int] = {}
        layout_by_id: dict[int, int] = {}
        layout_ix: dict[tuple, int] = {}
        array_ix: dict[str, int] = {}
        self.drives: list[DriveSpec] = []
        self.layouts: list[RaidLayout] = []
        self.arrays: list[ArrayModel] = []
        nf = len(fams)
        fd = np.empty(nf, dtype=np.int64)
        fl = np.empty(nf, dtype=np.int64)
        fa = np.empty(nf, dtype=np.int64)
        for f, fam in enumerate(fams):
            i = drive_ix.get(fam.drive.id)
            if i is None:
                i = drive_ix[fam.drive.id] = len(self.drives)
                self.drives.append(fam.drive)
            fd[f] = i
            j = layout_by_id.get(id(fam.layout))
            if j is None:
                lay = fam.layout
                key: tuple = (lay.scheme, lay.group_width, lay.ec_data, lay.ec_parity, lay.copies)
                key += (lay.full_stripe_share, lay.scatter)
                j = layout_ix.get(key)
                if j is None:
                    j = layout_ix[key] = len(self.layouts)
                    self.layouts.append(lay)
                layout_by_id[id(lay)] = j
            fl[f] = j
            k = array_ix.get(fam.array.id)
            if k is None:
                k = array_ix[fam.array.id] = len(self.arrays)
                self.arrays.append(fam.array)
            fa[f] = k
        self.fam_drive, self.fam_layout, self.fam_array = fd, fl, fa

        def col(values: list[float]) -> FloatArray:
            return np.asarray(values, dtype=np.float64)

        d = self.drives
        hdd = [x.kind is DriveKind.HDD for x in d]
        self.d_hdd = np.asarray(hdd, dtype=bool)
        self.d_ovh = col([x.overhead_ms for x in d])
        self.d_media = col([x.media_rate_mb_s for x in d])
        self.d_rate_w = col(
            [
                x.media_rate_mb_s if h else (x.seq_write_mb_s or x.media_rate_mb_s)
                for x, h in zip(d, hdd, strict=True)
            ]
        )
        pos: list[tuple[float, float, float, float]] = []  # (A_r, B_r, A_w, B_w): P = A + B sqrt(span)
        for x, h in zip(d, hdd, strict=True):
            if not h:
                pos.append((0.0, 0.0, 0.0, 0.0))
                continue
            assert x.avg_read_seek_ms is not None and x.avg_write_seek_ms is not None and x.rpm is not None
            a_r, a_w = x.avg_read_seek_ms, x.avg_write_seek_ms
            tr, tw = min(x.track_seek_ms, a_r), min(x.track_seek_ms, a_w)
            rot = 30_000.0 / x.rpm
            pos.append((tr + rot, a_r - tr, tw + rot, a_w - tw))
        self.d_pos = np.asarray(pos, dtype=np.float64).reshape(len(d), 4)
        self.d_rs_tb = col([x.usable_gib * GIB / TB for x in d])

        lays = self.layouts
        self.l_fanout = col([random_read_fanout(x) for x in lays])
        split = [write_cost_split(x) for x in lays]
        self.l_stripe = col([s for s, _ in split])
        self.l_random = col([r for _, r in split])
        self.l_seq = col([sequential_write_cost(x) for x in lays])
        self.l_eff = col([capacity_efficiency(x) for x in lays])
        self.l_replica = np.asarray([x.scheme is RaidScheme.REPLICA for x in lays], dtype=bool)
        self.l_copies = col([float(x.copies) for x in lays])
        self.l_width = np.asarray([x.group_width for x in lays], dtype=np.int64)
        # read-serving drives per drive: d / w for dedicated parity (RAID-DP/TEC), else all
        self.l_read_share = col([x.data_drives / x.group_width if x.dedicated_parity else 1.0 for x in lays])
        self.l_scatter = col([x.scatter for x in lays])
        self.a_keep = col(
            [
                (1 - a.capacity.filesystem_reserve_pct / 100.0)
                * (1 - a.capacity.snapshot_reserve_pct / 100.0)
                for a in self.arrays
            ]
        )

    def _rows(self) -> None:
        """Row constants that do not depend on the window (capacity), and the rows' states and segments."""
        sp = self.space
        fam = sp.family
        n = sp.drive_count
        # usable = n x efficiency x C_right-sized x (1 - reserves) [TB]; rows keep only this and
        # the capacity verdict (memory: ~10 million rows with custom builds)
        per_drive = self.l_eff[self.fam_layout] * self.d_rs_tb[self.fam_drive] * self.a_keep[self.fam_array]
        self.usable_tb = n * per_drive[fam]
        self.capacity_ok = self._fill_pct(slice(None)) <= self.headroom.capacity_max_fill_pct + 1e-9

        # states: (array, flash cache, nodes); scale-out arrays add nodes with the drive count
        state_ix: dict[tuple[str, float, int], int] = {}
        self.state_keys: list[tuple[str, float, int]] = []

        def state_of(key: tuple[str, float, int]) -> int:
            s = state_ix.get(key)
            if s is None:
                s = state_ix[key] = len(self.state_keys)
                self.state_keys.append(key)
            return s

        # segments: runs of rows sharing a family and a state (one per family unless nodes grow)
        nfam = len(sp.families)
        rows_of = sp.starts[1:] - sp.starts[:-1]
        fam_state = np.full(nfam, -1, dtype=np.int64)
        pieces = np.where(rows_of > 0, 1, 0)
        splits: dict[int, tuple[IntArray, IntArray]] = {}  # scale-out family -> (states, lengths)
        for f, family in enumerate(sp.families):
            if rows_of[f] == 0:
                continue
            if family.array.scale_out is None:
                fam_state[f] = state_of((family.array.id, family.flash_cache_gb, 0))
                continue
            nodes = _nodes(family.array, n[sp.starts[f] : sp.starts[f + 1]])
            values, lengths = np.unique(nodes, return_counts=True)  # nodes never fall as drives grow
            ids = [state_of((family.array.id, family.flash_cache_gb, int(v))) for v in values]
            splits[f] = (np.asarray(ids, dtype=np.int64), lengths.astype(np.int64))
            pieces[f] = len(ids)
        first_piece = np.concatenate([[0], np.cumsum(pieces)])
        nseg = int(first_piece[-1])
        seg_family = np.repeat(np.arange(nfam, dtype=np.int64), pieces)
        seg_state = fam_state[seg_family]
        seg_len = rows_of[seg_family]
        for f, (states, lengths) in splits.items():
            at = slice(int(first_piece[f]), int(first_piece[f + 1]))
            seg_state[at] = states
            seg_len[at] = lengths
        self.seg_family = seg_family
        self.seg_state = seg_state
        self.seg_start = np.cumsum(seg_len) - seg_len
        self.seg = np.repeat(np.arange(nseg, dtype=np.int64), seg_len)
        self.state = np.repeat(seg_state, seg_len)

    def _fill_pct(self, rows: IntArray | slice) -> FloatArray:
        """Capacity needed / usable [%] (inf without usable capacity)."""
        usable = self.usable_tb[rows]
        return np.divide(100.0 * self.needed_tb, usable, out=np.full_like(usable, np.inf), where=usable > 0)

    def _states(self) -> None:
        """Front-end figures of every state: caches, controllers, ports (see :meth:`_state`)."""
        _, first_seg = np.unique(self.seg_state, return_index=True)
        configs = []
        for s in range(len(self.state_keys)):
            seg = int(first_seg[s])
            row = int(self.seg_start[seg])
            family = self.space.families[int(self.seg_family[seg])]
            configs.append(family_configuration(family, int(self.space.drive_count[row]), self.headroom))
        # cache shares per state and window, then every hit ratio at once
        share_memo: dict[tuple, int] = {}
        queries: list[tuple] = []
        slots: list[list[list[int]]] = []  # [state][window][member] -> query index (-1: no working set)
        for cfg in configs:
            ctrl, ccfg = cfg.controller, cfg.cache
            dram_total = ctrl.dram_cache_gb * ctrl.serving
            flash_total = ccfg.flash_cache_gb * (ctrl.serving / ctrl.serving)
            per_window = []
            for members in self.members:
                ws_list = [m.ws_gb for m in members]
                rr = [
                    m.phase.effective_iops * m.phase.read_pct / 100.0 * m.phase.random_pct / 100.0
                    for m in members
                ]
                dram_share = cache_shares_gb(dram_total, ws_list, rr)
                both_share = cache_shares_gb(dram_total + flash_total, ws_list, rr)
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
        # read latency of a phase = c + k x R_miss, with (evaluate's R_read regrouped)
        # c = front end + rnd (h_d t_hit + h_f t_flash) + (1 - rnd) t_hit (inf when saturated), k = rnd x miss
        hit_ms = np.asarray([st.config.controller.cache_hit_ms for st in sts], dtype=np.float64)[:, None]
        flash_ms = np.asarray([st.config.cache.flash_hit_ms for st in sts], dtype=np.float64)[:, None]
        self.st_lat_c: list[FloatArray] = []
        self.st_lat_k: list[FloatArray] = []
        for wi in range(nw):
            rnd = np.asarray([m.rnd for m in self.members[wi]], dtype=np.float64)[None, :]
            front = table(lambda st, w, i: st.front_ms[w][i], wi)
            hd, hf = self.st_hd[wi], self.st_hf[wi]
            self.st_lat_c.append(front + rnd * (hd * hit_ms + hf * flash_ms) + (1 - rnd) * hit_ms)
            self.st_lat_k.append(rnd * np.maximum(0.0, 1 - hd - hf))
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
        self.st_ctrl = np.asarray([st.controller_pct for st in sts], dtype=np.float64).reshape(ns, nw)
        self.st_ctrl_limit = np.asarray([st.controller_limit for st in sts], dtype=np.float64)
        self.st_fo = np.asarray(
            [[np.nan if v is None else v for v in st.failover_pct] for st in sts], dtype=np.float64
        ).reshape(ns, nw)
        self.st_port = np.asarray([st.port_pct for st in sts], dtype=np.float64).reshape(ns, nw)

    def _state(self, cfg: Configuration, hits: list[list[tuple[float, float]]]) -> _State:
        """As :func:`evaluate._evaluate_window` computes controllers, ports and front-end latency."""
        p = self.p
        ctrl = cfg.controller
        serving = ctrl.serving
        st = _State(
            config=cfg,
            hits=hits,
            controller_pct=[],
            controller_limit=cfg.headroom.controller_limit_pct(ctrl.ha_mode),
            failover_pct=[],
            port_pct=[],
            front_ms=[],
            ok=[],
        )
        port_rate = max(pg.mb_s_per_port for pg in cfg.ports)
        for wi, members in enumerate(self.members):
            pairs = list(zip(members, hits[wi], strict=True))
            load = ControllerLoad(
                read_hits=sum(
                    m.phase.effective_iops
                    * m.phase.read_pct
                    / 100
                    * (1 - m.phase.random_pct / 100 + m.phase.random_pct / 100 * (hd + hf))
                    for m, (hd, hf) in pairs
                ),
                read_misses=sum(
                    m.phase.effective_iops
                    * m.phase.read_pct
                    / 100
                    * m.phase.random_pct
                    / 100
                    * max(0.0, 1 - hd - hf)
                    for m, (hd, hf) in pairs
                ),
                writes=sum(m.phase.effective_iops * (1 - m.phase.read_pct / 100) for m in members),
                kib_per_s=sum(m.phase.effective_iops * m.phase.mean_size_kib for m in members),
                dedupe=any(m.workload.dedupe_ratio > 1 for m in members),
                compression=any(m.workload.compression_ratio > 1 for m in members),
                replication=any(m.workload.replication.mode.value != "none" for m in members),
            )
            u_ctrl = controller_utilization(load, ctrl, serving)
            ok = 100 * u_ctrl <= st.controller_limit + 1e-9
            st.controller_pct.append(100 * u_ctrl)
            after = ctrl.serving_after_failover
            fo: float | None = None
            if ctrl.count >= 2 and after >= 1 and ctrl.ha_mode is not HaMode.SINGLE:
                fo = 100 * controller_utilization(load, ctrl, after)
                ok = ok and fo <= cfg.headroom.failover_max_pct + 1e-9
            st.failover_pct.append(fo)
            mb_s = sum(m.phase.effective_mb_s for m in members)
            u_port = port_utilization(mb_s, cfg.ports)
            st.port_pct.append(100 * u_port)
            ok = ok and 100 * u_port <= cfg.headroom.port_max_pct + 1e-9
            st.ok.append(ok)
            s_cpu = cpu_us_per_io(load, ctrl) / 1000.0
            c = max(ctrl.cores, 1.0)
            r_ctrl = None if u_ctrl >= 1 else s_cpu * (c - 1) / c + (s_cpu / c) / (1 - u_ctrl)
            fronts = []
            for m in members:
                s_port = transfer_ms(m.mean_kib, port_rate)
                r_port = None if u_port >= 1 else s_port / (1 - u_port)
                front = None if (r_ctrl is None or r_port is None) else r_ctrl + r_port + p.host_overhead_ms
                fronts.append(math.inf if front is None else front)
            st.front_ms.append(fronts)
        return st

    def _coefficients(self) -> None:
        """Per segment and window, the drive model as a function of ``r = sqrt(span)`` alone.

        Sums, over the window's phases and I/O sizes, the terms of :func:`evaluate._pool_demand`:
        random reads ``r_miss x fanout x (t_ovh + t_xfer + P_r)``, prefetched sequential reads and
        full-stripe / sequential writes streaming at the media rate with ``t_ovh + P`` per run,
        partial-stripe writes ``w x c_random x (t_ovh + t_xfer + P_w)``; SSDs have ``P = 0`` and a
        service of ``max(1 / IOPS_4k, t_xfer)`` per I/O. With busy time ``A + C P`` and
        ``P = (A_pos + B_pos r) x ncq``::

            1000 n U_1    = alpha_1 + beta_1 r      (queue of one, ncq = 1)
            1000 n U_deep = alpha_d + beta_1 f r    (deep queue, f = ncq(10^9))
            busy_1        = gamma_1 + delta_1 r     (read + write busy [ms/s]; deep: gamma_d + delta_1 f r)
            miss service  = mu_0 + (mu_pos + mu_1 r) x ncq   (sum over read misses of their service)
        """
        p = self.p
        fd = self.f_deep
        seg_f = self.seg_family
        drv = self.fam_drive[seg_f]
        lay = self.fam_layout[seg_f]
        hdd = self.d_hdd[drv]
        ovh = self.d_ovh[drv]
        media = self.d_media[drv]
        rate_w = self.d_rate_w[drv]
        fanout = self.l_fanout[lay]
        c_stripe = self.l_stripe[lay]
        c_random = self.l_random[lay]
        c_seq = self.l_seq[lay]
        a_r, b_r, a_w, b_w = (self.d_pos[drv, k] for k in range(4))
        share = self.l_read_share[lay]
        nseg = seg_f.size
        ssd_drives = [i for i, d in enumerate(self.drives) if d.kind is not DriveKind.HDD]
        ssd_sel = {i: drv == i for i in ssd_drives}
        self.coef: list[dict[str, FloatArray]] = []
        self.seg_ssd_latency: list[dict[int, FloatArray]] = []
        for wi, members in enumerate(self.members):
            ra, rc, wa, wc, ma, mr = (np.zeros(nseg) for _ in range(6))
            miss_of_state = np.maximum(0.0, 1.0 - self.st_hd[wi] - self.st_hf[wi])
            for i, m in enumerate(members):
                if m.iops <= 0:
                    continue
                miss = miss_of_state[self.seg_state, i]
                for size, frac in m.phase.size_mix:
                    xfer = size * KIB / (media * MB) * 1000.0
                    base_r = np.where(hdd, ovh + xfer, 0.0)
                    base_w = base_r.copy()
                    for di, sel in ssd_sel.items():
                        base_r[sel] = ssd_service_ms(self.drives[di], size, is_read=True)
                        base_w[sel] = ssd_service_ms(self.drives[di], size, is_read=False)
                    r_miss = m.reads * m.rnd * frac * miss
                    ops = r_miss * fanout
                    ra += ops * base_r
                    rc += ops
                    ma += r_miss * base_r
                    mr += r_miss
                    seq_kib = m.reads * (1.0 - m.rnd) * frac * size
                    runs = seq_kib / max(p.sequential_run_kib, size)
                    ra += seq_kib * KIB / (media * MB) * 1000.0 + runs * ovh
                    rc += runs
                    w_rnd = m.writes_be * m.rnd * frac
                    wa += w_rnd * c_random * base_w
                    wc += w_rnd * c_random
                    stripe_kib = w_rnd * c_stripe * size
                    s_runs = stripe_kib / p.stripe_run_kib
                    wa += stripe_kib * KIB / (rate_w * MB) * 1000.0 + s_runs * ovh
                    wc += s_runs
                    seq_w_kib = m.writes_be * (1.0 - m.rnd) * frac * size * c_seq
                    w_runs = seq_w_kib / max(p.sequential_run_kib, size)
                    wa += seq_w_kib * KIB / (rate_w * MB) * 1000.0 + w_runs * ovh
                    wc += w_runs
            self.coef.append(
                {
                    "alpha_1": (ra + rc * a_r) / share + (wa + wc * a_w),
                    "alpha_d": (ra + rc * (a_r * fd)) / share + (wa + wc * (a_w * fd)),
                    "beta_1": rc * b_r / share + wc * b_w,
                    "gamma_1": ra + wa + rc * a_r + wc * a_w,
                    "gamma_d": ra + wa + (rc * a_r + wc * a_w) * fd,
                    "delta_1": rc * b_r + wc * b_w,
                    "mu_0": ma,
                    "mu_pos": mr * a_r,
                    "mu_1": mr * b_r,
                    "miss_rate": mr,
                    "ops": rc + wc,
                }
            )
            lat: dict[int, FloatArray] = {}
            for i, m in enumerate(members):
                if m.rf <= 0 and m.target_ms is None:
                    continue
                v = np.zeros(nseg)
                for di, sel in ssd_sel.items():
                    v[sel] = ssd_latency_ms(self.drives[di], m.mean_kib)
                lat[i] = v
            self.seg_ssd_latency.append(lat)
        self.seg_hdd = hdd
        self.seg_scatter = self.l_scatter[lay]

    # -- evaluation

    def _root_span(self, wi: int, rows: IntArray | slice, seg: IntArray) -> FloatArray:
        """``sqrt(seek_span(W / usable, scatter, floor))`` of each row."""
        usable_gb = self.usable_tb[rows] * 1000.0
        frac = np.divide(self.ws_pool[wi], usable_gb, out=np.ones_like(usable_gb), where=usable_gb > 0)
        s0 = np.minimum(1.0, np.maximum(self.p.min_span_fraction, frac))
        return np.asarray(np.sqrt(s0 + self.seg_scatter[seg] * (1.0 - s0)), dtype=np.float64)

    def _bounds(
        self, wi: int, rows: IntArray | slice, seg: IntArray, root: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """Drive utilization at a queue of one and at a deep queue: ``U_deep <= U <= U_1``."""
        co = self.coef[wi]
        scale = 1000.0 * self.space.drive_count[rows]
        beta = co["beta_1"][seg]
        u1 = (co["alpha_1"][seg] + beta * root) / scale
        if not self.queuing:
            return u1, u1
        ud = (co["alpha_d"][seg] + beta * self.f_deep * root) / scale
        return u1, ud

    def _queuing_weight(self, u1: FloatArray, ud: FloatArray) -> FloatArray:
        """``w = (ncq(q) - ncq_deep) / (1 - ncq_deep)`` at the command-queuing fixed point (closed form)."""
        if not self.queuing:
            return np.ones_like(u1)
        g, h, fd = self.p.ncq_gain_max, self.p.ncq_q_half, self.f_deep
        b = (u1 - ud) / (1.0 - fd)
        a = ud - b * fd
        a2 = (1.0 + g) * (1.0 - a) - b
        a1 = h * (1.0 - u1) - a * (1.0 + g) - b
        with np.errstate(invalid="ignore", divide="ignore"):
            root = np.sqrt(a1 * a1 + 4.0 * a2 * h * u1)
            x = np.where(a1 >= 0, 2.0 * h * u1 / (a1 + root), (root - a1) / (2.0 * a2))
        x = np.where(u1 > 0, x, 0.0)
        x = np.where((a2 > 0) & (x < 999.0), x, _Q_SATURATED - 1.0)
        # evaluate() stops at once when its first step moves the queue less than 1e-6
        first = np.where(u1 < 0.999, u1 / (1.0 - u1), 1000.0)
        x = np.where(np.abs(first) < 1e-6, 0.0, x)
        ncq = (x + h) / ((1.0 + g) * x + h)
        return np.asarray((ncq - fd) / (1.0 - fd), dtype=np.float64)

    def _latencies(
        self,
        wi: int,
        rows: IntArray,
        seg: IntArray,
        root: FloatArray,
        u1: FloatArray,
        ud: FloatArray,
        every: bool,
        upper: bool = False,
    ) -> tuple[FloatArray, dict[int, FloatArray], FloatArray]:
        """Utilization, read latency of each phase (targeted ones, or ``every`` reading one) and the
        window's IOPS-weighted read latency (inf when saturated).

        With ``upper``, at a queue of one instead of the fixed point: an upper bound of each figure
        (``U <= U_1``, busy and miss service no longer than at q = 1, and latency rises with all three).
        """
        co = self.coef[wi]
        w = np.ones_like(u1) if upper else self._queuing_weight(u1, ud)
        u = ud + w * (u1 - ud)
        fd = self.f_deep if self.queuing else 1.0
        busy_1 = co["gamma_1"][seg] + co["delta_1"][seg] * root
        busy_d = co["gamma_d"][seg] + co["delta_1"][seg] * fd * root
        busy = busy_d + w * (busy_1 - busy_d)
        pos = co["mu_pos"][seg] + co["mu_1"][seg] * root  # sum over misses of their positioning at q = 1
        ms_1 = co["mu_0"][seg] + pos
        ms_d = co["mu_0"][seg] + pos * fd
        ms = ms_d + w * (ms_1 - ms_d)
        ops = co["ops"][seg]
        mr = co["miss_rate"][seg]
        mean_all = busy / np.maximum(ops, 1e-12)
        mean_read = np.where(mr > 0, ms / np.where(mr > 0, mr, 1.0), mean_all)
        scv = self.p.drive_service_scv
        with np.errstate(divide="ignore", invalid="ignore"):
            wait = np.where(u < 1, u * mean_all * (1.0 + scv) / (2.0 * (1.0 - u)), np.inf)
        wait = np.where(ops > 0, wait, 0.0)
        base = np.where(self.seg_hdd[seg], mean_read, 0.0)
        state = self.state[rows]
        phases: dict[int, FloatArray] = {}
        rl_sum = np.zeros(rows.size)
        r_w = 0.0
        saturated = np.zeros(rows.size, dtype=bool)
        for i, m in enumerate(self.members[wi]):
            if m.target_ms is None and not (every and m.rf > 0):
                continue
            r_miss = base + self.seg_ssd_latency[wi][i][seg] + wait  # one of the two is 0
            k = self.st_lat_k[wi][state, i]
            with np.errstate(invalid="ignore"):
                read_ms = self.st_lat_c[wi][state, i] + np.where(k > 0, k * r_miss, 0.0)
            phases[i] = read_ms
            if every and m.rf > 0:
                bad = ~np.isfinite(read_ms)
                saturated |= bad
                rl_sum += np.where(bad, 0.0, read_ms) * m.iops * m.rf
                r_w += m.iops * m.rf
        window = np.where(saturated, np.inf, rl_sum / r_w if r_w else 0.0)
        return u, phases, np.asarray(window, dtype=np.float64)

    def _meets(
        self,
        wi: int,
        rows: IntArray,
        seg: IntArray,
        root: FloatArray,
        u1: FloatArray,
        ud: FloatArray,
        lim: float,
        upper: bool = False,
    ) -> BoolArray:
        """Whether the drives and every read-latency target of window ``wi`` are within their limits."""
        u, phases, _ = self._latencies(wi, rows, seg, root, u1, ud, every=False, upper=upper)
        keep = 100 * u <= lim
        for i, read_ms in phases.items():
            target = self.members[wi][i].target_ms
            assert target is not None
            keep &= read_ms <= target + 1e-9
        return np.asarray(keep, dtype=bool)

    def passed(self, prune: bool = True) -> tuple[BoolArray, int]:
        """Verdict of every row and the number of rows whose drive model ran.

        Rows go through in contiguous chunks, windows without latency targets first. The drive
        check is settled by the bounds ``U_deep <= U <= U_1`` where they settle it, by the fixed
        point for the rows in between; in windows with read-latency targets, by the latencies at a
        queue of one (upper bounds) where those meet the targets, by the fixed point for the rest. With ``prune``, a chunk (or the rest of its windows) is
        skipped once every row in it fails capacity or a drive-independent check (controllers,
        failover, ports), or an earlier window: the verdict is the same.
        """
        n = self.space.rows
        base = self.capacity_ok & self.st_ok[self.state]
        ok = np.zeros(n, dtype=bool)
        lim = self.headroom.drive_max_pct + 1e-9
        targeted = [any(m.target_ms is not None for m in ms) for ms in self.members]
        windows = sorted(range(len(self.windows)), key=lambda wi: targeted[wi])
        modelled = 0
        for lo in range(0, n, CHUNK_ROWS):
            rows = slice(lo, min(n, lo + CHUNK_ROWS))
            good = base[rows].copy()
            if prune and not good.any():
                continue
            modelled += int(good.size if not prune else np.count_nonzero(good))
            seg = self.seg[rows]
            for wi in windows:
                if prune and not good.any():
                    break
                root = self._root_span(wi, rows, seg)
                u1, ud = self._bounds(wi, rows, seg, root)
                if targeted[wi]:
                    # settled by the upper bounds at a queue of one where they meet every limit,
                    # by the fixed point for the rest
                    sub = np.flatnonzero(good & (100 * ud <= lim))
                    keep = self._meets(wi, lo + sub, seg[sub], root[sub], u1[sub], ud[sub], lim, upper=True)
                    rest = np.flatnonzero(~keep)
                    if rest.size:
                        at = sub[rest]
                        keep[rest] = self._meets(wi, lo + at, seg[at], root[at], u1[at], ud[at], lim)
                    good[:] = False
                    good[sub] = keep
                    continue
                sure = 100 * u1 <= lim
                unsure = np.flatnonzero(good & ~sure & (100 * ud <= lim))
                good &= sure
                if unsure.size:
                    w = self._queuing_weight(u1[unsure], ud[unsure])
                    u = ud[unsure] + w * (u1[unsure] - ud[unsure])
                    good[unsure] = 100 * u <= lim
            ok[rows] = good
        return ok, modelled

    def detail(self, rows: IntArray) -> RowDetail:
        """Every figure of ``rows`` (meant for a few thousand rows: the chosen ones)."""
        sp = self.space
        rows = np.asarray(rows, dtype=np.int64)
        seg = self.seg[rows]
        state = self.state[rows]
        nw = len(self.windows)
        k = rows.size
        drive = np.zeros((nw, k))
        lat = np.zeros((nw, k))
        targets = [
            (wi, f"{m.workload.name}/{m.phase.name}", float(m.target_ms), i)
            for wi, ms in enumerate(self.members)
            for i, m in enumerate(ms)
            if m.target_ms is not None
        ]
        phase_lat = np.zeros((len(targets), k))
        for wi in range(nw):
            root = self._root_span(wi, rows, seg)
            u1, ud = self._bounds(wi, rows, seg, root)
            u, phases, window = self._latencies(wi, rows, seg, root, u1, ud, every=True)
            drive[wi] = 100 * u
            lat[wi] = window
            for t, (twi, _, _, i) in enumerate(targets):
                if twi == wi:
                    phase_lat[t] = phases[i]
        # bill, as evaluate._bill
        n = sp.drive_count[rows]
        fam_ix = sp.family[rows]
        fams = sp.families
        per = np.asarray(
            [
                math.nan if fams[f].array.spares.per_drives is None else fams[f].array.spares.per_drives
                for f in fam_ix
            ],
            dtype=np.float64,
        )
        least = np.asarray([fams[f].array.spares.min_spares for f in fam_ix], dtype=np.int64)
        with np.errstate(invalid="ignore"):
            spares = np.where(np.isnan(per), least, np.maximum(least, np.ceil(n / per))).astype(np.int64)
        total = n + spares
        pk = self.st_pack[state]
        shelves = np.ceil(np.maximum(0, total - pk[:, 0]) / pk[:, 1])
        ru = pk[:, 2] + shelves * pk[:, 3]
        drive_w = np.asarray([fams[f].drive.power_w for f in fam_ix], dtype=np.float64)  # None -> nan
        price = np.asarray([fams[f].drive.price_usd for f in fam_ix], dtype=np.float64)
        flash_gb = np.asarray([fams[f].flash_cache_gb for f in fam_ix], dtype=np.float64)
        power = pk[:, 4] + shelves * pk[:, 5] + total * drive_w
        cost = pk[:, 6] + shelves * pk[:, 7] + flash_gb * pk[:, 8] + total * price
        shelves = shelves.astype(np.int64)
        hr = self.headroom
        ctrl = self.st_ctrl[state].T
        fo = self.st_fo[state].T
        port = self.st_port[state].T
        ctrl_limit = self.st_ctrl_limit[state]
        passed = self.capacity_ok[rows].copy()
        passed &= np.all(drive <= hr.drive_max_pct + 1e-9, axis=0)
        passed &= np.all(ctrl <= ctrl_limit + 1e-9, axis=0)
        passed &= np.all(np.isnan(fo) | (fo <= hr.failover_max_pct + 1e-9), axis=0)
        passed &= np.all(port <= hr.port_max_pct + 1e-9, axis=0)
        for t, (_, _, target, _) in enumerate(targets):
            passed &= phase_lat[t] <= target + 1e-9
        return RowDetail(
            rows=rows,
            windows=self.windows,
            drive_count=n,
            spares=spares,
            shelves=shelves,
            rack_units=ru,
            power_w=power,
            cost_usd=cost,
            usable_tb=self.usable_tb[rows],
            fill_pct=self._fill_pct(rows),
            capacity_limit_pct=hr.capacity_max_fill_pct,
            drive_pct=drive,
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
) -> BatchEvaluation:
    """Evaluate every row of ``space`` against every window of ``workloads`` (see the module docstring).

    ``headroom`` is applied to every row (as :func:`family_configuration` does). With ``prune``,
    rows failing capacity or a drive-independent check skip the drive model (their verdict is the same).
    """
    check_batchable(workloads)
    model = BatchModel(workloads, space, params or EngineParameters(), headroom or HeadroomTargets())
    ok, modelled = model.passed(prune)
    return BatchEvaluation(
        space=space, passed=ok, capacity_passed=model.capacity_ok, modelled_rows=modelled, model=model
    )
