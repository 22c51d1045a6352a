"""A second opinion on a vendor's quote: its bill of materials against the customer's windows.

The quote (model, controllers, shelves, drive count and type, RAID, cache, software release) is
read into a configuration (:func:`quote_parts` says which parts the catalog lacks: each is labelled
*hypothetical*, an offering the array does not list, or *estimate*, a figure the catalog cannot
state), then:

* evaluated at every window (:func:`models.evaluate.evaluate`) and in every failure case
  (:func:`models.whatif.degraded_modes`: a drive failed, rebuilding, a controller down);
* projected as the workloads grow (:func:`models.whatif.growth_projection`);
* sized with the same parts (:func:`models.size.size`): the fewest drives that meet every window;
  with calibration margins, what they cost (:meth:`models.margins.Margining.sized`: the drives
  they add to the same parts sized as stated), in the answer's text.

Provisioning findings, each with its amount::

    drives:   quoted N_q against needed N_s:  over by N_q - N_s, under by N_s - N_q
    capacity: fill = needed / usable [%] against the fill limit
    window:   headroom used (binding check, 100 x value / limit) [%]: above 100 under-provisioned
    failure:  each degraded mode passes or not
    growth:   months until the first break against the horizon
    shelves:  quoted against the shelves the drives need

Within one RAID group of the sized count the drive count is *right*; more is *over*, fewer (or a
failing window) *under*.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from models.base import Frozen, InputError, NonNegFloat, Output
from models.capacity import spare_count
from models.catalog import ArrayModel
from models.configuration import Configuration, SparePolicy
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.explain import fmt
from models.margins import AS_STATED, Margining, with_words
from models.memo import holds_memo
from models.parameters import EngineParameters
from models.raid import RaidScheme
from models.results import EvaluationResult
from models.size import SizingResult, size
from models.whatif import DegradedComparison, GrowthProjection, degraded_modes, growth_projection, outcome
from models.workload import Workload

GENERIC_ARRAY = "generic"
"""The catalog array an unknown model is estimated with."""


class Quote(Frozen):
    """A vendor's bill of materials as quoted."""

    model: str = Field(min_length=1, max_length=120, description="the model as the quote names it")
    array_id: str | None = Field(
        default=None, min_length=1, max_length=80, description="catalog array id; null = not in the catalog"
    )
    controllers: int | None = Field(default=None, ge=1, le=64, description="controllers quoted")
    shelves: int | None = Field(default=None, ge=0, le=10000, description="drive shelves quoted")
    drive_id: str = Field(min_length=1, max_length=80, description="catalog or custom drive id")
    drive_count: int = Field(ge=1, le=100000, description="drives quoted, spares included")
    raid_scheme: RaidScheme | None = Field(default=None, description="null = the array's default")
    group_width: int | None = Field(default=None, ge=1, le=64)
    flash_cache_gb: NonNegFloat = Field(default=0.0, le=1e6)
    software_release: str | None = Field(default=None, min_length=1, max_length=80)
    price_usd: NonNegFloat | None = Field(default=None, le=1e10, description="the quote's price")


class QuoteParts(Output):
    """How the quote is modelled: the array used, whether it is a hypothetical, the labels, and the
    drives in RAID groups (the quote counts spares too)."""

    array_id: str
    hypothetical: bool
    labels: list[str]
    drive_count: int = Field(description="drives in RAID groups: the most N with N + spares(N) <= quoted")


Verdict = Literal["under", "over", "right", "unknown"]


class QuoteFinding(Output):
    area: str
    verdict: Verdict
    amount: float | None = Field(description="by how much (in unit); null = not a number")
    unit: str
    text: str


class QuoteCheck(Output):
    quote: Quote
    configuration: Configuration
    labels: list[str] = Field(description="parts the catalog lacks: hypothetical or estimate")
    evaluation: EvaluationResult
    failure_cases: DegradedComparison
    growth: GrowthProjection | None
    sizing: SizingResult = Field(description="the same parts sized: the fewest drives that meet every window")
    findings: list[QuoteFinding]
    verdict: Verdict
    text: str


