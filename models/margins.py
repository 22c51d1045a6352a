"""Computing with the calibration margins: the configuration an answer is computed on, and the answer
assessed (what it rests on, how far off it may be, the margins it was computed with).

Conservative by default: a part whose calibration is an estimate is computed at the pessimistic end of
its class's error band (:func:`models.provenance.with_margins`); the answer shows the configuration
as the user stated it (:func:`models.provenance.without_margins` after a sizing) and says which
margins it carries. ``AS_STATED`` computes every figure as its record states it. The API's
evaluate, size and compare, and the plans (expand, quote-check, consolidate, refresh), all compute
through one :class:`Margining`.

What the margins cost (:func:`margin_cost`): a sizing with margins is run again with the records'
own figures, and the answer states the drives (and nodes) the margins add::

    cost = drives with the margins - drives as stated      (likewise nodes)
"""

from __future__ import annotations

from collections.abc import Callable
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

    def sized(
        self,
        family: Configuration,
        workloads: list[Workload],
        size_with: Callable[[Configuration], SizingResult],
    ) -> tuple[SizingResult, Configuration]:
        """``family`` sized by ``size_with`` with this margining's margins, answered as stated
        (:meth:`as_stated`) with what the margins cost (``family`` sized again as its records state
        it, :func:`margin_cost`); and the configuration the sizing was computed on."""
        run_on, margins = self.run_on(family, workloads)
        sized = size_with(run_on)
        cost = margin_cost(size_with(family), sized) if margins else None
        return self.as_stated(sized, family, workloads, margins, cost), sized.configuration

    def as_stated(
        self,
        sized: SizingResult,
        family: Configuration,
        workloads: list[Workload],
        margins: list[Margin],
        cost: str | None = None,
    ) -> SizingResult:
        """A sizing of ``family`` computed with ``margins``, answered as the user reads it: the
        configuration found with the records' own figures back (its counts as sized), assessed, and
        the margins (and ``cost``, what they cost) named in its explanation."""
        stated = without_margins(sized.configuration, family) if margins else sized.configuration
        explanation = with_words(sized.explanation, margins)
        return sized.model_copy(
            update={
                "configuration": stated,
                "result": self.assessed(sized.result, stated, workloads, margins, cost),
                "explanation": f"{explanation} {cost}" if cost else explanation,
            }
        )


def margin_cost(stated: SizingResult, margined: SizingResult) -> str:
    """What sizing the estimated parts at the pessimistic end costs, in drives (and nodes):
    ``margined`` (the family sized with the margins) against ``stated`` (sized as its records
    state it)."""
    if not margined.feasible:
        return "With the margins no configuration of this family meets the load" + (
            f" (as stated: {stated.drive_count} drives)." if stated.feasible else "; as stated neither."
        )
    if not stated.feasible:
        return f"As stated no configuration meets the load either; with the margins: {margined.drive_count} drives."
    extra = margined.drive_count - stated.drive_count
    nodes = ""
    if margined.nodes is not None and stated.nodes is not None and margined.nodes != stated.nodes:
        nodes = f", {margined.nodes - stated.nodes:+d} nodes"
    return (
        f"The margins cost {extra:+d} drives{nodes} ({stated.drive_count} as stated, {margined.drive_count} with them; "
        "calibration_margin: as_stated sizes without them)."
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

__all__ = ["AS_STATED", "Margining", "distinct", "margin_cost", "margin_words", "with_words"]
