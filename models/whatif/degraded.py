"""Degraded modes side by side: normal, drive failed, rebuilding (hours and exposure to a further
failure) and controller / node down."""

from __future__ import annotations

import math

from pydantic import Field

from models.base import InputError, Output
from models.checks import check_words
from models.configuration import Configuration
from models.evaluate import (
    DegradedMode,
    EvaluationResult,
    evaluate,
    pool_drive_counts,
)
from models.explain import Explained, explained, fmt
from models.parameters import EngineParameters
from models.raid import RaidScheme, tolerated_failures
from models.whatif.core import (
    Outcome,
    as_inf,
    outcome,
)
from models.workload import Workload

HOURS_PER_YEAR = 8766.0
"""Mean hours in a year (365.25 days)."""


class RebuildExposure(Output):
    """One pool during a rebuild: how long, and the risk of losing data meanwhile."""

    pool: str
    rebuild_hours: Explained
    failures_tolerated_during_rebuild: int
    further_failure_pct: Explained = Field(description="another drive at risk fails during the rebuild [%]")
    unreadable_sector_pct: Explained | None = Field(
        description="an unrecoverable read error while reading the survivors, when no redundancy is left [%]"
    )
    text: str


class ModeResult(Output):
    mode: DegradedMode
    available: bool
    note: str | None
    outcome: Outcome | None
    result: EvaluationResult | None
    rebuild: list[RebuildExposure]


class DegradedComparison(Output):
    modes: list[ModeResult] = Field(description="normal, drive failed, rebuilding, controller / node down")
    worst_mode: DegradedMode
    text: str


def rebuild_exposure(
    result: EvaluationResult,
    configuration: Configuration,
    *,
    afr_pct: float = 2.0,
    ure_per_bit: float = 1e-15,
) -> list[RebuildExposure]:
    """Exposure of each rebuilding pool, from a ``rebuilding`` evaluation (the slowest window's rebuild).

    ``k`` drives share the failed drive's data (the rest of its group; a mirror's partner; for
    replication every other drive), each failing at ``AFR`` per year::

        P(further failure) = 1 - exp(-k x AFR x hours / 8,766)
        P(unreadable sector) = 1 - exp(-k x C x 8e9 bits x URE)   (only when no redundancy is left)
    """
    if not 0 < afr_pct <= 100:
        raise InputError("afr_pct", "must be in (0, 100]")
    if not 0 < ure_per_bit < 1e-6:
        raise InputError("ure_per_bit", "must be in (0, 1e-6)")
    counts = pool_drive_counts(configuration)
    out = []
    for pool in configuration.pools:
        loads = [p for w in result.windows for p in w.pools if p.pool == pool.name and p.rebuild_hours]
        if not loads:
            continue
        worst = max(loads, key=lambda p: as_inf(p.rebuild_hours.value if p.rebuild_hours else None))
        assert worst.rebuild_hours is not None
        hours = worst.rebuild_hours.value
        layout = pool.raid
        s = layout.scheme
        if s is RaidScheme.REPLICA:
            k = counts[pool.name] - 1
        elif s in (RaidScheme.RAID1, RaidScheme.RAID10):
            k = 1
        else:
            k = layout.group_width - 1
        left = max(0, tolerated_failures(layout) - 1)
        afr = afr_pct / 100.0
        p_fail = None if hours is None else 1.0 - math.exp(-k * afr * hours / HOURS_PER_YEAR)
        fail = explained(
            None if p_fail is None else 100.0 * p_fail,
            "%",
            "P = 1 - exp(-k x AFR x hours / 8766)",
            f"P = 1 - exp(-{k} x {fmt(afr_pct)}% x {fmt(hours)} h / 8,766 h) = "
            f"{fmt(None if p_fail is None else 100 * p_fail)}%",
            drives_at_risk=k,
            afr_pct=afr_pct,
            hours=hours,
        )
        ure: Explained | None = None
        if left == 0:
            bits = k * pool.drive.capacity_gb * 8e9
            p_ure = 1.0 - math.exp(-bits * ure_per_bit)
            ure = explained(
                100.0 * p_ure,
                "%",
                "P = 1 - exp(-k x C x 8e9 x URE)",
                f"P = 1 - exp(-{k} x {fmt(pool.drive.capacity_gb)} GB x 8e9 bits x {ure_per_bit:g}) = {fmt(100 * p_ure)}%",
                drives_read=k,
                ure_per_bit=ure_per_bit,
            )
        consequence = "loses data" if left == 0 else f"leaves {left} more failure(s) tolerated"
        who = "The rebuild" if len(configuration.pools) == 1 else f"The rebuild of pool {pool.name}"
        if hours is None:  # the group is saturated: no rate is left for the rebuild
            text = (
                f"{who} cannot finish at this load (its RAID group is saturated): a further failure among {k} "
                f"drive(s) {consequence}"
            )
        else:
            text = (
                f"{who} takes {fmt(hours)} h; a further failure among {k} drive(s) in that time "
                f"({fmt(fail.value)}%) {consequence}"
            )
        text += (
            f"; an unreadable sector during the rebuild: {fmt(ure.value)}%" if ure is not None else ""
        ) + "."
        out.append(
            RebuildExposure(
                pool=pool.name,
                rebuild_hours=worst.rebuild_hours,
                failures_tolerated_during_rebuild=left,
                further_failure_pct=fail,
                unreadable_sector_pct=ure,
                text=text,
            )
        )
    return out


