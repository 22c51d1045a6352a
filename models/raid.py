"""RAID and data-layout schemes: capacity efficiency, back-end write cost, read behaviour, failures.

Back-end cost of a write is counted in back-end I/Os of the front-end size per front-end write:

* RAID0: 1. RAID1/RAID10 and mirrors: 2 (one per copy). n-way replication: n.
* Parity RAID, small (partial-stripe) write of b blocks into a stripe of d data + p parity
  blocks uses the cheaper of read-modify-write and reconstruct-write::

      RMW = 2 (b + p)            read old data and parity, write new data and parity
      RCW = (d - b) + (b + p)    read the other data blocks, write data and parity

  For one block this is 4 for RAID5 and 6 for RAID6 (the classic penalties) once d >= 3.
* Full-stripe write: ``(d + p) / d`` writes per data block, no reads.
* NetApp RAID-DP / RAID-TEC under WAFL: writes are coalesced into full stripes while free space
  allows; a share ``f`` lands as full stripes and the rest pays the partial-stripe cost::

      cost = f (d + p)/d + (1 - f) min(RMW, RCW)

  ``f`` falls as free space fragments; values for "fresh", "moderate" and "aged" layouts are
  calibrated in ``fixtures/calibration`` (a parameter, never a constant).
* ZFS RAID-Z1/2/3: copy-on-write, every write is a full variable-width stripe: ``(d + p)/d`` for a
  record spanning the stripe, ``1 + p`` writes for a single-sector record; no read-modify-write.
  A random read must touch every data disk of the vdev, so a RAID-Z vdev gives about the random
  read IOPS of one drive (the read fans out to d drives).
* Erasure coding k+m: full stripes cost ``(k + m)/k``; partial writes use min(RMW, RCW) as above.

Degraded mode (one drive of a group failed): a read that falls on the failed drive is rebuilt
from the d - 1 surviving data blocks plus one parity, so the mean read cost in that group is
``(1 - 1/w) * 1 + (1/w) * (w - 1)`` back-end reads for a group of width w.

Kept as one module (about 720 lines): a scheme's geometry, capacity, failure behaviour and its
drive accesses per I/O (the access plans) are the definition of the scheme; splitting them would
separate each scheme from itself.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import NamedTuple, Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError
from models.numeric import Num, maximum


class RaidScheme(StrEnum):
    RAID0 = "raid0"
    RAID1 = "raid1"
    RAID10 = "raid10"
    RAID5 = "raid5"
    RAID6 = "raid6"
    RAID_DP = "raid-dp"
    RAID_TEC = "raid-tec"
    ZFS_MIRROR = "zfs-mirror"
    RAIDZ1 = "raidz1"
    RAIDZ2 = "raidz2"
    RAIDZ3 = "raidz3"
    ERASURE = "erasure"
    REPLICA = "replica"


# parity drives per group, minimum and maximum group width, whether parity is on dedicated drives
_SCHEME: dict[RaidScheme, tuple[int, int, int, bool]] = {
    RaidScheme.RAID0: (0, 1, 64, False),
    RaidScheme.RAID1: (0, 2, 2, False),
    RaidScheme.RAID10: (0, 2, 64, False),
    RaidScheme.RAID5: (1, 3, 32, False),
    RaidScheme.RAID6: (2, 4, 32, False),
    RaidScheme.RAID_DP: (2, 3, 28, True),
    RaidScheme.RAID_TEC: (3, 4, 29, True),
    RaidScheme.ZFS_MIRROR: (0, 2, 4, False),
    RaidScheme.RAIDZ1: (1, 3, 16, False),
    RaidScheme.RAIDZ2: (2, 4, 16, False),
    RaidScheme.RAIDZ3: (3, 5, 16, False),
    RaidScheme.ERASURE: (0, 3, 32, False),  # parity from ec_parity
    RaidScheme.REPLICA: (0, 1, 1, False),  # one "group" per drive; copies from `copies`
}


def scheme_limits(scheme: RaidScheme) -> tuple[int, int, int, bool]:
    """(parity drives per group, min width, max width, dedicated parity) of a scheme.

    Erasure coding takes its parity from ``ec_parity`` and replication from ``copies``: 0 here.
    """
    return _SCHEME[scheme]


_MIRRORED = {RaidScheme.RAID1, RaidScheme.RAID10, RaidScheme.ZFS_MIRROR}
COPY_SCHEMES = frozenset({*_MIRRORED, RaidScheme.REPLICA})
"""Schemes that keep whole copies (mirrors and n-way replication): a lost drive is read back
from one surviving copy."""
_WAFL = {RaidScheme.RAID_DP, RaidScheme.RAID_TEC}
WAFL_SCHEMES = frozenset(_WAFL)
"""Schemes laid out by WAFL (write-anywhere, full-stripe coalescing): layout ages apply to them."""
_RAIDZ = {RaidScheme.RAIDZ1, RaidScheme.RAIDZ2, RaidScheme.RAIDZ3}
_ROTATING_PARITY = {RaidScheme.RAID5, RaidScheme.RAID6, RaidScheme.ERASURE}

DEFAULT_STRIPE_UNIT_KIB = 64.0
"""Stripe unit when the layout names none [KiB]: a common controller default (an EMC CLARiiON /
VNX stripe element of 128 blocks, LSI/PERC controllers' 64 KiB) [emc-clariion-best-practices]."""
DEFAULT_RECORD_KIB = 128.0
"""ZFS ``recordsize`` default [KiB] [openzfs-docs]."""
DEFAULT_FRAGMENTATION = 0.5
"""Free-space fragmentation of a write-anywhere layout when the layout names none (an estimate
between contiguous free space, 0, and random, 1)."""
MAX_STRIPE_KIB = 65536.0
ALIGN_KIB = 4.0
"""Alignment of front-end I/Os [KiB]: a random I/O of ``s`` starts on a 4 KiB boundary."""


def _power_of_two(x: float) -> bool:
    return x > 0 and math.isclose(2.0 ** round(math.log2(x)), x, rel_tol=1e-12)


class RaidLayout(Frozen):
    """A protection scheme and its group geometry.

    ``group_width`` counts all drives of one group (data + parity, or both halves of a mirror set
    for RAID10: a 2-way mirror group is 2 drives, RAID10 over 8 drives is 4 groups of 2 unless a
    wider group is given, which changes nothing for RAID10's cost). For erasure coding,
    ``ec_data`` + ``ec_parity`` define the stripe and ``group_width`` must equal their sum. For
    replication, ``copies`` is n.
    """

    scheme: RaidScheme
    group_width: int = Field(ge=1, le=64, description="drives per RAID group, data + parity")
    ec_data: int | None = Field(default=None, ge=1, le=32)
    ec_parity: int | None = Field(default=None, ge=1, le=16)
    copies: int = Field(default=2, ge=1, le=6, description="n-way replication / mirror copies")
    full_stripe_share: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="share of writes landing as full stripes (WAFL, RAID-Z, EC); None = scheme default",
    )
    scatter: float = Field(
        default=0.0,
        ge=0.0,
        le=1.0,
        description="how far an aged write-anywhere layout scatters data over the free surface (0 = contiguous)",
    )
    fragmentation: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="free-space fragmentation of a write-anywhere layout (WAFL): 0 = free space in whole "
        "stripes, 1 = scattered at random; None = 0.5",
    )
    stripe_unit_kib: float | None = Field(
        default=None,
        ge=4.0,
        le=16384.0,
        description="stripe unit (chunk) written to one drive before the next [KiB]; None = 64",
    )
    record_kib: float | None = Field(
        default=None,
        ge=0.5,
        le=16384.0,
        description="RAID-Z record (recordsize / volblocksize) [KiB]; None = 128",
    )
    sector_kib: float = Field(
        default=4.0,
        ge=0.5,
        le=64.0,
        description="RAID-Z allocation sector, 2^ashift bytes [KiB]: 4 = ashift 12",
    )
    distributed: bool = Field(
        default=False,
        description="stripes of group_width chunks laid over every drive of the pool, spare space among them "
        "(PowerStore DRE): any drive count from one stripe up, not whole groups",
    )
    min_drives: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="fewest drives, spares included, the vendor builds the layout on (PowerStore DRE: 6 single "
        "parity, 7 double parity); None = one group (models.buildable)",
    )
    min_hosts: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="fewest hosts the vendor builds this layout on (vSAN ESA RAID-5 4+1: 6); None = the "
        "failure-domain rule alone (models.buildable)",
    )
    max_hosts: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="most hosts the vendor builds this layout on (vSAN ESA RAID-5 2+1: 5, wider clusters get "
        "4+1); None = no limit",
    )

    @model_validator(mode="after")
    def _check_width(self) -> Self:
        p, lo, hi, _ = _SCHEME[self.scheme]
        if self.min_hosts is not None and self.max_hosts is not None and self.min_hosts > self.max_hosts:
            raise ValueError(f"min_hosts {self.min_hosts} exceeds max_hosts {self.max_hosts}")
        if self.distributed and (self.scheme in COPY_SCHEMES or self.scheme in _RAIDZ):
            raise ValueError(
                f"{self.scheme.value} keeps whole groups: only parity stripes are laid out distributed"
            )
        if self.scheme is RaidScheme.ERASURE:
            if self.ec_data is None or self.ec_parity is None:
                raise ValueError("erasure coding needs ec_data and ec_parity")
            if self.group_width != self.ec_data + self.ec_parity:
                raise ValueError("group_width must equal ec_data + ec_parity for erasure coding")
            return self
        if self.scheme is RaidScheme.REPLICA:
            if self.group_width != 1:
                raise ValueError("replication places whole copies on separate drives: group_width must be 1")
            return self
        if not lo <= self.group_width <= hi:
            raise ValueError(
                f"{self.scheme.value} group width must be between {lo} and {hi} drives, got {self.group_width}"
            )
        if self.scheme is RaidScheme.RAID10 and self.group_width % 2:
            raise ValueError("raid10 group width must be even")
        for name in ("stripe_unit_kib", "record_kib", "sector_kib"):
            value = getattr(self, name)
            if value is not None and not _power_of_two(value):
                raise ValueError(f"{name} must be a power of two [KiB], got {value:g}")
        if self.stripe_unit_kib is not None and (self.scheme in _RAIDZ or self.scheme is RaidScheme.REPLICA):
            raise ValueError(
                f"stripe_unit_kib: {self.scheme.value} has no stripe unit "
                + (
                    "(RAID-Z stripes each record: state record_kib)"
                    if self.scheme in _RAIDZ
                    else "(whole copies)"
                )
            )
        if self.record_kib is not None and self.record_kib < self.sector_kib:
            raise ValueError(
                f"record_kib ({self.record_kib:g}) must be at least the sector ({self.sector_kib:g} KiB)"
            )
        if self.stripe_unit_kib is not None and self.stripe_unit_kib * self.data_drives > MAX_STRIPE_KIB:
            raise ValueError(
                f"stripe_unit_kib {self.stripe_unit_kib:g} x {self.data_drives} data drives is a stripe larger "
                f"than {MAX_STRIPE_KIB:g} KiB"
            )
        return self

    @property
    def parity_drives(self) -> int:
        """Redundancy drives per group (parity, or the mirror half for mirrors)."""
        if self.scheme is RaidScheme.ERASURE:
            assert self.ec_parity is not None
            return self.ec_parity
        if self.scheme in _MIRRORED:
            return self.group_width // 2 if self.scheme is RaidScheme.RAID10 else self.group_width - 1
        return _SCHEME[self.scheme][0]

    @property
    def data_drives(self) -> int:
        """Data drives per group (d)."""
        return self.group_width - self.parity_drives

    @property
    def dedicated_parity(self) -> bool:
        """Parity on dedicated drives (RAID-DP/TEC): they take writes but serve no reads."""
        return _SCHEME[self.scheme][3]


