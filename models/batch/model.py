"""Evaluation of the rows of a candidate space: :class:`BatchModel` holds the stages (demand,
tables, segments, front ends, segment work) and runs rows through the drive model, window by
window; :func:`evaluate_batch` is the entry point."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from models.base import InputError
from models.batch import search
from models.batch.arrays import BoolArray, FloatArray, IntArray
from models.batch.front import FrontEnds, front_ends
from models.batch.plans import _take
from models.batch.results import BatchEvaluation, RowDetail
from models.batch.rows import _Rows
from models.batch.search import CHUNK_ROWS, PRUNE_SHARE
from models.batch.space import POOL, CandidateSpace
from models.batch.tables import Demand, Segments, Tables, demand, segments, tables
from models.batch.work import SegmentWork, segment_work
from models.bill import enclosure_cost_usd, enclosure_power_w, enclosure_rack_units, shelves_needed
from models.capacity import hot_spares
from models.checks import within_array
from models.configuration import HeadroomTargets
from models.latency import iops_weighted_ms, read_latency_ms, sequential_extra_ms
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.pool import (
    PoolState,
    miss_path,
    planned_span,
    pool_state,
    readahead_service_ms,
    stated_queue,
    wear_kib_per_drive,
)
from models.workload import Workload


class BatchModel:
    """The stages of one workload set over one candidate space (see :mod:`models.batch`):
    :attr:`demand` (windows and phases), :attr:`tables` (drives, layouts, arrays), :attr:`segments`
    (rows' segments and states), :attr:`front` (each state's caches, controllers, ports) and
    :attr:`work` (each segment's drive work and the drive-independent checks), each built from the
    ones before it; the methods evaluate rows against them."""

    def __init__(
        self,
        workloads: list[Workload],
        space: CandidateSpace,
        params: EngineParameters,
        headroom: HeadroomTargets,
    ) -> None:
        self.space = space
        self.params = params
        self.headroom = headroom
        self.demand: Demand = demand(workloads, headroom)
        self.tables: Tables = tables(space, params, self.demand.fill)
        self.segments: Segments = segments(space, self.tables)
        self.front: FrontEnds = front_ends(self.demand, space, self.segments, params, headroom)
        self.work: SegmentWork = segment_work(
            self.demand, self.tables, self.segments, self.front, params, headroom
        )

    # -- capacity

    def _usable_tb(self, rows: IntArray, fam: IntArray, n_int: IntArray | None = None) -> FloatArray:
        """Usable capacity of ``rows`` (of families ``fam``; ``n_int`` their drive counts, if
        known) [TB]: n x the family's usable TB per drive."""
        n = self.space.count_of(rows, fam) if n_int is None else n_int
        return n * self.segments.fam_usable_per_drive[fam]

    def _row_usable_tb(self, at: _Rows) -> tuple[IntArray, FloatArray]:
        """Drive count and usable capacity [TB] of the rows ``at`` (:meth:`_usable_tb`), kept in
        ``at``: the capacity check and the drive model both read them."""
        fam = at.gathered("family", self.segments.seg_family)
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
        return np.divide(
            100.0 * self.demand.needed_tb, usable, out=np.full_like(usable, np.inf), where=usable > 0
        )

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
        win = self.work.win[wi]
        seg = at.seg

        def counts() -> tuple[FloatArray, FloatArray, FloatArray]:
            """(data drives, parity drives, span) of each row, the drives in positioning units
            (models.pool.unit_roles)."""
            n_int, usable_tb = self._row_usable_tb(at)
            n = n_int.astype(np.float64)
            parity = n / np.take(self.work.seg_width, seg) * np.take(self.work.seg_parity, seg)
            usable_gb = usable_tb * 1000.0
            scatter = np.take(self.work.seg_scatter, seg)
            span = planned_span(1000.0 * self.demand.needed_tb, usable_gb, self.demand.fill, 1.0, scatter)
            units = at.gathered("units", self.work.seg_units)
            return (n - parity) * units, parity * units, span

        n_data, parity, span = at.get("counts", counts)
        # the role work the state, the wait and the wear read (a parity role's operations never are)
        work = _take(win.work, seg, latency)
        # only positioning enters the state and the wait: the rest of the prices are in the work
        t = self.work.seg_times
        times: Any = t._replace(
            overhead_ms=at.gathered("overhead_ms", t.overhead_ms) if latency else math.nan,
            stream_read_ms_per_kib=(
                at.gathered("stream_read_ms_per_kib", t.stream_read_ms_per_kib) if latency else math.nan
            ),
            read_pos_a=at.gathered("read_pos_a", t.read_pos_a),
            read_pos_b=at.gathered("read_pos_b", t.read_pos_b),
            write_pos_a=at.gathered("write_pos_a", t.write_pos_a),
            write_pos_b=at.gathered("write_pos_b", t.write_pos_b),
            write_queue_factor=(
                1.0 if np.all(t.write_queue_factor == 1.0) else at.gathered("wqf", t.write_queue_factor)
            ),
        )
        if win.pool.concurrency_stated:
            q_cap = stated_queue(
                np.take(win.outstanding, seg), True, n_data, at.gathered("limit", self.work.seg_limit)
            )
        else:  # one command per drive: nothing to gather
            q_cap = stated_queue(0.0, False, n_data, 0.0)
        # command queuing's gain enters the state only past one command per drive
        one_command = bool(np.all(np.asarray(q_cap) <= 1.0))
        g, h = (
            (0.0, 1.0)
            if one_command
            else (at.gathered("g", self.work.seg_g), at.gathered("h", self.work.seg_h))
        )
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
            self.params.drive_service_scv,
        )
        ra_ms = readahead_service_ms(times, state.p_read, at.gathered("ra_run", self.work.seg_ra_run)) + wait
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
            for i, m in enumerate(self.demand.members[wi])
            if m.target_ms is not None or (every and m.phase.read_pct > 0)
        ]
        state, mean_read, wait, ra_ms, wear = self._pool(wi, at, latency=bool(wanted))
        dwpd = np.asarray(wear * at.gathered("dwpd_per_kib", self.work.seg_dwpd_per_kib), dtype=np.float64)
        phases: dict[int, FloatArray] = {}
        if wanted:
            base = np.where(at.gathered("hdd", self.work.seg_hdd), mean_read, 0.0)
            t_hit = at.gathered("hit_ms", self.work.seg_hit_ms)
        for i in wanted:
            m = self.demand.members[wi][i]
            r_miss = base + np.take(self.work.seg_ssd_latency[wi][i], seg) + wait  # one of the two is 0
            miss = np.take(self.work.seg_miss[wi][i], seg)
            with np.errstate(invalid="ignore"):
                r_seq = (
                    sequential_extra_ms(m.mean_kib, at.gathered("prefetch", self.work.seg_prefetch), ra_ms)
                    if m.rnd < 1
                    else 0.0
                )
                phases[i] = read_latency_ms(
                    np.take(self.work.seg_front_ms[wi][i], seg),
                    m.rnd,
                    np.take(self.work.seg_hits_ms[wi][i], seg),
                    miss,
                    t_hit,
                    np.where(m.rnd * miss > 0, r_miss, 0.0),  # a saturated miss path no read takes: 0
                    r_seq,
                )
        members = self.demand.members[wi]
        reads = [(members[i].iops, members[i].rf, phases[i]) for i in wanted if members[i].phase.read_pct > 0]
        window = np.broadcast_to(
            np.asarray(iops_weighted_ms(reads if every else []), dtype=np.float64), rows.shape
        )
        u = np.broadcast_to(np.asarray(state.u_data, dtype=np.float64), rows.shape)
        u_par = np.broadcast_to(np.asarray(state.u_parity, dtype=np.float64), rows.shape)
        return u, u_par, phases, window, dwpd

    def _network_pct(self, wi: int, rows: IntArray, seg: IntArray) -> FloatArray:
        """Cluster-network utilization of each row in window ``wi`` [%] (nan: no network check)."""
        return np.take(self.work.seg_net_pct[wi], seg)

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
            known = _Rows(rows, self.segments.of(rows) if segments is None else segments)
        at = known
        sub = np.arange(good.size)
        for wi in range(len(self.demand.windows)):
            if prune:
                if not good.any():
                    break
                # good only clears: the rows left are a subset of those evaluated so far
                still = np.flatnonzero(good if sub.size == good.size else good[sub])
                if still.size <= PRUNE_SHARE * sub.size:
                    sub = sub[still]
                    at = at.subset(still)
            u, u_par, phases, _, _ = self._latencies(wi, at, every=False)
            seg = at.seg
            keep = within_array(100 * u, lim) & within_array(100 * u_par, lim)
            net = self._network_pct(wi, at.rows, seg)
            keep &= np.isnan(net) | within_array(net, self.headroom.port_max_pct)
            for i, read_ms in phases.items():
                target = self.demand.members[wi][i].target_ms
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
        if self.segments.row_seg is None:  # every row is looked up: the segment of each, once
            self.segments.row_seg = np.repeat(
                np.arange(self.segments.seg_len.size, dtype=np.int64), self.segments.seg_len
            )
        for lo in range(0, n, CHUNK_ROWS):
            hi = min(n, lo + CHUNK_ROWS)
            rows = np.arange(lo, hi, dtype=np.int64)
            seg = self.segments.row_seg[lo:hi]  # contiguous rows: a view, not a gather
            at = _Rows(rows, seg)
            _, usable_tb = self._row_usable_tb(at)
            fam = at.gathered("family", self.segments.seg_family)
            good = self._capacity_ok(rows, fam, usable_tb) & np.take(self.work.seg_ok, seg)
            if prune and not good.any():
                continue
            modelled += int(good.size if not prune else np.count_nonzero(good))
            self._verdict(rows, good, prune, known=at)
            ok[lo:hi] = good
        return ok, modelled

    def detail(self, rows: IntArray) -> RowDetail:
        """Every figure of ``rows`` (meant for a few thousand rows: the chosen ones)."""
        rows = np.asarray(rows, dtype=np.int64)
        seg = self.segments.of(rows)
        at = _Rows(rows, seg)
        state = self.segments.seg_state[seg]
        nw = len(self.demand.windows)
        k = rows.size
        drive = np.zeros((nw, k))
        parity = np.zeros((nw, k))
        lat = np.zeros((nw, k))
        wear = np.zeros((nw, k))
        network = np.zeros((nw, k))
        rated = at.gathered("rated_dwpd", self.work.seg_rated_dwpd)
        targets = [
            (wi, f"{m.workload.name}/{m.phase.name}", float(m.target_ms), i)
            for wi, ms in enumerate(self.demand.members)
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
        fam_ix = at.gathered("family", self.segments.seg_family)
        arr = self.tables.fam_array[fam_ix]
        drv = self.tables.fam_drive[fam_ix]
        spares = np.asarray(
            hot_spares(n, self.tables.a_spare_per[arr], self.tables.a_spare_min[arr]), dtype=np.int64
        )
        total = n + spares
        pk: Any = self.front.st_pack[state]  # float columns: counts, rack units, watts, prices
        shelf_n = np.asarray(shelves_needed(total, pk[:, 0], pk[:, 1]), dtype=np.float64)
        ru = enclosure_rack_units(shelf_n, pk[:, 2], pk[:, 3])
        flash_gb = self.segments.fam_flash_gb[fam_ix]
        power = enclosure_power_w(shelf_n, pk[:, 4], pk[:, 5]) + total * self.tables.d_power_w[drv]
        cost = (
            enclosure_cost_usd(shelf_n, pk[:, 6], pk[:, 7], flash_gb, pk[:, 8])
            + total * self.tables.d_price_usd[drv]
        )
        shelves = shelf_n.astype(np.int64)
        hr = self.headroom
        ctrl = self.work.seg_ctrl[:, seg]
        fo = self.work.seg_fo[:, seg]
        port = self.front.st_port[state].T
        flash = self.front.st_flash[state].T
        ctrl_limit = self.front.st_ctrl_limit[state]
        passed = self._capacity_ok(rows, fam_ix, usable_tb)
        passed &= np.all(within_array(drive, hr.drive_max_pct), axis=0)
        passed &= np.all(within_array(parity, hr.drive_max_pct), axis=0)
        passed &= np.all(within_array(ctrl, ctrl_limit), axis=0)
        passed &= np.all(np.isnan(fo) | within_array(fo, hr.failover_max_pct), axis=0)
        passed &= np.all(within_array(port, hr.port_max_pct), axis=0)
        passed &= np.all(np.isnan(flash) | within_array(flash, hr.drive_max_pct), axis=0)
        passed &= self.work.seg_bus_ok[seg]
        passed &= np.all(np.isnan(network) | within_array(network, hr.port_max_pct), axis=0)
        for t, (_, _, target, _) in enumerate(targets):
            passed &= within_array(phase_lat[t], target)
        return RowDetail(
            rows=rows,
            windows=self.demand.windows,
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
            dedicated_parity=self.work.seg_parity[seg] > 0,
            dwpd=wear,
            rated_dwpd=rated,
            network_pct=network,
            flash_pct=flash,
        )

    # -- the fewest drives (models.batch.search)

    def first_capacity_rows(self) -> IntArray:
        return search.first_capacity_rows(self)

    def drive_floors(self) -> tuple[FloatArray, FloatArray]:
        return search.drive_floors(self)

    def first_drive_rows(self, lo: IntArray) -> IntArray:
        return search.first_drive_rows(self, lo)

    def first_passing(self) -> tuple[IntArray, int]:
        return search.first_passing(self)


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


@holds_memo
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
    (:func:`models.batch.search.first_passing`; ``passed`` marks those rows alone, ``prune`` is implied).
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
