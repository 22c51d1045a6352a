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
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError


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
_WAFL = {RaidScheme.RAID_DP, RaidScheme.RAID_TEC}
WAFL_SCHEMES = frozenset(_WAFL)
"""Schemes laid out by WAFL (write-anywhere, full-stripe coalescing): layout ages apply to them."""
_RAIDZ = {RaidScheme.RAIDZ1, RaidScheme.RAIDZ2, RaidScheme.RAIDZ3}


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

    @model_validator(mode="after")
    def _check_width(self) -> Self:
        p, lo, hi, _ = _SCHEME[self.scheme]
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


def seek_span(data_fraction: float, scatter: float, floor: float = 0.005) -> float:
    """Share of the drive surface random I/O spans: ``s0 + scatter x (1 - s0)``.

    ``s0`` is the data's share of the pool's usable capacity (short-stroking when small); a
    write-anywhere layout (WAFL, ZFS) relocates overwritten blocks into free space, scattering
    the hot data over more of the surface as it ages (``scatter``, calibrated per layout age).
    """
    if not 0.0 <= scatter <= 1.0:
        raise InputError("scatter", "must be in [0, 1]")
    s0 = min(1.0, max(floor, data_fraction))
    return s0 + scatter * (1.0 - s0)


def capacity_efficiency(layout: RaidLayout) -> float:
    """Usable share of raw capacity: ``d / (d + p)``; mirrors 1/2; n-way replication 1/n."""
    if layout.scheme is RaidScheme.REPLICA:
        return 1.0 / layout.copies
    if layout.scheme in _MIRRORED:
        return 0.5 if layout.scheme is not RaidScheme.ZFS_MIRROR else 1.0 / layout.group_width
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


def default_full_stripe_share(scheme: RaidScheme) -> float:
    """Share of random writes landing as full stripes when the layout does not say.

    WAFL (RAID-DP/TEC): 0.5, a middle layout; calibrated values per layout age live in
    fixtures. RAID-Z: 1.0 (always full variable-width stripes). Others: 0.0 (in-place updates).
    """
    if scheme in _WAFL:
        return 0.5
    if scheme in _RAIDZ:
        return 1.0
    return 0.0


def small_write_cost(layout: RaidLayout) -> float:
    """Back-end I/Os per small random front-end write.

    RAID0 1; mirrors 2 (copies); replication n; RAID5 4, RAID6 6 (min(RMW, RCW) for one block);
    RAID-DP/TEC ``f (d+p)/d + (1-f) min(RMW, RCW)``; RAID-Z ``f (1+p) ...`` with f = 1 (a one-block
    record written with its p parity sectors); EC ``f (k+m)/k + (1-f) min(RMW, RCW)``.
    """
    s = layout.scheme
    d, p = layout.data_drives, layout.parity_drives
    if s is RaidScheme.RAID0:
        return 1.0
    if s is RaidScheme.REPLICA:
        return float(layout.copies)
    if s in _MIRRORED:
        return 2.0 if s is not RaidScheme.ZFS_MIRROR else float(layout.group_width)
    f = layout.full_stripe_share if layout.full_stripe_share is not None else default_full_stripe_share(s)
    if s in _RAIDZ:
        # copy-on-write: a small record is its own narrow stripe (1 data + p parity sectors)
        return f * (1.0 + p) + (1.0 - f) * (1.0 + p)
    partial = partial_stripe_write_cost(d, p, 1)
    return f * full_stripe_write_cost(d, p) + (1.0 - f) * partial


def write_cost_split(layout: RaidLayout) -> tuple[float, float]:
    """(sequential-stripe writes, random back-end I/Os) per small front-end write.

    Full-stripe writes stream to the drives (positioning is paid once per run); partial-stripe
    reads and writes are random. Their sum is :func:`small_write_cost`.
    """
    s = layout.scheme
    d, p = layout.data_drives, layout.parity_drives
    if s in _WAFL or s is RaidScheme.ERASURE:
        f = layout.full_stripe_share if layout.full_stripe_share is not None else default_full_stripe_share(s)
        return f * full_stripe_write_cost(d, p), (1.0 - f) * partial_stripe_write_cost(d, p, 1)
    if s in _RAIDZ:
        return 1.0 + p, 0.0
    return 0.0, small_write_cost(layout)


def sequential_write_cost(layout: RaidLayout) -> float:
    """Back-end writes per front-end block for streaming writes (full stripes): ``(d+p)/d``, mirrors 2."""
    s = layout.scheme
    if s is RaidScheme.RAID0:
        return 1.0
    if s is RaidScheme.REPLICA:
        return float(layout.copies)
    if s in _MIRRORED:
        return 2.0 if s is not RaidScheme.ZFS_MIRROR else float(layout.group_width)
    return full_stripe_write_cost(layout.data_drives, layout.parity_drives)


def random_read_fanout(layout: RaidLayout) -> float:
    """Drive I/Os one random front-end read occupies: 1, or d for a RAID-Z vdev (whole stripe)."""
    return float(layout.data_drives) if layout.scheme in _RAIDZ else 1.0


def read_drives(layout: RaidLayout, groups: int) -> int:
    """Drives that serve reads: all, except dedicated parity drives (RAID-DP/TEC) in each group."""
    per_group = layout.data_drives if layout.dedicated_parity else layout.group_width
    return per_group * groups


def degraded_read_cost(layout: RaidLayout) -> float:
    """Mean back-end reads per front-end read in a group with one failed drive.

    A read lands on the failed drive with probability 1/w and is rebuilt from w - 1 reads:
    ``(1 - 1/w) + (w - 1)/w``. Mirrors read the surviving copy (1.0); RAID0 cannot survive (inf
    is not representable: raises). Replication reads another copy (1.0).
    """
    s = layout.scheme
    if s is RaidScheme.RAID0:
        raise InputError("scheme", "raid0 has no redundancy: a failed drive loses the group")
    if s in _MIRRORED or s is RaidScheme.REPLICA:
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


def rebuild_hours(drive_capacity_gb: float, rebuild_rate_mb_s: float, busy_fraction: float) -> float:
    """Rebuild duration [h]: ``capacity / (rate * (1 - busy))``; the rebuild gets the idle share.

    ``rebuild_rate_mb_s`` is the rate on an idle array; the foreground load's drive utilization
    ``busy_fraction`` (0..1) slows it proportionally. At full load the rebuild never ends (raises).
    """
    if rebuild_rate_mb_s <= 0:
        raise InputError("rebuild_rate_mb_s", "must be positive")
    if not 0.0 <= busy_fraction < 1.0:
        raise InputError("busy_fraction", "must be in [0, 1): a saturated group cannot rebuild")
    rate = rebuild_rate_mb_s * (1.0 - busy_fraction)
    return drive_capacity_gb * 1000.0 / rate / 3600.0