def capacity_efficiency(layout: RaidLayout) -> float:
    """Usable share of raw capacity: ``d / (d + p)``; mirrors 1/2; n-way replication 1/n; RAID-Z the
    data share of a record's allocation, parity and padding included (:func:`raidz_record`)."""
    if layout.scheme is RaidScheme.REPLICA:
        return 1.0 / layout.copies
    if layout.scheme in _MIRRORED:
        return 0.5 if layout.scheme is not RaidScheme.ZFS_MIRROR else 1.0 / layout.group_width
    if layout.scheme in _RAIDZ:
        return raidz_record(layout).efficiency
    return layout.data_drives / layout.group_width


def partial_stripe_write_cost(data_drives: int, parity_drives: int, blocks: int = 1) -> float:
    """Back-end I/Os per written block for a partial-stripe write of ``blocks`` blocks.

    ``min(RMW, RCW) / blocks`` with ``RMW = 2 (b + p)`` and ``RCW = (d - b) + (b + p)``.
    """
    d, p, b = data_drives, parity_drives, blocks
    if d < 1:
        raise InputError("data_drives", "must be >= 1")
    if not 1 <= b <= d:
        raise InputError("blocks", f"must be between 1 and {d}")
    if p == 0:
        return 1.0
    rmw = 2 * (b + p)
    rcw = (d - b) + (b + p)
    return min(rmw, rcw) / b


