"""The cases a design is judged in, and the verdict over them (value objects only).

A design meets its targets only if every window meets them in every case below (conservative
by default); a request may relax a case, for every window or for one, and the verdict's headline
then names what was relaxed. The judging itself is :mod:`models.verdict`; these types live apart
so that :mod:`models.results` can carry a verdict without importing the engine.

========================  =====================================================================
case                      what is evaluated
========================  =====================================================================
``healthy``               every drive and controller up, caches warm
``drive-failed``          one drive failed in one RAID group of each pool (degraded reads)
``rebuilding``            the same group while it rebuilds (the rebuild's stream added)
``failover``              one controller (or node) down: the survivors serve, with their caches
``cold-cache``            caches empty after a restart or failover, until the working set is read
``horizon``               every case above at the horizon: capacity, IOPS, MB/s and working sets
                          grown as the growth analysis grows them (:mod:`models.whatif.growth`)
========================  =====================================================================
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from models.base import Frozen, Output


class Case(StrEnum):
    HEALTHY = "healthy"
    DRIVE_FAILED = "drive-failed"
    REBUILDING = "rebuilding"
    FAILOVER = "failover"
    COLD_CACHE = "cold-cache"
    HORIZON = "horizon"


CASE_WORDS: dict[Case, str] = {
    Case.HEALTHY: "healthy",
    Case.DRIVE_FAILED: "with a drive failed",
    Case.REBUILDING: "while a drive rebuilds",
    Case.FAILOVER: "after a controller or node failover",
    Case.COLD_CACHE: "with cold caches after a restart",
    Case.HORIZON: "at the growth horizon",
}
"""Each case in words, as the headline says it ("meets healthy, with a drive failed, ...")."""

NOT_SIZED_WORDS: dict[Case, str] = {
    Case.HEALTHY: "healthy operation",
    Case.DRIVE_FAILED: "a drive failure",
    Case.REBUILDING: "a rebuild",
    Case.FAILOVER: "a controller or node failover",
    Case.COLD_CACHE: "cold caches after a restart",
    Case.HORIZON: "growth to the horizon",
}
"""Each case as the thing a design was not sized for ("not sized for a drive failure at ...")."""


class Relaxation(Frozen):
    """A case the design need not meet, in every window (``window`` null) or in one."""

    case: Literal["drive-failed", "rebuilding", "failover", "cold-cache", "horizon"] = Field(
        description="the case relaxed (healthy operation cannot be relaxed)"
    )
    window: str | None = Field(
        default=None,
        min_length=1,
        max_length=80,
        description="the window it is relaxed in; null = every window (horizon: always every window)",
    )


CaseStatus = Literal["meets", "fails", "relaxed", "not applicable"]


class CaseOutcome(Output):
    """One case in one window (``window`` null: the whole design, e.g. capacity at the horizon)."""

    case: Case
    window: str | None
    load: str = Field(description="the load judged: today, or at month M of growth")
    status: CaseStatus
    text: str = Field(description="the verdict in words: the busiest check, or what fails and by how much")


class Verdict(Output):
    """The headline: the design meets only if every case that is not relaxed meets in every window."""

    passed: bool
    headline: str = Field(description="the verdict in one sentence, naming every case relaxed")
    horizon_months: int | None = Field(
        description="the month every case is judged at (the growth horizon); null: today's load (no "
        "horizon stated, or relaxed)"
    )
    cases: list[CaseOutcome]
    relaxed: list[Relaxation] = Field(description="what the request relaxed")
    notes: list[str] = Field(default_factory=list, description="cases that do not apply, and why")


HEALTHY_ONLY: list[Relaxation] = [
    Relaxation(case=c) for c in ("drive-failed", "rebuilding", "failover", "cold-cache", "horizon")
]
"""Every case relaxed but healthy operation today: what a sizing judged before the cases existed
(for a caller that states it, e.g. a test of one model's effect on the healthy count)."""
