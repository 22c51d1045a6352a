"""Merging the partitions of a trace (:class:`~models.traces.builder.Partition`) into one builder.

Counters add; the heat maps hold disjoint blocks and are joined; the SHARDS samples stay side by
side, for :func:`~models.traces.mrc.lru_curve` to combine by their rates. One partition merges
to itself: the single-process path is the same code.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.traces.builder import IntervalCounters, ProfileBuilder
from models.traces.heat import COARSE_SHIFT, STREAM_SHIFT
from models.traces.keys import sum_by_key, sum_runs
from models.traces.mrc import HASH_BITS, shards_hash


def merge(parts: Sequence[ProfileBuilder]) -> ProfileBuilder:
    """One builder holding what the partitions of a trace accumulated (each having read all of it).

    Counters add (each I/O was counted by the partition owning its stream; each cache block's
    heat, working-set membership and requests by the partition owning the block); the highest
    address of each stream is the largest; the heat maps hold disjoint blocks and are joined
    (those sampled at a lower rate than another's first brought to the lowest one); the SHARDS
    samples are kept side by side for the curves (:func:`~models.traces.mrc.lru_curve`). One
    partition merges to itself, finished: the single-process path is the same code.
    """
    if not parts:
        raise ValueError("nothing to merge")
    for b in parts:
        b.finish()
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    out = ProfileBuilder(
        interval_s=first.interval_s,
        block_bytes=first.block_bytes,
        warmup_s=first.warmup_s,
        latency_target_ms=first.latency_target_s * 1000.0,
        seq_window=first.seq_window,
        max_samples=first.sampler.max_samples,
        max_heat_blocks=first.max_heat_blocks,
    )
    n_iv = max(b.iv.n for b in parts)
    out.iv.ensure(n_iv)
    for b in parts:
        for name in IntervalCounters.FIELDS:
            getattr(out.iv, name)[: b.iv.n] += getattr(b.iv, name)[: b.iv.n]
    starts = [b.t0 for b in parts if b.t0 is not None]
    out.t0 = min(starts) if starts else None
    out.t_max = max(b.t_max for b in parts)
    out.records = sum(b.records for b in parts)
    out.dropped = sum(b.dropped for b in parts)
    out.lat_n = sum(b.lat_n for b in parts)
    out.lat_over = sum(b.lat_over for b in parts)
    out.has_latency = any(b.has_latency for b in parts)
    for b in parts:
        for size, count in b.sizes.items():
            out.sizes[size] = out.sizes.get(size, 0) + count
    out.span = np.zeros(max(b.span.size for b in parts), np.int64)
    for b in parts:
        np.maximum(out.span[: b.span.size], b.span, out=out.span[: b.span.size])
    _merge_heat_maps(out, parts)
    out.samples = [s for b in parts for s in b.block_samples()]
    return out


def _merge_heat_maps(out: ProfileBuilder, parts: Sequence[ProfileBuilder]) -> None:
    """Join the partitions' heat maps (disjoint blocks) at the lowest sampling threshold, with the
    exact 512 KiB maps added when any was sampled."""
    threshold = min(b.heat_threshold for b in parts)
    keys, weights = [], []
    for b in parts:
        k, w = b.heat_keys, b.heat_w
        if b.heat_threshold > threshold:
            keep = shards_hash(k >> b.block_shift) < threshold
            k, w = k[keep], w[keep]
        keys.append(k)
        weights.append(w)
    joined = np.concatenate(keys)
    order = np.argsort(joined, kind="stable")  # sorted runs, one per partition: a merge (timsort)
    out.heat_keys, out.heat_w = joined[order], np.concatenate(weights)[order]  # disjoint keys
    out.heat_threshold = threshold
    if threshold < (1 << HASH_BITS):
        coarse = [
            (b.coarse_keys, b.coarse_w)
            if b.coarse_keys is not None and b.coarse_w is not None
            else sum_runs(b.heat_keys >> COARSE_SHIFT, b.heat_w)
            for b in parts
        ]
        out.coarse_keys, out.coarse_w = sum_by_key(
            [k for k, _ in coarse], [w for _, w in coarse], STREAM_SHIFT - COARSE_SHIFT
        )