def in_groups(quoted: int, policy: SparePolicy) -> int:
    """The most drives ``N`` with ``N + spares(N) <= quoted`` (spares from the array's policy)."""
    n = quoted - spare_count(quoted, policy)
    while n < quoted and n + 1 + spare_count(n + 1, policy) <= quoted:
        n += 1
    if n < 1:
        raise InputError("quote.drive_count", f"{quoted} drives leave none for data after the spares")
    return n


def quote_parts(
    quote: Quote, array: ArrayModel | None, drive: DriveSpec | None, generic: ArrayModel | None = None
) -> QuoteParts:
    """Which catalog records model ``quote`` and what they cannot state (``array``/``drive``: the
    records its ids name, None when the catalog lacks them; ``generic`` the array an unknown model
    is estimated with)."""
    labels: list[str] = []
    if drive is None:
        raise InputError(
            "quote.drive_id", f"unknown drive {quote.drive_id!r}: add it as custom hardware first"
        )
    if array is None:
        labels.append(
            f"estimate: {quote.model} is not in the catalog; modelled as the generic array (its controller, "
            "ports and limits are estimates)"
        )
        policy = generic.spares if generic is not None else SparePolicy()
        return QuoteParts(
            array_id=GENERIC_ARRAY,
            hypothetical=False,
            labels=labels,
            drive_count=in_groups(quote.drive_count, policy),
        )
    hypothetical = False
    if not array.supports_drive(drive.id):
        hypothetical = True
        labels.append(f"hypothetical: {array.model} does not list {drive.name}")
    scheme = quote.raid_scheme or array.default_raid
    if all(r.scheme is not scheme for r in array.raid):
        hypothetical = True
        labels.append(f"hypothetical: {array.model} does not offer {scheme.value}")
    if quote.controllers is not None and quote.controllers != array.controller.count:
        labels.append(
            f"estimate: the quote has {quote.controllers} controllers, the catalog's {array.model} "
            f"{array.controller.count}; modelled with the catalog's"
        )
    if quote.software_release is not None:
        labels.append(
            f"estimate: software release {quote.software_release} is not modelled (the catalog's figures)"
        )
    return QuoteParts(
        array_id=array.id,
        hypothetical=hypothetical,
        labels=labels,
        drive_count=in_groups(quote.drive_count, array.spares),
    )


def _drive_finding(quoted: int, sized: SizingResult, width: int) -> QuoteFinding:
    if not sized.feasible:
        return QuoteFinding(
            area="drives",
            verdict="under",
            amount=None,
            unit="drives",
            text=f"no drive count of these parts meets every window ({sized.binding_constraint})",
        )
    need = sized.result.bill.drives + sized.result.bill.spares
    diff = quoted - need
    if abs(diff) < width:
        verdict: Verdict = "right"
    else:
        verdict = "over" if diff > 0 else "under"
    return QuoteFinding(
        area="drives",
        verdict=verdict,
        amount=float(abs(diff)),
        unit="drives",
        text=f"{quoted} drives quoted, {need} needed with spares (sized: {sized.drive_count} in groups of {width} "
        f"+ {sized.result.bill.spares} spares): "
        + ("within one RAID group" if verdict == "right" else f"{verdict} by {abs(diff)}"),
    )


