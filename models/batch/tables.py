"""The batch path's first stages: the workload side (:class:`Demand`), the drive, layout and array
tables of a candidate space (:class:`Tables`), and its segments and states (:class:`Segments`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from models.architecture import (
    stream_prefetch_kib,
    written_layout,
)
from models.batch.arrays import BoolArray, FloatArray, IntArray
from models.batch.plans import _stack
from models.batch.space import CandidateSpace, family_nodes
from models.capacity import physical_needed_tb
from models.catalog import ArrayModel
from models.configuration import HeadroomTargets
from models.drives import (
    DriveKind,
    DriveSpec,
    DriveTimes,
    drive_times,
    drive_writes_per_day,
    positioning_units,
)
from models.parameters import EngineParameters
from models.pool import (
    ncq_parameters,
)
from models.raid import (
    AccessPlan,
    RaidLayout,
    RaidScheme,
    capacity_efficiency,
    read_plan,
    stream_read_plan,
    stream_run_kib,
    stream_segment_kib,
    stream_write_plan,
    write_plan,
)
from models.units import GIB, TB
from models.workload import Phase, Workload, windows_of


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


@dataclass(frozen=True)
class Demand:
    """The workload side: its windows, each window's phases (:class:`_Member`), the physical
    capacity it needs [TB], each window's MB/s and the planned fill (share)."""

    workloads: list[Workload]
    windows: tuple[str, ...]
    members: list[list[_Member]]
    needed_tb: float
    window_mb_s: list[float]
    fill: float


def demand(workloads: list[Workload], headroom: HeadroomTargets) -> Demand:
    windows = tuple(windows_of(workloads))
    members = [
        [_member(w, ph) for w in workloads for ph in w.phases if ph.window == window] for window in windows
    ]
    return Demand(
        workloads=workloads,
        windows=windows,
        members=members,
        needed_tb=sum(physical_needed_tb(w) for w in workloads),
        window_mb_s=[sum(m.phase.effective_mb_s for m in ms) for ms in members],
        fill=headroom.capacity_max_fill_pct / 100.0,
    )


@dataclass
class Tables:
    """Per family its indices into the drive, layout and array tables; per drive its times,
    queuing, capacity, endurance, power and price; per layout (as written, with the aggregate
    fill) its geometry and stream plans; per array its spare policy and reserves."""

    params: EngineParameters
    drives: list[DriveSpec]
    layouts: list[tuple[RaidLayout, float]]  # (layout, aggregate fill)
    arrays: list[ArrayModel]
    fam_drive: IntArray
    fam_layout: IntArray
    fam_array: IntArray
    fam_ctrl_factor: FloatArray  # the family's controller margin (Family.controller_factor; nan: none)
    d_times: FloatArray
    d_hdd: BoolArray
    d_units: FloatArray  # positioning units per drive (models.drives.positioning_units)
    d_g: FloatArray
    d_h: FloatArray
    d_limit: FloatArray
    d_rs_tb: FloatArray
    d_dwpd_per_kib: FloatArray
    d_rated_dwpd: FloatArray
    d_power_w: FloatArray
    d_price_usd: FloatArray
    l_eff: FloatArray
    l_width: FloatArray
    l_parity: FloatArray
    l_scatter: FloatArray
    l_prefetch: FloatArray  # each layout's array's stream prefetch [KiB]
    l_ra_run: FloatArray
    a_spare_per: FloatArray
    a_spare_min: IntArray
    a_keep: FloatArray
    plan_memo: dict[float, tuple[FloatArray, FloatArray]] = field(default_factory=dict)
    stream_memo: dict[float, tuple[FloatArray, FloatArray]] = field(default_factory=dict)

    def stream_plans(self, size_kib: float) -> tuple[FloatArray, FloatArray]:
        """Sequential read and write plans of every layout for I/Os (or a host readahead) of
        ``size_kib``, each request :func:`models.raid.stream_segment_kib` of its array's prefetch
        and the size (rows of a table)."""
        got = self.stream_memo.get(size_kib)
        if got is None:
            width = len(AccessPlan._fields)
            segs = [float(stream_segment_kib(ra, size_kib)) for ra in self.l_prefetch]
            lays = [lay for lay, _ in self.layouts]
            got = self.stream_memo[size_kib] = (
                _stack([tuple(stream_read_plan(x, g)) for x, g in zip(lays, segs, strict=True)], width),
                _stack([tuple(stream_write_plan(x, g)) for x, g in zip(lays, segs, strict=True)], width),
            )
        return got

    def random_plans(self, size: float) -> tuple[FloatArray, FloatArray]:
        """Random read and write access plans of every layout at one I/O size (rows of a table)."""
        got = self.plan_memo.get(size)
        if got is None:
            width = len(AccessPlan._fields)
            run = self.params.stripe_run_kib
            got = (
                _stack([tuple(read_plan(x, size)) for x, _ in self.layouts], width),
                _stack(
                    [tuple(write_plan(x, size, fill=f, stripe_run_kib=run)) for x, f in self.layouts], width
                ),
            )
            self.plan_memo[size] = got
        return got


