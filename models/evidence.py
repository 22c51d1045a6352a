"""Observed vs predicted: what a host measured on the array it has now, beside the model's answer.

Phases imported from host statistics carry :class:`~models.workload.ObservedLoad`: the load a
window carried on the current system and the latency the host saw. To check the model against
that evidence ("what you have now"), the current configuration is evaluated at the *observed*
load, not at the phase's sizing rate (which may be a 95th percentile, or grown):
:func:`at_observed_load` makes those workloads, and :func:`compare_observed` sets the host's
latencies beside the predicted ones, window by window::

    error % = (predicted - observed) / observed x 100

A model that predicts less than the host saw is optimistic for this system; the host's latency
includes its own queueing and the fabric (the model's includes a host overhead ``H``, see
``docs/nomenclature.md``), so differences of a few tenths of a millisecond are expected.
"""

from __future__ import annotations

from pydantic import Field

from models.base import InputError, Output
from models.evaluate import EvaluationResult
from models.explain import Explained
from models.provenance import Assessed
from models.workload import Workload


class ObservedVsModel(Output):
    """One phase: the host's figures in its window beside the model's for the same load."""

    workload: str
    phase: str
    window: str
    source: str
    observed_iops: float
    observed_read_pct: float
    observed_read_latency_ms: float | None
    observed_write_latency_ms: float | None
    observed_queue_length: float | None
    observed_utilization_pct: float | None
    predicted_read_latency_ms: Explained
    predicted_write_latency_ms: Explained
    read_error_pct: float | None = Field(description="(predicted - observed) / observed x 100")
    write_error_pct: float | None = Field(description="(predicted - observed) / observed x 100")
    bottleneck: str = Field(description="what limits the window in the model")
    window_passed: bool


class ObservedComparison(Assessed):
    """The current configuration evaluated at the loads the host observed (with what the model rests
    on and how far off its class has been: the evaluation's own)."""

    configuration: str
    rows: list[ObservedVsModel]
    notes: list[str]


def at_observed_load(workloads: list[Workload]) -> list[Workload]:
    """The workloads with only their observed phases, each at the load the host measured
    (``iops`` and ``read_pct`` from :class:`~models.workload.ObservedLoad`, the mix unchanged).

    Raises :class:`~models.base.InputError` (``workloads``) when no phase has observations.
    """
    out = []
    for w in workloads:
        phases = [
            p.model_copy(update={"iops": p.observed.iops, "read_pct": p.observed.read_pct, "mb_per_s": None})
            for p in w.phases
            if p.observed is not None
        ]
        if phases:
            out.append(w.model_copy(update={"phases": phases}))
    if not out:
        raise InputError(
            "workloads",
            "no phase has host observations: import host statistics (iostat, sar, perfmon, esxtop)",
        )
    return out


def _error_pct(predicted: float | None, observed: float | None) -> float | None:
    if predicted is None or observed is None or observed <= 0:
        return None
    return round((predicted - observed) / observed * 100.0, 2)


def compare_observed(workloads: list[Workload], result: EvaluationResult) -> ObservedComparison:
    """Rows of observed vs predicted latency for ``workloads`` (from :func:`at_observed_load`)
    evaluated into ``result``."""
    rows = []
    by_key = {(pr.workload, pr.phase): (win, pr) for win in result.windows for pr in win.phases}
    for w in workloads:
        for p in w.phases:
            if p.observed is None or (w.name, p.name) not in by_key:
                continue
            win, pr = by_key[(w.name, p.name)]
            o = p.observed
            rows.append(
                ObservedVsModel(
                    workload=w.name,
                    phase=p.name,
                    window=p.window,
                    source=o.source,
                    observed_iops=o.iops,
                    observed_read_pct=o.read_pct,
                    observed_read_latency_ms=o.read_latency_ms,
                    observed_write_latency_ms=o.write_latency_ms,
                    observed_queue_length=o.queue_length,
                    observed_utilization_pct=o.utilization_pct,
                    predicted_read_latency_ms=pr.read_latency_ms,
                    predicted_write_latency_ms=pr.write_latency_ms,
                    read_error_pct=_error_pct(pr.read_latency_ms.value, o.read_latency_ms),
                    write_error_pct=_error_pct(pr.write_latency_ms.value, o.write_latency_ms),
                    bottleneck=win.bottleneck,
                    window_passed=win.passed,
                )
            )
    notes = [
        "the model runs at the load the host measured in each window (its mean), not at the sizing rate",
        "host latency includes the host's own queue and the fabric; the model adds a host overhead H",
    ]
    optimistic = [r for r in rows if r.read_error_pct is not None and r.read_error_pct < -25.0]
    if optimistic:
        names = ", ".join(f"{r.workload}/{r.phase}" for r in optimistic)
        notes.append(
            f"the model predicts well under the read latency the host saw in {names}: check the "
            "configuration describes the system the statistics came from (drives, RAID, cache, other load)"
        )
    return ObservedComparison(
        configuration=result.configuration,
        rows=rows,
        notes=notes + result.warnings,
        calibration=result.calibration,
        model_error=result.model_error,
    )
