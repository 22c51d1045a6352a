"""Requests and responses of ``/evaluate``, ``/size``, ``/compare`` and ``/curves``.

Workloads, configurations and results are the engine's own models; the inputs every feature
shares (:data:`Workloads`, :class:`CatalogReference`, :data:`ConfigurationInput`) live in
:mod:`backend.app.engine.inputs`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    computed_field,
    model_validator,
)

from backend.app.engine.inputs import ConfigurationInput, Workloads
from backend.app.schemas import Request
from models.adjust import Adjustments
from models.cases import Relaxation
from models.compare import Comparison
from models.configuration import Configuration
from models.curves import HitRatioCurve, LatencyCurve, QueueDepthCurve
from models.evaluate import DegradedMode, EvaluationResult
from models.headroom import HeadroomMark
from models.naming import describe_configuration
from models.provenance import CalibrationMargin, ModelError, ResultCalibration
from models.raid import RaidScheme
from models.size import CacheOption, SizingResult
from models.tco import MoneyInputs, RatioFlip, Tco

MONEY_DESCRIPTION = (
    "currency, discounts, support, energy, rack space, horizon and data type behind the TCO "
    "(default: list prices in USD over 5 years)"
)


MARGIN_DESCRIPTION = (
    "pessimistic (default): a part whose calibration is an estimate is taken at the pessimistic end of its "
    "class's error band (models/provenance.py with_margins); as_stated: every figure as its record states it"
)


RELAX_DESCRIPTION = (
    "cases the design need not meet (default none: it must meet every window healthy, with a drive "
    "failed, while rebuilding, after a failover, with cold caches and at the growth horizon); the "
    "verdict's headline names each one relaxed. Only with degraded = none"
)


class EvaluateRequest(Request):
    workloads: Workloads
    configuration: ConfigurationInput
    degraded: DegradedMode = DegradedMode.NONE
    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )
    relax: list[Relaxation] = Field(default_factory=list, max_length=32, description=RELAX_DESCRIPTION)
    adjust: Adjustments | None = Field(
        default=None, description="what-if dials applied to the workloads and configuration before evaluating"
    )


class SizeRequest(Request):
    workloads: Workloads
    configuration: ConfigurationInput = Field(
        description="a family: one pool's drive_count null (or a catalog reference without drive_count)"
    )
    flash_cache_options_gb: list[Annotated[float, Field(ge=0.0, le=1e6)]] | None = Field(
        default=None,
        min_length=1,
        max_length=16,
        description="size once per flash-cache size, keep the cheapest",
    )
    degraded: DegradedMode = DegradedMode.NONE
    relax: list[Relaxation] = Field(default_factory=list, max_length=32, description=RELAX_DESCRIPTION)
    max_drives: int | None = Field(default=None, ge=1, le=100000, description="largest drive count to try")
    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )
    money: MoneyInputs = Field(default_factory=MoneyInputs, description=MONEY_DESCRIPTION)
    confidence_pct: float | None = Field(
        default=None,
        gt=0.0,
        lt=100.0,
        description="size to this chance of meeting every case judged (models.confidence: 1,000 samples of "
        "the inputs' ranges and the model's error band, the configuration as stated; never fewer drives "
        "than the sizing at the stated inputs); null: size at the stated inputs (calibration_margin applies)",
    )


class CompareConfigurations(Request):
    """Compare 2-8 configurations; those with drive_count null are sized first."""

    workloads: Workloads
    configurations: list[ConfigurationInput] = Field(min_length=2, max_length=8)
    degraded: DegradedMode = DegradedMode.NONE
    relax: list[Relaxation] = Field(default_factory=list, max_length=32, description=RELAX_DESCRIPTION)
    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )
    money: MoneyInputs = Field(default_factory=MoneyInputs, description=MONEY_DESCRIPTION)


Unsupported = Literal["reject", "hypothetical", "peer"]
"""What a scheme comparison does with a scheme the base configuration's array does not offer."""

PEER_ARRAY_ID = "generic"
"""The catalog array that offers every RAID scheme with any drive: the default peer."""


class CompareSchemes(Request):
    """Compare one configuration in several RAID schemes ("RAID10 vs RAID-DP").

    A scheme the base configuration's array does not offer is a 422 at ``schemes.i``
    (``unsupported: reject``), computed on the same array and labelled "hypothetical: not offered
    by this array" (``hypothetical``), or computed with the same drives in an array that offers it
    (``peer``: ``peer_array_id``, by default the generic array), with a note saying so.
    """

    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )
    workloads: Workloads
    base: ConfigurationInput
    schemes: list[RaidScheme] = Field(
        min_length=2, max_length=8, json_schema_extra={"uniqueItems": True}, description="each scheme once"
    )
    degraded: DegradedMode = DegradedMode.NONE
    relax: list[Relaxation] = Field(default_factory=list, max_length=32, description=RELAX_DESCRIPTION)
    unsupported: Unsupported = Field(
        default="reject", description="a scheme the array does not offer: reject, hypothetical or peer"
    )
    peer_array_id: str = Field(
        default=PEER_ARRAY_ID,
        min_length=1,
        max_length=80,
        description="with unsupported = peer: the array that computes such a scheme with the same drives",
    )
    money: MoneyInputs = Field(default_factory=MoneyInputs, description=MONEY_DESCRIPTION)

    @model_validator(mode="after")
    def _distinct(self) -> CompareSchemes:
        if len(set(self.schemes)) != len(self.schemes):
            raise ValueError("schemes must be distinct")
        return self