def tables(space: CandidateSpace, params: EngineParameters, fill_share: float) -> Tables:
    """Per-family indices into the drive, layout and array tables; drive prices and layout geometry."""
    fams = space.families
    drive_ix: dict[str, int] = {}
    layout_ix: dict[tuple, int] = {}
    by_object: dict[tuple[int, float], int] = {}
    array_ix: dict[str, int] = {}
    drives: list[DriveSpec] = []
    layouts: list[tuple[RaidLayout, float]] = []
    prefetches: list[float] = []  # each layout's array's stream prefetch [KiB]
    arrays: list[ArrayModel] = []
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
                i = drive_ix[fam.drive.id] = len(drives)
                drives.append(fam.drive)
            drive_of[id(fam.drive)] = i
        fd[f] = i
        got = pair_of.get((id(fam.array), id(fam.layout)))
        if got is None:
            k = array_ix.get(fam.array.id)
            if k is None:
                k = array_ix[fam.array.id] = len(arrays)
                arrays.append(fam.array)
            fill = fill_share * (1.0 - fam.array.capacity.filesystem_reserve_pct / 100.0)
            j = by_object.get((id(fam.layout), fill))
            if j is None:
                lay = written_layout(fam.layout, fam.array.architecture)
                prefetch = stream_prefetch_kib(fam.array.architecture, params.readahead_kib)
                key = (tuple(getattr(lay, name) for name in RaidLayout.model_fields), fill, prefetch)
                j = layout_ix.get(key)
                if j is None:
                    j = layout_ix[key] = len(layouts)
                    layouts.append((lay, fill))
                    prefetches.append(prefetch)
                by_object[(id(lay), fill)] = j
            got = pair_of[(id(fam.array), id(fam.layout))] = (k, j)
        fa[f], fl[f] = got

    d = drives
    ncq = [ncq_parameters(x, params) for x in d]
    lays = [lay for lay, _ in layouts]
    l_prefetch = np.asarray(prefetches, dtype=np.float64)
    return Tables(
        params=params,
        drives=drives,
        layouts=layouts,
        arrays=arrays,
        fam_drive=fd,
        fam_layout=fl,
        fam_array=fa,
        fam_ctrl_factor=np.fromiter(
            (math.nan if f.controller_factor is None else f.controller_factor for f in fams),
            dtype=np.float64,
            count=nf,
        ),
        d_times=_stack([tuple(drive_times(x, fill_share)) for x in d], len(DriveTimes._fields)),
        d_hdd=np.asarray([x.kind is DriveKind.HDD for x in d], dtype=bool),
        d_units=np.asarray([positioning_units(x) for x in d], dtype=np.float64),
        d_g=np.asarray([g for g, _, _ in ncq], dtype=np.float64),
        d_h=np.asarray([h for _, h, _ in ncq], dtype=np.float64),
        d_limit=np.asarray([lim for _, _, lim in ncq], dtype=np.float64),
        d_rs_tb=np.asarray([x.usable_gib * GIB / TB for x in d], dtype=np.float64),
        # endurance: DWPD per wear KiB/s on one drive (drives.drive_writes_per_day) and the rating (nan: none)
        d_dwpd_per_kib=np.asarray([drive_writes_per_day(1.0, x) for x in d], dtype=np.float64),
        d_rated_dwpd=np.asarray(
            [math.nan if x.endurance_dwpd is None else x.endurance_dwpd for x in d], dtype=np.float64
        ),
        # the bill's per-drive power and price (None -> nan)
        d_power_w=np.asarray([x.power_w for x in d], dtype=np.float64),
        d_price_usd=np.asarray([x.price_usd for x in d], dtype=np.float64),
        l_eff=np.asarray([capacity_efficiency(x) for x in lays], dtype=np.float64),
        l_width=np.asarray([x.group_width for x in lays], dtype=np.float64),
        l_parity=np.asarray([x.parity_drives if x.dedicated_parity else 0 for x in lays], dtype=np.float64),
        l_scatter=np.asarray([x.scatter for x in lays], dtype=np.float64),
        l_prefetch=l_prefetch,
        l_ra_run=np.asarray(
            [stream_run_kib(x, ra) for x, ra in zip(lays, l_prefetch, strict=True)], dtype=np.float64
        ),
        # the bill's per-array spare policy
        a_spare_per=np.asarray(
            [math.nan if a.spares.per_drives is None else a.spares.per_drives for a in arrays],
            dtype=np.float64,
        ),
        a_spare_min=np.asarray([a.spares.min_spares for a in arrays], dtype=np.int64),
        a_keep=np.asarray(
            [
                (1 - a.capacity.filesystem_reserve_pct / 100.0)
                * (1 - a.capacity.snapshot_reserve_pct / 100.0)
                for a in arrays
            ],
            dtype=np.float64,
        ),
    )


