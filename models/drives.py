"""Drive service-time models: hard disks (seek, rotation, transfer, command queuing) and SSD/NVMe.

Kept as one module (about 640 lines): the drive record and every formula that prices it (HDD
positioning and queuing, SSD wear, endurance, error rates) read best beside each other.

HDD (Ruemmler & Wilkes, "An Introduction to Disk Drive Modeling", IEEE Computer 1994,
[ruemmler-wilkes-1994]):

    S = t_overhead + t_seek(span) * q_ncq + t_rot * q_ncq + t_xfer                      [ms]
    t_rot  = 30,000 / RPM                        (half a revolution)                     [ms]
    t_xfer = size_kib * 1024 / (media_rate_mb_s * 10^6) * 1000                           [ms]

Seek vs distance follows the square-root law for short and medium seeks, t(d) = a + b*sqrt(d).
For a random pair of positions inside a band covering a fraction ``s`` of the surface, the mean
of sqrt(|x - y|) scales as sqrt(s), so the mean seek is

    t_seek(s) = t_track + (t_avg - t_track) * sqrt(s)                                    [ms]

which equals the datasheet average seek (full-span random) at s = 1 and falls toward the
track-to-track time when the data is short-stroked (s -> 0). Read and write seeks differ
(writes settle longer), so each has its own datasheet average.

Command queuing (NCQ/TCQ) lets the drive reorder a queue of ``q`` commands to cut positioning
(seek + rotation). The gain saturates; we use

    q_ncq(q) = 1 / (1 + g_max * (q' - 1) / (q' - 1 + q_half)),   q' = min(q, queue_limit)

with ``g_max``, ``q_half`` and ``queue_limit`` per drive class (:class:`DriveClass`: SATA NCQ,
NL-SAS, 10K/15K SAS/FC, SSD), fitted to drive-level IOPS-vs-queue measurements
(:func:`queued_positioning_ms`, :func:`models.calibration.fit_command_queuing`).

SSD / NVMe: latency floor at QD1 plus transfer, and a throughput ceiling from the datasheet's
4 KiB IOPS (reads) or its steady-state random-write IOPS; service demand per I/O is 1 / IOPS_max
at the I/O size (reads scale with the read bandwidth above 4 KiB, random writes with the
steady-state random-write rating: ``max(1, KiB / 4)`` ratings). The steady-state write rating is
measured with the whole user capacity written at random (SNIA PTS); a drive holding less live
data has more spare flash, so its garbage collection copies less (write amplification, WA)::

    rho = (1 + OP) / fill - 1                    spare flash over live data       [-]
    WA(rho) = (1 + rho) / (1 + rho + W(-(1 + rho) e^-(1 + rho)))   (W: Lambert W, principal)
    t_write_4k(fill) = 1000 / IOPS_steady x WA(rho(fill)) / WA(rho(1))               [ms]

(greedy garbage collection under uniform random writes, Xiang & Kurkoski 2012
[xiang-kurkoski-2012]). Endurance: the rated drive writes per day (DWPD) hold at the rated
condition, so random writes wear the drive in proportion to ``WA(fill) / WA(1)``; streamed writes
(full stripes, logs) count one for one (no credit for their lower WA: conservative).
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any, NamedTuple, Self

import numpy as np
from pydantic import ConfigDict, Field, model_validator
from scipy.special import lambertw

from models.base import ABSENT, GIVEN, Frozen, InputError, NonNegFloat, PositiveFloat
from models.numeric import maximum, minimum
from models.provenance import PartCalibration
from models.units import GB, GIB, transfer_ms

Num = Any
"""A float, or a numpy array of them (one element per candidate)."""


class DriveKind(StrEnum):
    HDD = "hdd"
    SSD = "ssd"
    NVME = "nvme"


_FLASH_ONLY = ("iops_rated_qd", "steady_write_iops_4k", "endurance_dwpd", "over_provisioning_pct")
"""DriveSpec fields that only a flash drive has."""
_FLASH_REQUIRED = ("read_iops_4k", "write_iops_4k", "read_latency_us", "write_latency_us")
"""DriveSpec fields an SSD or NVMe drive must have."""


class DriveSpec(Frozen):
    """One drive model. HDD fields are required for ``kind=hdd``; SSD fields for ``ssd``/``nvme``.

    The schema states which (``if``/``then``/``else`` on ``kind``), and that a hard disk has no
    flash figures; it cannot state the rules between two figures (``track_to_track_ms`` below
    ``avg_read_seek_ms``, ``steady_write_iops_4k`` at most ``write_iops_4k``, ``right_sized_gib``
    within the marketed capacity): those are a 422 at the drive naming the figure.
    """

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"kind": {"const": "hdd"}}, "required": ["kind"]},
            "then": {
                "required": ["rpm", "avg_read_seek_ms", "avg_write_seek_ms"],
                "properties": {
                    "rpm": GIVEN,
                    "avg_read_seek_ms": GIVEN,
                    "avg_write_seek_ms": GIVEN,
                    **{name: ABSENT for name in _FLASH_ONLY},
                },
            },
            "else": {
                "required": list(_FLASH_REQUIRED),
                "properties": {name: GIVEN for name in _FLASH_REQUIRED},
            },
        }
    )

    id: str = Field(min_length=1, max_length=80, pattern=r"^[a-z0-9][a-z0-9._-]*$")
    name: str = Field(min_length=1, max_length=120)
    kind: DriveKind
    interface: str = Field(default="SAS", description="SAS, FC, SATA, NL-SAS, NVMe")
    capacity_gb: PositiveFloat = Field(description="marketed capacity [GB, decimal]")
    right_sized_gib: PositiveFloat | None = Field(
        default=None, description="usable capacity after the array's right-sizing [GiB, binary]"
    )
    # HDD
    rpm: int | None = Field(default=None, ge=3600, le=20000)
    avg_read_seek_ms: PositiveFloat | None = None
    avg_write_seek_ms: PositiveFloat | None = None
    track_to_track_ms: PositiveFloat | None = Field(default=None, description="single-track seek [ms]")
    overhead_ms: NonNegFloat = Field(default=0.2, description="command/controller overhead per I/O [ms]")
    media_rate_mb_s: PositiveFloat = Field(description="sustained media transfer rate [MB/s]")
    # SSD / NVMe (media_rate_mb_s is the sequential read rate)
    read_iops_4k: PositiveFloat | None = Field(
        default=None, description="random 4 KiB read IOPS at the rated queue depth (iops_rated_qd)"
    )
    write_iops_4k: PositiveFloat | None = Field(
        default=None,
        description="random 4 KiB write IOPS as rated at iops_rated_qd (enterprise datasheets rate "
        "steady state; see steady_write_iops_4k where the rating is fresh-out-of-box)",
    )
    iops_rated_qd: int | None = Field(
        default=None, ge=1, le=65536, description="queue depth (total outstanding I/Os) of the IOPS ratings"
    )
    steady_write_iops_4k: PositiveFloat | None = Field(
        default=None,
        description="random 4 KiB write IOPS after preconditioning to steady state (SNIA PTS); at most "
        "write_iops_4k",
    )
    read_latency_us: PositiveFloat | None = Field(default=None, description="QD1 4 KiB read latency [us]")
    write_latency_us: PositiveFloat | None = Field(default=None, description="QD1 4 KiB write latency [us]")
    seq_write_mb_s: PositiveFloat | None = Field(default=None, description="sequential write rate [MB/s]")
    endurance_dwpd: PositiveFloat | None = Field(
        default=None, le=1000.0, description="rated endurance: full drive writes per day over the warranty"
    )
    warranty_years: PositiveFloat | None = Field(default=None, le=10.0, description="warranty period [years]")
    over_provisioning_pct: float | None = Field(
        default=None,
        ge=0.0,
        lt=100.0,
        description="spare flash beyond the user capacity, as a share of the user capacity [%]",
    )
    unrecoverable_read_error_bits: float | None = Field(
        default=None,
        ge=1e10,
        le=1e20,
        description="bits read per unrecoverable read error (datasheet: 1 sector per 10^N bits); None = class default",
    )
    actuators: int = Field(
        default=1,
        ge=1,
        le=4,
        description="independent actuators of a hard disk (dual-actuator drives: 2), each positioning "
        "over its share of the LBAs at its share of media_rate_mb_s (the drive's combined rate)",
    )
    # Catalog extras
    power_w: NonNegFloat | None = None
    price_usd: NonNegFloat | None = Field(default=None, description="list-price estimate [USD]")
    source: str = Field(default="user-defined", min_length=1)
    calibration: PartCalibration | None = Field(
        default=None,
        description="how calibrated the drive's service-time figures are (None: estimate (user)); models/provenance.py",
    )

    @model_validator(mode="after")
    def _check_kind_fields(self) -> Self:
        if self.kind is DriveKind.HDD:
            for name in ("rpm", "avg_read_seek_ms", "avg_write_seek_ms"):
                if getattr(self, name) is None:
                    raise ValueError(f"{name} is required for a hard disk")
            t2t = self.track_to_track_ms
            if t2t is not None and self.avg_read_seek_ms is not None and t2t >= self.avg_read_seek_ms:
                raise ValueError("track_to_track_ms must be below avg_read_seek_ms")
            for name in _FLASH_ONLY:
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} is a flash figure: a hard disk has none")
        else:
            if self.actuators != 1:
                raise ValueError("actuators: only a hard disk has actuators (an SSD/NVMe drive states 1)")
            for name in _FLASH_REQUIRED:
                if getattr(self, name) is None:
                    raise ValueError(f"{name} is required for an SSD/NVMe drive")
            steady, rated = self.steady_write_iops_4k, self.write_iops_4k
            if steady is not None and rated is not None and steady > rated * (1 + 1e-9):
                raise ValueError(
                    f"steady_write_iops_4k {steady:g} exceeds write_iops_4k {rated:g}: preconditioning "
                    "never raises write IOPS"
                )
        if self.right_sized_gib is not None and self.right_sized_gib * GIB > self.capacity_gb * GB * 1.001:
            raise ValueError("right_sized_gib cannot exceed the marketed capacity")
        return self

    @property
    def usable_gib(self) -> float:
        """Right-sized capacity [GiB]; without a right-sizing figure, the marketed bytes in GiB."""
        return self.right_sized_gib if self.right_sized_gib is not None else self.capacity_gb * GB / GIB

    @property
    def unrecoverable_bits(self) -> float:
        """Bits read per unrecoverable error: the datasheet's, else by class (conservative):
        SATA 10^14, NL-SAS 10^15, SAS/FC 10^16 [seagate-exos-x18-manual], SSD/NVMe 10^17 (estimate)."""
        if self.unrecoverable_read_error_bits is not None:
            return self.unrecoverable_read_error_bits
        if self.kind is not DriveKind.HDD:
            return 1e17
        iface = self.interface.upper()
        if "SATA" in iface:
            return 1e14
        if "NL" in iface or (self.rpm is not None and self.rpm < 10000):
            return 1e15
        return 1e16

    @property
    def rated_writes_tb_per_day(self) -> float | None:
        """Rated endurance as data written per day [TB/day]: ``DWPD x capacity_gb / 1000``."""
        if self.endurance_dwpd is None:
            return None
        return self.endurance_dwpd * self.capacity_gb / 1000.0

    @property
    def track_seek_ms(self) -> float:
        """Track-to-track seek [ms]; default 10% of the average read seek when the datasheet lacks it."""
        if self.track_to_track_ms is not None:
            return self.track_to_track_ms
        return 0.1 * (self.avg_read_seek_ms or 0.0)


DEFAULT_OVER_PROVISIONING_PCT = 28.0
"""Spare flash assumed when a datasheet gives none [% of user capacity]: the spare of mixed-use
drives, which credits a lower fill less than the ~7% of read-intensive drives (conservative)."""
DEFAULT_WARRANTY_YEARS = 5.0
"""Warranty assumed when a datasheet gives none [years]: the usual enterprise SSD term (estimate)."""
MIN_SPARE_FACTOR = 1e-3
"""Spare factor floor: a drive with no spare flash at all would never finish garbage collection."""


def flash_write_amplification(spare_factor: float) -> float:
    """Write amplification of greedy garbage collection under uniform random writes [-].

    ``WA = (1 + rho) / (1 + rho + W(-(1 + rho) e^-(1 + rho)))`` with ``rho`` the spare factor
    (physical flash minus live data, over live data) and W the principal branch of Lambert's W
    (Xiang & Kurkoski 2012 [xiang-kurkoski-2012]: rho = 0.3 gives 2.36, simulation 2.35). Falls
    from about ``1 / rho`` toward 1 as the spare grows.
    """
    if not spare_factor > 0 or not math.isfinite(spare_factor):
        raise InputError("spare_factor", "must be a positive, finite number")
    a = 1.0 + spare_factor
    return float(a / (a + lambertw(-a * math.exp(-a)).real))


def ssd_spare_factor(drive: DriveSpec, fill: float) -> float:
    """Spare factor of an SSD whose user capacity holds live data to ``fill`` (0..1] [-].

    ``rho = (1 + OP) / fill - 1``: the factory over-provisioning ``OP`` (``over_provisioning_pct``,
    else :data:`DEFAULT_OVER_PROVISIONING_PCT`) plus the user capacity the array leaves free and
    unmapped. Floored at :data:`MIN_SPARE_FACTOR`.
    """
    op = drive.over_provisioning_pct
    op = DEFAULT_OVER_PROVISIONING_PCT if op is None else op
    f = min(max(fill, 0.01), 1.0)
    return max((1.0 + op / 100.0) / f - 1.0, MIN_SPARE_FACTOR)


def random_write_wear(drive: DriveSpec, fill: float) -> float:
    """Garbage-collection work of a random write at ``fill`` relative to the rated condition [-].

    ``WA(rho(fill)) / WA(rho(1))`` (:func:`flash_write_amplification`): 1 at a full drive (the
    condition of the steady-state rating and of the endurance rating), below 1 when the array
    keeps part of the drive free. Hard disks: 1.
    """
    if drive.kind is DriveKind.HDD:
        return 1.0
    rated = flash_write_amplification(ssd_spare_factor(drive, 1.0))
    return flash_write_amplification(ssd_spare_factor(drive, fill)) / rated


def steady_write_iops(drive: DriveSpec) -> float:
    """Random 4 KiB write IOPS after preconditioning: ``steady_write_iops_4k``, else the rating
    ``write_iops_4k`` (enterprise datasheets rate steady state) [I/O per s]."""
    steady = drive.steady_write_iops_4k if drive.steady_write_iops_4k is not None else drive.write_iops_4k
    if steady is None:
        raise InputError("drive.write_iops_4k", "is required for an SSD/NVMe drive")
    return steady


def drive_writes_per_day(write_kib_per_s: Num, drive: DriveSpec) -> Num:
    """Full drive writes per day at a write rate per drive [DWPD]:
    ``KiB/s x 1024 x 86,400 / (capacity_gb x 10^9)`` (floats, or arrays of rates)."""
    if np.any(np.asarray(write_kib_per_s) < 0):
        raise InputError("write_kib_per_s", "must be >= 0")
    return write_kib_per_s * 1024.0 * 86_400.0 / (drive.capacity_gb * GB)


def years_to_wear_out(dwpd_needed: float, drive: DriveSpec) -> float | None:
    """Years until the rated writes are used up: ``warranty x DWPD_rated / DWPD_needed``
    (``None`` without an endurance rating; inf when nothing is written)."""
    if drive.endurance_dwpd is None:
        return None
    if dwpd_needed <= 0:
        return math.inf
    warranty = drive.warranty_years if drive.warranty_years is not None else DEFAULT_WARRANTY_YEARS
    return warranty * drive.endurance_dwpd / dwpd_needed


def rotational_latency_ms(rpm: float) -> float:
    """Average rotational latency, half a revolution: ``30,000 / RPM`` [ms] (15K: 2.0 ms)."""
    if rpm <= 0:
        raise InputError("rpm", "must be positive")
    return 30_000.0 / rpm


def short_stroke_seek_ms(avg_seek_ms: float, track_to_track_ms: float, span_fraction: float) -> float:
    """Mean seek inside a band covering ``span_fraction`` of the surface (square-root seek curve).

    ``t = t_track + (t_avg - t_track) * sqrt(span)`` [ms]; floored at track-to-track.
    """
    if not 0.0 < span_fraction <= 1.0:
        raise InputError("span_fraction", "must be in (0, 1]")
    return track_to_track_ms + (avg_seek_ms - track_to_track_ms) * math.sqrt(span_fraction)


def full_stroke_seek_ms(avg_seek_ms: float, track_to_track_ms: float) -> float:
    """Full-stroke seek implied by the square-root curve: mean of sqrt(|x-y|) is 8/15 of the max.

    ``t_full = t_track + (t_avg - t_track) * 15/8`` [ms] (a check against datasheets, not an input).
    """
    return track_to_track_ms + (avg_seek_ms - track_to_track_ms) * 15.0 / 8.0


class DriveClass(StrEnum):
    """Command-queuing class of a drive: who reorders the queue, and how deep it may be.

    * ``sata``: SATA/FATA drives, Native Command Queuing, at most 32 commands in the drive;
    * ``nl_sas``: 7,200 rpm drives with a SAS/FC interface (SAS tagged queuing on capacity-drive
      mechanics and firmware);
    * ``sas_fc``: 10K and 15K rpm SAS/FC drives (tagged command queuing, deep queues);
    * ``ssd``: SSD/NVMe; no positioning to reorder (internal parallelism is in the SSD model).
    """

    SATA = "sata"
    NL_SAS = "nl_sas"
    SAS_FC = "sas_fc"
    SSD = "ssd"


def drive_class(drive: DriveSpec) -> DriveClass:
    """The command-queuing class of ``drive`` from its kind, interface and spindle speed.

    SSD/NVMe -> ``ssd``; an HDD whose interface names SATA or FATA -> ``sata``; any other HDD below
    10,000 rpm (NL-SAS, 7.2K SAS or FC) -> ``nl_sas``; 10,000 rpm and faster -> ``sas_fc``.
    """
    if drive.kind is not DriveKind.HDD:
        return DriveClass.SSD
    iface = drive.interface.upper()
    if "SATA" in iface or "FATA" in iface:
        return DriveClass.SATA
    if (drive.rpm or 0) < 10_000:
        return DriveClass.NL_SAS
    return DriveClass.SAS_FC


class CommandQueuing(Frozen):
    """Command-queuing gain of one drive class (see :func:`queued_positioning_ms`)."""

    gain_max: float = Field(
        ge=0.0, le=3.0, description="positioning-time gain at an unlimited queue (1.0 halves it)"
    )
    q_half: float = Field(gt=0.0, le=1024.0, description="queue at which half the gain is reached")
    queue_limit: float = Field(
        default=256.0,
        ge=1.0,
        le=65536.0,
        description="most commands the drive reorders at once (SATA NCQ: 32); more wait in the host",
    )


def command_queuing_factor(queue_per_drive: float, queuing: CommandQueuing) -> float:
    """Positioning-time multiplier for ``queue_per_drive`` commands at one drive [-].

    ``f(q) = 1 / (1 + g_max (q' - 1) / (q' - 1 + q_half))``, ``q' = min(max(q, 1), queue_limit)``:
    1 at a queue of one, falling toward ``1 / (1 + g_max)`` as the queue deepens, and flat beyond
    the drive's queue limit (commands past it wait in the host, unsorted). The saturating form is
    empirical; ``g_max`` and ``q_half`` are fitted per drive class to drive-level IOPS-vs-queue
    measurements (``fixtures/validation/drive_queue_depth.yaml``, sources in ``docs/sources.md``).
    """
    if queue_per_drive != queue_per_drive:  # NaN
        raise InputError("queue_per_drive", "must be a number")
    q = min(max(queue_per_drive, 1.0), queuing.queue_limit)
    x = q - 1.0
    return 1.0 / (1.0 + queuing.gain_max * x / (x + queuing.q_half))


def queued_positioning_ms(positioning_ms: float, queue_per_drive: float, queuing: CommandQueuing) -> float:
    """Mean positioning time (seek + rotation) of one I/O when ``queue_per_drive`` commands are
    queued at the drive and it reorders them (SATA NCQ, SAS/FC tagged queuing) [ms].

    ``t_pos(q) = t_pos(1) * f(q)`` with ``f`` from :func:`command_queuing_factor`; ``t_pos(1)`` is
    the unqueued seek + half a revolution at the data's seek span. Only the queue actually present
    at the drive counts (an idle or lightly loaded drive has q near 1 and gains nothing).
    Reordering cuts positioning only: command overhead and media transfer are unchanged
    (Worthington, Ganger & Patt 1994 [worthington-scheduling-1994]; the per-class parameters are
    fitted in :func:`models.calibration.fit_command_queuing`).
    """
    if positioning_ms < 0:
        raise InputError("positioning_ms", "must be >= 0")
    return positioning_ms * command_queuing_factor(queue_per_drive, queuing)


MS_PER_KIB_AT_1MB_S = 1.024
"""Transfer time of one KiB at 1 MB/s [ms]: 1024 B / 10^6 B/s = 1.024 ms."""


class DriveTimes(NamedTuple):
    """How a drive prices accesses [ms]: positioning ``P = pos_a + pos_b sqrt(span)`` (0 for SSDs),
    per-access floors (SSD: 1000 / IOPS), per-KiB transfer times and the command overhead, and
    how much rated endurance a KiB of random write uses (floats; arrays over candidates in the
    batch path)."""

    overhead_ms: Num
    read_floor_ms: Num
    write_floor_ms: Num
    random_read_ms_per_kib: Num
    random_write_ms_per_kib: Num
    stream_read_ms_per_kib: Num
    stream_write_ms_per_kib: Num
    read_pos_a: Num
    read_pos_b: Num
    write_pos_a: Num
    write_pos_b: Num
    write_wear: Num = 1.0  # random writes' share of the rated endurance per byte (SSD: WA ratio)
    write_queue_factor: Num = 1.0  # write positioning multiplier of the drive's write cache (1: off)


def positioning_units(drive: DriveSpec) -> int:
    """Units that position and transfer independently in one drive: a hard disk's actuators (a
    dual-actuator drive serves two I/Os at once, each on its half of the LBAs); 1 for flash, whose
    parallelism its IOPS figures already carry. Utilizations divide by drives x units."""
    return drive.actuators if drive.kind is DriveKind.HDD else 1


def drive_times(drive: DriveSpec, fill: float = 1.0) -> DriveTimes:
    """Access prices of ``drive`` (the physics of this module in coefficient form).

    HDD: overhead + transfer at the media rate, positioning ``t_track + t_rot + (t_avg - t_track)
    sqrt(span)`` with read and write seeks apart; per positioning unit (:func:`positioning_units`):
    a drive of k actuators is k units, each moving data at ``media rate / k``. SSD/NVMe: no positioning; a random read costs
    ``max(1000 / IOPS_read_4k, KiB / read bandwidth)``, a random write ``1000 / IOPS_steady x
    wear(fill) x max(1, KiB / 4)`` (steady-state random-write bandwidth, never the sequential
    rating, with the garbage collection of :func:`random_write_wear` at the pool's planned
    ``fill``), streams move at the sequential bandwidths.
    """
    if drive.kind is DriveKind.HDD:
        assert (
            drive.rpm is not None
            and drive.avg_read_seek_ms is not None
            and drive.avg_write_seek_ms is not None
        )
        per_kib = MS_PER_KIB_AT_1MB_S / (drive.media_rate_mb_s / drive.actuators)
        rot = 30_000.0 / drive.rpm
        tr = min(drive.track_seek_ms, drive.avg_read_seek_ms)
        tw = min(drive.track_seek_ms, drive.avg_write_seek_ms)
        return DriveTimes(
            overhead_ms=drive.overhead_ms,
            read_floor_ms=0.0,
            write_floor_ms=0.0,
            random_read_ms_per_kib=per_kib,
            random_write_ms_per_kib=per_kib,
            stream_read_ms_per_kib=per_kib,
            stream_write_ms_per_kib=per_kib,
            read_pos_a=tr + rot,
            read_pos_b=drive.avg_read_seek_ms - tr,
            write_pos_a=tw + rot,
            write_pos_b=drive.avg_write_seek_ms - tw,
            write_wear=1.0,
        )
    assert drive.read_iops_4k is not None
    wear = random_write_wear(drive, fill)
    write_floor = 1000.0 / steady_write_iops(drive) * wear
    return DriveTimes(
        overhead_ms=0.0,
        read_floor_ms=1000.0 / drive.read_iops_4k,
        write_floor_ms=write_floor,
        random_read_ms_per_kib=MS_PER_KIB_AT_1MB_S / drive.media_rate_mb_s,
        random_write_ms_per_kib=write_floor / 4.0,
        stream_read_ms_per_kib=MS_PER_KIB_AT_1MB_S / drive.media_rate_mb_s,
        stream_write_ms_per_kib=MS_PER_KIB_AT_1MB_S / (drive.seq_write_mb_s or drive.media_rate_mb_s),
        read_pos_a=0.0,
        read_pos_b=0.0,
        write_pos_a=0.0,
        write_pos_b=0.0,
        write_wear=wear,
    )


def positioning_ms(t: DriveTimes, root_span: Num, factor: Num = 1.0) -> tuple[Num, Num]:
    """(read, write) positioning [ms] at ``sqrt(span)`` ``root_span`` and command-queuing ``factor``.

    Writes take ``min(factor, t.write_queue_factor)``: a drive whose write cache is on reorders the
    writes it holds whatever the host queue (:func:`write_cache_factor`); off (1), the host queue's."""
    wq = t.write_queue_factor
    wf = factor if isinstance(wq, float) and wq == 1.0 else minimum(factor, wq)
    return (t.read_pos_a + t.read_pos_b * root_span) * factor, (
        t.write_pos_a + t.write_pos_b * root_span
    ) * wf