def full_stripe_write_cost(data_drives: int, parity_drives: int) -> float:
    """Back-end writes per data block when whole stripes are written: ``(d + p) / d``."""
    if data_drives < 1:
        raise InputError("data_drives", "must be >= 1")
    return (data_drives + parity_drives) / data_drives


def small_write_cost(layout: RaidLayout, size_kib: float = ALIGN_KIB, *, fill: float) -> float:
    """Back-end I/Os per random front-end write of ``size_kib`` (4 KiB: the classic write penalty).

    The conventional count of :func:`write_plan` (random accesses plus streamed KiB in units of
    the write): RAID0 1; mirrors 2 (copies); replication n; RAID5 4, RAID6 6 for a 4 KiB write;
    write-anywhere and RAID-Z layouts by their stripes and records at the pool's ``fill``.
    """
    return write_plan(layout, size_kib, fill=fill, stripe_run_kib=256.0).backend_ios


def sequential_write_cost(layout: RaidLayout) -> float:
    """Back-end KiB written per KiB of a sequential write stream (:func:`stream_write_plan`):
    ``(d + p) / d`` for parity layouts, 2 for mirrors, n for replication, padding for RAID-Z."""
    plan = stream_write_plan(layout, 1024.0)
    return plan.data_stream_write_kib + plan.parity_stream_write_kib


