"""The streaming accumulator of a trace profile: counters, heat map, working sets, SHARDS sample.

:class:`ProfileBuilder` takes :class:`~models.traces.records.Records` chunks in time order and
keeps only per-interval counters, the per-stream tail needed for sequentiality, the blocks of the
interval still open, a 4 KiB heat map (distinct blocks touched) and a SHARDS sample of the
cache-block requests (see :mod:`models.traces.mrc`): memory grows with the number of intervals
and, up to :data:`HEAT_MAX_BLOCKS` distinct blocks, with the footprint, never with the number of
records. Beyond that bound the heat map and working sets follow a hash sample of the cache
blocks (estimates, said in the profile's warnings). :func:`models.traces.profile.summarize`
turns it into a :class:`~models.traces.profile.TraceProfile`.

Kept as one module (about 640 lines): the counters, the heat map, the working sets and the SHARDS
sample are updated together from each chunk, in one pass over its records.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from models.base import InputError
from models.traces.heat import COARSE_SHIFT, HEAT_BLOCK_BYTES, STREAM_SHIFT, HeatMap
from models.traces.keys import (
    add_sums,
    compact_entries,
    distinct,
    distinct_count,
    float32_if_exact,
    sum_runs,
    value_counts,
)
from models.traces.mrc import (
    DEFAULT_MAX_SAMPLES,
    HASH_BITS,
    BlockSample,
    ShardsSampler,
    shards_hash,
    splitmix64,
)
from models.traces.profile import N_SIZE_CLASSES, TraceProfile, size_class, summarize
from models.traces.records import BoolArray, FloatArray, IntArray, Records

MERGE_EVERY = 1 << 21
"""Buffered 4 KiB block entries (and open-interval keys) that trigger a merge into the heat map
(or a deduplication), at least: 2 Mi entries of key and weight are 32 MB. Once the map is larger,
entries are buffered up to its size, so that each merge, which goes over the whole map, folds in
as many entries."""
MAX_EXPANSION = 1 << 18
"""4 KiB blocks expanded at once (large I/Os are split into many): bounds the temporaries
(about 20 arrays of this many 8-byte values, 40 MB)."""
HEAT_SHIFT = HEAT_BLOCK_BYTES.bit_length() - 1
"""log2 of the heat block size: ``offset >> HEAT_SHIFT`` is the 4 KiB block number."""
MAX_OFFSET = 1 << (STREAM_SHIFT + 12)
"""Offsets at or beyond 4 PiB are refused (block keys would overflow)."""
HEAT_MAX_BLOCKS = 1 << 23
"""Distinct 4 KiB blocks the heat map holds exactly (32 GiB touched; about 130 B each while
merging). Beyond, it keeps only the cache blocks whose SHARDS hash is below a threshold, halved
as needed, so memory stays bounded: footprint, working sets and the 4 KiB tier row become
estimates (divided by the rate); chunks of 512 KiB and more stay exact (:class:`HeatMap`)."""


def _libc_malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None with another C library."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # pragma: no cover - not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


_MALLOC_TRIM = _libc_malloc_trim()


def release_free_heap() -> None:
    """Give the free pages of the C heap back to the system (glibc ``malloc_trim(0)``; nothing
    with another C library), before a step that makes big temporaries.

    numpy takes arrays below glibc's mmap threshold from the heap, and that threshold rises to
    32 MiB once a larger array has been freed; glibc keeps freed heap memory resident. The big
    temporaries of a merge (byte map, offsets, keys: 5-30 MB each) leave holes that the small
    long-lived arrays (buffered heat entries, the sample's parts, the open interval's keys) spread
    into, so the next big temporary extends the heap instead: on a trace of 10 million records
    over 100 GiB, the heap held 80-170 MB free but resident beside 60-120 MB in use, 30-60 MB of
    the peak. A call takes a few milliseconds (a walk over the free chunks)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def top_of(highest: IntArray, ids: IntArray, values: IntArray) -> None:
    """``highest[i] = max(highest[i], values where ids == i)``, in place (one reduction when the
    chunk holds one id, as most chunks do)."""
    if ids.size == 0:
        return
    first = int(ids[0])
    if ids.min() == ids.max():
        highest[first] = max(int(highest[first]), int(values.max()))
    else:
        np.maximum.at(highest, ids, values)


