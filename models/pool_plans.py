"""Priced access plans of one pool (:class:`PoolPlans`, a :class:`models.pool.PlanSource`): its
layout's plans (:mod:`models.raid`) priced on its drive (:func:`models.pool.plan_work`), each I/O
size once (:func:`pool_plans`; :class:`models.memo.EvaluationMemo` keeps them for the very same
pool, parameters and fills evaluated again)."""

from __future__ import annotations

from typing import TypeVar

from models.architecture import stream_prefetch_kib, wal_copy_kib
from models.configuration import Architecture, DrivePool
from models.drives import (
    DriveSpec,
    DriveTimes,
    drive_times,
    positioning_units,
    write_cache_factor,
)
from models.parameters import EngineParameters
from models.pool import (
    Roles,
    Work,
    ncq_parameters,
    plan_work,
    pool_roles,
    unit_roles,
)
from models.raid import (
    RaidLayout,
    in_front_end_units,
    read_plan,
    sequential_write_cost,
    small_write_cost,
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
    compressed_write,
    io_reduction,
    packs_compressed,
)
from models.workload import Workload


class PoolPlans:
    """:class:`PlanSource` of one pool: its layout's plans (:mod:`models.raid`) priced on its drive,
    each size once. ``architecture`` says whether the array reduces data inline (None: not stated)."""

    def __init__(
        self,
        layout: RaidLayout,
        t: DriveTimes,
        p: EngineParameters,
        fill: float,
        architecture: Architecture | None = None,
        units: int = 1,
        wal_copy_kib: float = 0.0,
    ) -> None:
        self.layout, self.t, self.p, self.fill = layout, t, p, fill
        self.wal_copy_kib = wal_copy_kib
        self.architecture = architecture
        self.prefetch_kib = stream_prefetch_kib(architecture, p.readahead_kib)
        self.units = units
        self.memo: dict[float, tuple[Work, Work]] = {}
        self.stream_memo: dict[tuple[bool, float], tuple[Work, Work]] = {}
        self.compressed_memo: dict[tuple[float, float], tuple[Work, Work]] = {}
        self.metadata_memo: dict[float, Work] = {}
        self.roles_memo: dict[int, Roles] = {}
        self._write_costs: tuple[float, float] | None = None
        self._ncq: tuple[DriveSpec, tuple[float, float, float]] | None = None
        self._readahead_run_kib: float | None = None

    def roles(self, n: int) -> Roles:
        """:func:`pool_roles` of the layout with ``n`` drives, in positioning units (:attr:`units`
        per drive: a dual-actuator drive's two halves serve I/Os at once)."""
        got = self.roles_memo.get(n)
        if got is None:
            got = _remember(
                self.roles_memo, n, unit_roles(pool_roles(self.layout, n), self.units), _PRICES_KEPT
            )
        return got

    def ncq(self, drive: DriveSpec) -> tuple[float, float, float]:
        """:func:`ncq_parameters` of ``drive`` (the pool's, whose times these plans price) under
        the plans' parameters, worked out once for every window."""
        got = self._ncq
        if got is None or got[0] is not drive:
            got = self._ncq = (drive, ncq_parameters(drive, self.p))
        return got[1]

    def write_costs(self) -> tuple[float, float]:
        """(small random write, full-stripe write) back-end I/Os per write at the plans' fill
        (:func:`models.raid.small_write_cost`, :func:`~models.raid.sequential_write_cost`)."""
        if self._write_costs is None:
            self._write_costs = (
                small_write_cost(self.layout, fill=self.fill),
                sequential_write_cost(self.layout),
            )
        return self._write_costs

    def readahead_run_kib(self) -> float:
        """KiB each drive moves per readahead request (:func:`models.raid.stream_run_kib` of the
        layout at the array's prefetch), worked out once for every window."""
        if self._readahead_run_kib is None:
            self._readahead_run_kib = stream_run_kib(self.layout, self.prefetch_kib)
        return self._readahead_run_kib

    def random(self, size_kib: float) -> tuple[Work, Work]:
        got = self.memo.get(size_kib)
        if got is None:
            rd = plan_work(read_plan(self.layout, size_kib), self.t)
            wr = plan_work(
                write_plan(self.layout, size_kib, fill=self.fill, stripe_run_kib=self.p.stripe_run_kib),
                self.t,
            )
            got = _remember(self.memo, size_kib, (rd, wr), _PRICES_KEPT)
        return got

    def segment_kib(self, size_kib: float, readahead_kib: float | None = None) -> float:
        return float(
            stream_segment_kib(self.prefetch_kib, size_kib, readahead_kib, self.p.prefetch_multiplier)
        )

    def streams(
        self, interleaved: bool, size_kib: float = 0.0, readahead_kib: float | None = None
    ) -> tuple[Work, Work]:
        ra = self.segment_kib(size_kib, readahead_kib)
        got = self.stream_memo.get((interleaved, ra))
        if got is None:
            got = self.stream_memo[(interleaved, ra)] = (
                plan_work(stream_read_plan(self.layout, ra), self.t, interleaved=interleaved),
                plan_work(stream_write_plan(self.layout, ra), self.t, interleaved=interleaved),
            )
        return got

    def reduction(self, workload: Workload) -> IoReduction | None:
        return io_reduction(workload, self.architecture)

    def compressed(self, size_kib: float, ratio: float) -> tuple[Work, Work]:
        if ratio <= 1.0 or not packs_compressed(self.architecture):
            return self.random(size_kib)
        got = self.compressed_memo.get((size_kib, ratio))
        if got is None:
            rd = plan_work(compressed_read(read_plan(self.layout, size_kib), ratio), self.t)
            wr = plan_work(
                compressed_write(
                    self.layout, size_kib, ratio, fill=self.fill, stripe_run_kib=self.p.stripe_run_kib
                ),
                self.t,
            )
            got = _remember(self.compressed_memo, (size_kib, ratio), (rd, wr), _PRICES_KEPT)
        return got

    def wal_copies(self, size_kib: float) -> float:
        return 1.0 if 0.0 < size_kib <= self.wal_copy_kib else 0.0

    def metadata(self, size_kib: float) -> Work:
        got = self.metadata_memo.get(size_kib)
        if got is None:
            plan = write_plan(self.layout, METADATA_KIB, fill=self.fill, stripe_run_kib=self.p.stripe_run_kib)
            got = _remember(
                self.metadata_memo,
                size_kib,
                plan_work(in_front_end_units(plan, size_kib), self.t),
                _PRICES_KEPT,
            )
        return got