def random_read_cost(layout: RaidLayout, size_kib: float = ALIGN_KIB) -> float:
    """Drive accesses of one random front-end read (:func:`read_plan`): 1 for a small read, more
    where it crosses stripe units, every column of a RAID-Z record."""
    return read_plan(layout, size_kib).backend_ios


def degraded_read_cost(layout: RaidLayout) -> float:
    """Mean back-end reads per front-end read in a group with one failed drive.

    A read lands on the failed drive with probability 1/w and is rebuilt from w - 1 reads:
    ``(1 - 1/w) + (w - 1)/w``. Mirrors read the surviving copy (1.0); RAID0 cannot survive (inf
    is not representable: raises). Replication reads another copy (1.0).
    """
    s = layout.scheme
    if s is RaidScheme.RAID0:
        raise InputError("scheme", "raid0 has no redundancy: a failed drive loses the group")
    if s in COPY_SCHEMES:
        return 1.0
    w = layout.group_width
    d = layout.data_drives
    # a rebuilt block needs the d - 1 other data blocks plus one parity block = d reads
    return (1.0 - 1.0 / w) + (1.0 / w) * d


def tolerated_failures(layout: RaidLayout) -> int:
    """Drive failures a group survives: p for parity schemes, 1 for 2-way mirrors, n - 1 replicas."""
    s = layout.scheme
    if s is RaidScheme.RAID0:
        return 0
    if s is RaidScheme.REPLICA:
        return layout.copies - 1
    if s is RaidScheme.RAID10 or s is RaidScheme.RAID1:
        return 1
    if s is RaidScheme.ZFS_MIRROR:
        return layout.group_width - 1
    return layout.parity_drives


# ---------------------------------------------------------------------------------------------
# drive accesses per front-end I/O (independent of the drive model; :mod:`models.pool` prices them)


class AccessPlan(NamedTuple):
    """Drive work of one front-end I/O (or one KiB for streams) on a layout, by drive role.

    Random accesses each pay a positioning (seek + rotation) and the transfer of ``access_kib``;
    streamed KiB pay the media transfer and one positioning per ``run_kib`` on each drive. Roles:
    data drives (every drive for rotating parity and mirrors) and dedicated parity drives
    (RAID-DP/TEC). ``backend_ios`` is the conventional count: drive I/Os in units of the
    front-end size (random accesses + streamed KiB / size).
    """

    data_reads: float = 0.0
    data_writes: float = 0.0
    parity_reads: float = 0.0
    parity_writes: float = 0.0
    access_kib: float = 0.0
    data_stream_read_kib: float = 0.0
    data_stream_write_kib: float = 0.0
    parity_stream_read_kib: float = 0.0
    parity_stream_write_kib: float = 0.0
    run_kib: float = 1.0
    backend_ios: float = 0.0


def stripe_unit_kib(layout: RaidLayout) -> float:
    """The layout's stripe unit [KiB] (:data:`DEFAULT_STRIPE_UNIT_KIB` when it names none)."""
    return layout.stripe_unit_kib if layout.stripe_unit_kib is not None else DEFAULT_STRIPE_UNIT_KIB


