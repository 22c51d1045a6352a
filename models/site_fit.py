"""Calibrate from your own array: fit the controller's costs and the working set to host statistics.

Host statistics imported from the system a customer has now (:mod:`models.evidence`) give, per
window, the load the host carried and the read and write latency it saw. This module fits three
figures of the model of that system so that its predicted latencies match what the host measured,
and keeps the fit as a custom controller record whose calibration status is ``fitted (site)``:

    f   controller cost factor: every per-I/O and per-KiB CPU cost x f, throughput ceilings / f
        (:func:`models.provenance.scaled_controller`, the same scaling as the calibration margins)
    d   drive time factor: every drive's seek and latency times x d, its media rates and IOPS
        ratings / d (:func:`models.provenance.scaled_drive`): what the site's drives deliver beside
        their datasheet (fill, other load on them, firmware)
    w   working-set factor: each observed phase's working set x w (its hit ratio follows from the
        cache model: a larger working set misses more)

    residual_i = ln(predicted_i / observed_i)         one per observed read or write latency
    x = (ln f, ln d, ln w)
    x = argmin sum_i residual_i^2 + lambda^2 |x|^2    scipy.optimize.least_squares (trust region),
                                                      bounds f in [0.1, 10], d in [0.25, 4], w in [0.05, 20]
    lambda = sigma_obs / sigma_prior = 0.1 / 1.0      host latencies good to about 10%; each factor
                                                      a priori within x e of the record's figure

The prior term (a ridge, the maximum a posteriori fit under log-normal priors centred on the record)
keeps a factor the statistics cannot tell apart from another where the record has it: once every
read misses, a larger working set changes nothing, and reads slower than predicted are put on the
drives rather than on a working set at its bound.

Log residuals weigh a window at 0.5 ms and one at 20 ms alike and keep a saturated window (an
infinite prediction) a finite, large residual (:data:`SATURATED_RESIDUAL`). The model is evaluated
as stated (no calibration margins: the fit replaces the estimate they stand for), warm, at the load
the host measured in each window (:func:`models.evidence.at_observed_load`).

A fit is kept only if it is determined and describes the site: at least as many observed latencies
as fitted factors, the solver converged, no factor ended on a bound, and the fitted predictions
within about 50% of the host's (rms of the log residuals <= ln 1.5) (a factor on its bound means the data cannot
place it: the fit is refused with the factor named, as :func:`models.calibration.fit_drive_queuing`
refuses a fit it cannot make). The fitted controller names its residuals and the date in its
calibration note; sizing a successor with the fitted workloads (working sets x w) carries the
site's cache behaviour into the new system, and the fitted controller, saved as a custom record,
lets the current system be expanded or compared at its measured speed.
"""

from __future__ import annotations

import math
from datetime import date

import numpy as np
from pydantic import Field
from scipy.optimize import least_squares

from models.base import InputError, Output
from models.configuration import Configuration
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.evidence import at_observed_load, compare_observed
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.provenance import CalibrationStatus, PartCalibration, scaled_controller, scaled_drive
from models.workload import Workload

COST_BOUNDS = (0.1, 10.0)
DRIVE_BOUNDS = (0.25, 4.0)
WORKING_SET_BOUNDS = (0.05, 20.0)
SATURATED_RESIDUAL = math.log(100.0)
"""ln(predicted / observed) counted for a window the model cannot carry (latency infinite or absent)."""
PRIOR_WEIGHT = 0.1
"""lambda: the observed latencies' relative error (about 10%) over the factors' prior spread (1 in ln)."""
MAX_RMS_AFTER = math.log(1.5)
"""A fit that still leaves predictions about 50% off (rms of ln(predicted / observed)) is refused."""
ON_BOUND = 1e-3
"""A fitted ln-factor within this of its bound is 'on the bound' (the data do not place it)."""


class SiteFitRow(Output):
    """One observed window: the host's latency, the model's before and after the fit."""

    workload: str
    phase: str
    window: str
    observed_read_latency_ms: float | None
    observed_write_latency_ms: float | None
    before_read_latency_ms: float | None
    before_write_latency_ms: float | None
    fitted_read_latency_ms: float | None
    fitted_write_latency_ms: float | None
    fitted_read_error_pct: float | None = Field(description="(fitted - observed) / observed x 100")
    fitted_write_error_pct: float | None = Field(description="(fitted - observed) / observed x 100")


