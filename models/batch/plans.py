"""Segment-level bookkeeping: gathers, distinct keys, and the access plans of many segments priced at once."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from models.architecture import wal_copy_kib_of
from models.batch.arrays import FloatArray, IntArray
from models.drives import DriveKind, DriveTimes, Num
from models.pool import (
    RoleWork,
    Work,
    plan_work,
    where_work,
)
from models.raid import (
    AccessPlan,
    in_front_end_units,
    stream_segment_kib,
)
from models.reduction import (
    METADATA_KIB,
    IoReduction,
    compressed_read,
    dedupes_inline,
    packs_compressed,
)
from models.workload import Workload

if TYPE_CHECKING:
    from models.batch.tables import Tables


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


def _gather_work(work: Work, ix: IntArray) -> Work:
    """Every figure of ``work`` (arrays over some index) taken at ``ix`` (:func:`_gather`)."""

    def role(r: RoleWork) -> RoleWork:
        return RoleWork(*(_gather(x, ix) for x in r))

    return Work(role(work.data), role(work.parity), _gather(work.backend_ios, ix), _gather(work.kib, ix))


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
    :func:`models.pool.pool_work` whose other side alone is wanted (:func:`models.batch.work.segment_work`).
    ``any_packs`` / ``any_dedupes``: whether inline reduction applies anywhere (default: in these
    segments), so that plans of a subset of the segments price reduction as all of them do."""

    def __init__(
        self,
        tables: Tables,
        lay: IntArray,
        drv: IntArray,
        arr: IntArray,
        *,
        reads: bool = True,
        writes: bool = True,
        any_packs: bool | None = None,
        any_dedupes: bool | None = None,
    ) -> None:
        self.tables = model = tables
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
        # per segment: the largest write its store logs on the data drive first (models.architecture.wal_copy_kib)
        copy = np.asarray(
            [(wal_copy_kib_of(a, True), wal_copy_kib_of(a, False)) for a in arch], dtype=np.float64
        )
        self.any_wal = bool(copy.size and np.any(copy > 0))
        self.wal_kib = (
            np.where(
                np.asarray([d.kind is DriveKind.HDD for d in model.drives])[drv], copy[arr, 0], copy[arr, 1]
            )
            if self.any_wal
            else np.zeros(arr.size)
        )

    def _priced(self, plan: AccessPlan, *, interleaved: bool = True) -> Work:
        """``plan`` (arrays over the pairs) priced on each pair's drive, gathered onto the segments."""
        work = plan_work(plan, self.times, interleaved=interleaved)
        return work if self.pair_of is None else _gather_work(work, self.pair_of)

    def _random(self, size_kib: float, read: bool) -> Work:
        got = self.memo.get((size_kib, read))
        if got is None:
            table = self.tables.random_plans(size_kib)[0 if read else 1]
            got = self.memo[(size_kib, read)] = self._priced(_columns(table, self.lay, AccessPlan))
        return got

    def random(self, size_kib: float) -> tuple[Work, Work]:
        return (
            self._random(size_kib, True) if self.reads else _NO_WORK,
            self._random(size_kib, False) if self.writes else _NO_WORK,
        )

    def segment_kib(self, size_kib: float, readahead_kib: float | None = None) -> Num:
        mult = self.tables.params.prefetch_multiplier
        seg = stream_segment_kib(np.take(self.tables.l_prefetch, self.lay), size_kib, readahead_kib, mult)
        return seg if self.pair_of is None else np.take(seg, self.pair_of)

    def _stream(self, interleaved: bool, read: bool, size_kib: float) -> Work:
        got = self.stream_memo.get((interleaved, read, size_kib))
        if got is None:
            table = self.tables.stream_plans(size_kib)[0 if read else 1]
            got = self.stream_memo[(interleaved, read, size_kib)] = self._priced(
                _columns(table, self.lay, AccessPlan), interleaved=interleaved
            )
        return got

    def streams(
        self, interleaved: bool, size_kib: float = 0.0, readahead_kib: float | None = None
    ) -> tuple[Work, Work]:
        # the least a stream request covers besides the prefetch (stream_segment_kib)
        size = max(size_kib * self.tables.params.prefetch_multiplier, readahead_kib or 0.0)
        return (
            self._stream(interleaved, True, size) if self.reads else _NO_WORK,
            self._stream(interleaved, False, size) if self.writes else _NO_WORK,
        )

    def wal_copies(self, size_kib: float) -> Num:
        if not (self.writes and self.any_wal):
            return 0.0
        return np.where(self.wal_kib >= size_kib, 1.0, 0.0)

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
                rtab, _ = self.tables.random_plans(size_kib)
                packed = self._priced(compressed_read(_columns(rtab, self.lay, AccessPlan), ratio))
            else:
                _, wtab = self.tables.random_plans(size_kib / ratio)
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
            _, wtab = self.tables.random_plans(METADATA_KIB)
            got = self.metadata_memo[size_kib] = self._priced(
                in_front_end_units(_columns(wtab, self.lay, AccessPlan), size_kib)
            )
        return got