def chunks_touched(size_kib: float, unit_kib: float, columns: float) -> float:
    """Expected stripe units a random I/O of ``size_kib`` touches: ``min(columns, 1 + (s - a) / u)``.

    An I/O aligned to ``a`` = 4 KiB crosses a chunk boundary with probability ``(s - a) / u`` for
    ``s <= u`` (the share of aligned offsets where it does); larger I/Os touch ``s / u`` chunks and
    one more at the edges; never more chunks than the stripe has columns.
    """
    return min(columns, 1.0 + max(0.0, size_kib - min(size_kib, ALIGN_KIB)) / unit_kib)


class RaidzRecord(NamedTuple):
    """How RAID-Z allocates one record: sectors, columns (drives it spans), parity and padding."""

    record_kib: float
    sector_kib: float
    data_sectors: int
    columns: int
    allocated_sectors: int

    @property
    def efficiency(self) -> float:
        """Data sectors over allocated sectors (parity and padding are the rest)."""
        return self.data_sectors / self.allocated_sectors

    @property
    def allocated_kib(self) -> float:
        return self.allocated_sectors * self.sector_kib


def raidz_record(layout: RaidLayout) -> RaidzRecord:
    """RAID-Z allocation of one record of ``record_kib`` in ``sector_kib`` sectors [openzfs-raidz].

    ``n = ceil(R / S)`` data sectors go to ``min(d, n)`` columns in ``rows = ceil(n / d)`` rows;
    each row carries ``p`` parity sectors; the allocation is padded to a multiple of ``p + 1``
    sectors so freed space can always hold a minimal record. A small record on a wide vdev thus
    uses far less than ``d / w`` of its allocation (8 KiB on RAID-Z2 with 4 KiB sectors: 2 data +
    2 parity + 2 padding = 33%).
    """
    if layout.scheme not in _RAIDZ:
        raise InputError("scheme", "a RAID-Z record needs raidz1, raidz2 or raidz3")
    r = layout.record_kib if layout.record_kib is not None else DEFAULT_RECORD_KIB
    s = layout.sector_kib
    d, p = layout.data_drives, layout.parity_drives
    n = max(1, math.ceil(r / s - 1e-9))
    rows = math.ceil(n / d)
    alloc = n + p * rows
    alloc = math.ceil(alloc / (p + 1)) * (p + 1)
    return RaidzRecord(r, s, n, min(d, n), alloc)


def wafl_stripe_share(layout: RaidLayout, fill: float) -> float:
    """Share of each stripe's blocks free when a write-anywhere layout writes into it (k / d).

    WAFL gathers a consistency point's writes into stripes of an allocation area and writes every
    free block of a stripe at once. With a fraction ``u`` of the aggregate in use and free-space
    fragmentation ``phi`` (0: free space in whole stripes; 1: scattered at random, when the share
    is that of a random stripe), ``k / d = (1 - u)^phi``. An explicit ``full_stripe_share`` on
    the layout overrides the model. Floored at one block per stripe.
    """
    if layout.full_stripe_share is not None:
        share = layout.full_stripe_share
    else:
        phi = layout.fragmentation if layout.fragmentation is not None else DEFAULT_FRAGMENTATION
        share = (1.0 - min(max(fill, 0.0), 0.98)) ** phi
    return max(share, 1.0 / layout.data_drives)


def full_stripe_share(layout: RaidLayout, fill: float) -> float:
    """Share of a layout's random writes written as (full) stripes: the write-anywhere stripe share
    at ``fill`` (:func:`wafl_stripe_share`), 1 for RAID-Z (whole records), an erasure-coded layout's
    stated share, 0 for in-place updates."""
    if layout.scheme in _WAFL:
        return wafl_stripe_share(layout, fill)
    if layout.scheme in _RAIDZ:
        return 1.0
    return layout.full_stripe_share or 0.0


