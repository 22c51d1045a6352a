"""Miss-ratio curves from a block trace: exact LRU stack distances, SHARDS sampling, libCacheSim policies.

Requests are split into fixed cache blocks before simulation (a 64 KiB read = 16 requests for
4 KiB blocks). Two ratios per cache size:

* request miss ratio: block requests that miss / block requests;
* byte miss ratio: requested bytes in the missing blocks / requested bytes (a 512-byte read of a
  4 KiB block weighs 512).

LRU [mattson-1970]: one pass gives every cache size at once. With ``p`` the previous
access to the same block, the stack distance of access ``t`` (distinct blocks touched since) is::

    d(t) = (t - p - 1) - #{ j < t : prev(j) > p }

(the window's accesses less those repeating a block already in the window). The count is an
"earlier and larger" count over the sequence ``prev``, done here for all accesses at once with a
wavelet-tree sweep over the bits of ``prev`` (vectorized, O(n log n), ~2 us per access). A cache
of C blocks hits access t iff ``d(t) < C``.

SHARDS [waldspurger-2015]: keep only the blocks with ``hash(block) mod P < T`` (rate R = T/P), compute their stack
distances and scale them by 1/R; the miss ratio is divided by the expected sample count (R times
the requests: the SHARDS_adj correction). The threshold is lowered (halved) whenever the sample
outgrows ``max_samples``, and the kept accesses are filtered again: the result is exactly fixed-rate
SHARDS at the final rate. Below ``max_samples`` block requests nothing is dropped (R = 1, exact).

Other policies (ARC [megiddo-modha-2003]; S3-FIFO [yang-2023-s3fifo]) run in libCacheSim
[yang-libcachesim] on the same sample with cache sizes scaled by R ("miniature simulation"
[waldspurger-2017]).

A trace analysed in N partitions of its block keys (:class:`~models.traces.builder.Partition`)
gives one sample per partition, each a spatial sample of rate 1/N of the trace; the curves add
them by their rates (:func:`lru_curve`, :func:`policy_curve`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import Field

from models.base import InputError, Output
from models.traces.records import BoolArray, FloatArray, IntArray

HASH_BITS = 24
"""SHARDS modulus P = 2^24: rates down to 6e-8."""
DEFAULT_MAX_SAMPLES = 1_000_000
"""Block requests kept for the stack distances: ~2 s of work; R = 1 (exact) below this."""
_MIN_OBJECTS = {"s3fifo": 10}
PYTHON_REPLAY_MAX = 50_000
"""Without a scratch directory, policies replay at most this many sampled requests (Python loop)."""
_LIBCACHESIM_CLASS = {"lru": "LRU", "arc": "ARC", "s3fifo": "S3FIFO", "fifo": "FIFO", "lirs": "LIRS"}

UInt64Array = npt.NDArray[np.uint64]


def splitmix64(x: npt.NDArray[np.int64] | UInt64Array) -> UInt64Array:
    """SplitMix64 finaliser [steele-splitmix-2014]: a well-mixed 64-bit hash of each key.

    ``z += 0x9E3779B97F4A7C15; z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9;
    z = (z ^ z >> 27) * 0x94D049BB133111EB; z ^= z >> 31`` (mod 2^64), in place.
    """
    z = np.array(x, dtype=np.uint64)
    t = np.empty_like(z)
    z += np.uint64(0x9E3779B97F4A7C15)
    np.right_shift(z, np.uint64(30), out=t)
    z ^= t
    z *= np.uint64(0xBF58476D1CE4E5B9)
    np.right_shift(z, np.uint64(27), out=t)
    z ^= t
    z *= np.uint64(0x94D049BB133111EB)
    np.right_shift(z, np.uint64(31), out=t)
    z ^= t
    return z


def shards_hash(keys: npt.NDArray[np.int64]) -> IntArray:
    """The top :data:`HASH_BITS` bits of :func:`splitmix64`, in [0, 2^24)."""
    z = splitmix64(keys)
    z >>= np.uint64(64 - HASH_BITS)
    return z.view(np.int64)


# ---- stack distances ---------------------------------------------------------------------------


def previous_access(keys: npt.NDArray[np.int64]) -> IntArray:
    """Index of the previous access to the same key, -1 for a first access."""
    n = keys.size
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    prev = np.full(n, -1, dtype=np.int64)
    same = sorted_keys[1:] == sorted_keys[:-1]
    prev[order[1:][same]] = order[:-1][same]
    return prev


def earlier_larger_counts(values: npt.NDArray[np.int64]) -> IntArray:
    """For each i, ``#{j < i : values[j] > values[i]}`` (values >= 0), in O(n log(max)) vector steps.

    Wavelet-tree sweep from the top bit down: elements are kept stably ordered by the bits seen
    so far; within a group sharing those bits, an element whose current bit is 0 is exceeded by
    every earlier element of the group whose bit is 1. Then each group is stably split by the bit.
    """
    n = values.size
    counts = np.zeros(n, dtype=np.int64)
    if n == 0:
        return counts
    bits = int(values.max()).bit_length()
    order = np.arange(n, dtype=np.int64)
    vals = values.astype(np.int64)
    idx = np.arange(n, dtype=np.int64)
    for b in range(bits - 1, -1, -1):  # temporaries are dropped (or reused) as soon as done with
        bit = vals >> b
        bit &= 1
        prefix = vals >> (b + 1)
        is_start = np.empty(n, dtype=bool)
        is_start[0] = True
        np.not_equal(prefix[1:], prefix[:-1], out=is_start[1:])
        del prefix
        start = np.where(is_start, idx, 0)
        np.maximum.accumulate(start, out=start)
        ones_incl = np.cumsum(bit)
        ones_before_start = ones_incl[start]
        ones_before_start -= bit[start]
        ones_before = ones_incl - bit
        ones_before -= ones_before_start
        zero = bit == 0
        del bit
        counts[order[zero]] += ones_before[zero]
        starts = np.flatnonzero(is_start)
        ends = np.append(starts[1:], n)
        zeros_in_group = ends - starts
        zeros_in_group -= ones_incl[ends - 1] - ones_before_start[starts]
        del starts, ends, ones_incl, ones_before_start
        group = np.cumsum(is_start)
        del is_start
        group -= 1
        new_pos = zeros_in_group[group]  # start + zeros_in_group[group] + ones_before where bit is 1
        del group, zeros_in_group
        new_pos += start
        new_pos += ones_before
        zeros_before = idx - start  # start + zeros_before where bit is 0
        zeros_before -= ones_before
        zeros_before += start
        del start, ones_before
        np.copyto(new_pos, zeros_before, where=zero)
        del zeros_before, zero
        new_order = np.empty_like(order)
        new_order[new_pos] = order
        order = new_order
        new_vals = np.empty_like(vals)
        new_vals[new_pos] = vals
        vals = new_vals
        del new_pos, new_order, new_vals
    return counts


def stack_distances(keys: npt.NDArray[np.int64]) -> IntArray:
    """LRU stack distance of each access (distinct other keys since its previous access), -1 if first.

    ``d(t) = t - p - 1 - #{j < t : prev(j) > p}`` with ``p = prev(t)``; an LRU cache of C
    items hits access t iff ``0 <= d(t) < C``.
    """
    keys = np.asarray(keys, dtype=np.int64)
    prev = previous_access(keys)
    later = earlier_larger_counts(prev + 1)
    d = np.arange(keys.size, dtype=np.int64)  # t - p - 1 - later, in place
    d -= prev
    d -= 1
    d -= later
    del later
    d[prev < 0] = -1
    return d


# ---- SHARDS sample -----------------------------------------------------------------------------


@dataclass
class BlockSample:
    """The sampled block-request stream (time order) and the totals it stands for."""

    keys: IntArray
    nbytes: IntArray
    counted: BoolArray
    threshold: int
    requests: int
    """Block requests after the warm-up, sampled or not."""
    bytes: int
    """Requested bytes after the warm-up, sampled or not."""
    share: float = 1.0
    """Share of the trace's blocks the sample was drawn from: 1, or 1/N for one of N partitions
    of the block keys (:class:`~models.traces.builder.Partition`)."""

    @property
    def rate(self) -> float:
        """SHARDS rate within the sampled blocks."""
        return self.threshold / float(1 << HASH_BITS)

    @property
    def trace_rate(self) -> float:
        """Sampling rate of the whole trace's blocks: ``rate x share``."""
        return self.rate * self.share


