"""Counting by key: distinct block keys and sums per key, at the same speed whatever their density.

Block keys (``stream << 40 | block``) of a real trace are sparse: a volume of 100 GiB spans 26
million 4 KiB blocks of which a chunk of records touches a few hundred thousand, scattered.
Counting in arrays indexed by key (``bincount``, bitmaps) is the fastest when keys are dense,
and is kept for them; sparse ones take one sort of ``key << b | index`` (the key and its position
packed in one 63-bit value, so that no argsort is needed), then runs of equal keys found with
vector comparisons. numpy's sort of 64-bit integers (vectorized, x86-simd-sort on AVX2/AVX-512)
runs at 8-13 ns a key of CPU here on 0.3-10 M keys of any range, and the distinct count of a
sorted array at 15-16 ns a key: a third of the CPU of the Polars sort and hash count this module
once used (36-46 ns a key on its thread pool, measured side by side), without a 190 MB library.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from models.traces.records import BoolArray, FloatArray, IntArray

STREAM_SHIFT = 40
"""Block keys are ``stream << 40 | block``: 2^40 blocks of 4 KiB = 4 PiB per stream."""
DENSE_SPAN_PER_KEY = 4
"""Keys whose (narrowed) range spans at most this many values per key are counted in arrays
indexed by key (``bincount``, a bitmap) instead: one pass, no sort, no gather."""
DENSE_MAX_SPAN = 1 << 23
"""Largest key range counted that way: 8 Mi values, 64 MB of float64 sums at most."""
BITMAP_SPAN_PER_KEY = 64
"""Distinct keys are counted in a byte map over their (narrowed) range up to this many values per
key: zeroing and counting a byte takes about 0.1 ns, setting one per key 3-6 ns, against 14-16 ns
a key for a sort-based count, so the map wins up to some 80 values a key (measured on 0.3-2.5 M
keys over 26 Mi values)."""
BITMAP_MAX_SPAN = 1 << 25
"""Largest key range counted in a byte map: 32 MiB (a volume of 128 GiB in 4 KiB blocks)."""


def _range_within(lo: int, hi: int, n: int, per_key: int, max_span: int) -> bool:
    span = hi - lo + 1
    return span <= max_span and span <= per_key * n


def dense_range(lo: int, hi: int, n: int) -> bool:
    """Whether ``n`` keys in ``[lo, hi]`` are counted in arrays indexed by key."""
    return _range_within(lo, hi, n, DENSE_SPAN_PER_KEY, DENSE_MAX_SPAN)


def bitmap_range(lo: int, hi: int, n: int) -> bool:
    """Whether the distinct keys among ``n`` in ``[lo, hi]`` are counted in a byte map."""
    return _range_within(lo, hi, n, BITMAP_SPAN_PER_KEY, BITMAP_MAX_SPAN)


def sort_keys(x: IntArray) -> IntArray:
    """Non-negative int64 keys in ascending order (a new array)."""
    if x.size < 2:
        return x.copy()
    out: IntArray = np.sort(x)
    return out


def _low_bits(keys: IntArray | list[IntArray], hi_shift: int) -> int:
    """Bits of the largest ``lo`` of the ``hi << hi_shift | lo`` keys (of all the arrays), or
    ``hi_shift`` itself when every ``hi`` is 0 (then narrowing changes nothing)."""
    parts = [k for k in (keys if isinstance(keys, list) else [keys]) if k.size]
    if not any(int(k.max()) >> hi_shift for k in parts):
        return hi_shift
    return max(int((_int64(k) & ((1 << hi_shift) - 1)).max()).bit_length() for k in parts)


def _int64(keys: npt.NDArray[Any]) -> IntArray:
    """Keys as int64 (those kept compact as uint32 by :func:`compact_entries` copied back)."""
    return keys.astype(np.int64, copy=False)


def compact_entries(keys: IntArray, weights: FloatArray) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """(key, weight) entries in fewer bytes where no value changes, while they wait to be added
    (:func:`add_sums`): keys as uint32 when all lie in ``[0, 2^32)`` (one stream of up to 16 TiB
    in 4 KiB blocks), weights as float32 when every one is a float32 exactly (``1/2^k``, the
    usual ``4096 / size``); float32 to float64 is exact, so the sums do not change."""
    if keys.size and int(keys.min()) >= 0 and int(keys.max()) < (1 << 32):
        keys = keys.astype(np.uint32)
    return keys, float32_if_exact(weights)


def float32_if_exact(x: FloatArray) -> npt.NDArray[Any]:
    """``x`` as float32 when every value is a float32 exactly (half the bytes), else ``x``.
    float32 to float64 is exact: whoever adds, sorts or sums them in float64 gets the same numbers
    (adding float32 to float32, or summing in float32, would not)."""
    narrow = x.astype(np.float32)
    return narrow if np.array_equal(narrow, x) else x


def _narrow(keys: IntArray, hi_shift: int, lo_bits: int) -> IntArray:
    """Order-preserving narrowing of ``hi << hi_shift | lo`` keys to ``hi << lo_bits | lo``: the
    blocks of a few streams in few enough bits to pack a position beside them (int64; keys kept
    compact as uint32 are all of stream 0, returned as they are when nothing narrows)."""
    if lo_bits == hi_shift:
        return keys
    keys = _int64(keys)
    return ((keys >> hi_shift) << lo_bits) | (keys & ((1 << hi_shift) - 1))


def _widen(narrow: IntArray, hi_shift: int, lo_bits: int) -> IntArray:
    if lo_bits == hi_shift:
        return narrow
    return ((narrow >> lo_bits) << hi_shift) | (narrow & ((1 << lo_bits) - 1))


def _runs(ordered: IntArray) -> BoolArray:
    """Where each run of equal values starts in a sorted array."""
    new = np.empty(ordered.size, dtype=bool)
    if new.size:
        new[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    return new


def _rank_words(seen: BoolArray) -> tuple[npt.NDArray[np.uint64], IntArray]:
    """A byte map packed in 64-bit words, and for each word the number of set bits before it,
    less one: the rank of value ``x`` among the values present is then
    ``before[x >> 6] + popcount(words[x >> 6] << (63 - x % 64))`` (:func:`_rank`)."""
    words = np.packbits(seen, bitorder="little").view(np.uint64)
    per_word = np.bitwise_count(words).astype(np.int64)
    before = np.cumsum(per_word)
    before -= per_word
    before -= 1
    return words, before


def _rank(words: npt.NDArray[np.uint64], before: IntArray, x: IntArray) -> IntArray:
    """Rank of each (present) value ``x`` among the values set in the packed map: the bits of its
    word up to its own (shifted to the top, so no mask is built) counted, plus those before."""
    word = x >> 6
    shift = (x & 63).view(np.uint64)
    shift ^= np.uint64(63)  # 63 - x % 64
    bits = words[word]
    bits <<= shift
    rank = before[word]
    rank += np.bitwise_count(bits)
    return rank


def _bitmap_ranks(offsets: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct values of non-negative ``offsets`` (ascending) and the rank of each offset
    among them, without a sort: a byte map over ``[0, max]`` marks the values present, packed in
    64-bit words whose set bits are counted (:func:`_rank_words`, :func:`_rank`)."""
    span = int(offsets.max()) + 1
    seen = np.zeros(-(-span // 64) * 64, dtype=bool)
    seen[offsets] = True
    words, before = _rank_words(seen)
    return np.flatnonzero(seen).astype(np.int64, copy=False), _rank(words, before, offsets)


def sum_by_key(
    keys: list[IntArray], weights: list[FloatArray], hi_shift: int = STREAM_SHIFT
) -> tuple[IntArray, FloatArray]:
    """The distinct keys of the concatenated parts (ascending) and the weights summed per key (in
    the order given within a key).

    Keys are ``stream << hi_shift | block`` (>= 0), weights > 0. Narrowed keys within a small
    range (:func:`dense_range`) are summed by ``bincount`` over the range; those within a byte
    map's range (:func:`bitmap_range`) by ``bincount`` over their ranks among the keys present
    (:func:`_bitmap_ranks`: no sort, each key's weights summed in the order given, as the sort
    does); others by one sort of
    ``narrowed key << b | position`` (which fits in 63 bits but for more than 2^63 key-position
    combinations: those take a stable argsort).
    """
    all_keys = np.concatenate(keys) if len(keys) != 1 else keys[0]
    all_w = np.concatenate(weights) if len(weights) != 1 else weights[0]
    n = all_keys.size
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    lo_bits = _low_bits(all_keys, hi_shift)
    narrow = _narrow(all_keys, hi_shift, lo_bits)
    lo, hi = int(narrow.min()), int(narrow.max())
    if dense_range(lo, hi, n):
        total = np.bincount(narrow - lo, weights=all_w, minlength=hi - lo + 1)
        present = np.flatnonzero(total > 0)
        return _widen(present + lo, hi_shift, lo_bits), total[present].astype(np.float64, copy=False)
    if bitmap_range(lo, hi, n):
        present, rank = _bitmap_ranks(narrow - lo)
        sums = np.bincount(rank, weights=all_w, minlength=present.size).astype(np.float64, copy=False)
        return _widen(present + lo, hi_shift, lo_bits), sums
    index_bits = max(1, (n - 1).bit_length())
    if int(narrow.max()).bit_length() + index_bits <= 63:
        packed = sort_keys((narrow << index_bits) | np.arange(n, dtype=np.int64))
        order = packed & ((1 << index_bits) - 1)
        ordered = packed >> index_bits
    else:  # pragma: no cover - keys and positions beyond 63 bits
        order = np.argsort(narrow, kind="stable")
        ordered = narrow[order]
    new = _runs(ordered)
    sums = np.bincount(np.cumsum(new) - 1, weights=all_w[order]).astype(np.float64, copy=False)
    return _widen(ordered[new], hi_shift, lo_bits), sums


RANK_CHUNK = 1 << 18
"""Keys ranked (or runs summed) at once: bounds the temporaries (2 MB each)."""


def add_sums(
    table: list[npt.NDArray[Any]],
    more_keys: list[npt.NDArray[Any]],
    more_weights: list[npt.NDArray[Any]],
    hi_shift: int = STREAM_SHIFT,
) -> tuple[IntArray, FloatArray]:
    """A table ``[keys, sums]`` (distinct ascending keys with their sums) with more (key, weight)
    entries added: bit for bit ``merge_tables(keys, sums, *sum_by_key(more_keys, more_weights,
    hi_shift))``
    (each key's new entries summed in the order given, from zero, then added to its sum).

    The entries are never concatenated. When the (narrowed) keys of both lie within a byte map's
    range (:func:`bitmap_range`), one byte map marks them all and gives each key its rank among
    the union (:func:`_rank`): the entries are summed into an array of that length (``np.add.at``,
    sequential in the order given, as ``bincount``) and the table's sums added at their ranks
    (``x + y == y + x`` in floating point, so the table's sum comes first as in the merge);
    neither a sort nor a merge of the table. Otherwise the entries are summed by
    :func:`sum_by_key` and the two tables merged (:func:`merge_tables`).

    The entries and the table may be compact (:func:`compact_entries`; the table's sums float32
    when all are float32 exactly: :func:`float32_if_exact`); over a byte map the new keys come back
    as uint32 when all are below 2^32 (:func:`_marked_keys`). The three lists are emptied (the
    function holds the only references), so that the entries are freed as they are added and the
    old table before the new keys are listed: the table and the entries are given up by the caller.
    """
    keys, sums = table
    table.clear()
    parts = [(k, w) for k, w in zip(more_keys, more_weights, strict=True) if k.size]
    more_keys.clear()
    more_weights.clear()
    if not parts:
        return keys, sums
    lo_bits = _low_bits([keys, *(k for k, _ in parts)], hi_shift)
    lo, hi = np.iinfo(np.int64).max, -1
    if keys.size:
        lo, hi = int(_narrow(keys[:1], hi_shift, lo_bits)[0]), int(_narrow(keys[-1:], hi_shift, lo_bits)[0])
    for k, _ in parts:
        nk = k if lo_bits == hi_shift else _narrow(_int64(k), hi_shift, lo_bits)
        lo, hi = min(lo, int(nk.min())), max(hi, int(nk.max()))
    n = keys.size + sum(k.size for k, _ in parts)
    if not bitmap_range(lo, hi, n):
        merged_keys, merged_sums = sum_by_key(
            [_int64(k) for k, _ in parts], [w.astype(np.float64, copy=False) for _, w in parts], hi_shift
        )
        return (
            merge_tables(keys, sums, merged_keys, merged_sums, hi_shift)
            if keys.size
            else (merged_keys, merged_sums)
        )

    def offsets(k: npt.NDArray[Any]) -> IntArray:
        """``narrowed key - lo`` as a new int64 array (the keys given stay as they are)."""
        if lo_bits == hi_shift:
            return np.subtract(k, lo, dtype=np.int64)
        return _narrow(_int64(k), hi_shift, lo_bits) - lo

    seen = np.zeros(-(-(hi - lo + 1) // 64) * 64, dtype=bool)
    for k, _ in parts:
        seen[offsets(k)] = True
    # the table's keys in 4 bytes while the sums array is made: as they are when compact (uint32,
    # offsets ``key - lo``), else as their offsets (uint32 when the range allows), the int64 keys freed
    if keys.dtype == np.uint32 and lo_bits == hi_shift:
        old, old_lo = keys, lo
        for a in range(0, keys.size, RANK_CHUNK):
            seen[offsets(keys[a : a + RANK_CHUNK])] = True
    else:
        old, old_lo = np.empty(keys.size, dtype=np.uint32 if hi - lo < 1 << 32 else np.int64), 0
        for a in range(0, keys.size, RANK_CHUNK):
            o = offsets(keys[a : a + RANK_CHUNK])
            seen[o] = True
            old[a : a + RANK_CHUNK] = o
    del keys
    words, before = _rank_words(seen)
    total = np.zeros(int(before[-1]) + 1 + int(np.bitwise_count(words[-1])), dtype=np.float64)
    parts.reverse()
    while parts:  # sequential in the order given, from zero: as bincount sums
        k, w = parts.pop()
        np.add.at(total, _rank(words, before, offsets(k)), w.astype(np.float64, copy=False))
        del k, w
    for a in range(0, old.size, RANK_CHUNK):  # the table's sums: distinct ranks, ascending
        o = np.subtract(old[a : a + RANK_CHUNK], old_lo, dtype=np.int64)
        total[_rank(words, before, o)] += sums[a : a + RANK_CHUNK]
    del old, sums, words, before  # the old table, before the new keys are listed
    return _marked_keys(seen, lo, hi, hi_shift, lo_bits, total.size), total


def _marked_keys(seen: BoolArray, lo: int, hi: int, hi_shift: int, lo_bits: int, n: int) -> npt.NDArray[Any]:
    """The ``n`` keys marked in the byte map of :func:`add_sums` (``lo`` + their offset, none
    above ``hi``), ascending. Keys below 2^32 (a single stream of up to 16 TiB) are given as uint32,
    listed a window at a time: the table's keys are the largest array the profile keeps, and half
    of them is some 27 MB of the peak on a trace touching 7 million blocks."""
    if lo_bits != hi_shift or hi >= 1 << 32:
        present = np.flatnonzero(seen)
        present += lo
        return _widen(present, hi_shift, lo_bits)
    keys = np.empty(n, dtype=np.uint32)
    j = 0
    for a in range(0, seen.size, RANK_CHUNK):
        window = np.flatnonzero(seen[a : a + RANK_CHUNK])
        window += lo + a
        keys[j : j + window.size] = window
        j += window.size
    return keys


def sum_runs(keys: IntArray, weights: FloatArray) -> tuple[IntArray, FloatArray]:
    """As :func:`sum_by_key` for keys already sorted (equal keys adjacent): no sort. Each run is
    summed in order from zero (``bincount``), :data:`RANK_CHUNK` entries at a time (cut between
    runs), so the temporaries stay small whatever the table's length."""
    if keys.size == 0:
        return keys, weights
    new = _runs(keys)
    starts = np.flatnonzero(new)
    return keys[starts], sum_marked_runs(new, starts, weights)


def sum_marked_runs(new: BoolArray, starts: IntArray, weights: FloatArray) -> FloatArray:
    """The sums of :func:`sum_runs` from the runs' marks (``new``: where each run starts) and
    their positions (``starts``): for callers that mark the runs without the keys themselves."""
    sums = np.empty(starts.size, dtype=np.float64)
    j = 0
    while j < starts.size:
        a = int(starts[j])
        k = int(np.searchsorted(starts, a + RANK_CHUNK))  # the runs starting in this window (>= 1)
        b = int(starts[k]) if k < starts.size else new.size
        run = np.cumsum(new[a:b], dtype=np.int64)
        run -= 1
        sums[j:k] = np.bincount(run, weights=weights[a:b], minlength=k - j)
        j = k
    return sums


def distinct(keys: IntArray) -> IntArray:
    """The distinct keys, ascending."""
    ordered = sort_keys(keys)
    return ordered[_runs(ordered)]


def distinct_count(keys: IntArray | list[IntArray], hi_shift: int = STREAM_SHIFT) -> int:
    """Number of distinct ``stream << hi_shift | block`` keys (of all the arrays): a byte map over
    their (narrowed) range when it is small enough (:func:`bitmap_range`: sparser than
    :func:`dense_range` allows, as a byte map costs less than sums), else by sorting them and
    counting where the sorted keys change.

    A list is counted as its concatenation, which the byte map does without: each array marks the
    map in turn (an open interval's keys, a dozen MB, are not copied into one array first)."""
    parts = [k for k in (keys if isinstance(keys, list) else [keys]) if k.size]
    n = sum(k.size for k in parts)
    if n < 2:
        return n
    lo_bits = _low_bits(parts, hi_shift)
    lo, hi = np.iinfo(np.int64).max, -1
    for k in parts:
        narrow = _narrow(k, hi_shift, lo_bits)
        lo, hi = min(lo, int(narrow.min())), max(hi, int(narrow.max()))
    if bitmap_range(lo, hi, n):
        seen = np.zeros(hi - lo + 1, dtype=bool)
        for k in parts:
            seen[np.subtract(_narrow(k, hi_shift, lo_bits), lo, dtype=np.int64)] = True
        return int(np.count_nonzero(seen))
    narrow = np.concatenate([_narrow(k, hi_shift, lo_bits) for k in parts]) if len(parts) > 1 else narrow
    ordered = np.sort(narrow)
    return int(np.count_nonzero(ordered[1:] != ordered[:-1])) + 1


SECTOR_COUNT_MAX = 1 << 16
"""Values that are whole 512-byte sectors below this many sectors (32 MiB: I/O sizes) are counted
in an array indexed by sector count (:func:`value_counts`), no sort."""


def value_counts(x: IntArray) -> tuple[IntArray, IntArray]:
    """Distinct values (ascending) and how often each occurs: by ``bincount`` over the sector
    count when every value is a whole number of 512-byte sectors below 32 MiB (I/O sizes, as a
    rule), else by a sort."""
    if x.size and int(x.min()) >= 0 and int(x.max()) < SECTOR_COUNT_MAX << 9 and not (x & 511).any():
        counts = np.bincount(x >> 9)
        present = np.flatnonzero(counts)
        return present << 9, counts[present]
    ordered = sort_keys(x)
    if ordered.size == 0:
        return ordered, np.zeros(0, np.int64)
    starts = np.flatnonzero(_runs(ordered))
    return ordered[starts], np.diff(np.append(starts, ordered.size))


def merge_tables(
    keys: IntArray, sums: FloatArray, more_keys: IntArray, more_sums: FloatArray, hi_shift: int = STREAM_SHIFT
) -> tuple[IntArray, FloatArray]:
    """Two tables of distinct ascending keys with their sums, as one (sums of common keys added,
    the first table's first): over the keys' narrowed range when it is small
    (:func:`dense_range`), else a stable argsort of the two runs side by side, which numpy's
    timsort merges in one pass."""
    if keys.size == 0:
        return more_keys, more_sums
    if more_keys.size == 0:
        return keys, sums
    lo_bits = _low_bits([keys, more_keys], hi_shift)
    a, b = _narrow(keys, hi_shift, lo_bits), _narrow(more_keys, hi_shift, lo_bits)
    lo, hi = min(int(a[0]), int(b[0])), max(int(a[-1]), int(b[-1]))
    if dense_range(lo, hi, a.size + b.size):
        total = np.bincount(a - lo, weights=sums, minlength=hi - lo + 1).astype(np.float64, copy=False)
        total += np.bincount(b - lo, weights=more_sums, minlength=hi - lo + 1)
        present = np.flatnonzero(total > 0).astype(np.int64)
        return _widen(present + lo, hi_shift, lo_bits), total[present]
    joined = np.concatenate([keys, more_keys])
    order = np.argsort(joined, kind="stable")
    joined = joined[order]
    return sum_runs(joined, np.concatenate([sums, more_sums])[order])
