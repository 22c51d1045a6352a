"""The drive work of every segment and window (:func:`models.pool.pool_work` on arrays over
segments), the controllers with the back-end I/Os it issues, and the drive-independent part of
read latency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from models.architecture import (
    network_utilization,
    wal_placement,
)
from models.batch.arrays import BoolArray, FloatArray, IntArray
from models.batch.front import FrontEnds
from models.batch.plans import _columns, _distinct, _gather_work, _SegmentPlans
from models.batch.tables import Demand, Segments, Tables
from models.checks import within_array
from models.configuration import HeadroomTargets, WalPlacement
from models.controller import (
    ControllerSpec,
    HaMode,
    at_core_clock,
    backend_bus_pct,
    controller_utilization,
    cpu_response_ms,
    cpu_seconds_per_second,
)
from models.drives import DriveKind, DriveTimes, ssd_latency_ms
from models.latency import cache_hits_ms
from models.parameters import EngineParameters
from models.pool import (
    PoolWork,
    Work,
    pool_work,
    queued_commands,
)
from models.provenance import scaled_controller


@dataclass
class _Window:
    """Per segment, one window's drive work and what latency needs (arrays over segments)."""

    pool: PoolWork
    work: Work  # pool.work (reads plus writes), summed once: every chunk of rows reads it
    outstanding: FloatArray  # pool.outstanding, read_miss_rate, miss_fixed_ms per segment
    read_miss_rate: FloatArray
    miss_fixed_ms: FloatArray


@dataclass(frozen=True)
class SegmentWork:
    """Per segment: its drive's times and queuing, its layout's geometry, and per window the drive
    work (:class:`_Window`), controller and failover utilization [%], the drive-independent part
    of each phase's read latency (front end, cache hits, miss ratio, SSD service) and the checks that do not
    depend on the drive count."""

    seg_times: DriveTimes
    seg_g: FloatArray
    seg_h: FloatArray
    seg_limit: FloatArray
    seg_hdd: BoolArray
    seg_units: FloatArray  # positioning units per drive
    seg_scatter: FloatArray
    seg_width: FloatArray
    seg_parity: FloatArray
    seg_ra_run: FloatArray
    seg_prefetch: FloatArray  # the array's stream prefetch [KiB]
    state_segments: list[IntArray]
    win: list[_Window]
    seg_ssd_latency: list[dict[int, FloatArray]]  # [window] phase -> SSD read service per segment
    seg_ctrl: FloatArray  # [window, segment]
    seg_fo: FloatArray  # [window, segment]; nan: no failover check
    seg_hit_ms: FloatArray  # the controller's cache-hit time
    seg_front_ms: list[
        list[FloatArray]
    ]  # [window][phase] per segment: controller + port + host; inf: saturated
    seg_hits_ms: list[list[FloatArray]]  # [window][phase] per segment: models.latency.cache_hits_ms
    seg_miss: list[list[FloatArray]]  # [window][phase] per segment: share of reads missing the caches
    seg_bus_ok: BoolArray
    seg_ok: BoolArray
    seg_dwpd_per_kib: FloatArray
    seg_rated_dwpd: FloatArray  # nan: no rating
    seg_net_pct: list[FloatArray]  # [window] per segment; nan: no network check


def _controller_groups(fe: FrontEnds, tb: Tables, sg: Segments) -> list[tuple[int, ControllerSpec, IntArray]]:
    """The segments of each state by their family's controller margin (:attr:`Tables.fam_ctrl_factor`):
    (state, its controller at its cores' clock (:func:`models.controller.at_core_clock`) and at that
    margin (:func:`models.provenance.scaled_controller`), the segments)."""
    factor = tb.fam_ctrl_factor[sg.seg_family]
    key = np.where(np.isnan(factor), 0.0, factor)  # no margin: 0 (a factor is > 0)
    order = np.lexsort((key, sg.seg_state))
    if not order.size:
        return []
    state, key = sg.seg_state[order], key[order]
    starts = np.flatnonzero(np.concatenate(([True], (state[1:] != state[:-1]) | (key[1:] != key[:-1]))))
    groups = []
    scaled: dict[tuple[ControllerSpec, float], ControllerSpec] = {}  # states of one array: equal controllers
    for lo, hi in zip(starts.tolist(), [*starts[1:].tolist(), order.size], strict=True):
        # the CPU costs at the cores' clock, as models.evaluate prices them (models.controller.at_core_clock)
        ctrl = at_core_clock(fe.states[int(state[lo])].config.controller)
        f = float(key[lo])
        if f != 0.0:
            got = scaled.get((ctrl, f))
            if got is None:
                got = scaled[(ctrl, f)] = scaled_controller(ctrl, f)
            ctrl = got
        groups.append((int(state[lo]), ctrl, order[lo:hi]))
    return groups