Samples = BlockSample | Sequence[BlockSample]
"""One sample, or one per partition of the block keys (each stands for its partition)."""


def _parts(samples: Samples) -> list[BlockSample]:
    return [samples] if isinstance(samples, BlockSample) else list(samples)


def _sampling(parts: list[BlockSample], what: str) -> tuple[float, str]:
    """(lowest whole-trace rate, the method's wording) of the samples."""
    rate = min(p.trace_rate for p in parts)
    if len(parts) == 1 and rate >= 1:
        return 1.0, f"exact {what}"
    split = f", {len(parts)} partitions" if len(parts) > 1 else ""
    return rate, f"SHARDS (R = {rate:.4g}{split}) {what}"


@dataclass
class ShardsSampler:
    """Streaming SHARDS: keeps block requests whose hash is below a threshold, halving it as needed.

    The hash of each kept request is kept too (computed when the threshold first drops below
    2^24), so a shrink is one comparison pass to find the new threshold and one filter. Hashes
    (below 2^24) and request bytes (at most a cache block, 1 MiB) are kept as int32: the values
    are the same, in half the memory of int64.
    """

    max_samples: int = DEFAULT_MAX_SAMPLES
    threshold: int = 1 << HASH_BITS
    requests: int = 0
    bytes: int = 0
    _keys: list[IntArray] = field(default_factory=list)
    _nbytes: list[IntArray] = field(default_factory=list)
    _counted: list[BoolArray] = field(default_factory=list)
    _hashes: list[IntArray | None] = field(default_factory=list)
    _n: int = 0

    def add(self, keys: IntArray, nbytes: IntArray, counted: BoolArray) -> None:
        n_counted = int(np.count_nonzero(counted))
        self.requests += n_counted
        self.bytes += int(nbytes.sum() if n_counted == counted.size else nbytes[counted].sum())
        h: IntArray | None = None
        if self.threshold < (1 << HASH_BITS):
            h = shards_hash(keys)
            keep = np.flatnonzero(h < self.threshold)
            keys, nbytes, counted = keys.take(keep), nbytes.take(keep), counted.take(keep)
            h = h.take(keep).astype(np.int32)
        self._keys.append(keys)
        self._nbytes.append(nbytes.astype(np.int32))
        self._counted.append(counted)
        self._hashes.append(h)
        self._n += keys.size
        if self._n > self.max_samples:
            self._shrink()

    def _shrink(self) -> None:
        """Halve the threshold until at most ``max_samples`` requests are below it, and keep
        those: each part filtered by itself, then the kept (about half) joined, so the parts are
        never copied whole into one array first."""
        hashes = [shards_hash(k) if x is None else x for k, x in zip(self._keys, self._hashes, strict=True)]
        threshold = self.threshold
        while threshold > 1 and sum(int(np.count_nonzero(h < threshold)) for h in hashes) > self.max_samples:
            threshold //= 2
        if threshold < self.threshold:
            self.threshold = threshold
            kept: list[list[npt.NDArray[Any]]] = [[], [], [], []]
            for k, b, c, h in zip(self._keys, self._nbytes, self._counted, hashes, strict=True):
                keep = np.flatnonzero(h < threshold)  # indices: faster than a mask keeping about half
                for out, x in zip(kept, (k, b, c, h), strict=True):
                    out.append(x.take(keep))
            keys, nbytes, counted, h = (np.concatenate(x) for x in kept)
            h = h.astype(np.int32, copy=False)  # int64 when hashed here for the first time
        else:  # pragma: no cover - threshold already 1
            keys, nbytes, counted = (np.concatenate(x) for x in (self._keys, self._nbytes, self._counted))
            h = np.concatenate(hashes)
        self._keys, self._nbytes, self._counted, self._hashes = [keys], [nbytes], [counted], [h]
        self._n = keys.size

    def sample(self) -> BlockSample:
        """The sample so far. Its arrays are shared with the sampler, which keeps them in place of
        its parts (one part each, as after :meth:`_shrink`; its hashes dropped, to be computed again
        by a later shrink if any, as ``shards_hash`` of the keys gives them): the sample is then
        held once, not twice (the parts and their join), while the curves are computed. Neither
        side changes an array in place."""

        def cat(parts: Sequence[npt.NDArray[Any]], dtype: type) -> npt.NDArray[Any]:
            if len(parts) == 1:
                return parts[0]
            return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)

        keys, nbytes, counted = (
            cat(self._keys, np.int64),
            cat(self._nbytes, np.int32),
            cat(self._counted, np.bool_),
        )
        if len(self._keys) > 1:
            self._keys, self._nbytes, self._counted = [keys], [nbytes], [counted]
            self._hashes = [None]
        return BlockSample(
            keys=keys,
            nbytes=nbytes,
            counted=counted,
            threshold=self.threshold,
            requests=self.requests,
            bytes=self.bytes,
        )