def write_cache_factor(queuing: CommandQueuing) -> float:
    """Write positioning multiplier of a hard disk whose volatile write cache is on [-].

    The drive acknowledges a write once it is in its cache and destages the writes it holds in
    the order that positions least: a queue as deep as the drive reorders
    (``queue_limit``, :func:`command_queuing_factor` there), whatever the host keeps outstanding.
    Datasheets measure writes with the cache off (WCD) and find them reordered at least as well as
    reads: Seagate Exos X24 QD16 WCD 168 reads / 550 writes per second [seagate-exos-x24-ds2080],
    Exos M 170 / 350 [seagate-exos-m-ds2045], Exos 2X18 304 / 560 [seagate-exos-2x18-ds2093]; so
    crediting the class's own deepest reordering (never more, gain_max <= 3) understates them.
    Conservative default off: arrays with NVRAM and Ceph guidance run HDDs with the volatile cache
    disabled (a power loss drops what it holds), and a write-cache flush per commit (BlueStore,
    ``--sync``) takes the gain back [ceph-hardware-recommendations]. A drive with its cache on
    reorders the writes it holds: a 5,400 rpm drive sorted about 1.3 random 8 KB writes per
    revolution [chung-win2000-io-2000].
    """
    return command_queuing_factor(queuing.queue_limit, queuing)


