"""Degraded modes side by side: normal, drive failed, rebuilding (hours and exposure to a further
failure) and controller / node down."""

from __future__ import annotations

from pydantic import Field

from models.base import InputError, Output
from models.configuration import Configuration
from models.evaluate import (
    DegradedMode,
    EvaluationResult,
    evaluate,
)
from models.explain import Explained, fmt
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import Assessed
from models.raid import tolerated_failures
from models.whatif.core import (
    Outcome,
    as_inf,
    outcome,
)
from models.workload import Workload


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


class DegradedComparison(Assessed):
    modes: list[ModeResult] = Field(description="normal, drive failed, rebuilding, controller / node down")
    worst_mode: DegradedMode
    text: str


def rebuild_exposure(result: EvaluationResult, configuration: Configuration) -> list[RebuildExposure]:
    """Exposure of each rebuilding pool, from a ``rebuilding`` evaluation: the engine's failure
    result (:func:`models.pool.failure_result`, :mod:`models.rebuild`) at the window whose rebuild
    is slowest: its rebuild time, the chance a further failure among the drives holding the failed
    one's stripes or copies meets it, and (with no redundancy left) an unreadable sector."""
    out = []
    for pool in configuration.pools:
        failures = [
            p.failure
            for w in result.windows
            for p in w.pools
            if p.pool == pool.name and p.failure is not None
        ]
        if not failures:
            continue
        worst = max(failures, key=lambda f: as_inf(f.rebuild_hours.value))
        fail = worst.further_failure_pct
        assert fail is not None
        hours = worst.rebuild_hours.value
        left = max(0, tolerated_failures(pool.raid) - 1)
        ure = worst.unrecoverable_read_pct if left == 0 else None
        k = fail.inputs.get("drives_at_risk") if fail.inputs else None
        consequence = "loses data" if left == 0 else f"leaves {left} more failure(s) tolerated"
        among = f" among {fmt(k)} drive(s)" if isinstance(k, (int, float)) else ""
        who = "The rebuild" if len(configuration.pools) == 1 else f"The rebuild of pool {pool.name}"
        if hours is None:  # the group is saturated: no rate is left for the rebuild
            text = (
                f"{who} cannot finish at this load (its RAID group is saturated): a further failure{among} "
                f"{consequence}"
            )
        else:
            text = (
                f"{who} takes {fmt(hours)} h; a further failure{among} in that time "
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


def _with_risks(
    configuration: Configuration,
    params: EngineParameters | None,
    afr_pct: float | None,
    ure_per_bit: float | None,
) -> tuple[Configuration, EngineParameters | None]:
    """The configuration and parameters with a stated drive failure rate and unreadable-sector
    rate (None: the parameters' rate and each drive's own rating)."""
    if afr_pct is not None:
        if not 0 < afr_pct <= 100:
            raise InputError("afr_pct", "must be in (0, 100]")
        params = (params or EngineParameters()).model_copy(update={"annual_failure_rate_pct": afr_pct})
    if ure_per_bit is not None:
        if not 0 < ure_per_bit < 1e-6:
            raise InputError("ure_per_bit", "must be in (0, 1e-6)")
        bits = 1.0 / ure_per_bit
        pools = [
            pl.model_copy(
                update={"drive": pl.drive.model_copy(update={"unrecoverable_read_error_bits": bits})}
            )
            for pl in configuration.pools
        ]
        configuration = configuration.model_copy(update={"pools": pools})
    return configuration, params


MODE_WORDS: dict[DegradedMode, str] = {
    DegradedMode.NONE: "normal operation",
    DegradedMode.DRIVE_FAILED: "with a drive failed",
    DegradedMode.REBUILDING: "while a drive rebuilds",
    DegradedMode.CONTROLLER_FAILED: "with a controller (or node) down",
}
"""Each degraded mode in words, as the summary says it."""


def _binding_words(o: Outcome) -> str:
    """The binding check of an outcome in words (``window: drives:pool`` -> ``the drives in
    business hours at 85% of its limit``; a saturated one cannot keep up)."""
    if o.binding == "none":
        return "nothing (no check)"
    words = o.binding_words
    if o.headroom_used_pct is None:
        return f"{words}, saturated (it cannot keep up)"
    return f"{words} at {fmt(o.headroom_used_pct)}% of its limit"


@holds_memo
def degraded_modes(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    afr_pct: float | None = None,
    ure_per_bit: float | None = None,
) -> DegradedComparison:
    """The configuration in every :class:`DegradedMode`, side by side, with rebuild exposure.

    A mode the configuration cannot be in (a controller failure with a single controller) is
    marked unavailable with the reason. ``afr_pct`` and ``ure_per_bit``: a drive failure rate and an
    unreadable-sector rate stated for this comparison (None: the parameters' and each drive's).
    """
    configuration, params = _with_risks(configuration, params, afr_pct, ure_per_bit)
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
        rebuild = rebuild_exposure(res, configuration) if mode is DegradedMode.REBUILDING else []
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
        parts.append(f"{MODE_WORDS[m.mode]}: {verdict}; nearest its limit: {_binding_words(m.outcome)}")
    text = (
        "; ".join(part[0].upper() + part[1:] if i == 0 else part for i, part in enumerate(parts))
        + f". Worst: {MODE_WORDS[worst.mode]}."
    )
    for m in modes:
        for r in m.rebuild:
            text += " " + r.text
    return DegradedComparison(modes=modes, worst_mode=worst.mode, text=text)