def chunk_write_ops(layout: RaidLayout, size_kib: float) -> tuple[float, float]:
    """(chunk operations, KiB they move) of one write of ``size_kib`` to an erasure-coded stripe
    whose ``k + m`` chunks live on different nodes (scale-out erasure coding).

    * A write covering whole stripes (``s >= k u``) sends every chunk once: ``k + m`` operations
      (one per chunk, carrying all the stripes it covers) moving ``s (k + m) / k`` KiB.
    * A smaller write updates part of one stripe: it reads the old data chunks it touches
      (``b``, :func:`chunks_touched`) and the ``m`` parity chunks and writes the new ones,
      ``2 (b + m)`` operations of ``s / b`` KiB each (read-modify-write: the costlier of the two
      partial-stripe updates, :func:`partial_stripe_write_cost`, so conservative where a store
      reconstructs instead; one that reads and writes the whole stripe costs more still).

    A layout appending a share ``f`` of its writes to whole stripes (``full_stripe_share``, a
    log-structured array) counts that share as whole-stripe writes. A replicated or parity layout that is not erasure coding returns (1, s): the write itself.
    """
    if size_kib <= 0:
        raise InputError("size_kib", "must be > 0")
    if layout.scheme is not RaidScheme.ERASURE:
        return 1.0, size_kib
    k, m = layout.data_drives, layout.parity_drives
    unit = stripe_unit_kib(layout)
    whole = (float(k + m), size_kib * (k + m) / k)
    if size_kib >= k * unit:
        return whole
    b = chunks_touched(size_kib, unit, k)
    ops = 2.0 * (b + m)
    f = layout.full_stripe_share or 0.0  # a log appends that share to whole stripes
    return f * whole[0] + (1 - f) * ops, f * whole[1] + (1 - f) * ops * size_kib / b


def chunk_read_ops(layout: RaidLayout, size_kib: float, *, full_stripe: bool) -> tuple[float, float]:
    """(chunk operations, KiB they move) of one read of ``size_kib`` from an erasure-coded stripe
    whose chunks live on different nodes: the ``b`` data chunks it touches (:func:`chunks_touched`),
    ``size_kib`` in all; with ``full_stripe`` (a store that reads every data chunk of the stripe
    even for a read within one, e.g. Ceph before partial reads) all ``k`` chunks of ``u`` KiB
    (``max(s, k u)`` KiB). A layout that is not erasure coding returns (1, s)."""
    if size_kib <= 0:
        raise InputError("size_kib", "must be > 0")
    if layout.scheme is not RaidScheme.ERASURE:
        return 1.0, size_kib
    k = layout.data_drives
    unit = stripe_unit_kib(layout)
    if full_stripe:
        return float(k), max(size_kib, k * unit)
    return chunks_touched(size_kib, unit, k), size_kib


def read_plan(layout: RaidLayout, size_kib: float) -> AccessPlan:
    """Drive accesses of one random read of ``size_kib`` (a cache miss).

    Striped layouts read the stripe units the I/O touches (:func:`chunks_touched`); mirrors read
    one copy; RAID-Z reads every column of each record the I/O touches (the checksum covers the
    whole record), so a small read on a wide vdev fans out.
    """
    if layout.scheme in _RAIDZ:
        rec = raidz_record(layout)
        records = 1.0 + max(0.0, size_kib - min(size_kib, rec.sector_kib)) / rec.record_kib
        n = records * rec.columns
        return AccessPlan(data_reads=n, access_kib=rec.record_kib / rec.columns, backend_ios=n)
    if layout.scheme is RaidScheme.REPLICA:
        return AccessPlan(data_reads=1.0, access_kib=size_kib, backend_ios=1.0)
    unit, d = stripe_unit_kib(layout), layout.data_drives
    if layout.scheme in _ROTATING_PARITY and chunks_touched(size_kib, unit, d + 1) > d:
        # longer than a stripe's data: it crosses parity chunks, reaching every drive of the group,
        # each passing its share of the data and the parity between (as a stream request does)
        w = layout.group_width
        return AccessPlan(data_reads=w, access_kib=size_kib / d, backend_ios=w)
    n = chunks_touched(size_kib, unit, d)
    return AccessPlan(data_reads=n, access_kib=size_kib / n, backend_ios=n)


def _copies(layout: RaidLayout) -> float:
    if layout.scheme is RaidScheme.REPLICA:
        return float(layout.copies)
    if layout.scheme is RaidScheme.ZFS_MIRROR:
        return float(layout.group_width)
    return 2.0


def _partial_stripe(layout: RaidLayout, size_kib: float) -> AccessPlan:
    """Update of part of one parity stripe in place: the cheaper of read-modify-write and
    reconstruct-write over the ``b`` stripe units the write touches (:func:`partial_stripe_write_cost`)."""
    d, p = layout.data_drives, layout.parity_drives
    b = chunks_touched(size_kib, stripe_unit_kib(layout), d)
    kib = size_kib / b
    if 2 * (b + p) <= d + p:  # read-modify-write: old data and parity, then new
        return AccessPlan(data_reads=b, data_writes=b, parity_reads=p, parity_writes=p, access_kib=kib)
    return AccessPlan(data_reads=d - b, data_writes=b, parity_writes=p, access_kib=kib)


