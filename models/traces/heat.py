"""Measured tiering: fast-tier capacity needed to capture a share of the I/O, per chunk size.

The counterpart of :func:`models.tiering.needed_fast_fraction` (the b-model) from a trace. Each
I/O is spread over the 4 KiB blocks it touches, weighted by the bytes it moves in each
(``overlap / size``, so a whole trace weighs its number of I/Os); a chunk's heat is the sum over
its blocks. Chunks sorted hottest first, the capacity needed for a share x of the I/O is::

    n(x) = min { n : sum of the n hottest chunk heats >= x * total }      capacity = n(x) * chunk

Greedy is optimal here (equal-size items). When one chunk size divides the other (4 KiB and
2 MiB, 128 MiB and 1 GiB) the larger never needs less capacity; vendor sizes that do not nest
(2 MiB and 7.5 MiB) can, by a fraction of a chunk, in contrived layouts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import Field

from models.base import Output
from models.traces.keys import RANK_CHUNK, STREAM_SHIFT, sum_by_key, sum_marked_runs
from models.traces.records import FloatArray, IntArray
from models.units import GB, MIB

HEAT_BLOCK_BYTES = 4096
"""Granularity of the heat map [B]: every vendor chunk below is a whole number of 4 KiB blocks."""
COARSE_SHIFT = 7
"""The coarse heat map counts 2^7 blocks of 4 KiB = 512 KiB units (``key >> 7``): every chunk size
below from 2 MiB up is a whole number of them."""

CHUNK_SIZES_MIB = (4.0 / 1024.0, 2.0, 7.5, 42.0, 128.0, 1024.0)
"""Flash Pool / WAFL block, Compellent page, VMAX FAST VP extent group, VSP HDT page, 3PAR AO
region, VNX FAST VP / DS8000 Easy Tier extent (see :data:`models.tiering.VENDOR_CHUNK_MB`)."""
IO_CAPTURES = (0.5, 0.8, 0.9, 0.95)


class TierCapture(Output):
    """Fast-tier capacity that serves ``io_pct`` % of the I/O at one chunk size."""

    io_pct: float
    chunks: int
    capacity_gb: float = Field(description="chunks x chunk size [GB, decimal]")
    fraction_of_footprint: float = Field(description="capacity / data touched by the trace (4 KiB blocks)")
    fraction_of_capacity: float = Field(description="capacity / capacity basis, capped at 1")


class TierRow(Output):
    chunk_mib: float
    label: str
    chunks_touched: int
    captures: list[TierCapture]


class TierTable(Output):
    """Measured fast-tier needs per chunk size; ``fraction_of_capacity`` at 80% feeds
    ``TieringConfig.fast_tier_fraction``."""

    footprint_gb: float
    capacity_basis_gb: float
    capacity_basis: str
    rows: list[TierRow]
    method: str = (
        "per-chunk heat from the trace (each I/O weighted over its 4 KiB blocks by bytes), hottest "
        "chunks first"
    )


def chunk_label(mib: float) -> str:
    if mib < 1:
        return f"{mib * 1024:g} KiB"
    if mib >= 1024:
        return f"{mib / 1024:g} GiB"
    return f"{mib:g} MiB"


@dataclass
class HeatMap:
    """Heat per 4 KiB block (``keys`` ascending, ``stream << 40 | block``: int64, or uint32 when
    all are below 2^32, as :func:`~models.traces.keys.add_sums` leaves them), possibly a sample;
    ``weights`` float64, or float32 when all are float32 exactly (sums of ``1/2^k`` heats).

    ``rate`` < 1: only the blocks of the cache blocks whose SHARDS hash is below a threshold are
    kept (the profile's bound on memory); counts of blocks are then divided by ``rate``, and
    ``coarse_keys``/``coarse_weights`` hold the exact heat per 512 KiB unit
    (``stream << 33 | block >> 7``) for chunks of 512 KiB and more.
    """

    keys: IntArray
    weights: FloatArray
    rate: float = 1.0
    coarse_keys: IntArray | None = None
    coarse_weights: FloatArray | None = None


def chunk_heat(keys: IntArray, weights: FloatArray, chunk_mib: float, unit_shift: int = 0) -> FloatArray:
    """Heat of each touched chunk of ``chunk_mib`` [MiB] from block keys and heats; the keys are
    of 4 KiB blocks, or of units of ``2^unit_shift`` blocks (``stream << (40 - unit_shift) | unit``)."""
    ratio = round(chunk_mib * MIB / (HEAT_BLOCK_BYTES << unit_shift))
    if ratio <= 1:
        return weights
    shift = STREAM_SHIFT - unit_shift
    mask = (1 << shift) - 1
    other_streams = bool(keys.size and int(keys.max()) >> shift)

    def chunk_keys_of(k: IntArray) -> IntArray:
        """``((k >> shift) << shift) | ((k & mask) // ratio)``, built in place (``k // ratio`` when
        every key is of stream 0, as the heat map's compact uint32 keys are)."""
        if not other_streams:
            return k // ratio
        chunk_keys = k & mask
        chunk_keys //= ratio
        chunk_keys |= k & ~mask
        return chunk_keys

    if keys.size > 1 and not np.all(keys[1:] >= keys[:-1]):  # the heat map is sorted; other input
        return sum_by_key([chunk_keys_of(keys)], [weights], shift)[1]
    # sorted block keys give sorted chunk keys: the runs of equal chunk keys are marked a window at
    # a time (no chunk key array of the map's length), then summed as sum_runs sums them
    new = np.empty(keys.size, dtype=bool)
    if keys.size:
        new[0] = True
    for a in range(1, keys.size, RANK_CHUNK):
        ck = chunk_keys_of(keys[a - 1 : a + RANK_CHUNK])
        np.not_equal(ck[1:], ck[:-1], out=new[a : a + RANK_CHUNK])
    return sum_marked_runs(new, np.flatnonzero(new), weights)


def needed_chunks(heat: FloatArray, captures: tuple[float, ...] = IO_CAPTURES) -> list[int]:
    """Fewest hottest chunks carrying each share of the total heat."""
    if heat.size == 0:
        return [0 for _ in captures]
    # the heats in descending order, summed: in one float64 array (the map's may be float32), in place
    cum = np.negative(heat, dtype=np.float64)
    cum.sort()
    np.cumsum(cum, out=cum)  # sums of the negated heats are the negated sums, exactly
    np.negative(cum, out=cum)
    total = cum[-1]
    return [int(min(heat.size, np.searchsorted(cum, x * total * (1 - 1e-12)) + 1)) for x in captures]


def tier_table(
    keys: IntArray | HeatMap,
    weights: FloatArray | None = None,
    capacity_gb: float | None = None,
    chunk_sizes_mib: tuple[float, ...] = CHUNK_SIZES_MIB,
    captures: tuple[float, ...] = IO_CAPTURES,
    basis_label: str | None = None,
) -> TierTable:
    """Capacity needed at each chunk size and I/O share from the 4 KiB heat map.

    ``capacity_gb`` is the capacity the fractions are taken of (the volumes' size); None takes
    the data the trace touched (then fractions of capacity equal fractions of footprint, an
    upper bound: untouched data also lives on the array, and chunks of a few MiB over scattered
    blocks hold more than the blocks touched: every such chunk reads 100%); ``basis_label`` names a
    ``capacity_gb`` that is not the user's (the trace's address span). A sampled :class:`HeatMap` (rate R < 1)
    gives chunks of 512 KiB and more from its exact coarse map, and smaller ones from the sample:
    the n hottest sampled chunks carrying a share stand for n / R chunks.
    """
    heat_map = (
        keys if isinstance(keys, HeatMap) else HeatMap(keys, weights if weights is not None else np.zeros(0))
    )
    rate = heat_map.rate
    footprint_gb = heat_map.keys.size / rate * HEAT_BLOCK_BYTES / GB
    basis = capacity_gb if capacity_gb and capacity_gb > 0 else footprint_gb
    rows = []
    for mib in chunk_sizes_mib:
        coarse = heat_map.coarse_keys is not None and heat_map.coarse_weights is not None
        if rate < 1.0 and coarse and round(mib * MIB) % (HEAT_BLOCK_BYTES << COARSE_SHIFT) == 0:
            assert heat_map.coarse_keys is not None and heat_map.coarse_weights is not None
            heat = chunk_heat(heat_map.coarse_keys, heat_map.coarse_weights, mib, COARSE_SHIFT)
            scale = 1.0
        else:
            heat = chunk_heat(heat_map.keys, heat_map.weights, mib)
            scale = 1.0 / rate
        counts = [int(round(n * scale)) for n in needed_chunks(heat, captures)]
        caps = []
        for x, n in zip(captures, counts, strict=True):
            cap_gb = n * mib * MIB / GB
            caps.append(
                TierCapture(
                    io_pct=round(100 * x, 6),
                    chunks=n,
                    capacity_gb=cap_gb,
                    fraction_of_footprint=cap_gb / footprint_gb if footprint_gb else 0.0,
                    fraction_of_capacity=min(1.0, cap_gb / basis) if basis else 0.0,
                )
            )
        rows.append(
            TierRow(
                chunk_mib=mib,
                label=chunk_label(mib),
                chunks_touched=int(round(heat.size * scale)),
                captures=caps,
            )
        )
    table = TierTable(
        footprint_gb=footprint_gb,
        capacity_basis_gb=basis,
        capacity_basis=(basis_label or "given capacity") if capacity_gb else "data touched by the trace",
        rows=rows,
    )
    if rate < 1.0:
        note = f"; chunks under 512 KiB estimated from 1 in {1 / rate:g} cache blocks (SHARDS hash)"
        table = table.model_copy(update={"method": table.method + note})
    return table


def io_share_of_hottest(weights: FloatArray, data_fraction: float) -> float:
    """Share of the I/O carried by the hottest ``data_fraction`` of the touched 4 KiB blocks."""
    if weights.size == 0:
        return 0.0
    w = weights.astype(np.float64)  # sorted and summed in float64 (the map's may be float32)
    w.sort()
    w = w[::-1]
    k = max(1, int(round(data_fraction * w.size)))
    return float(w[:k].sum() / w.sum())