def random_access_ms(t: DriveTimes, kib: Num, read: bool) -> Num:
    """Fixed service of one random access of ``kib`` [ms], positioning excluded:
    ``max(floor, overhead + KiB x t_KiB)`` (floats, or arrays of candidates)."""
    if read:
        return maximum(t.read_floor_ms, t.overhead_ms + kib * t.random_read_ms_per_kib)
    return maximum(t.write_floor_ms, t.overhead_ms + kib * t.random_write_ms_per_kib)


def hdd_service_ms(
    drive: DriveSpec,
    size_kib: float,
    *,
    is_read: bool = True,
    span_fraction: float = 1.0,
    queue_depth: float = 1.0,
    sequential: bool = False,
    queuing: CommandQueuing | None = None,
) -> float:
    """Mean service time of one HDD I/O [ms].

    Random: ``overhead + positioning(span) x f(q) + xfer`` (:func:`positioning_ms`, with the
    command-queuing factor of ``queuing``; none: f = 1). Sequential (continuing the previous I/O):
    ``overhead + xfer``; positioning is paid once per run, not per I/O.
    """
    if drive.kind is not DriveKind.HDD:
        raise InputError("drive.kind", "hdd_service_ms needs a hard disk")
    if size_kib <= 0:
        raise InputError("size_kib", "must be positive")
    if not 0.0 < span_fraction <= 1.0:
        raise InputError("span_fraction", "must be in (0, 1]")
    t = drive_times(drive)
    xfer = size_kib * (t.random_read_ms_per_kib if is_read else t.random_write_ms_per_kib)
    if sequential:
        return float(t.overhead_ms + xfer)
    factor = 1.0 if queuing is None else command_queuing_factor(queue_depth, queuing)
    p_read, p_write = positioning_ms(t, math.sqrt(span_fraction), factor)
    return float(t.overhead_ms + (p_read if is_read else p_write) + xfer)