# ---- curves ------------------------------------------------------------------------------------


class MissRatioCurve(Output):
    """Miss ratios of one policy at each cache size (sizes from 0 to the footprint)."""

    policy: str
    cache_gb: list[float] = Field(description="cache sizes [GB, decimal]")
    cache_blocks: list[int]
    request_miss_ratio: list[float] = Field(description="block requests missing, 0..1")
    byte_miss_ratio: list[float] | None = Field(
        default=None, description="requested bytes missing, 0..1 (exact stack distances: LRU only)"
    )
    method: str
    sampling_rate: float
    sampled_requests: int


def cache_sizes(footprint_blocks: int, points: int = 25) -> IntArray:
    """0, then ``points - 1`` log-spaced sizes up to the footprint [blocks] (distinct, increasing)."""
    if footprint_blocks <= 0:
        return np.zeros(1, dtype=np.int64)
    lo = max(1.0, footprint_blocks / 1024.0)
    grid = np.geomspace(lo, footprint_blocks, max(points - 1, 1))
    sizes = np.unique(np.concatenate([[0], np.round(grid).astype(np.int64), [footprint_blocks]]))
    return sizes.astype(np.int64)


def _ratios(missed: FloatArray, total: float) -> list[float]:
    if total <= 0:
        return [0.0] * missed.size
    return np.clip(missed / total, 0.0, 1.0).tolist()