class SiteFit(Output):
    """The fitted factors, the controller and drives as records to keep, and the fit's residuals."""

    configuration: str
    cost_factor: float = Field(description="f: controller CPU costs x f, throughput ceilings / f")
    drive_time_factor: float = Field(description="d: drive seek and latency times x d, rates / d")
    working_set_factor: float = Field(description="w: each observed phase's working set x w")
    observations: int = Field(description="observed latencies fitted (reads and writes)")
    rms_log_error_before: float = Field(description="sqrt(mean(ln(predicted / observed)^2)) before the fit")
    rms_log_error_after: float = Field(description="sqrt(mean(ln(predicted / observed)^2)) after the fit")
    evaluations: int = Field(description="model evaluations the solver made")
    controller: ControllerSpec = Field(description="the controller with fitted costs, status fitted (site)")
    drives: list[DriveSpec] = Field(description="each pool's drive with fitted times, status fitted (site)")
    workloads: list[Workload] = Field(description="the workloads with each observed phase's working set x w")
    rows: list[SiteFitRow]
    formula: str
    summary: str = Field(description="the fit in words: the factors and the error before and after")


FACTORS = ("cost_factor", "drive_time_factor", "working_set_factor")
BOUNDS = (COST_BOUNDS, DRIVE_BOUNDS, WORKING_SET_BOUNDS)


def _site(configuration: Configuration, f: float, d: float) -> Configuration:
    """``configuration`` with controller costs x ``f`` and drive times x ``d``."""
    return configuration.model_copy(
        update={
            "controller": scaled_controller(configuration.controller, f),
            "pools": [p.model_copy(update={"drive": scaled_drive(p.drive, d)}) for p in configuration.pools],
        }
    )


def _scaled_workloads(workloads: list[Workload], w: float) -> list[Workload]:
    """Each observed phase's working set (as the workload resolves it) x ``w``."""
    if w == 1.0:
        return workloads
    out = []
    for wl in workloads:
        phases = [
            p.model_copy(update={"working_set_gb": wl.working_set_for(p) * w})
            if p.observed is not None
            else p
            for p in wl.phases
        ]
        out.append(wl.model_copy(update={"phases": phases}))
    return out


def _latencies(at_load: list[Workload], cfg: Configuration, params: EngineParameters | None) -> list:
    result = evaluate(at_load, cfg, params=params, cold_cache=False, explain=False)
    return compare_observed(at_load, result).rows


def _residuals(rows: list) -> np.ndarray:
    out = []
    for r in rows:
        for pred, obs in (
            (r.predicted_read_latency_ms.value, r.observed_read_latency_ms),
            (r.predicted_write_latency_ms.value, r.observed_write_latency_ms),
        ):
            if obs is None or obs <= 0:
                continue
            if pred is None or not math.isfinite(pred) or pred <= 0:
                out.append(SATURATED_RESIDUAL)
            else:
                out.append(math.log(pred / obs))
    return np.asarray(out, dtype=float)


def _finite(v: float | None) -> float | None:
    return v if v is not None and math.isfinite(v) else None


