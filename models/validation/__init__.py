"""Validation against published measurements.

Each file under ``fixtures/validation/`` holds records of one ``kind``; a handler per kind turns a
record into rows of predicted vs measured figures. ``python -m models.validation DIR`` prints
the rows in separate tables by how honest the comparison is, and exits non-zero when a row
marked as a gate is out of tolerance:

* ``in-sample``: the measurement was used to fit a parameter the prediction uses;
* ``cross-validated``: every fitted parameter was refitted without the measurement's curve
  (leave one curve out), then the curve predicted;
* ``out-of-sample``: the measurement was never used to fit anything;
* ``standard-method``: the product's sizing next to the textbook method (no measurement).

A handler is a function ``(record: dict, context: ValidationContext) -> list[Row]`` registered
with :func:`handler`. Records carry their ``source``; calibrated parameters they use come from
``fixtures/calibration`` (passed in the context), never from special cases in code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

IN_SAMPLE = "in-sample"
CROSS_VALIDATED = "cross-validated"
OUT_OF_SAMPLE = "out-of-sample"
STANDARD_METHOD = "standard-method"
REBUILD_CLASS = "rebuild"
"""The reporting class of rebuild-time rows (``system_class: rebuild``): a rebuild's hours test the
rebuild model, not an array's load, so they count in no sizing class's band (nor the pooled one)
and are summarized on a line of their own (:func:`models.validation.runner.rebuild_errors`)."""
BASES = (IN_SAMPLE, CROSS_VALIDATED, OUT_OF_SAMPLE, STANDARD_METHOD)


@dataclass(frozen=True)
class Row:
    """One predicted-vs-measured comparison.

    ``measured`` is a number or a ``(low, high)`` range. ``tolerance_pct`` is the allowed relative
    error against a number; against a range the prediction must fall inside it (widened by
    ``tolerance_pct`` of each end when given). ``factor`` (e.g. 1.5) instead allows
    ``measured / factor <= predicted <= measured * factor``.
    """

    record: str
    metric: str
    predicted: float
    measured: float | tuple[float, float]
    gate: bool = False
    tolerance_pct: float | None = None
    factor: float | None = None
    note: str = ""
    expect: bool | None = field(default=None)  # for boolean checks (e.g. "bottleneck is controller")
    basis: str = IN_SAMPLE  # one of BASES: which table the row belongs to
    known_failure: str | None = None  # a failing gate the record expects (why); not counted as failed
    system_class: str = ""  # models.provenance.SystemClass of the system measured ("" for none)

    @property
    def failed(self) -> bool:
        """A gate that does not pass and is not a known, stated shortfall."""
        return self.gate and not self.passed and self.known_failure is None

    @property
    def error_pct(self) -> float | None:
        if isinstance(self.measured, tuple):
            lo, hi = self.measured
            if lo <= self.predicted <= hi:
                return 0.0
            ref = lo if self.predicted < lo else hi
            return (self.predicted - ref) / ref * 100.0 if ref else None
        if self.measured == 0:
            return None
        return (self.predicted - self.measured) / self.measured * 100.0

    @property
    def passed(self) -> bool:
        if self.expect is not None:
            return bool(self.predicted) == self.expect
        if self.factor is not None:
            m = self.measured if not isinstance(self.measured, tuple) else self.measured[1]
            return m / self.factor <= self.predicted <= m * self.factor
        err = self.error_pct
        if err is None:
            return False
        if isinstance(self.measured, tuple):
            return abs(err) <= (self.tolerance_pct or 0.0)
        return self.tolerance_pct is None or abs(err) <= self.tolerance_pct


@dataclass(frozen=True)
class ValidationContext:
    """What handlers may use besides the record: calibrated parameters and the catalog (if any)."""

    calibration: dict[str, Any]
    catalog: Any = None


Handler = Callable[[dict[str, Any], ValidationContext], list[Row]]
HANDLERS: dict[str, Handler] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register a handler for records of ``kind``."""

    def deco(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return deco


CrossValidator = Callable[[list[dict[str, Any]], ValidationContext], list[Row]]
CROSS_VALIDATORS: dict[str, CrossValidator] = {}


def cross_validator(kind: str) -> Callable[[CrossValidator], CrossValidator]:
    """Register a function that gets *all* records of ``kind`` and returns cross-validated rows
    (each record predicted from parameters refitted without it)."""

    def deco(fn: CrossValidator) -> CrossValidator:
        CROSS_VALIDATORS[kind] = fn
        return fn

    return deco