def pool_plans(
    pool: DrivePool,
    p: EngineParameters,
    planned_fill: float,
    aggregate_fill: float | None = None,
    architecture: Architecture | None = None,
) -> PoolPlans:
    """The priced plans :func:`models.pool_load.pool_load` uses for ``pool`` (drive times at
    ``planned_fill``, writes at ``aggregate_fill``, default ``planned_fill``; inline reduction as
    ``architecture`` declares it): build them once and pass them to every window's pool so each I/O
    size is priced once per evaluation. :meth:`models.memo.EvaluationMemo.plans` keeps them for
    the very same inputs evaluated again."""
    fill = planned_fill if aggregate_fill is None else aggregate_fill
    return PoolPlans(
        pool.raid,
        pool_drive_times(pool, p, planned_fill),
        p,
        fill,
        architecture,
        positioning_units(pool.drive),
        wal_copy_kib(architecture, pool.drive),
    )


def pool_drive_times(pool: DrivePool, p: EngineParameters, planned_fill: float) -> DriveTimes:
    """:func:`models.drives.drive_times` of the pool's drive at ``planned_fill``, its writes reordered
    by the drives' own write cache where the pool turns it on (``drive_write_cache``:
    :func:`models.drives.write_cache_factor` of the drive's queuing class)."""
    t = drive_times(pool.drive, planned_fill)
    if not pool.drive_write_cache:
        return t
    return t._replace(write_queue_factor=write_cache_factor(p.command_queuing.for_drive(pool.drive)))


_PRICES_KEPT = 1024
"""Priced sizes (drive counts) one :class:`PoolPlans` keeps; all are dropped when it is full."""

_K = TypeVar("_K")
_V = TypeVar("_V")


def _remember(memo: dict[_K, _V], key: _K, value: _V, kept: int) -> _V:
    """``memo[key] = value``, emptying ``memo`` first when it holds ``kept`` entries (bounded memory
    for a long-running server fed arbitrary sizes)."""
    if len(memo) >= kept:
        memo.clear()
    memo[key] = value
    return value
