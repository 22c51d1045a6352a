"""Cold indirect blocks of copy-on-write file systems (WAFL, ZFS): the metadata a cold read misses too.

A copy-on-write file system finds a data block through its indirect blocks (block pointers),
written anew with every change of what they point to. WAFL's 4 KiB indirect blocks hold 1,024
pointers to 4 KiB blocks (an inode's 16 pointers reach 64 MB through them [hitz-wafl-1994]);
ZFS's indirect blocks are 128 KiB of 128-byte block pointers, 1,024 of them, each addressing one
record (``DN_MAX_INDBLKSHIFT`` 17, ``SPA_BLKPTRSHIFT`` 7 [openzfs-dnode-h]). Warm, the indirect
blocks stay cached (one serves 1,024 data blocks, so it is always among the hottest). After a
restart or a failover the cache is empty: the first read under each indirect block reads it from
the drives before the data. Over the first pass of the working set (the pass the cold hit ratio
averages over, :func:`models.cache.cold_hit_ratio`) every level-1 indirect block covering it is
read once::

    N_L1   = WS / (P x B)                 indirect blocks over the working set
    misses = (1 - h_cold) x WS / s        reads of s KiB that miss in that pass
    m      = min(1, N_L1 / misses) = min(1, s / ((1 - h_cold) x P x B))   [reads per miss]

with ``P`` pointers per indirect block and ``B`` [KiB] the block each addresses (WAFL 4 KiB; ZFS
the record, ``record_kib``). The levels above add ``1 / P`` of that each (left out). Each is
counted as one more random read miss of the phase's size: a positioning, as the data read pays
(a ZFS indirect block moves more KiB than a small read: on hard disks the positioning dominates).
Every other layout updates in place and keeps its block map in the controller: m = 0.
"""

from __future__ import annotations

from models.base import InputError
from models.raid import WAFL_SCHEMES, RaidLayout, RaidScheme

WAFL_POINTERS = 1024
"""Block pointers in one WAFL indirect block: 4 KiB of 4-byte pointers [hitz-wafl-1994]."""
WAFL_BLOCK_KIB = 4.0
"""WAFL's block [KiB] [hitz-wafl-1994]."""
ZFS_POINTERS = 1024
"""Block pointers in one ZFS indirect block: 128 KiB / 128 B [openzfs-dnode-h]."""
ZFS_SCHEMES = frozenset({RaidScheme.RAIDZ1, RaidScheme.RAIDZ2, RaidScheme.RAIDZ3, RaidScheme.ZFS_MIRROR})
"""Layouts laid out by ZFS (copy-on-write under its own indirect blocks)."""


def indirect_span_kib(layout: RaidLayout) -> float | None:
    """Data one level-1 indirect block addresses, ``P x B`` [KiB] (None: not copy-on-write).
    WAFL 1,024 x 4 KiB = 4 MiB; ZFS 1,024 x the record (128 KiB records: 128 MiB)."""
    if layout.scheme in WAFL_SCHEMES:
        return WAFL_POINTERS * WAFL_BLOCK_KIB
    if layout.scheme in ZFS_SCHEMES:
        record = layout.record_kib if layout.record_kib is not None else 128.0
        return ZFS_POINTERS * record
    return None


def cold_metadata_reads(layout: RaidLayout, size_kib: float, cold_hit: float) -> float:
    """Indirect-block reads per data read miss over the cold pass (0..1) [-]:
    ``min(1, s / ((1 - h_cold) x P x B))`` on a copy-on-write layout, 0 on any other (module doc).
    WAFL, 8 KiB reads, cold hit 20%: 8 / (0.8 x 4,096) = 0.00244."""
    if size_kib <= 0:
        raise InputError("size_kib", "must be > 0")
    if not 0.0 <= cold_hit <= 1.0:
        raise InputError("cold_hit", "must be in [0, 1]")
    span = indirect_span_kib(layout)
    if span is None or cold_hit >= 1.0:
        return 0.0
    return min(1.0, size_kib / ((1.0 - cold_hit) * span))


def cold_hit_ratios(
    sizes_kib: list[float],
    hits: list[tuple[float, float]],
    first_pass: list[float],
    routes: list[list[tuple[str, float]]],
    layouts: dict[str, RaidLayout],
) -> tuple[list[tuple[float, float]], list[float]] | None:
    """Each phase's (DRAM, flash) hit ratios with cold caches and its indirect-block reads per miss
    (None when no phase's cold hit ratio differs from its warm one). Per phase: its mean I/O size,
    warm hits, first-pass hit ratio (0..1) and the pools (``layouts`` by name) its reads route to.

    The cold (first-pass) hit ratio split between DRAM and flash in the warm proportion; on a
    copy-on-write layout each cold miss reads ``m`` indirect blocks too
    (:func:`cold_metadata_reads`), counted as more misses: ``h' = 1 - (1 - h_cold)(1 + m)``.
    """
    cold_hits: list[tuple[float, float]] = []
    meta: list[float] = []
    differs = False
    for size, (h_d, h_f), cold, route in zip(sizes_kib, hits, first_pass, routes, strict=True):
        warm_total = h_d + h_f
        if warm_total <= 0 or cold >= warm_total - 1e-9:
            cold_hits.append((h_d, h_f))
            meta.append(0.0)
            continue
        differs = True
        m = sum(share * cold_metadata_reads(layouts[rp], size, cold) for rp, share in route)
        meta.append(m)
        cold = max(0.0, 1.0 - (1.0 - cold) * (1.0 + m))
        cold_hits.append((cold * h_d / warm_total, cold * h_f / warm_total))
    return (cold_hits, meta) if differs else None


def metadata_words(m: float) -> str:
    """The cold indirect-block reads in words, for a cold-cache verdict ("" where ``m`` is 0)."""
    if m <= 0:
        return ""
    return (
        f" Copy-on-write metadata: each cold miss also reads its indirect block until that is cached: "
        f"{m:.3g} more reads per miss over the pass (m = s / ((1 - h_cold) x pointers x block), "
        f"{WAFL_POINTERS:,} pointers per WAFL or ZFS indirect block)."
    )