def _merge_parity(plan: AccessPlan, layout: RaidLayout) -> AccessPlan:
    """Rotating parity lives on every drive: its work joins the data role."""
    if layout.dedicated_parity:
        return plan
    return plan._replace(
        data_reads=plan.data_reads + plan.parity_reads,
        data_writes=plan.data_writes + plan.parity_writes,
        parity_reads=0.0,
        parity_writes=0.0,
        data_stream_read_kib=plan.data_stream_read_kib + plan.parity_stream_read_kib,
        data_stream_write_kib=plan.data_stream_write_kib + plan.parity_stream_write_kib,
        parity_stream_read_kib=0.0,
        parity_stream_write_kib=0.0,
    )


def in_front_end_units(plan: AccessPlan, size_kib: float) -> AccessPlan:
    """``plan`` with its conventional back-end I/O count in units of the front-end size ``size_kib``:
    random accesses + streamed KiB / size (arrays of plans too)."""
    random = plan.data_reads + plan.data_writes + plan.parity_reads + plan.parity_writes
    streamed = (
        plan.data_stream_read_kib
        + plan.data_stream_write_kib
        + plan.parity_stream_read_kib
        + plan.parity_stream_write_kib
    )
    return plan._replace(backend_ios=random + streamed / size_kib)


def write_plan(layout: RaidLayout, size_kib: float, *, fill: float, stripe_run_kib: float) -> AccessPlan:
    """Drive accesses of one random write of ``size_kib`` reaching the back end.

    * RAID0: the stripe units written; mirrors and replicas: each copy.
    * In-place parity (RAID5/6, erasure coding): whole stripes the write covers
      (``s / (d u) - 1`` of them) stream data and parity; the rest updates one partial stripe in
      place (:func:`_partial_stripe`).
    * A log-structured layout (an explicit ``full_stripe_share`` f on RAID0, mirrors, RAID5/6 or
      erasure coding; :func:`models.architecture.written_layout` sets f = 1) appends that share
      of the writes to full stripes: data and parity (or every copy) streamed, nothing read.
    * Write-anywhere (RAID-DP/TEC under WAFL): every write joins a consistency point written into
      stripes with ``k = d x`` :func:`wafl_stripe_share` free blocks; per stripe ``k`` data and
      ``p`` parity blocks are written and ``min(d - k, k + p)`` blocks read (reconstruct- or
      read-modify-write), all in chains along each drive: streamed, one positioning per
      ``stripe_run_kib x k / d``.
    * RAID-Z: copy-on-write; a write smaller than the record reads the record (every column),
      then each record is written whole (data, parity and padding), streamed in transaction groups.

    ``fill`` is the planned fill of the pool (0..1), used by write-anywhere layouts.
    """
    s = layout.scheme
    d, p = layout.data_drives, layout.parity_drives
    if s is RaidScheme.RAID0 or s in _MIRRORED or s is RaidScheme.REPLICA:
        copies = 1.0 if s is RaidScheme.RAID0 else _copies(layout)
        n = 1.0 if s is RaidScheme.REPLICA else chunks_touched(size_kib, stripe_unit_kib(layout), d)
        f = layout.full_stripe_share or 0.0  # a log appends whole copies: streamed
        plan = AccessPlan(
            data_writes=(1.0 - f) * n * copies,
            access_kib=size_kib / n,
            data_stream_write_kib=f * size_kib * copies,
            run_kib=stripe_run_kib,
        )
        return in_front_end_units(plan, size_kib)
    if s in _RAIDZ:
        rec = raidz_record(layout)
        records = max(size_kib / rec.record_kib, 1.0)
        reads = rec.columns * records if size_kib < rec.record_kib else 0.0
        plan = AccessPlan(
            data_reads=reads,
            access_kib=rec.record_kib / rec.columns,
            data_stream_write_kib=records * rec.allocated_kib,
            run_kib=stripe_run_kib,
        )
        return in_front_end_units(plan, size_kib)
    if s in _WAFL:
        k = d * wafl_stripe_share(layout, fill)
        per_kib = size_kib / k  # KiB per free block of the stripes written
        rcw = d - k <= k + p
        plan = AccessPlan(
            data_stream_write_kib=size_kib,
            parity_stream_write_kib=p * per_kib,
            data_stream_read_kib=(d - k) * per_kib if rcw else size_kib,
            parity_stream_read_kib=0.0 if rcw else p * per_kib,
            run_kib=stripe_run_kib * k / d,
        )
        return in_front_end_units(plan, size_kib)
    # in-place parity: RAID5, RAID6, erasure coding
    unit = stripe_unit_kib(layout)
    width = d * unit
    full = max(0.0, size_kib / width - 1.0)
    partial = _partial_stripe(layout, min(size_kib, width))
    f = layout.full_stripe_share or 0.0
    stream_data = full * width + f * min(size_kib, width)
    plan = AccessPlan(
        data_reads=(1 - f) * partial.data_reads,
        data_writes=(1 - f) * partial.data_writes,
        parity_reads=(1 - f) * partial.parity_reads,
        parity_writes=(1 - f) * partial.parity_writes,
        access_kib=partial.access_kib,
        data_stream_write_kib=stream_data,
        parity_stream_write_kib=stream_data * p / d,
        run_kib=stripe_run_kib,
    )
    return in_front_end_units(_merge_parity(plan, layout), size_kib)