@holds_memo
def quote_check(
    workloads: list[Workload],
    configuration: Configuration,
    quote: Quote,
    parts: QuoteParts,
    *,
    params: EngineParameters | None = None,
    margining: Margining = AS_STATED,
) -> QuoteCheck:
    """``configuration`` (the quote read into the catalog's records) against the workloads, computed
    with ``margining``'s margins; the sized configuration is answered as its records state it."""
    pool = configuration.pools[0]
    run_on, margins = margining.run_on(configuration, workloads)
    evaluation = margining.assessed(
        evaluate(workloads, run_on, params=params), configuration, workloads, margins
    )
    failures = degraded_modes(workloads, run_on, params=params)
    growth = (
        growth_projection(workloads, run_on, params=params)
        if any(w.growth_pct_per_year > 0 and w.horizon_years > 0 for w in workloads)
        else None
    )
    family = configuration.model_copy(update={"pools": [pool.model_copy(update={"drive_count": None})]})
    sized, _ = margining.sized(family, workloads, lambda f: size(workloads, f, params=params))
    findings = [_drive_finding(quote.drive_count, sized, pool.raid.group_width)]
    cap = evaluation.capacity
    findings.append(
        QuoteFinding(
            area="capacity",
            verdict="under"
            if not cap.passed
            else ("over" if cap.fill_pct < cap.max_fill_pct / 2 else "right"),
            amount=cap.fill_pct,
            unit="% fill",
            text=f"{fmt(cap.needed_tb.value)} TB needed of {fmt(cap.usable_tb)} TB usable: {fmt(cap.fill_pct)} % "
            f"fill against {fmt(cap.max_fill_pct)} %",
        )
    )
    for w, o in zip(evaluation.windows, outcome(evaluation).windows, strict=True):
        used = o.headroom_used_pct
        verdict: Verdict
        if used is None or not w.passed:
            verdict = "under"
        else:
            verdict = "over" if used < 50.0 else "right"
        findings.append(
            QuoteFinding(
                area=f"window {w.window}",
                verdict=verdict,
                amount=used,
                unit="% of the binding limit",
                text=f"{w.window}: {o.binding} at {fmt(used)} % of its limit"
                + ("" if w.passed else f" ({w.verdict})"),
            )
        )
    for mode in failures.modes:
        if mode.mode.value == "none" or mode.outcome is None:
            continue
        findings.append(
            QuoteFinding(
                area=f"failure {mode.mode.value}",
                verdict="right" if mode.outcome.passed else "under",
                amount=mode.outcome.headroom_used_pct,
                unit="% of the binding limit",
                text=f"{mode.mode.value}: {mode.outcome.binding} at {fmt(mode.outcome.headroom_used_pct)} % of its limit",
            )
        )
    if growth is not None:
        months = growth.first_break_month
        findings.append(
            QuoteFinding(
                area="growth",
                verdict="right" if months is None else "under",
                amount=None if months is None else float(months),
                unit="months",
                text=growth.text,
            )
        )
    if quote.shelves is not None:
        need = evaluation.bill.shelves
        diff = quote.shelves - need
        findings.append(
            QuoteFinding(
                area="shelves",
                verdict="right" if diff == 0 else ("over" if diff > 0 else "under"),
                amount=float(abs(diff)),
                unit="shelves",
                text=f"{quote.shelves} shelves quoted; {evaluation.bill.drives + evaluation.bill.spares} drives fill "
                f"{need} of {configuration.packaging.drives_per_shelf}",
            )
        )
    verdicts = [f.verdict for f in findings]
    overall: Verdict = (
        "under" if "under" in verdicts else ("over" if findings[0].verdict == "over" else "right")
    )
    under = [f.area for f in findings if f.verdict == "under"]
    over = [f.area for f in findings if f.verdict == "over"]
    text = (
        f"{quote.model} as quoted ({quote.drive_count} x {pool.drive.name}): "
        + (f"under-provisioned in {', '.join(under)}" if under else "meets every window and failure case")
        + (f"; over-provisioned in {', '.join(over)}" if over else "")
        + "."
    )
    if parts.labels:
        text += " Not all parts are in the catalog: " + "; ".join(parts.labels) + "."
    text = with_words(text, margins)
    if sized.result.calibration is not None and sized.result.calibration.margin_cost:
        text += f" Sizing: {sized.result.calibration.margin_cost}"
    return QuoteCheck(
        quote=quote,
        configuration=configuration,
        labels=parts.labels,
        evaluation=evaluation,
        failure_cases=failures,
        growth=growth,
        sizing=sized,
        findings=findings,
        verdict=overall,
        text=text,
    )