def lru_curve(samples: Samples, sizes_blocks: IntArray, block_bytes: int) -> MissRatioCurve:
    """Request and byte miss ratios of LRU at each size from the samples' (scaled) stack distances.

    Each sample (one, or one per partition of the block keys) scales its stack distances d by
    its whole-trace rate (``D = d / (R share)``) and weighs each access by ``1 / R``::

        missed(C) = sum over samples of #{counted sampled accesses : cold or D >= C} / R
        miss ratio(C) = missed(C) / sum of the samples' requests

    (bytes alike), clipped to [0, 1]: for one sample, SHARDS_adj's ``#{...} / (R requests)``; for
    N partitions, the partitions' curves added by their request counts (each partition is a
    spatial sample of rate 1/N of the trace). Non-increasing in C by construction.
    """
    parts = _parts(samples)
    scaled_parts, w_req_parts, w_bytes_parts = [], [], []
    for part in parts:
        d = stack_distances(part.keys)[part.counted]
        scaled_parts.append(np.where(d < 0, np.inf, d / part.trace_rate))
        w_req_parts.append(np.full(d.size, 1.0 / part.rate))
        w_bytes_parts.append(part.nbytes[part.counted].astype(np.float64) / part.rate)
    scaled = np.concatenate(scaled_parts)
    order = np.argsort(scaled, kind="stable")
    scaled_sorted = scaled[order]
    req_cum = np.concatenate([[0.0], np.cumsum(np.concatenate(w_req_parts)[order])])
    bytes_cum = np.concatenate([[0.0], np.cumsum(np.concatenate(w_bytes_parts)[order])])
    hit_n = np.searchsorted(scaled_sorted, sizes_blocks.astype(np.float64), side="left")  # D < C
    requests = sum(p.requests for p in parts)
    req = _ratios(req_cum[-1] - req_cum[hit_n], requests)
    byt = _ratios(bytes_cum[-1] - bytes_cum[hit_n], sum(p.bytes for p in parts))
    if sizes_blocks.size and sizes_blocks[0] == 0:
        req[0] = byt[0] = 1.0 if requests else 0.0
    rate, method = _sampling(parts, "stack distances")
    return MissRatioCurve(
        policy="lru",
        cache_gb=(sizes_blocks * block_bytes / 1e9).tolist(),
        cache_blocks=sizes_blocks.tolist(),
        request_miss_ratio=_monotone(req),
        byte_miss_ratio=_monotone(byt),
        method=method,
        sampling_rate=rate,
        sampled_requests=int(sum(p.keys.size for p in parts)),
    )