def _compare_kind(value: Any) -> str | None:
    if isinstance(value, CompareConfigurations):
        return "configurations"
    if isinstance(value, CompareSchemes):
        return "schemes"
    if isinstance(value, dict):
        return "schemes" if "base" in value or "schemes" in value else "configurations"
    return None


CompareRequest = Annotated[
    Annotated[CompareConfigurations, Tag("configurations")] | Annotated[CompareSchemes, Tag("schemes")],
    Discriminator(_compare_kind),
]


class RaidGridRequest(Request):
    """Every RAID scheme the configuration's array offers, for its drive, each sized for the workloads."""

    workloads: Workloads
    configuration: ConfigurationInput = Field(
        description="the array and drive (its scheme, width and drive count are ignored: each scheme is sized)"
    )
    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )


CurveName = Literal["latency_vs_load", "queue_depth", "hit_ratio", "headroom"]
CURVE_NAMES: tuple[CurveName, ...] = ("latency_vs_load", "queue_depth", "hit_ratio", "headroom")
"""``headroom`` is the headroom-load mark on the latency curve (it needs ``latency_vs_load``'s saturation)."""


def _distinct_curves(names: list[CurveName]) -> list[CurveName]:
    if len(set(names)) != len(names):
        raise ValueError("each curve at most once")
    return names


class CurvesRequest(Request):
    workloads: Workloads
    configuration: ConfigurationInput
    window: str | None = Field(
        default=None, min_length=1, max_length=80, description="default: the first window"
    )
    curves: Annotated[list[CurveName], AfterValidator(_distinct_curves)] | None = Field(
        default=None,
        min_length=1,
        max_length=len(CURVE_NAMES),
        description="the curves (and the headroom mark) to compute (null: all); the others are null in the answer",
    )
    adjust: Adjustments | None = Field(
        default=None, description="what-if dials applied to the workloads and configuration first"
    )
    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )


class SizingSummary(BaseModel):
    """How a configuration of a comparison was sized (``SizingResult`` without the repeated result)."""

    model_config = ConfigDict(frozen=True)

    feasible: bool
    drive_count: int
    groups: int
    binding_constraint: str
    explanation: str
    evaluations: int
    cache_options: list[CacheOption]
    chosen_flash_cache_gb: float
    reasons: list[str]

    @classmethod
    def of(cls, sized: SizingResult) -> SizingSummary:
        return cls.model_validate(sized.model_dump(include=set(cls.model_fields)))


class CompareItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    configuration: Configuration = Field(description="as evaluated (sized when it was a family)")
    result: EvaluationResult
    sizing: SizingSummary | None = Field(description="null when the drive count was given")
    note: str | None = Field(
        default=None, description="how this column differs from what was asked (e.g. a peer array)"
    )
    tco: Tco | None = Field(default=None, description="money over time and the three-ratio table")

    @computed_field(  # type: ignore[prop-decorator]
        description="the configuration in words: array, drive and layout per pool, flash cache, and "
        "'hypothetical: not offered by this array' (models.naming.describe_configuration)"
    )
    @property
    def configuration_words(self) -> str:
        return describe_configuration(self.configuration)


class CompareResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    comparison: Comparison
    items: list[CompareItem]
    ratio_flip: RatioFlip | None = Field(
        default=None, description="the cheapest configuration at each reduction ratio, and whether it flips"
    )


class CurvesResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    window: str
    latency_vs_load: LatencyCurve | None
    queue_depth: QueueDepthCurve | None
    hit_ratio: HitRatioCurve | None
    headroom: HeadroomMark | None = Field(
        default=None, description="headroom load against saturation load on the latency curve"
    )
    notes: list[str] = Field(description="why a curve is missing (e.g. an idle window)")
    calibration: ResultCalibration | None = Field(
        default=None, description="per part (drives, controller, cache, ports): status and source keys"
    )
    model_error: ModelError | None = Field(
        default=None, description="how far off predictions of this class of system have been (make validate)"
    )


_FIRST_CURVES = (
    "with `with_curves=true`: every curve of the first window, as `POST /curves` answers it for this "
    "configuration (null when there is nothing to draw); absent otherwise"
)


class EvaluateAnswer(EvaluationResult):
    """``/evaluate``'s answer: the evaluation, and the first window's curves when asked for."""

    curves: CurvesResult | None = Field(default=None, description=_FIRST_CURVES)


class SizeAnswer(SizingResult):
    """``/size``'s answer: the sizing, and the first window's curves for the sized configuration when
    asked for (null also when the family could not be sized)."""

    curves: CurvesResult | None = Field(default=None, description=_FIRST_CURVES)
