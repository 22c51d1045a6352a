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

import numpy as np
from pydantic import Field

from models.base import Output
from models.traces.records import FloatArray, IntArray
from models.units import GB, MIB

HEAT_BLOCK_BYTES = 4096
"""Granularity of the heat map [B]: every vendor chunk below is a whole number of 4 KiB blocks."""
STREAM_SHIFT = 40
"""Block keys are ``stream << 40 | block``: 2^40 blocks of 4 KiB = 4 PiB per stream."""

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


def chunk_heat(keys: IntArray, weights: FloatArray, chunk_mib: float) -> FloatArray:
    """Heat of each touched chunk of ``chunk_mib`` [MiB] from 4 KiB block keys and heats."""
    ratio = round(chunk_mib * MIB / HEAT_BLOCK_BYTES)
    if ratio <= 1:
        return weights
    mask = (1 << STREAM_SHIFT) - 1
    chunk_keys = ((keys >> STREAM_SHIFT) << STREAM_SHIFT) | ((keys & mask) // ratio)
    if keys.size > 1 and not np.all(keys[1:] >= keys[:-1]):  # the heat map is sorted; other input
        order = np.argsort(chunk_keys, kind="stable")
        chunk_keys, weights = chunk_keys[order], weights[order]
    # sorted block keys give sorted chunk keys: each chunk is a run
    if chunk_keys.size == 0:
        return np.zeros(0)
    new = np.empty(chunk_keys.size, dtype=bool)
    new[0] = True
    np.not_equal(chunk_keys[1:], chunk_keys[:-1], out=new[1:])
    return np.bincount(np.cumsum(new) - 1, weights=weights).astype(np.float64)


def needed_chunks(heat: FloatArray, captures: tuple[float, ...] = IO_CAPTURES) -> list[int]:
    """Fewest hottest chunks carrying each share of the total heat."""
    if heat.size == 0:
        return [0 for _ in captures]
    cum = np.cumsum(np.sort(heat)[::-1])
    total = cum[-1]
    return [int(min(heat.size, np.searchsorted(cum, x * total * (1 - 1e-12)) + 1)) for x in captures]


def tier_table(
    keys: IntArray,
    weights: FloatArray,
    capacity_gb: float | None = None,
    chunk_sizes_mib: tuple[float, ...] = CHUNK_SIZES_MIB,
    captures: tuple[float, ...] = IO_CAPTURES,
) -> TierTable:
    """Capacity needed at each chunk size and I/O share from the 4 KiB heat map.

    ``capacity_gb`` is the capacity the fractions are taken of (the volumes' size); None takes
    the data the trace touched (then fractions of capacity equal fractions of footprint, an
    upper bound: untouched data also lives on the array).
    """
    footprint_gb = keys.size * HEAT_BLOCK_BYTES / GB
    basis = capacity_gb if capacity_gb and capacity_gb > 0 else footprint_gb
    rows = []
    for mib in chunk_sizes_mib:
        heat = chunk_heat(keys, weights, mib)
        counts = needed_chunks(heat, captures)
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
            TierRow(chunk_mib=mib, label=chunk_label(mib), chunks_touched=int(heat.size), captures=caps)
        )
    return TierTable(
        footprint_gb=footprint_gb,
        capacity_basis_gb=basis,
        capacity_basis="given capacity" if capacity_gb else "data touched by the trace",
        rows=rows,
    )


def io_share_of_hottest(weights: FloatArray, data_fraction: float) -> float:
    """Share of the I/O carried by the hottest ``data_fraction`` of the touched 4 KiB blocks."""
    if weights.size == 0:
        return 0.0
    w = np.sort(weights)[::-1]
    k = max(1, int(round(data_fraction * w.size)))
    return float(w[:k].sum() / w.sum())