def _bus_ok(
    groups: list[tuple[int, ControllerSpec, IntArray]], nseg: int, work: Work, headroom: HeadroomTargets
) -> BoolArray:
    """Per segment: the back-end bus within the port headroom where the controller states one
    (as :func:`models.evaluate.evaluate` checks it)."""
    mb_s = np.broadcast_to(np.asarray(work.kib, dtype=np.float64), (nseg,)) * 1024.0 / 1e6
    ok = np.ones(nseg, dtype=bool)
    for _, ctrl, at in groups:
        if ctrl.backend_mb_s is not None:
            u = backend_bus_pct(mb_s[at], ctrl.backend_mb_s, ctrl.serving)
            ok[at] = within_array(u, headroom.port_max_pct)
    return ok


_LOAD_FIGURES = (
    "read_hits",
    "read_misses",
    "writes",
    "kib_per_s",
    "write_kib_per_s",
    "copy_writes",
    "copy_kib_per_s",
    "chunk_reads",
    "chunk_read_kib_per_s",
    "iops",
)
"""The numbers of a :class:`ControllerLoad` the controller functions read (``backend_ios`` is passed)."""

_SPEC_FIGURES = (
    "cpu_us_read_hit",
    "cpu_us_read_miss",
    "cpu_us_write",
    "cpu_us_per_kib",
    "cpu_us_per_kib_written",
    "cpu_us_per_backend_io",
    "dedupe_cpu_multiplier",
    "compression_cpu_multiplier",
    "replication_cpu_multiplier",
    "cores",
    "max_iops",
    "max_mb_s",
    "serving",
    "serving_after_failover",
)
"""The figures of a :class:`ControllerSpec` the controller functions read."""


class _Columns:
    """Figures of many loads or controllers as attributes, each one number shared by all or an
    array over segments: what :func:`models.controller.cpu_seconds_per_second` and the functions
    after it read, so that they run once over many segments (their arithmetic is elementwise)."""

    def __init__(self, figures: dict[str, object]) -> None:
        self.__dict__.update(figures)


def _columns_of(records: list[Any], names: tuple[str, ...], rep: IntArray) -> _Columns:
    """``records``' figures ``names`` over segments (``rep``: each segment's record); a figure that
    is None or 0 for every record stays one such value, so that the functions' tests of it hold
    (and 0 in a sum or product is 0 either way)."""
    figures: dict[str, object] = {}
    for name in names:
        values = [getattr(r, name) for r in records]
        if not any(values):
            figures[name] = values[0]  # None or 0 for all: the branch the functions take on it
        else:
            figures[name] = np.asarray(values, dtype=np.float64)[rep]
    return _Columns(figures)


