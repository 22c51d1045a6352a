"""Data reduction on the I/O path: what inline deduplication and compression do to the drive work.

Capacity (:mod:`models.capacity`), the read caches (:mod:`models.cache`: a dedupe-aware cache
holds one copy per physical block) and the controller CPU (:mod:`models.controller`: the
``dedupe`` and ``compression`` multipliers scale all CPU demand, the per-KiB cost included, so
compressing and decompressing are already paid there and no separate per-KiB term is added) take
the workload's ratios as given. This module prices what reduction does to the back end, and only
when the configuration's :class:`~models.configuration.Architecture` declares it *inline*
(``inline`` or ``inline_and_post_process``) and the workload states a ratio above 1: without
both, the I/O path is exactly what it was without reduction (conservative by default).

Which arrays reduce inline (catalog ``architecture``): Pure FlashArray (inline, then a
post-process pass), SolidFire, IBM FlashSystem, PowerMax (inline dedupe and compression); vSAN ESA
(inline compression); NetApp FAS in the catalog's releases (post-process); Ceph (none).

* **Inline compression** (ratio ``c``): a front-end write of ``s`` KiB carries ``s / c`` KiB to the
  back end. *Log-structured* and *write-anywhere* arrays pack compressed blocks into the stripes
  they write (a log segment, a WAFL consistency point), so the write is priced by the layout's own
  plan at ``s / c`` (:func:`compressed_write`): the streamed data and parity, the share of a stripe
  it takes and the transfer all fall by ``c``; RAID-Z rounds a record up to whole sectors and
  records as usual. *In-place RAID* and *replicated scale-out* arrays keep a fixed home per
  block: a compressed block still occupies its whole allocation unit (the stripe unit the RAID
  update reads and writes), so their writes are priced at full size (no credit: the allocation
  unit, not the compressed size, sets the RAID work). Reads of data packed that way move ``1 / c``
  of the bytes from the drive with the same accesses (:func:`compressed_read`): on an HDD the seek
  and rotation of each access are unchanged, only its transfer shortens. A read of a block inside a
  larger compression group would read the whole group; that is not modelled, and is part of the
  optimism the stated ratio carries.
* **Inline deduplication** (ratio ``D``): of the writes reaching the back end a share
  ``1 - 1/D`` carries data the array already holds (the share the stored data's ratio implies);
  it writes no data, only a metadata update (the block map / reference count), priced as one
  :data:`METADATA_KIB` block written the way the data would have been (a random write through the
  layout's write plan, or that many KiB of the write stream). Conservative: every duplicate pays
  its own metadata block (arrays batch many references per block). Not charged: the byte compare
  some arrays make to confirm a duplicate (a read of the stored block when it is not cached),
  part of the optimism the stated ratio carries.
* **Post-process** reduction (``post_process``) changes nothing in a window: writes land full size,
  capacity is saved later. The scan it runs costs back-end reads in its own (usually nightly)
  window; the engine has no place for a background scan outside the workloads' windows, so a user
  who wants it priced states it as a workload phase.

Both inline effects are optimisms the user states (a ratio): sizing names them and the drives they
save (:func:`models.size.size`), the back-end IOPS explanation names the I/Os they save.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from models.configuration import Architecture, ReductionMode, WriteArchitecture
from models.drives import Num
from models.explain import fmt
from models.raid import ALIGN_KIB, AccessPlan, RaidLayout, in_front_end_units, write_plan
from models.workload import Workload

INLINE_MODES = frozenset({ReductionMode.INLINE, ReductionMode.INLINE_AND_POST_PROCESS})
"""Reduction modes that act before the data reaches the drives."""

PACKING_ARCHITECTURES = frozenset({WriteArchitecture.LOG_STRUCTURED, WriteArchitecture.WRITE_ANYWHERE})
"""Write architectures that pack compressed blocks into the stripes they write (see the module docstring)."""

METADATA_KIB = ALIGN_KIB
"""A duplicate write's metadata update [KiB]: one block of the smallest size the layouts allocate."""


def dedupes_inline(architecture: Architecture | None) -> bool:
    """Whether the array deduplicates before writing (``inline`` or ``inline_and_post_process``)."""
    return architecture is not None and architecture.dedupe in INLINE_MODES


def packs_compressed(architecture: Architecture | None) -> bool:
    """Whether inline compression shrinks the back-end writes: compression inline on a
    log-structured or write-anywhere array (compressed blocks packed into its stripes)."""
    return (
        architecture is not None
        and architecture.compression in INLINE_MODES
        and architecture.write_architecture in PACKING_ARCHITECTURES
    )


class IoReduction(NamedTuple):
    """The ratios a workload's writes are reduced by on the I/O path of one array (1: none).

    Floats, or arrays over candidates in the batch path (one array each)."""

    compression_ratio: Num = 1.0
    dedupe_ratio: Num = 1.0

    @property
    def kib_factor(self) -> Num:
        """Back-end KiB per front-end KiB of data written or read: ``1 / c``."""
        return 1.0 / self.compression_ratio

    @property
    def unique_share(self) -> Num:
        """Share of the back-end writes carrying new data: ``1 / D`` (the rest are metadata updates)."""
        return 1.0 / self.dedupe_ratio

    @property
    def compresses(self) -> bool:
        return bool(np.any(np.asarray(self.compression_ratio) > 1.0))


def io_reduction(workload: Workload, architecture: Architecture | None) -> IoReduction | None:
    """What ``workload``'s stated ratios do on ``architecture``'s I/O path; ``None`` when nothing
    (no inline mode declared, or ratios of 1)."""
    c = workload.compression_ratio if packs_compressed(architecture) else 1.0
    d = workload.dedupe_ratio if dedupes_inline(architecture) else 1.0
    if c <= 1.0 and d <= 1.0:
        return None
    return IoReduction(max(c, 1.0), max(d, 1.0))


def compressed_write(
    layout: RaidLayout, size_kib: float, ratio: float, *, fill: float, stripe_run_kib: float
) -> AccessPlan:
    """One front-end write of ``size_kib`` compressed ``ratio``:1 and packed into the stripes a
    log-structured or write-anywhere array writes: the layout's write plan at ``size_kib / ratio``
    (:func:`models.raid.write_plan`), its I/Os counted in units of the front-end size."""
    return in_front_end_units(
        write_plan(layout, size_kib / ratio, fill=fill, stripe_run_kib=stripe_run_kib), size_kib
    )


def compressed_read(plan: AccessPlan, ratio: Num) -> AccessPlan:
    """A random read ``plan`` of data stored compressed ``ratio``:1: the same accesses (seek and
    rotation unchanged), each transferring ``1 / ratio`` of the KiB."""
    return plan._replace(access_kib=plan.access_kib / ratio)


def reduction_words(red: IoReduction) -> str:
    """The inline reduction applied, in words (scalar ratios)."""
    parts = []
    d, c = float(red.dedupe_ratio), float(red.compression_ratio)
    if d > 1.0:
        parts.append(
            f"inline dedupe {fmt(d)}:1 stated: {fmt(100.0 * (1.0 - 1.0 / d))}% of writes are duplicates,"
            f" each a {fmt(METADATA_KIB)} KiB metadata update instead of its data"
        )
    if c > 1.0:
        parts.append(
            f"inline compression {fmt(c)}:1 stated: 1/{fmt(c)} of the KiB packed into stripes and read back"
        )
    return "; ".join(parts)