def stream_run_kib(layout: RaidLayout, request_kib: float) -> float:
    """Contiguous KiB of surface each drive moves per request of a stream (readahead or write-behind).

    A request of R KiB covers ``R / u`` stripe units over the d data columns, so each drive moves
    ``min(R, max(u, R / d))`` (its parity chunks among them for rotating parity): every drive the
    request reaches positions once. RAID-Z's unit is a record's share of one column; write-anywhere
    (WAFL) layouts, which allocate 4 KiB blocks in chains along each drive, are read in the layout's
    stripe unit, as their random reads are (:func:`read_plan`).
    """
    if layout.scheme in _RAIDZ:
        rec = raidz_record(layout)
        unit = rec.allocated_kib / rec.columns
    else:  # WAFL's chains of 4 KiB blocks are read in the units its random reads use
        unit = stripe_unit_kib(layout)
    return min(request_kib, max(unit, request_kib / layout.data_drives))


def stream_segment_kib(
    prefetch_kib: Num, size_kib: float, readahead_kib: float | None = None, multiplier: float = 1.0
) -> Num:
    """KiB one request of a sequential stream reads (or writes behind): the array's prefetch, the
    host's own readahead of the stream where stated, and at least ``multiplier`` of the stream's
    I/Os: ``max(prefetch, readahead, m x size)``. A stream of I/Os larger than the prefetch moves
    ``m`` of them per request (m >= 1), so it positions no more often than random I/Os of that
    size do."""
    return maximum(prefetch_kib, max(multiplier * size_kib, readahead_kib or 0.0))


def stream_read_plan(layout: RaidLayout, request_kib: float) -> AccessPlan:
    """Drive work per KiB of a sequential read stream (readahead requests of ``request_kib``).

    Rotating parity (RAID5/6, erasure coding, RAID-Z) lies between the data on every drive, so a
    request longer than a stripe's data has each drive pass ``w / d`` KiB of surface per KiB of
    data (the parity is skipped, not free); a request within one stripe reaches data chunks only,
    as do mirrors, replicas and dedicated-parity data drives.
    """
    s = layout.scheme
    if s in _RAIDZ:
        rec = raidz_record(layout)
        factor = 1.0 / rec.efficiency
    elif s in _ROTATING_PARITY and request_kib > stripe_unit_kib(layout) * layout.data_drives:
        factor = layout.group_width / layout.data_drives
    else:  # data only: mirrors, replicas, dedicated-parity data drives, a request within one stripe
        factor = 1.0
    return AccessPlan(data_stream_read_kib=factor, run_kib=stream_run_kib(layout, request_kib))


def stream_write_plan(layout: RaidLayout, request_kib: float) -> AccessPlan:
    """Drive work per KiB of a sequential write stream: whole stripes (data and parity), each copy
    of a mirror, whole RAID-Z records; one positioning per write-behind request on each drive."""
    s = layout.scheme
    if s is RaidScheme.RAID0:
        plan = AccessPlan(data_stream_write_kib=1.0)
    elif s in _MIRRORED or s is RaidScheme.REPLICA:
        plan = AccessPlan(data_stream_write_kib=_copies(layout))
    elif s in _RAIDZ:
        rec = raidz_record(layout)
        plan = AccessPlan(data_stream_write_kib=1.0 / rec.efficiency)
    else:
        d, p = layout.data_drives, layout.parity_drives
        plan = AccessPlan(data_stream_write_kib=1.0, parity_stream_write_kib=p / d)
        plan = _merge_parity(plan, layout)
    return plan._replace(run_kib=stream_run_kib(layout, request_kib))