def _repeat(values: npt.NDArray[Any], counts: IntArray, total: int) -> npt.NDArray[Any]:
    """``np.repeat(values, counts)`` (``total`` long): filled with the one value when all are equal
    (a chunk's records mostly lie in one interval and are all counted), else repeated."""
    if values.size and values.min() == values.max():
        return np.full(total, values[0], dtype=values.dtype)
    return np.repeat(values, counts)


def _stable_order(ids: IntArray) -> IntArray:
    """Stable ascending order of small non-negative ids (radix sort below 2^16)."""
    if ids.size and int(ids.max()) < (1 << 16):
        return np.argsort(ids.astype(np.uint16), kind="stable")
    return np.argsort(ids, kind="stable")


@dataclass(frozen=True)
class Partition:
    """Partition ``index`` of ``count`` of a trace, split by a hash of the block key (the spatial
    sampling behind SHARDS: a partition sees every reference to its blocks, in order).

    It keeps the cache blocks whose SplitMix64 hash, low 32 bits, is ``index`` modulo ``count``
    (heat, working sets, the SHARDS sample; the SHARDS threshold reads the top 24 bits, so the two
    are independent), and the per-I/O counters (rates, mix, sizes, sequentiality, latency) of the
    streams whose id is ``index`` modulo ``count`` (sequentiality needs a stream's I/Os together).
    Every partition reads the whole trace: the first record's time is common to all. Partition
    0 of 1 is the whole trace.
    """

    index: int = 0
    count: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"partition {self.index} of {self.count} does not exist")

    def owns_streams(self, stream: IntArray) -> BoolArray:
        return (stream % self.count) == self.index

    def owns_blocks(self, cache_blocks: IntArray) -> BoolArray:
        h = splitmix64(cache_blocks) & np.uint64(0xFFFFFFFF)
        return (h % np.uint64(self.count)) == np.uint64(self.index)


_EMPTY_KEYS = np.zeros(0, np.int64)
_EMPTY_SUMS = np.zeros(0, np.float64)

EXACT_INT = 1 << 53
"""Integers up to this are exact in float64: sums of whole byte counts whose every partial sum
stays below it are the same in any order, and the same as integer sums."""

MAX_INTERVALS = 2_000_000
"""Per-interval counters kept at most (23 days at 1 s): bounds memory against a bogus timestamp."""


class IntervalCounters:
    """Per-interval counters that grow as later intervals appear."""

    FIELDS = (
        "count",
        "reads",
        "bytes",
        "read_bytes",
        "seq",
        "lat_sum",
        "lat_n",
        "ws",
        "cls_count",
        "cls_bytes",
    )

    def __init__(self) -> None:
        self.n = 0
        cap = 1024
        self.count = np.zeros(cap, np.int64)
        self.reads = np.zeros(cap, np.int64)
        self.bytes = np.zeros(cap, np.float64)
        self.read_bytes = np.zeros(cap, np.float64)
        self.seq = np.zeros(cap, np.int64)
        self.lat_sum = np.zeros(cap, np.float64)
        self.lat_n = np.zeros(cap, np.int64)
        self.ws = np.zeros(cap, np.float64)  # distinct cache blocks (divided by the heat rate)
        self.cls_count = np.zeros((cap, N_SIZE_CLASSES), np.int32)
        self.cls_bytes = np.zeros((cap, N_SIZE_CLASSES), np.float32)

    def ensure(self, n: int) -> None:
        if n <= self.count.shape[0]:
            self.n = max(self.n, n)
            return
        cap = max(n, 2 * self.count.shape[0])
        for name in ("count", "reads", "bytes", "read_bytes", "seq", "lat_sum", "lat_n", "ws"):
            old = getattr(self, name)
            new = np.zeros(cap, old.dtype)
            new[: old.size] = old
            setattr(self, name, new)
        for name in ("cls_count", "cls_bytes"):
            old = getattr(self, name)
            new = np.zeros((cap, N_SIZE_CLASSES), old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)
        self.n = max(self.n, n)