def ssd_service_ms(drive: DriveSpec, size_kib: float, *, is_read: bool = True, fill: float = 1.0) -> float:
    """Service demand of one random SSD/NVMe I/O at high queue depth [ms]: the throughput ceiling.

    Reads ``max(1000 / IOPS_read_4k, size / read bandwidth)``; writes ``1000 / IOPS_steady x
    wear(fill) x max(1, size / 4 KiB)``: the steady-state random-write rating bounds random writes
    of every size (the sequential rating does not apply to them), eased by the spare flash a
    drive filled to ``fill`` keeps (:func:`random_write_wear`). Latency uses :func:`ssd_latency_ms`.
    """
    if drive.kind is DriveKind.HDD:
        raise InputError("drive.kind", "ssd_service_ms needs an SSD or NVMe drive")
    if size_kib <= 0:
        raise InputError("size_kib", "must be positive")
    return float(random_access_ms(drive_times(drive, fill), size_kib, is_read))


def ssd_latency_ms(drive: DriveSpec, size_kib: float, *, is_read: bool = True) -> float:
    """Unloaded (QD1) latency of one SSD I/O [ms]: datasheet 4 KiB latency plus extra transfer."""
    lat_us = drive.read_latency_us if is_read else drive.write_latency_us
    assert lat_us is not None
    rate = drive.media_rate_mb_s if is_read else (drive.seq_write_mb_s or drive.media_rate_mb_s)
    extra = transfer_ms(max(0.0, size_kib - 4.0), rate)
    return lat_us / 1000.0 + extra