@holds_memo
def fit_site(
    workloads: list[Workload],
    configuration: Configuration,
    *,
    params: EngineParameters | None = None,
    fitted_on: date,
) -> SiteFit:
    """Fit ``f`` and ``w`` (module docstring) to the host latencies of ``workloads``' observed phases.

    Raises :class:`~models.base.InputError` at ``workloads`` when fewer latencies were observed than
    factors are fitted, and at ``cost_factor`` / ``working_set_factor`` when the solver fails or a
    factor ends on its bound.
    """
    at_load = at_observed_load(workloads)
    before = _latencies(at_load, configuration, params)
    r0 = _residuals(before)
    if r0.size < len(FACTORS):
        raise InputError(
            "workloads",
            f"{r0.size} observed latencies: fitting the controller costs, the drive times and the working set "
            f"needs at least {len(FACTORS)} (a read and a write latency in two windows, say)",
        )
    evaluations = 0

    def run(x: np.ndarray) -> np.ndarray:
        nonlocal evaluations
        evaluations += 1
        f, d, w = np.exp(x)
        fit = _residuals(_latencies(_scaled_workloads(at_load, float(w)), _site(configuration, f, d), params))
        return np.concatenate([fit, PRIOR_WEIGHT * x])

    lo = np.log([b[0] for b in BOUNDS])
    hi = np.log([b[1] for b in BOUNDS])
    sol = least_squares(
        run, x0=np.zeros(len(FACTORS)), bounds=(lo, hi), method="trf", diff_step=1e-3, max_nfev=90
    )
    if not sol.success:
        raise InputError(FACTORS[0], f"the fit did not converge: {sol.message}")
    for i, name in enumerate(FACTORS):
        low, high = sol.x[i] - lo[i] < ON_BOUND, hi[i] - sol.x[i] < ON_BOUND
        if low or high:
            raise InputError(
                name,
                f"{name.replace('_', ' ')} ends on its bound ({BOUNDS[i][0 if low else 1]:g}): the host statistics "
                "cannot place it; check the configuration describes the system they came from",
            )
    f, d, w = (float(v) for v in np.exp(sol.x))
    fitted_cfg = _site(configuration, f, d)
    fitted_loads = _scaled_workloads(at_load, w)
    after = _latencies(fitted_loads, fitted_cfg, params)
    r1 = _residuals(after)
    rms0 = float(np.sqrt(np.mean(r0**2)))
    rms1 = float(np.sqrt(np.mean(r1**2)))
    if rms1 > MAX_RMS_AFTER:
        raise InputError(
            "configuration",
            f"the best fit still leaves the model {math.exp(rms1) - 1:.0%} off the host's latencies (rms of "
            f"ln(predicted / observed) {rms1:.2f} > ln 1.5): this configuration cannot describe the system the "
            "statistics came from (drives, RAID, cache, other load on it)",
        )
    note = (
        f"fitted (site) {fitted_on.isoformat()} to {r1.size} host latencies in {len(after)} window(s) of "
        f"{configuration.name}: CPU costs x {f:.3g}, drive times x {d:.3g} (working set x {w:.3g}); "
        f"rms |ln(predicted/observed)| {rms0:.3f} -> {rms1:.3f}"
    )
    summary = (
        f"CPU costs x {f:.3g}, drive times x {d:.3g}, working sets x {w:.3g}: the model's latencies "
        f"{math.exp(rms0) - 1:.0%} off the host's before the fit, {math.exp(rms1) - 1:.0%} after (rms of "
        f"ln(predicted / observed) over {r1.size} latencies)"
    )
    site = PartCalibration(status=CalibrationStatus.FITTED_SITE, note=note)
    label = f"fitted to site {fitted_on.isoformat()}"
    ctrl = fitted_cfg.controller.model_copy(
        update={"calibration": site, "source": note, "model": f"{fitted_cfg.controller.model[:90]}, {label}"}
    )
    drives = [
        p.drive.model_copy(update={"calibration": site, "name": f"{p.drive.name[:90]}, {label}"})
        for p in fitted_cfg.pools
    ]
    rows = [
        SiteFitRow(
            workload=a.workload,
            phase=a.phase,
            window=a.window,
            observed_read_latency_ms=a.observed_read_latency_ms,
            observed_write_latency_ms=a.observed_write_latency_ms,
            before_read_latency_ms=_finite(b.predicted_read_latency_ms.value),
            before_write_latency_ms=_finite(b.predicted_write_latency_ms.value),
            fitted_read_latency_ms=_finite(a.predicted_read_latency_ms.value),
            fitted_write_latency_ms=_finite(a.predicted_write_latency_ms.value),
            fitted_read_error_pct=_finite(a.read_error_pct),  # compare_observed's error %
            fitted_write_error_pct=_finite(a.write_error_pct),
        )
        for a, b in zip(after, before, strict=True)
    ]
    return SiteFit(
        configuration=configuration.name,
        cost_factor=round(f, 4),
        drive_time_factor=round(d, 4),
        working_set_factor=round(w, 4),
        observations=int(r1.size),
        rms_log_error_before=round(rms0, 4),
        rms_log_error_after=round(rms1, 4),
        evaluations=evaluations,
        controller=ctrl,
        drives=drives,
        workloads=_scaled_workloads(workloads, w),
        rows=rows,
        summary=summary,
        formula="(ln f, ln d, ln w) = argmin sum_i ln(predicted_i / observed_i)^2; CPU costs x f, ceilings / f; "
        "drive times x d, drive rates / d; observed phases' working sets x w",
    )