def _controllers(
    fe: FrontEnds, groups: list[tuple[int, ControllerSpec, IntArray]], wi: int, backend_ios: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per segment in window ``wi``: controller utilization, after a failover (nan: none) and
    CPU response [ms] (inf when saturated), with the back-end I/Os of the segment's layout
    (:func:`models.controller.controller_utilization` on arrays), each with its family's
    controller margin. Groups whose load and controller take the same branches of those
    functions (data services, the ports' protocol, a stated cost per KiB written, stated ceilings,
    an idle load, a failover) run together, their figures as arrays over their segments."""
    nseg = backend_ios.size
    u = np.empty(nseg)
    fo = np.full(nseg, np.nan)
    r_ctrl = np.empty(nseg)
    kinds: dict[tuple, list[int]] = {}
    for g, (s, ctrl, _) in enumerate(groups):
        state_load = fe.states[s].loads[wi]
        failover = ctrl.count >= 2 and ctrl.serving_after_failover >= 1 and ctrl.ha_mode is not HaMode.SINGLE
        kind = (
            state_load.dedupe,
            state_load.compression,
            state_load.replication,
            state_load.protocol_cpu_multiplier,
            state_load.iops <= 0,
            ctrl.cpu_us_per_kib_written is None,
            not ctrl.max_iops,
            not ctrl.max_mb_s,
            failover,
        )
        kinds.setdefault(kind, []).append(g)
    for kind, members in kinds.items():
        at = np.concatenate([groups[g][2] for g in members])
        rep = np.repeat(np.arange(len(members)), [groups[g][2].size for g in members])
        loads = [fe.states[groups[g][0]].loads[wi] for g in members]
        load: Any = _columns_of(loads, _LOAD_FIGURES, rep)
        load.dedupe, load.compression, load.replication, load.protocol_cpu_multiplier = kind[:4]
        spec: Any = _columns_of([groups[g][1] for g in members], _SPEC_FIGURES, rep)
        cpu_s = cpu_seconds_per_second(load, spec, backend_ios=backend_ios[at])
        u[at] = controller_utilization(load, spec, spec.serving, cpu_s=cpu_s)
        r_ctrl[at] = cpu_response_ms(load, spec, np.asarray(u[at]), cpu_s=cpu_s)
        if kind[-1]:
            fo[at] = controller_utilization(load, spec, spec.serving_after_failover, cpu_s=cpu_s)
    return u, fo, r_ctrl


def segment_work(
    dm: Demand, tb: Tables, sg: Segments, fe: FrontEnds, params: EngineParameters, headroom: HeadroomTargets
) -> SegmentWork:
    """Per segment and window: the drive work of every phase and I/O size
    (:func:`models.pool.pool_work` with the segments' plans and hit ratios as arrays), then the
    controllers with the back-end I/Os it issues, and the front-end part of read latency."""
    seg_f = sg.seg_family
    drv = tb.fam_drive[seg_f]
    lay = tb.fam_layout[seg_f]
    order = np.argsort(sg.seg_state, kind="stable")
    bounds = np.searchsorted(sg.seg_state[order], np.arange(len(fe.states) + 1))
    state_segments = [order[bounds[s] : bounds[s + 1]] for s in range(len(fe.states))]
    # the reads priced per segment (their misses depend on the state's hit ratios); the
    # writes, which do not, per (layout, drive, array) and gathered onto the segments
    seg_arr = tb.fam_array[seg_f]
    na = max(len(tb.arrays), 1)
    nd = max(len(tb.drives), 1)
    triples, triple_of = _distinct((lay * nd + drv) * na + seg_arr, max(len(tb.layouts), 1) * nd * na)
    read_plans = _SegmentPlans(tb, lay, drv, seg_arr, writes=False)
    write_plans = _SegmentPlans(
        tb,
        triples // (na * nd),
        triples // na % nd,
        triples % na,
        reads=False,
        any_packs=read_plans.any_packs,
        any_dedupes=read_plans.any_dedupes,
    )
    nseg = seg_f.size
    groups = _controller_groups(fe, tb, sg)
    nw = len(dm.windows)
    win: list[_Window] = []
    seg_ssd_latency: list[dict[int, FloatArray]] = []
    seg_ctrl = np.zeros((nw, nseg))
    seg_fo = np.zeros((nw, nseg))
    seg_front_ms: list[list[FloatArray]] = []
    seg_hits_ms: list[list[FloatArray]] = []
    seg_miss: list[list[FloatArray]] = []
    seg_ok = fe.st_ok[sg.seg_state].copy()
    bus_ok = np.ones(nseg, dtype=bool)
    ctrl_limit = fe.st_ctrl_limit[sg.seg_state]
    hit_ms = np.asarray([st.config.controller.cache_hit_ms for st in fe.states])[sg.seg_state]
    flash_ms = np.asarray([st.config.cache.flash_hit_ms for st in fe.states])[sg.seg_state]
    ssd_drives = [i for i, d in enumerate(tb.drives) if d.kind is not DriveKind.HDD]
    host_ms = params.host_overhead_ms
    # per segment: whether a write waits on its data drive (a log there, no NVRAM), so its
    # outstanding writes queue at the drives (models.pool.queued_commands)
    writes_wait = np.asarray(
        [wal_placement(st.config.architecture) is WalPlacement.DATA_DRIVE for st in fe.states], dtype=bool
    )[sg.seg_state]
    for wi, members in enumerate(dm.members):
        hd = fe.st_hd[wi][sg.seg_state]
        hf = fe.st_hf[wi][sg.seg_state]
        items = [(m.workload, m.phase, hd[:, i], hf[:, i]) for i, m in enumerate(members)]
        pw = pool_work(items, read_plans)
        writes = pool_work([(m.workload, m.phase, 0.0, 0.0) for m in members], write_plans).writes
        pw.writes = _gather_work(writes, triple_of)
        work = pw.work
        win.append(
            _Window(
                pw,
                work,
                *(
                    np.broadcast_to(np.asarray(x, dtype=np.float64), (nseg,)).copy()
                    for x in (queued_commands(pw, writes_wait), pw.read_miss_rate, pw.miss_fixed_ms)
                ),
            )
        )
        u, fo, r_ctrl = _controllers(
            fe, groups, wi, np.broadcast_to(work.backend_ios, (nseg,)).astype(np.float64)
        )
        seg_ctrl[wi], seg_fo[wi] = 100 * u, 100 * fo
        seg_ok &= within_array(100 * u, ctrl_limit)
        bus_ok &= _bus_ok(groups, nseg, work, headroom)
        seg_ok &= np.isnan(fo) | within_array(100 * fo, headroom.failover_max_pct)
        r_port = np.asarray([st.r_port_ms[wi] for st in fe.states], dtype=np.float64).reshape(
            len(fe.states), len(members)
        )[sg.seg_state]
        # the parts of models.latency.read_latency_ms that do not depend on the drive count; the
        # front end summed as models.latency.FrontEnd.time_ms sums it
        front = r_ctrl[:, None] + r_port + host_ms
        hits = cache_hits_ms(hd, hf, hit_ms[:, None], flash_ms[:, None])
        miss = np.maximum(0.0, 1 - hd - hf)
        # per phase, one contiguous column per segment (rows gather from 1-D tables)
        for table, parts in ((seg_front_ms, front), (seg_hits_ms, hits), (seg_miss, miss)):
            table.append([np.ascontiguousarray(parts[:, i]) for i in range(len(members))])
        lat: dict[int, FloatArray] = {}
        for i, m in enumerate(members):
            if m.phase.read_pct <= 0 and m.target_ms is None:
                continue
            per_drive = np.zeros(len(tb.drives))  # 0 for HDDs (their miss service is the pool's)
            for di in ssd_drives:
                per_drive[di] = ssd_latency_ms(tb.drives[di], m.mean_kib)
            lat[i] = per_drive[drv]
        seg_ssd_latency.append(lat)
    # per segment: what a row's checks read that does not depend on its drive count, looked up
    # once here rather than through the family and state tables for every chunk of rows
    nodes, link = fe.st_net_nodes[sg.seg_state], fe.st_net_mb_s[sg.seg_state]
    return SegmentWork(
        seg_times=_columns(tb.d_times, drv, DriveTimes),
        seg_g=tb.d_g[drv],
        seg_h=tb.d_h[drv],
        seg_limit=tb.d_limit[drv],
        seg_hdd=tb.d_hdd[drv],
        seg_units=tb.d_units[drv],
        seg_scatter=tb.l_scatter[lay],
        seg_width=tb.l_width[lay],
        seg_parity=tb.l_parity[lay],
        seg_ra_run=tb.l_ra_run[lay],
        seg_prefetch=tb.l_prefetch[lay],
        state_segments=state_segments,
        win=win,
        seg_ssd_latency=seg_ssd_latency,
        seg_ctrl=seg_ctrl,
        seg_fo=seg_fo,
        seg_hit_ms=np.ascontiguousarray(hit_ms, dtype=np.float64),
        seg_front_ms=seg_front_ms,
        seg_hits_ms=seg_hits_ms,
        seg_miss=seg_miss,
        seg_bus_ok=bus_ok,
        seg_ok=seg_ok & bus_ok,
        seg_dwpd_per_kib=tb.d_dwpd_per_kib[drv],
        seg_rated_dwpd=np.asarray(tb.d_rated_dwpd[drv], dtype=np.float64),
        seg_net_pct=[
            np.asarray(
                100.0
                * network_utilization(
                    np.broadcast_to(np.asarray(w.work.kib, dtype=np.float64), (nseg,)) * 1024.0 / 1e6,
                    nodes,
                    link,
                ),
                dtype=np.float64,
            )
            for w in win
        ],
    )
