"""Calibration: fit model parameters to published measurements (``fit_<model>``, pvlib style).

Each function takes measurements as plain numbers and returns the fitted parameters as the same
value objects the engine takes; nothing here reads files (``scripts/fit_calibration.py`` loads
the records and writes ``fixtures/calibration/engine.yaml``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from models.base import InputError
from models.drives import CommandQueuing, command_queuing_factor


@dataclass(frozen=True)
class QueueCurve:
    """One drive's random-I/O throughput at several queue depths, reduced to service times.

    ``fixed_ms`` is the part of one I/O's service time that reordering cannot shorten (command
    overhead + media transfer) [ms]; ``positioning_ms`` is the unqueued seek + rotation [ms]
    (None: taken from the measurement at a queue of one, ``1000 / IOPS(1) - fixed_ms``).
    """

    name: str
    queue_depths: tuple[float, ...]
    iops: tuple[float, ...]
    fixed_ms: float
    positioning_ms: float | None = None

    def unqueued_positioning_ms(self) -> float:
        if self.positioning_ms is not None:
            return self.positioning_ms
        for q, x in zip(self.queue_depths, self.iops, strict=True):
            if q == 1:
                return 1000.0 / x - self.fixed_ms
        raise InputError(f"{self.name}.queue_depths", "needs a queue of one or a positioning_ms")


def predict_queue_iops(curve: QueueCurve, queuing: CommandQueuing) -> list[float]:
    """IOPS of one drive kept busy by ``q`` outstanding commands: ``1000 / (fixed + t_pos(1) f(q))``.

    A closed loop with ``q >= 1`` commands always in the drive keeps it busy, so throughput is the
    reciprocal of the mean service time (Little's law gives the response time ``q / IOPS``).
    """
    pos = curve.unqueued_positioning_ms()
    return [1000.0 / (curve.fixed_ms + pos * command_queuing_factor(q, queuing)) for q in curve.queue_depths]


def fit_command_queuing(
    curves: Sequence[QueueCurve],
    queue_limit: float,
    *,
    gain_bounds: tuple[float, float] = (0.0, 3.0),
    q_half_bounds: tuple[float, float] = (0.1, 1024.0),
    q_half: float | None = None,
) -> CommandQueuing:
    """Fit ``gain_max`` and ``q_half`` of one drive class to IOPS-vs-queue curves.

    Minimises the squared log error of predicted IOPS over every point of every curve
    (:func:`predict_queue_iops`), with each curve's unqueued positioning taken from its own queue
    of one, so the fit sees the *shape* of the queuing gain and not a datasheet's seek bias.
    ``queue_limit`` is the class's interface limit (SATA NCQ 32), stated, not fitted.

    ``q_half`` given: held at that value and only ``gain_max`` fitted (a curve with one depth
    beyond one fixes one parameter: a datasheet's single queued figure, with the unqueued
    positioning stated).
    """
    if not curves:
        raise InputError("curves", "at least one curve is needed")
    if not any(q > 1 for c in curves for q in c.queue_depths):
        raise InputError("curves", "needs points at a queue deeper than one")
    if q_half is not None:
        return _fit_gain(curves, queue_limit, q_half, gain_bounds)

    def residuals(x: np.ndarray) -> np.ndarray:
        cq = CommandQueuing(gain_max=float(x[0]), q_half=float(x[1]), queue_limit=queue_limit)
        out: list[float] = []
        for c in curves:
            pred = predict_queue_iops(c, cq)
            out.extend(math.log(p / m) for p, m in zip(pred, c.iops, strict=True))
        return np.asarray(out)

    lo = [gain_bounds[0], q_half_bounds[0]]
    hi = [gain_bounds[1], q_half_bounds[1]]
    best = None
    for x0 in ([1.0, 8.0], [2.0, 30.0], [0.5, 2.0]):  # a few starts: the surface has a long valley
        res = least_squares(residuals, x0=x0, bounds=(lo, hi), method="trf", x_scale=[1.0, 10.0])
        if best is None or res.cost < best.cost:
            best = res
    assert best is not None
    return CommandQueuing(gain_max=float(best.x[0]), q_half=float(best.x[1]), queue_limit=queue_limit)


def _fit_gain(
    curves: Sequence[QueueCurve], queue_limit: float, q_half: float, gain_bounds: tuple[float, float]
) -> CommandQueuing:
    """``gain_max`` alone (``q_half`` held) by least squares on the log IOPS of every point."""

    def residuals(x: np.ndarray) -> np.ndarray:
        cq = CommandQueuing(gain_max=float(x[0]), q_half=q_half, queue_limit=queue_limit)
        return np.asarray(
            [math.log(p / m) for c in curves for p, m in zip(predict_queue_iops(c, cq), c.iops, strict=True)]
        )

    res = least_squares(residuals, x0=[1.0], bounds=([gain_bounds[0]], [gain_bounds[1]]), method="trf")
    return CommandQueuing(gain_max=float(res.x[0]), q_half=q_half, queue_limit=queue_limit)