MODE_WORDS: dict[DegradedMode, str] = {
    DegradedMode.NONE: "normal operation",
    DegradedMode.DRIVE_FAILED: "with a drive failed",
    DegradedMode.REBUILDING: "while a drive rebuilds",
    DegradedMode.CONTROLLER_FAILED: "with a controller (or node) down",
}
"""Each degraded mode in words, as the summary says it."""


def _binding_words(o: Outcome, pools: int) -> str:
    """The binding check of an outcome in words (``window: drives:pool`` -> ``the drives in
    business hours at 85% of its limit``; a saturated one cannot keep up)."""
    if o.binding == "none":
        return "nothing (no check)"
    window, _, name = o.binding.partition(": ")
    words = f"{check_words(name, pools)} in {window}"
    if o.headroom_used_pct is None:
        return f"{words}, saturated (it cannot keep up)"
    return f"{words} at {fmt(o.headroom_used_pct)}% of its limit"


def degraded_modes(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    afr_pct: float = 2.0,
    ure_per_bit: float = 1e-15,
) -> DegradedComparison:
    """The configuration in every :class:`DegradedMode`, side by side, with rebuild exposure.

    A mode the configuration cannot be in (a controller failure with a single controller) is
    marked unavailable with the reason.
    """
    modes: list[ModeResult] = []
    for mode in DegradedMode:
        try:
            res = evaluate(workloads, configuration, params=params, degraded=mode)
        except InputError as exc:
            if exc.field != "degraded":
                raise
            modes.append(
                ModeResult(mode=mode, available=False, note=exc.reason, outcome=None, result=None, rebuild=[])
            )
            continue
        rebuild = (
            rebuild_exposure(res, configuration, afr_pct=afr_pct, ure_per_bit=ure_per_bit)
            if mode is DegradedMode.REBUILDING
            else []
        )
        modes.append(
            ModeResult(
                mode=mode, available=True, note=None, outcome=outcome(res), result=res, rebuild=rebuild
            )
        )
    ok = [m for m in modes if m.outcome is not None]
    worst = max(ok, key=lambda m: as_inf(m.outcome.headroom_used_pct if m.outcome else None))
    parts = []
    for m in ok:
        assert m.outcome is not None
        verdict = "meets every target" if m.outcome.passed else "fails"
        parts.append(
            f"{MODE_WORDS[m.mode]}: {verdict}; nearest its limit: {_binding_words(m.outcome, len(configuration.pools))}"
        )
    text = (
        "; ".join(part[0].upper() + part[1:] if i == 0 else part for i, part in enumerate(parts))
        + f". Worst: {MODE_WORDS[worst.mode]}."
    )
    for m in modes:
        for r in m.rebuild:
            text += " " + r.text
    return DegradedComparison(modes=modes, worst_mode=worst.mode, text=text)