class ProfileBuilder:
    """Accumulates the profile, the heat map and the SHARDS sample chunk by chunk.

    Work per chunk is a handful of vector passes and sorts of packed 64-bit keys
    (:mod:`models.traces.keys`); state kept between chunks:
    per-interval counters, the last ``seq_window`` I/Os of each stream, the distinct cache blocks
    of the interval still open, the 4 KiB heat map and the SHARDS sample.
    """

    def __init__(
        self,
        interval_s: float = 60.0,
        block_bytes: int = 4096,
        warmup_s: float = 0.0,
        latency_target_ms: float = 10.0,
        seq_window: int = 8,
        max_samples: int = DEFAULT_MAX_SAMPLES,
        max_heat_blocks: int = HEAT_MAX_BLOCKS,
        partition: Partition | None = None,
    ) -> None:
        if block_bytes % HEAT_BLOCK_BYTES or block_bytes & (block_bytes - 1):
            raise ValueError("block_bytes must be a power of two multiple of 4096")
        self.interval_s = float(interval_s)
        self.block_bytes = block_bytes
        self.block_shift = int(math.log2(block_bytes // HEAT_BLOCK_BYTES))
        self.warmup_s = warmup_s
        self.latency_target_s = latency_target_ms / 1000.0
        self.seq_window = seq_window
        self.sampler = ShardsSampler(max_samples=max_samples)
        self.iv = IntervalCounters()
        self.t0: float | None = None
        self.t_max = 0.0
        self.records = 0
        self.lat_over = 0
        self.lat_n = 0
        self.has_latency = False
        self.sizes: dict[int, int] = {}
        self.span = np.zeros(0, np.int64)
        """Highest byte addressed per stream id [B]."""
        self.carry_stream = np.zeros(0, np.int64)
        self.carry_end = np.zeros(0, np.int64)
        self.open_interval = -1
        self._open_keys: list[IntArray] = []
        self._open_n = 0
        self._open_distinct = 0
        self.heat_keys = np.zeros(0, np.int64)
        self.heat_w = np.zeros(0, np.float64)
        self.max_heat_blocks = max_heat_blocks
        self.heat_threshold = 1 << HASH_BITS
        """Blocks of the cache blocks whose SHARDS hash is below this are kept (all at first)."""
        self.coarse_keys: IntArray | None = None
        self.coarse_w: FloatArray | None = None
        self._pending_keys: list[npt.NDArray[Any]] = []
        """Heat entries waiting to be added to the map, compact (:func:`~models.traces.keys.compact_entries`)."""
        self._pending_w: list[npt.NDArray[Any]] = []
        self._pending_coarse_keys: list[IntArray] = []
        self._pending_coarse_w: list[FloatArray] = []
        self._pending_n = 0
        self.dropped = 0
        self.partition = partition or Partition()
        self.samples: list[BlockSample] = []
        """Samples of merged partitions (:func:`~models.traces.merge.merge`); empty for a builder that
        read records."""

    # ---- per chunk ----

    def add(self, rec: Records) -> None:
        """Count a chunk of records (the whole chunk: a partition keeps its own part)."""
        if len(rec) and self.t0 is None:
            self.t0 = float(rec.t.min())
        ends = rec.offset + rec.size
        keep = (rec.size > 0) & (ends <= MAX_OFFSET)
        if not keep.all():
            own_all = self._owned(rec.stream)
            self.dropped += int(np.count_nonzero(~keep if own_all is None else ~keep & own_all))
            rec = rec.take(keep)
            ends = ends[keep]
        if len(rec) == 0 or self.t0 is None:
            return
        rel = rec.t - self.t0
        self.t_max = max(self.t_max, float(rel.max()))
        ivl = np.maximum(np.floor(rel / self.interval_s).astype(np.int64), 0)
        if int(ivl.max()) + 1 > MAX_INTERVALS:
            raise InputError(
                "interval_s",
                f"the trace spans {int(ivl.max()) + 1:,} intervals of {self.interval_s:g} s (more than "
                f"{MAX_INTERVALS:,}): use a longer interval, or check for a bogus timestamp far ahead of the rest",
            )
        self.iv.ensure(int(ivl.max()) + 1)  # every partition has every interval (working sets too)
        counted = rel >= self.warmup_s
        own = self._owned(rec.stream)
        if own is None:
            self._io_counters(rec, ends, ivl)
        elif own.any():
            self._io_counters(rec.take(own), ends[own], ivl[own])
        self._expand(rec, ends, ivl, counted)

    def _owned(self, stream: IntArray) -> BoolArray | None:
        """The records whose per-I/O counters this partition keeps (None: all of them)."""
        return None if self.partition.count == 1 else self.partition.owns_streams(stream)

    def _io_counters(self, rec: Records, ends: IntArray, ivl: IntArray) -> None:
        """Per-interval rates, mix, size classes, sequentiality and latency; sizes; spans."""
        n = len(rec)
        self.records += n
        lo, hi = int(ivl.min()), int(ivl.max())
        self.iv.ensure(hi + 1)
        local = ivl - lo
        span = hi - lo + 1
        g = self.iv
        sl = slice(lo, hi + 1)
        size_f = rec.size.astype(np.float64)
        seq = self._sequential(rec, ends)
        if span == 1 and n * int(rec.size.max()) <= EXACT_INT:
            # one interval (most chunks): totals instead of one-bin bincounts. The byte sums are
            # made as integers: bincount's float sums (in order, from zero) are the same, for each
            # of their partial sums is an integer of at most 2^53, which float64 holds exactly.
            g.count[lo] += n
            g.reads[lo] += int(np.count_nonzero(rec.read))
            g.bytes[lo] += float(int(rec.size.sum()))
            g.read_bytes[lo] += float(int(rec.size.sum(where=rec.read)))
            g.seq[lo] += int(np.count_nonzero(seq))
        else:
            g.count[sl] += np.bincount(local, minlength=span)
            g.reads[sl] += np.bincount(local[rec.read], minlength=span)
            g.bytes[sl] += np.bincount(local, weights=size_f, minlength=span)
            g.read_bytes[sl] += np.bincount(local, weights=np.where(rec.read, size_f, 0.0), minlength=span)
            g.seq[sl] += np.bincount(local[seq], minlength=span)
        flat = local * N_SIZE_CLASSES + size_class(rec.size)
        g.cls_count[sl] += (
            np.bincount(flat, minlength=span * N_SIZE_CLASSES).reshape(span, -1).astype(np.int32)
        )
        g.cls_bytes[sl] += (
            np.bincount(flat, weights=size_f, minlength=span * N_SIZE_CLASSES)
            .reshape(span, -1)
            .astype(np.float32)
        )
        if rec.latency is not None:
            lat_ok = ~np.isnan(rec.latency)
            n_ok = int(np.count_nonzero(lat_ok))
            if n_ok:
                self.has_latency = True
                lat = rec.latency if n_ok == n else np.where(lat_ok, rec.latency, 0.0)
                g.lat_sum[sl] += np.bincount(local, weights=lat, minlength=span)
                if span == 1:
                    g.lat_n[lo] += n_ok
                else:
                    g.lat_n[sl] += np.bincount(local[lat_ok], minlength=span)
                self.lat_n += n_ok
                self.lat_over += int(np.count_nonzero(rec.latency > self.latency_target_s))  # NaN: False
        sizes, counts = value_counts(rec.size)
        for s, c in zip(sizes.tolist(), counts.tolist(), strict=True):
            self.sizes[s] = self.sizes.get(s, 0) + c
        top = int(rec.stream.max())
        if top >= self.span.size:
            self.span = np.concatenate([self.span, np.zeros(top + 1 - self.span.size, np.int64)])
        top_of(self.span, rec.stream, ends)

    def _expand(self, rec: Records, ends: IntArray, ivl: IntArray, counted: BoolArray) -> None:
        """The block work (:meth:`_blocks`), a bounded number of 4 KiB blocks at a time. A
        partition first drops the I/Os within one cache block of another partition (those over
        several cache blocks go on: their blocks are sorted out one by one)."""
        if self.partition.count > 1:
            shift = HEAT_SHIFT + self.block_shift
            first = rec.offset >> shift
            tagged = (
                first if not rec.stream.any() else first | (rec.stream << (STREAM_SHIFT - self.block_shift))
            )
            keep = (first != (ends - 1) >> shift) | self.partition.owns_blocks(tagged)
            if not keep.all():
                rec, ends, ivl, counted = rec.take(keep), ends[keep], ivl[keep], counted[keep]
        n = len(rec)
        if n == 0:
            return
        nblocks = ((ends - 1) >> HEAT_SHIFT) - (rec.offset >> HEAT_SHIFT) + 1
        cum = np.cumsum(nblocks)
        cuts = np.searchsorted(cum, np.arange(MAX_EXPANSION, int(cum[-1]), MAX_EXPANSION), side="right")
        for a, b in zip(
            np.concatenate([[0], cuts]).tolist(), np.concatenate([cuts, [n]]).tolist(), strict=True
        ):
            if b > a:
                part = slice(a, b)
                self._blocks(rec.take(part), nblocks[part], ivl[part], counted[part])

    def _sequential(self, rec: Records, ends: IntArray) -> BoolArray:
        """True where an I/O starts where one of the previous ``seq_window`` I/Os of its stream ended.

        The I/Os (the previous chunk's last ``seq_window`` per stream first) are ordered by stream,
        keeping time order within a stream (a stable sort); the j-th previous I/O of the same
        stream is then j places back, so ``seq_window`` shifted comparisons of whole arrays
        decide every I/O.
        """
        k = self.seq_window
        n_carry = self.carry_stream.size
        stream = np.concatenate([self.carry_stream, rec.stream])
        end = np.concatenate([self.carry_end, ends])
        start = np.concatenate([np.full(n_carry, -1, np.int64), rec.offset])
        single = bool(stream[0] == stream.min() == stream.max())
        if single:
            s, e, o = stream, end, start
        else:
            order = _stable_order(stream)
            s, e, o = stream[order], end[order], start[order]
        hit = np.zeros(s.size, dtype=bool)
        for j in range(1, min(k, s.size - 1) + 1):
            same = e[:-j] == o[j:]
            if not single:
                same &= s[j:] == s[:-j]
            hit[j:] |= same
        if single:
            seq = hit
            tail = np.arange(s.size) >= s.size - k
        else:
            seq = np.empty(s.size, dtype=bool)
            seq[order] = hit
            # keep the last k I/Os of each stream for the next chunk
            last_of_stream = np.append(s[1:] != s[:-1], True)
            group_end = np.flatnonzero(last_of_stream)[np.cumsum(np.append(False, last_of_stream[:-1]))]
            tail = (group_end - np.arange(s.size)) < k
        self.carry_stream, self.carry_end = s[tail], e[tail]
        return seq[n_carry:]

    def _blocks(self, rec: Records, nb: IntArray, ivl: IntArray, counted: BoolArray) -> None:
        """Split the I/Os into 4 KiB blocks: heat, cache-block requests (SHARDS), working sets."""
        n = len(rec)
        total = int(nb.sum())
        io_start = np.cumsum(nb) - nb  # index of each I/O's first block
        first = rec.offset >> HEAT_SHIFT
        end = rec.offset + rec.size
        blk = np.arange(total, dtype=np.int64) + np.repeat(first - io_start, nb)
        # bytes of each block the I/O moves: 4 KiB inside, less at the I/O's ends
        overlap = np.full(total, HEAT_BLOCK_BYTES, dtype=np.int64)
        io_last = io_start + nb - 1
        overlap[io_last] = end - ((end - 1) >> HEAT_SHIFT << HEAT_SHIFT)
        overlap[io_start] = np.minimum(end, (first + 1) << HEAT_SHIFT) - rec.offset
        keys = blk if not rec.stream.any() else blk | np.repeat(rec.stream << STREAM_SHIFT, nb)
        # heat: I/O share per 4 KiB block (overlap / size), summed per block when merged
        weight = overlap / np.repeat(rec.size, nb)
        # cache blocks: one request per (I/O, cache block)
        if self.block_shift:
            ckeys = keys >> self.block_shift
            new = np.ones(total, dtype=bool)
            np.not_equal(ckeys[1:], ckeys[:-1], out=new[1:])
            new[io_start] = True
            starts = np.flatnonzero(new)
            ckeys = ckeys[starts]
            cbytes = np.add.reduceat(overlap, starts)
            per_io = np.add.reduceat(new.astype(np.int64), io_start) if n else np.zeros(0, np.int64)
        else:
            ckeys, cbytes, per_io = keys, overlap, nb
        req_counted, req_ivl = _repeat(counted, per_io, ckeys.size), _repeat(ivl, per_io, ckeys.size)
        if self.partition.count > 1:  # this partition's cache blocks only
            mine = self.partition.owns_blocks(keys >> self.block_shift)
            keys, weight = keys[mine], weight[mine]
            mine_req = self.partition.owns_blocks(ckeys)
            ckeys, cbytes = ckeys[mine_req], cbytes[mine_req]
            req_counted, req_ivl = req_counted[mine_req], req_ivl[mine_req]
        if self.coarse_keys is None:
            pending_keys, pending_w = compact_entries(keys, weight)
        else:  # sampled heat map: every entry in the exact 512 KiB map, the sampled ones in the map
            self._pending_coarse_keys.append(keys >> COARSE_SHIFT)
            self._pending_coarse_w.append(weight)
            keep = shards_hash(keys >> self.block_shift) < self.heat_threshold
            pending_keys, pending_w = compact_entries(keys[keep], weight[keep])
        self._pending_keys.append(pending_keys)
        self._pending_w.append(pending_w)
        self._pending_n += keys.size
        if self._pending_n > max(MERGE_EVERY, self.heat_keys.size):
            self._merge_heat()
        self.sampler.add(ckeys, cbytes, req_counted)
        self._working_sets(req_ivl, ckeys)

    def _working_sets(self, ivl: IntArray, ckeys: IntArray) -> None:
        """Distinct cache blocks per interval.

        In time order a batch is a run of intervals: those that end inside it are counted at
        once (:func:`~models.traces.keys.distinct_count`); the keys of the last one, still open,
        are kept as they come and counted when a later interval starts (or at the end:
        :meth:`_close_interval`), deduplicated on the way whenever they have doubled. A batch
        out of time order is put in interval order first (a stable sort of its interval numbers).
        """
        if self.heat_threshold < (1 << HASH_BITS):  # the sampled blocks only, counted 1 / rate times
            keep = shards_hash(ckeys) < self.heat_threshold
            ivl, ckeys = ivl[keep], ckeys[keep]
        if ckeys.size == 0:
            return
        if ivl.min() == ivl.max():  # one interval (most batches): one run, nothing to order
            starts, ends = [0], [ivl.size]
        else:
            if not np.all(ivl[1:] >= ivl[:-1]):
                order = np.argsort(ivl, kind="stable")
                ivl, ckeys = ivl[order], ckeys[order]
            cuts = np.flatnonzero(ivl[1:] != ivl[:-1]) + 1
            starts, ends = np.append(0, cuts).tolist(), np.append(cuts, ivl.size).tolist()
        last = int(ivl[-1])
        for a, b in zip(starts, ends, strict=True):
            i, keys = int(ivl[a]), ckeys[a:b]
            if i == self.open_interval or i == last:
                if i != self.open_interval:
                    self._close_interval()
                    self.open_interval = i
                self._open_keys.append(keys)
                self._open_n += keys.size
                if self._open_n > 2 * self._open_distinct + MERGE_EVERY:
                    merged = distinct(np.concatenate(self._open_keys))
                    self._open_keys, self._open_n, self._open_distinct = [merged], merged.size, merged.size
            else:  # an interval that starts and ends in this batch (or a late record's)
                self.iv.ws[i] += distinct_count(keys, STREAM_SHIFT - self.block_shift) / self.heat_rate

    def _close_interval(self) -> None:
        """Count the distinct blocks of the open interval."""
        if self.open_interval >= 0 and self._open_keys:
            self.iv.ws[self.open_interval] += (
                distinct_count(self._open_keys, STREAM_SHIFT - self.block_shift) / self.heat_rate
            )
        self._open_keys, self._open_n, self._open_distinct = [], 0, 0
        self.open_interval = -1

    def _merge_heat(self) -> None:
        """Fold the buffered (block, weight) entries into the heat map: each block's entries summed
        in order, then added to its sum in the map (:func:`~models.traces.keys.add_sums`). The
        sums are kept as float32 when all are float32 exactly (sums of ``1/2^k`` heats, as from
        I/Os of whole aligned 4 KiB blocks): the largest array the profile keeps, in half the
        bytes; whoever computes with them does so in float64 (:class:`~models.traces.heat.HeatMap`)."""
        if (self._pending_keys or self._pending_coarse_keys) and self.heat_keys.size >= MERGE_EVERY:
            # the merge's temporaries (tens of MB from a map of this size) come next; below it the
            # pages given back would cost more to fault in again than they save
            release_free_heap()
        if self._pending_coarse_keys and self.coarse_keys is not None and self.coarse_w is not None:
            table = [self.coarse_keys, self.coarse_w]
            self.coarse_keys, self.coarse_w = None, None  # given up to add_sums, which frees it early
            self.coarse_keys, coarse_w = add_sums(
                table, self._pending_coarse_keys, self._pending_coarse_w, STREAM_SHIFT - COARSE_SHIFT
            )
            self.coarse_w = float32_if_exact(coarse_w)
            del coarse_w
        if self._pending_keys:
            table = [self.heat_keys, self.heat_w]
            self.heat_keys, self.heat_w = _EMPTY_KEYS, _EMPTY_SUMS
            self.heat_keys, heat_w = add_sums(table, self._pending_keys, self._pending_w)
            self.heat_w = float32_if_exact(heat_w)
            del heat_w
        self._pending_keys, self._pending_w = [], []
        self._pending_coarse_keys, self._pending_coarse_w = [], []
        self._pending_n = 0
        if self.heat_keys.size > self.max_heat_blocks:
            self._sample_heat()

    def _sample_heat(self) -> None:
        """Bound the heat map: halve the hash threshold until at most ``max_heat_blocks`` blocks
        remain, and drop the others (and those of the open interval's working set). The first
        time, the exact 512 KiB map is made from the exact 4 KiB map, to be kept from then on."""
        if self.coarse_keys is None:
            self.coarse_keys, self.coarse_w = sum_runs(self.heat_keys >> COARSE_SHIFT, self.heat_w)
        h = shards_hash(self.heat_keys >> self.block_shift)
        threshold = self.heat_threshold
        while threshold > 1 and int(np.count_nonzero(h < threshold)) > self.max_heat_blocks:
            threshold //= 2
        self.heat_threshold = threshold
        keep = h < threshold
        self.heat_keys, self.heat_w = self.heat_keys[keep], self.heat_w[keep]
        self._open_keys = [k[shards_hash(k) < threshold] for k in self._open_keys]
        self._open_n = sum(k.size for k in self._open_keys)
        self._open_distinct = min(self._open_distinct, self._open_n)

    @property
    def heat_rate(self) -> float:
        """Share of the cache blocks the heat map (and the working sets) follow: 1 until the map
        outgrows ``max_heat_blocks``."""
        return self.heat_threshold / float(1 << HASH_BITS)

    # ---- result ----

    def finish(self) -> None:
        """Fold in what is still buffered: the heat entries, the open interval's working set."""
        self._merge_heat()
        self._close_interval()

    def block_samples(self) -> list[BlockSample]:
        """The SHARDS sample(s): this builder's own, or those of the partitions merged into it."""
        if self.samples:
            return self.samples
        sample = self.sampler.sample()
        sample.share = 1.0 / self.partition.count
        return [sample]

    def heat(self) -> HeatMap:
        """The 4 KiB heat map (a sample when :attr:`heat_rate` < 1, with the exact 512 KiB map)."""
        self._merge_heat()
        return HeatMap(self.heat_keys, self.heat_w, self.heat_rate, self.coarse_keys, self.coarse_w)

    def footprint_blocks(self) -> int:
        """Distinct cache blocks touched (estimated when :attr:`heat_rate` < 1)."""
        keys = self.heat().keys
        distinct_blocks = keys.size
        if self.block_shift and keys.size:  # sorted keys: each cache block is a run of its 4 KiB blocks
            blocks = keys >> self.block_shift
            distinct_blocks = 1 + int(np.count_nonzero(blocks[1:] != blocks[:-1]))
        return int(round(distinct_blocks / self.heat_rate))

    def working_set_blocks(self) -> FloatArray:
        """Distinct cache blocks per interval so far (the open interval included)."""
        ws = self.iv.ws[: max(self.iv.n, 1)].copy()
        if self.open_interval >= 0 and self._open_keys:
            ws[self.open_interval] += (
                distinct_count(self._open_keys, STREAM_SHIFT - self.block_shift) / self.heat_rate
            )
        return ws

    def span_s(self) -> float:
        """Length of the trace [s]: from its first record to its last, plus the mean gap between
        records (the last record's share of the time: ``(t_last - t_first) n / (n - 1)``), so that
        n records spread evenly over it come at the mean rate; one interval for a single record."""
        n = self.records
        if n < 2 or self.t_max <= 0:
            return self.interval_s
        return self.t_max * n / (n - 1)

    def interval_lengths(self, n_iv: int) -> FloatArray:
        """Seconds each interval covers: ``interval_s``, but the last, which ends with the trace
        (:meth:`span_s`): a trace of 2.5 s in 60 s intervals is one interval of 2.5 s, and its
        rates are counts / 2.5 s. Rates over these lengths average to the mean rate, so the
        busiest interval is never below the mean."""
        lengths = np.full(n_iv, self.interval_s)
        lengths[-1] = min(self.interval_s, max(self.span_s() - (n_iv - 1) * self.interval_s, 1e-9))
        return lengths

    def profile(self, streams: int, has_timing: bool = True, peaks: int = 5) -> TraceProfile:
        """The profile so far (:func:`~models.traces.profile.summarize`)."""
        return summarize(self, streams, has_timing, peaks)