def _monotone(values: list[float]) -> list[float]:
    """Running minimum: the SHARDS_adj normalisation can leave round-off wiggles (never more)."""
    return np.minimum.accumulate(np.asarray(values, dtype=np.float64)).tolist() if values else values


LIBCACHESIM_MISSING = "libCacheSim is not installed (the [policies] extra: pip install 'sizer[policies]')"
"""Why a policy curve other than LRU was not computed, naming the optional extra that installs it."""


def libcachesim_available() -> bool:
    try:
        import libcachesim  # noqa: F401
    except ImportError:
        return False
    return True


def _dense_ids(keys: IntArray) -> tuple[IntArray, int]:
    uniq, inverse = np.unique(keys, return_inverse=True)
    return inverse.astype(np.int64) + 1, int(uniq.size)


def policy_curve(
    policy: str,
    samples: Samples,
    sizes_blocks: IntArray,
    block_bytes: int,
    scratch_dir: Path | None = None,
) -> MissRatioCurve:
    """Request miss ratios of a libCacheSim policy (``lru``, ``arc``, ``s3fifo``, ...) at each size.

    Miniature simulation: each SHARDS sample replayed through caches of ``round(C R share)`` blocks
    (at least one block for C > 0), warm-up requests first (not counted); with one sample per
    partition of the block keys, the misses of each (divided by its rate R) are added, over the
    requests of all. With ``scratch_dir``
    the sample is written there once as a libCacheSim ``oracleGeneral`` binary trace (24 bytes a
    request) and replayed in C (~10 million requests/s); without it each request goes through
    the Python binding (~0.4 million/s). Raises InputError for an unknown policy and
    RuntimeError (:data:`LIBCACHESIM_MISSING`) when libCacheSim is not installed.
    """
    name = _LIBCACHESIM_CLASS.get(policy)
    if name is None:
        raise InputError(
            "policy", f"unknown cache policy {policy!r}; use one of {sorted(_LIBCACHESIM_CLASS)}"
        )
    try:
        import libcachesim as lcs
    except ImportError as exc:
        raise RuntimeError(LIBCACHESIM_MISSING) from exc
    parts = _parts(samples)
    if scratch_dir is None:
        parts = [
            _subsample(p, PYTHON_REPLAY_MAX // len(parts))
            if p.keys.size > PYTHON_REPLAY_MAX // len(parts)
            else p
            for p in parts
        ]
    missed = np.zeros(sizes_blocks.size)
    for i, part in enumerate(parts):
        missed += _replay(lcs, name, policy, part, sizes_blocks, scratch_dir, i) / part.rate
    requests = sum(p.requests for p in parts)
    req_ratios = _ratios(missed, requests) if requests else [0.0] * sizes_blocks.size
    if sizes_blocks.size and sizes_blocks[0] == 0 and requests:
        req_ratios[0] = 1.0
    rate, _ = _sampling(parts, "")
    split = f", {len(parts)} partitions" if len(parts) > 1 else ""
    return MissRatioCurve(
        policy=policy,
        cache_gb=(sizes_blocks * block_bytes / 1e9).tolist(),
        cache_blocks=sizes_blocks.tolist(),
        request_miss_ratio=req_ratios,
        byte_miss_ratio=None,
        method=f"libCacheSim {name}"
        + ("" if rate >= 1 else f", miniature simulation (R = {rate:.4g}{split})"),
        sampling_rate=rate,
        sampled_requests=int(sum(p.keys.size for p in parts)),
    )


def _replay(
    lcs: Any,
    name: str,
    policy: str,
    sample: BlockSample,
    sizes_blocks: IntArray,
    scratch_dir: Path | None,
    tag: int,
) -> FloatArray:
    """Counted misses of ``sample`` through the policy's miniature caches, one per size."""
    rate = sample.trace_rate
    ids, n_unique = _dense_ids(sample.keys)
    warm = int(np.argmax(sample.counted)) if sample.counted.any() else ids.size
    hashpower = max(10, min(26, math.ceil(math.log2(max(n_unique, 2))) + 1))
    cls = getattr(lcs, name)
    reader = None
    trace_path: Path | None = None
    if scratch_dir is not None and ids.size:
        trace_path = Path(scratch_dir) / f"mrc-sample-{policy}-{tag}.oracleGeneral"
        rec = np.zeros(
            ids.size, dtype=np.dtype([("t", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
        )
        rec["id"] = ids
        rec["size"] = 1
        rec["next"] = -1
        rec.tofile(trace_path)
        reader = lcs.TraceReader(str(trace_path), lcs.TraceType.ORACLE_GENERAL_TRACE)
    counted_n = int(sample.counted.sum())
    miss: list[float] = []
    try:
        for c in sizes_blocks.tolist():
            # libCacheSim's S3-FIFO aborts the process below 10 objects (its 10 % small FIFO
            # would be empty): tiny miniature caches are simulated at that minimum
            size = max(_MIN_OBJECTS.get(policy, 1), round(c * rate)) if c > 0 else 0
            if size == 0 or counted_n == 0:
                miss.append(float(counted_n))
                continue
            cache = cls(size, hashpower=hashpower)
            if reader is not None:
                if warm:
                    cache.process_trace(reader, 0, warm)
                ratio, _ = cache.process_trace(reader, warm, -1)
                missed = ratio * counted_n
            else:
                req = lcs.Request()
                req.obj_size = 1
                get = cache.get
                missed = 0.0
                for i, x in enumerate(ids.tolist()):
                    req.obj_id = x
                    if not get(req) and i >= warm:
                        missed += 1.0
            miss.append(missed)
    finally:
        if trace_path is not None:
            trace_path.unlink(missing_ok=True)
    return np.asarray(miss, dtype=np.float64)


def _subsample(sample: BlockSample, limit: int) -> BlockSample:
    """The same sample at a lower SHARDS rate (threshold halved until at most ``limit`` remain)."""
    h = shards_hash(sample.keys)
    threshold = sample.threshold
    keep = np.ones(h.size, dtype=bool)
    while int(keep.sum()) > limit and threshold > 1:
        threshold //= 2
        keep = h < threshold
    return BlockSample(
        keys=sample.keys[keep],
        nbytes=sample.nbytes[keep],
        counted=sample.counted[keep],
        threshold=threshold,
        requests=sample.requests,
        bytes=sample.bytes,
        share=sample.share,
    )


def mean_absolute_error(a: Sequence[float], b: Sequence[float]) -> float:
    """``mean |a_i - b_i|`` of two curves on the same sizes."""
    return float(np.mean(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))))
