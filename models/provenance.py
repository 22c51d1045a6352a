"""How calibrated each part of a system is: status and source keys, per part.

Every figure the engine uses comes from a record (catalog or custom hardware). Each record says,
part by part, how far its figures can be trusted::

    status        meaning                                                        sources
    measured      read off a published measurement of this very hardware          >= 1 key
    fitted        fitted (``make calibrate``) to published measurements           >= 1 key
    fitted (site) fitted to the user's own measurements (``/import/observed``)    none needed
    datasheet     a vendor's published figure, read and cited                      >= 1 key
    estimate      era-typical, recalled or derived (x / 1.5 of another record)     optional
    estimate (user) a custom record without a stated source                        none

Source keys are keys of ``docs/sources.md`` (without brackets). A part's status is that of its
*least* calibrated figure the engine uses (a controller whose core count is from a datasheet but
whose CPU costs per I/O are placeholders is ``estimate``); ``figures`` may state single figures
more precisely (``cpu_us_per_kib_written: fitted [clyso-ceph-1tibps-2024]``).

Parts (:data:`PARTS`):

* ``drives``      the drive record's service-time figures (seek, rotation, media rate, IOPS, latency)
* ``controller``  controllers or nodes: cores, CPU costs per I/O and per KiB, throughput ceilings
* ``cache``       DRAM/NVRAM sizes, acknowledgement and hit times, flash cache options
* ``ports``       front-end ports and, for scale-out systems, the cluster network

Catalog arrays state ``controller``, ``cache`` and ``ports`` in ``calibration`` (:class:`ArrayCalibration`);
drive records state their own (:class:`PartCalibration`); a custom controller record may state its
own ``calibration``, which then replaces the array's ``controller`` part. A custom record that states
none is ``estimate (user)`` throughout (:func:`user_estimate`).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Self

from pydantic import Field, model_validator

from models.base import Frozen

PARTS = ("drives", "controller", "cache", "ports")
"""The parts a result's calibration reports, in order."""

SOURCE_KEY = r"^[a-z0-9]+(?:-[a-z0-9]+)+$"
"""A key of ``docs/sources.md``: lowercase words joined by hyphens (``netapp-tr3838``)."""


class CalibrationStatus(StrEnum):
    """How a figure was obtained (best first; see the module docstring)."""

    MEASURED = "measured"
    FITTED_SITE = "fitted (site)"
    FITTED = "fitted"
    DATASHEET = "datasheet"
    ESTIMATE = "estimate"
    ESTIMATE_USER = "estimate (user)"

    @property
    def rank(self) -> int:
        """0 for the best-founded status, larger for weaker ones (:func:`weakest`)."""
        return list(CalibrationStatus).index(self)

    @property
    def needs_source(self) -> bool:
        """``measured``, ``fitted`` and ``datasheet`` must name at least one source key."""
        return self in (CalibrationStatus.MEASURED, CalibrationStatus.FITTED, CalibrationStatus.DATASHEET)

    @property
    def is_estimate(self) -> bool:
        return self in (CalibrationStatus.ESTIMATE, CalibrationStatus.ESTIMATE_USER)


class FigureCalibration(Frozen):
    """One figure's status and sources, where it differs from its part's."""

    status: CalibrationStatus
    sources: list[str] = Field(default_factory=list, max_length=16)

    @model_validator(mode="after")
    def _check(self) -> Self:
        _check_sources(self.status, self.sources)
        return self


class PartCalibration(Frozen):
    """One part's status (its least calibrated figure), the source keys behind it and a short note."""

    status: CalibrationStatus
    sources: list[str] = Field(
        default_factory=list, max_length=16, description="keys of docs/sources.md, e.g. netapp-tr3838"
    )
    note: str | None = Field(
        default=None, max_length=400, description="what is estimated, what fitted to what"
    )
    figures: dict[str, FigureCalibration] = Field(
        default_factory=dict, max_length=32, description="single figures stated more precisely than the part"
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        _check_sources(self.status, self.sources)
        # the part's status is its least calibrated figure's: a figure may be better, never worse
        worse = [n for n, f in self.figures.items() if f.status.rank > self.status.rank]
        if worse:
            raise ValueError(
                f"figures {', '.join(sorted(worse))} are less calibrated than the part's status "
                f"{self.status.value!r}; the part's status is its least calibrated figure's"
            )
        return self


class ArrayCalibration(Frozen):
    """An array record's parts other than its drives (each drive record states its own)."""

    controller: PartCalibration
    cache: PartCalibration
    ports: PartCalibration


def _check_sources(status: CalibrationStatus, sources: list[str]) -> None:
    bad = [s for s in sources if not re.match(SOURCE_KEY, s)]
    if bad:
        raise ValueError(f"source keys {bad} are not keys of docs/sources.md (lowercase-words-with-hyphens)")
    if len(set(sources)) != len(sources):
        raise ValueError("source keys must be distinct")
    if status.needs_source and not sources:
        raise ValueError(f"status {status.value!r} needs at least one source key (docs/sources.md)")


def user_estimate(note: str = "custom record without a stated source") -> PartCalibration:
    """The calibration of a custom part that states none: ``estimate (user)``, no sources."""
    return PartCalibration(status=CalibrationStatus.ESTIMATE_USER, note=note)


def weakest(parts: list[PartCalibration]) -> CalibrationStatus:
    """The least calibrated status among ``parts``."""
    return max((p.status for p in parts), key=lambda s: s.rank)