def drive_service_ms(
    drive: DriveSpec,
    size_kib: float,
    *,
    is_read: bool = True,
    span_fraction: float = 1.0,
    queue_depth: float = 1.0,
    sequential: bool = False,
    queuing: CommandQueuing | None = None,
) -> float:
    """Service demand of one I/O on any drive kind [ms] (dispatches to the HDD or SSD model)."""
    if drive.kind is DriveKind.HDD:
        return hdd_service_ms(
            drive,
            size_kib,
            is_read=is_read,
            span_fraction=span_fraction,
            queue_depth=queue_depth,
            sequential=sequential,
            queuing=queuing,
        )
    return ssd_service_ms(drive, size_kib, is_read=is_read)


def unloaded_latency_ms(
    drive: DriveSpec, size_kib: float, *, is_read: bool = True, span_fraction: float = 1.0
) -> float:
    """Latency of one I/O on an idle drive [ms]: HDD service time at QD1, SSD datasheet latency."""
    if drive.kind is DriveKind.HDD:
        return hdd_service_ms(drive, size_kib, is_read=is_read, span_fraction=span_fraction)
    return ssd_latency_ms(drive, size_kib, is_read=is_read)


def unrecoverable_read_probability(drive: DriveSpec, read_gb: float) -> float:
    """Chance of at least one unrecoverable read error while reading ``read_gb`` [GB, decimal].

    Errors arrive independently at one per ``drive.unrecoverable_bits`` bits read:
    ``P = 1 - exp(-8e9 x GB / bits per error)``.
    """
    if read_gb < 0:
        raise InputError("read_gb", "must be >= 0")
    return -math.expm1(-8e9 * read_gb / drive.unrecoverable_bits)
