"""Computing with the calibration margins: the configuration an answer is computed on, and the answer
assessed (what it rests on, how far off it may be, the margins it was computed with).

Conservative by default: a part whose calibration is an estimate is computed at the pessimistic end of
its class's error band (:func:`models.provenance.with_margins`); the answer shows the configuration
as the user stated it (:func:`models.provenance.without_margins` after a sizing) and says which
margins it carries. ``AS_STATED`` computes every figure as its record states it. The API's
evaluate, size and compare, and the plans (expand, quote-check, consolidate, refresh), all compute
through one :class:`Margining`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from models.configuration import Configuration
from models.provenance import (
    CalibrationMargin,
    Margin,
    ModelErrorTable,
    assess,
    with_margins,
    without_margins,
)
from models.size import SizingResult
from models.workload import Workload

R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True)
class Margining:
    """The shipped model-error table and whether estimated parts take their margin.

    ``table`` None: no class band is known, so no margin is taken and every class's error reads as
    unknown. The default is as stated (an engine call without a table computes as stated); the API
    passes the request's ``calibration_margin`` (pessimistic unless the user states otherwise).
    """

    table: ModelErrorTable | None = None
    margin: CalibrationMargin = CalibrationMargin.AS_STATED

    def run_on(
        self, configuration: Configuration, workloads: list[Workload]
    ) -> tuple[Configuration, list[Margin]]:
        """The configuration to compute with and the margins in it (none when as stated)."""
        if self.margin is CalibrationMargin.AS_STATED:
            return configuration, []
        return with_margins(configuration, workloads, self.table)

    def assessed(
        self,
        result: R,
        configuration: Configuration,
        workloads: list[Workload],
        margins: list[Margin] | None = None,
        margin_cost: str | None = None,
    ) -> R:
        """``result`` (a model with ``calibration`` and ``model_error``) with what ``configuration`` rests
        on (:func:`models.provenance.assess`) and the margins it was computed with."""
        found = assess(configuration, workloads, self.table)
        calibration = found.calibration.model_copy(
            update={"margins": margins or [], "margin_cost": margin_cost}
        )
        return result.model_copy(update={"calibration": calibration, "model_error": found.model_error})

    def as_stated(
        self, sized: SizingResult, family: Configuration, workloads: list[Workload], margins: list[Margin]
    ) -> SizingResult:
        """A sizing of ``family`` computed with ``margins``, answered as the user reads it: the
        configuration found with the records' own figures back (its counts as sized), assessed, and
        the margins named in its explanation."""
        stated = without_margins(sized.configuration, family) if margins else sized.configuration
        return sized.model_copy(
            update={
                "configuration": stated,
                "result": self.assessed(sized.result, stated, workloads, margins),
                "explanation": with_words(sized.explanation, margins),
            }
        )


def margin_words(margins: list[Margin]) -> str:
    """The sentence an explanation states its margins in ("" without margins)."""
    if not margins:
        return ""
    return f"Conservative by default: {'; '.join(m.text for m in margins)}."


def with_words(text: str, margins: list[Margin]) -> str:
    """``text`` followed by :func:`margin_words` (unchanged without margins)."""
    words = margin_words(margins)
    return f"{text} {words}" if words else text


def distinct(margins: list[list[Margin]]) -> list[Margin]:
    """Each margin once (several configurations of one answer share a class's band)."""
    seen: dict[str, Margin] = {}
    for group in margins:
        for m in group:
            seen.setdefault(m.text, m)
    return list(seen.values())


AS_STATED = Margining()
"""Every figure as its record states it, class errors unknown: an engine call's default."""

__all__ = ["AS_STATED", "Margining", "distinct", "margin_words", "with_words"]