@dataclass
class Segments:
    """Per family its usable TB per drive and flash cache; the states (array, flash cache, nodes,
    erasure-coded layout) in the order segments first meet them; per segment (a run of rows
    sharing a family and a state) its family, state, first row and length."""

    fam_usable_per_drive: FloatArray
    fam_flash_gb: FloatArray
    state_keys: list[tuple[str, float, int, int]]
    seg_family: IntArray
    seg_state: IntArray
    seg_start: IntArray
    seg_len: IntArray
    row_seg: IntArray | None = None

    @property
    def seg(self) -> IntArray:
        """The segment of every row (built on first use)."""
        if self.row_seg is None:
            self.row_seg = np.repeat(np.arange(self.seg_len.size, dtype=np.int64), self.seg_len)
        return self.row_seg

    def of(self, rows: IntArray) -> IntArray:
        """The segment of each of ``rows`` (``seg[rows]``)."""
        if self.row_seg is not None:
            return np.take(self.row_seg, rows)
        return np.searchsorted(self.seg_start, rows, side="right").astype(np.int64) - 1


def segments(space: CandidateSpace, tb: Tables) -> Segments:
    """Row constants that do not depend on the window (capacity), and the rows' states and segments."""
    sp = space
    # usable = n x efficiency x C_right-sized x (1 - reserves) [TB]: per family the factor of
    # n (rows compute it when evaluated: memory and time, ~20 million rows with custom builds)
    fam_usable_per_drive = tb.l_eff[tb.fam_layout] * tb.d_rs_tb[tb.fam_drive] * tb.a_keep[tb.fam_array]

    # states: (array, flash cache, nodes, layout); scale-out arrays add nodes with the drive
    # count, and their node CPU depends on an erasure-coded layout (a write's chunk operations,
    # models.controller.controller_load), so their erasure-coded states are per layout too.
    # Segments: runs of rows sharing a family and a state (one per family unless nodes grow).
    nfam = len(sp.families)
    rows_of = sp.starts[1:] - sp.starts[:-1]
    scale_out = np.asarray([a.scale_out is not None for a in tb.arrays], dtype=bool).reshape(-1)
    so_fam = scale_out[tb.fam_array] & (rows_of > 0)
    pieces = np.where(rows_of > 0, 1, 0)
    so_ix = np.flatnonzero(so_fam)
    run_nodes_parts: list[IntArray] = []
    run_len_parts: list[IntArray] = []
    # nodes of every drive count of a scale-out family (:func:`family_nodes`), then its runs (nodes
    # never fall as drives grow, so each run is one node count); once per array and array of
    # counts (the families of one array and layout share their counts)
    runs_memo: dict[tuple[str, int], tuple[IntArray, IntArray]] = {}
    for f in so_ix.tolist():
        array = sp.families[f].array
        counts = sp.counts[f]
        memo_key = (array.id, id(counts))
        got = runs_memo.get(memo_key)
        if got is None:
            nodes = family_nodes(array, counts)
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
    flash = np.asarray([f.flash_cache_gb for f in sp.families], dtype=np.float64)
    flash_values, flash_ix = np.unique(flash, return_inverse=True)
    seg_array = tb.fam_array[seg_family]
    n_layouts = int(tb.fam_layout.max(initial=0)) + 2
    # only an erasure-coded layout (as written) changes a node's CPU (models.architecture.node_stripes
    # is None for every other layout), so other layouts share their (array, flash, nodes) state
    erasure = np.asarray([lay.scheme is RaidScheme.ERASURE for lay, _ in tb.layouts], dtype=bool)
    fam_lay = tb.fam_layout[seg_family]
    seg_layout = np.where(on_so & erasure[fam_lay], fam_lay + 1, 0)  # 0: not an erasure-coded scale-out
    key = (
        (seg_array * flash_values.size + flash_ix[seg_family]) * (int(seg_nodes.max(initial=0)) + 1)
        + seg_nodes
    ) * n_layouts + seg_layout
    _, first_seg, inverse = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(first_seg.size, dtype=np.int64)
    rank[np.argsort(first_seg, kind="stable")] = np.arange(first_seg.size, dtype=np.int64)
    seg_state = rank[inverse.ravel()]
    state_keys: list[tuple[str, float, int, int]] = [
        (
            tb.arrays[int(seg_array[g])].id,
            sp.families[int(seg_family[g])].flash_cache_gb,
            int(seg_nodes[g]),
            int(seg_layout[g]),
        )
        for g in np.sort(first_seg)
    ]
    return Segments(
        fam_usable_per_drive=fam_usable_per_drive,
        fam_flash_gb=flash,
        state_keys=state_keys,
        seg_family=seg_family,
        seg_state=seg_state,
        seg_start=np.cumsum(seg_len) - seg_len,
        seg_len=seg_len,
    )
