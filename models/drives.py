"""Drive service-time models: hard disks (seek, rotation, transfer, command queuing) and SSD/NVMe.

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
:func:`ncq_factor` is the older class-blind form (no queue limit) still used by the pool model.

SSD / NVMe: latency floor at QD1 plus transfer, and a throughput ceiling from the datasheet's
4 KiB IOPS (reads) or its steady-state write IOPS; service demand per I/O is 1 / IOPS_max at the
I/O size, scaled by size above 4 KiB by the sequential bandwidth.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError, NonNegFloat, PositiveFloat
from models.units import GB, GIB, transfer_ms


class DriveKind(StrEnum):
    HDD = "hdd"
    SSD = "ssd"
    NVME = "nvme"


_FLASH_ONLY = ("iops_rated_qd", "steady_write_iops_4k", "endurance_dwpd", "over_provisioning_pct")
"""DriveSpec fields that only a flash drive has."""


class DriveSpec(Frozen):
    """One drive model. HDD fields are required for ``kind=hdd``; SSD fields for ``ssd``/``nvme``."""

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
    # Catalog extras
    power_w: NonNegFloat | None = None
    price_usd: NonNegFloat | None = Field(default=None, description="list-price estimate [USD]")
    source: str = Field(default="user-defined", min_length=1)

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
            for name in ("read_iops_4k", "write_iops_4k", "read_latency_us", "write_latency_us"):
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


def ncq_factor(queue_depth: float, gain_max: float = 1.0, q_half: float = 8.0) -> float:
    """Positioning-time multiplier under command queuing: ``1 / (1 + g_max (q-1)/(q-1+q_half))``.

    1.0 at a queue of one, falling to ``1/(1+g_max)`` at deep queues. ``queue_depth`` is the mean
    number of commands at the drive (>= 1 is implied; smaller values count as 1).
    """
    if gain_max < 0:
        raise InputError("gain_max", "must be >= 0")
    if q_half <= 0:
        raise InputError("q_half", "must be > 0")
    q = max(1.0, queue_depth)
    return 1.0 / (1.0 + gain_max * (q - 1.0) / (q - 1.0 + q_half))


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


def hdd_service_ms(
    drive: DriveSpec,
    size_kib: float,
    *,
    is_read: bool = True,
    span_fraction: float = 1.0,
    queue_depth: float = 1.0,
    sequential: bool = False,
    ncq_gain_max: float = 1.0,
    ncq_q_half: float = 8.0,
) -> float:
    """Mean service time of one HDD I/O [ms].

    Random: ``overhead + (seek(span) + rot) * q_ncq(q) + xfer``. Sequential (continuing the
    previous I/O): ``overhead + xfer``; positioning is paid once per run, not per I/O.
    """
    if drive.kind is not DriveKind.HDD:
        raise InputError("drive.kind", "hdd_service_ms needs a hard disk")
    if size_kib <= 0:
        raise InputError("size_kib", "must be positive")
    xfer = transfer_ms(size_kib, drive.media_rate_mb_s)
    if sequential:
        return drive.overhead_ms + xfer
    avg = drive.avg_read_seek_ms if is_read else drive.avg_write_seek_ms
    assert avg is not None and drive.rpm is not None
    seek = short_stroke_seek_ms(avg, min(drive.track_seek_ms, avg), span_fraction)
    positioning = (seek + rotational_latency_ms(drive.rpm)) * ncq_factor(
        queue_depth, ncq_gain_max, ncq_q_half
    )
    return drive.overhead_ms + positioning + xfer


def ssd_service_ms(drive: DriveSpec, size_kib: float, *, is_read: bool = True) -> float:
    """Service demand of one SSD/NVMe I/O at high queue depth [ms]: the throughput ceiling.

    ``max(1000 / IOPS_4k, size * 1024 / (rate * 10^6) * 1000)``: small I/Os are bound by the IOPS
    rating, large ones by bandwidth. Used for utilization; latency uses :func:`ssd_latency_ms`.
    """
    if drive.kind is DriveKind.HDD:
        raise InputError("drive.kind", "ssd_service_ms needs an SSD or NVMe drive")
    if size_kib <= 0:
        raise InputError("size_kib", "must be positive")
    iops = drive.read_iops_4k if is_read else drive.write_iops_4k
    assert iops is not None
    rate = drive.media_rate_mb_s if is_read else (drive.seq_write_mb_s or drive.media_rate_mb_s)
    return max(1000.0 / iops, transfer_ms(size_kib, rate))


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
    ncq_gain_max: float = 1.0,
    ncq_q_half: float = 8.0,
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
            ncq_gain_max=ncq_gain_max,
            ncq_q_half=ncq_q_half,
        )
    return ssd_service_ms(drive, size_kib, is_read=is_read)


def unloaded_latency_ms(
    drive: DriveSpec, size_kib: float, *, is_read: bool = True, span_fraction: float = 1.0
) -> float:
    """Latency of one I/O on an idle drive [ms]: HDD service time at QD1, SSD datasheet latency."""
    if drive.kind is DriveKind.HDD:
        return hdd_service_ms(drive, size_kib, is_read=is_read, span_fraction=span_fraction)
    return ssd_latency_ms(drive, size_kib, is_read=is_read)
