"""Report requests, the immutable snapshot a report stores, and the answer to a save.

A snapshot holds the request that produced the result (``inputs``), the result the server computed
from it, the versions and calibration it was computed with, the configurations the inputs resolved
to and a copy of every custom hardware record used, so it reads the same forever. Its ``headline``
(named figures) is what a recomputation diffs against.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from backend.app.hardware.schemas import HardwareRecord
from backend.app.plan.schemas import (
    ConsolidateRequest,
    ExpandRequest,
    QuoteCheckRequest,
    RefreshRequest,
    ReplicationRequest,
)
from backend.app.recommend.schemas import RecommendRequest
from backend.app.schemas import Request
from backend.app.sizing.schemas import (
    CompareRequest,
    CompareResult,
    CurvesRequest,
    CurvesResult,
    EvaluateRequest,
    RaidGridRequest,
    SizeRequest,
)
from backend.app.whatif.schemas import (
    BuildingBlocksRequest,
    BuildingBlocksResult,
    DegradedRequest,
    GrowthRequest,
    RangesRequest,
    SensitivityRequest,
)
from models.catalog import Calibration
from models.compare import Figure, FigureChange
from models.configuration import Configuration
from models.evaluate import EvaluationResult
from models.naming import describe_configuration
from models.plan.consolidate import Consolidation
from models.plan.expand import ExpansionResult
from models.plan.quote import QuoteCheck
from models.plan.refresh import RefreshResult
from models.plan.replication import ReplicationResult
from models.raid_grid import RaidGrid
from models.recommend import Recommendation
from models.size import SizingResult
from models.tco import MoneyInputs, Tco
from models.whatif import DegradedComparison, GrowthProjection, RangesResult, SensitivityResult

ReportKind = Literal[
    "evaluate",
    "size",
    "compare",
    "curves",
    "recommend",
    "raid-grid",
    "growth",
    "sensitivity",
    "ranges",
    "degraded",
    "building-blocks",
    "replication",
    "expand",
    "quote-check",
    "consolidate",
    "refresh",
]

_RESULT_IGNORED = (
    "ignored: the server recomputes the result from inputs and never stores a result sent by the client"
)


class _ReportInput(Request):
    name: str = Field(min_length=1, max_length=200)
    result: Any = Field(default=None, description=_RESULT_IGNORED)


_MONEY = (
    "currency, discounts, support, energy and rack space behind the money of the configurations the "
    "analysis evaluates (default: list prices in USD over 5 years); size, compare and recommend take "
    "theirs in inputs.money"
)


class _PricedReportInput(_ReportInput):
    """A kind whose analysis takes no money inputs: the report prices its configurations itself."""

    money: MoneyInputs = Field(default_factory=MoneyInputs, description=_MONEY)


class EvaluateReportInput(_PricedReportInput):
    kind: Literal["evaluate"]
    inputs: EvaluateRequest


class SizeReportInput(_ReportInput):
    kind: Literal["size"]
    inputs: SizeRequest


class CompareReportInput(_ReportInput):
    kind: Literal["compare"]
    inputs: CompareRequest


class CurvesReportInput(_PricedReportInput):
    kind: Literal["curves"]
    inputs: CurvesRequest


class RecommendReportInput(_ReportInput):
    kind: Literal["recommend"]
    inputs: RecommendRequest


class RaidGridReportInput(_PricedReportInput):
    kind: Literal["raid-grid"]
    inputs: RaidGridRequest


class GrowthReportInput(_PricedReportInput):
    kind: Literal["growth"]
    inputs: GrowthRequest


class SensitivityReportInput(_PricedReportInput):
    kind: Literal["sensitivity"]
    inputs: SensitivityRequest


class RangesReportInput(_PricedReportInput):
    kind: Literal["ranges"]
    inputs: RangesRequest


class DegradedReportInput(_PricedReportInput):
    kind: Literal["degraded"]
    inputs: DegradedRequest


class BuildingBlocksReportInput(_ReportInput):
    kind: Literal["building-blocks"]
    inputs: BuildingBlocksRequest


class ReplicationReportInput(_ReportInput):
    kind: Literal["replication"]
    inputs: ReplicationRequest


class ExpandReportInput(_ReportInput):
    kind: Literal["expand"]
    inputs: ExpandRequest


class QuoteCheckReportInput(_ReportInput):
    kind: Literal["quote-check"]
    inputs: QuoteCheckRequest


class ConsolidateReportInput(_ReportInput):
    kind: Literal["consolidate"]
    inputs: ConsolidateRequest


class RefreshReportInput(_ReportInput):
    kind: Literal["refresh"]
    inputs: RefreshRequest


ReportCreate = Annotated[
    EvaluateReportInput
    | SizeReportInput
    | CompareReportInput
    | CurvesReportInput
    | RecommendReportInput
    | RaidGridReportInput
    | GrowthReportInput
    | SensitivityReportInput
    | RangesReportInput
    | DegradedReportInput
    | BuildingBlocksReportInput
    | ReplicationReportInput
    | ExpandReportInput
    | QuoteCheckReportInput
    | ConsolidateReportInput
    | RefreshReportInput,
    Field(discriminator="kind"),
]


class HardwareDrift(BaseModel):
    """A custom hardware record whose live version differs from the copy a report saved."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str = Field(description="the name in the saved copy")
    change: Literal["changed", "deleted"] = Field(
        description="changed: the live record was edited since; deleted: it no longer exists"
    )


_DRIFT = "custom hardware whose live record differs from the copy used (a recomputation uses the copy)"


class _Snapshot(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    created_at: datetime
    engine_version: str
    catalog_version: str
    calibration: Calibration = Field(
        description="engine parameters and layout ages the result was computed with"
    )
    configurations: list[Configuration] = Field(description="the configurations the inputs resolved to")
    custom_hardware: list[HardwareRecord] = Field(description="copies of the custom hardware records used")
    headline: dict[str, Figure] = Field(description="named headline figures (what a recomputation diffs)")
    recomputed_from: str | None = Field(default=None, description="the report this one recomputes")
    changes: list[FigureChange] = Field(
        default_factory=list, description="headline changes against recomputed_from"
    )
    hardware_drift: list[HardwareDrift] = Field(default_factory=list, description=_DRIFT)
    money: MoneyInputs | None = Field(
        default=None, description="the money assumptions of a kind whose inputs carry none (see tco)"
    )
    tco: list[Tco] = Field(
        default_factory=list,
        description="money of the configurations the analysis evaluated, for kinds whose result carries none",
    )
    curves: CurvesResult | None = Field(
        default=None,
        description="the busiest window's latency and hit-ratio curves (size and evaluate), drawn by the proposal",
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="each of configurations in words (models.naming.describe_configuration)"
    )
    @property
    def configuration_words(self) -> list[str]:
        return [describe_configuration(c) for c in self.configurations]


class EvaluateSnapshot(_Snapshot):
    kind: Literal["evaluate"]
    inputs: EvaluateRequest
    result: EvaluationResult


class SizeSnapshot(_Snapshot):
    kind: Literal["size"]
    inputs: SizeRequest
    result: SizingResult


class CompareSnapshot(_Snapshot):
    kind: Literal["compare"]
    inputs: CompareRequest
    result: CompareResult


class CurvesSnapshot(_Snapshot):
    kind: Literal["curves"]
    inputs: CurvesRequest
    result: CurvesResult


class RecommendSnapshot(_Snapshot):
    kind: Literal["recommend"]
    inputs: RecommendRequest
    result: Recommendation


class RaidGridSnapshot(_Snapshot):
    kind: Literal["raid-grid"]
    inputs: RaidGridRequest
    result: RaidGrid


class GrowthSnapshot(_Snapshot):
    kind: Literal["growth"]
    inputs: GrowthRequest
    result: GrowthProjection


class SensitivitySnapshot(_Snapshot):
    kind: Literal["sensitivity"]
    inputs: SensitivityRequest
    result: SensitivityResult


class RangesSnapshot(_Snapshot):
    kind: Literal["ranges"]
    inputs: RangesRequest
    result: RangesResult


class DegradedSnapshot(_Snapshot):
    kind: Literal["degraded"]
    inputs: DegradedRequest
    result: DegradedComparison


class BuildingBlocksSnapshot(_Snapshot):
    kind: Literal["building-blocks"]
    inputs: BuildingBlocksRequest
    result: BuildingBlocksResult


class ReplicationSnapshot(_Snapshot):
    kind: Literal["replication"]
    inputs: ReplicationRequest
    result: ReplicationResult


class ExpandSnapshot(_Snapshot):
    kind: Literal["expand"]
    inputs: ExpandRequest
    result: ExpansionResult


class QuoteCheckSnapshot(_Snapshot):
    kind: Literal["quote-check"]
    inputs: QuoteCheckRequest
    result: QuoteCheck


class ConsolidateSnapshot(_Snapshot):
    kind: Literal["consolidate"]
    inputs: ConsolidateRequest
    result: Consolidation


class RefreshSnapshot(_Snapshot):
    kind: Literal["refresh"]
    inputs: RefreshRequest
    result: RefreshResult


ReportSnapshot = Annotated[
    EvaluateSnapshot
    | SizeSnapshot
    | CompareSnapshot
    | CurvesSnapshot
    | RecommendSnapshot
    | RaidGridSnapshot
    | GrowthSnapshot
    | SensitivitySnapshot
    | RangesSnapshot
    | DegradedSnapshot
    | BuildingBlocksSnapshot
    | ReplicationSnapshot
    | ExpandSnapshot
    | QuoteCheckSnapshot
    | ConsolidateSnapshot
    | RefreshSnapshot,
    Field(discriminator="kind"),
]


class ReportDiff(BaseModel):
    """Two saved reports side by side: every headline figure of each, and how it changed."""

    model_config = ConfigDict(frozen=True)

    before: str = Field(description="id of the first report")
    after: str = Field(description="id of the second report")
    before_name: str
    after_name: str
    before_kind: ReportKind
    after_kind: ReportKind
    before_created_at: datetime
    after_created_at: datetime
    before_engine_version: str
    after_engine_version: str
    changes: list[FigureChange] = Field(
        description="every headline figure of either report, before and after"
    )
    changed: int = Field(description="figures that differ")


class ReportCreated(BaseModel):
    """A saved report: where to share it, and the token that alone can delete it (shown once)."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: ReportKind
    share_url: str = Field(description="the UI page of the report, /r/{id}")
    owner_token: str = Field(
        description="send as X-Owner-Token to delete the report; not stored, not shown again"
    )
    engine_version: str
    catalog_version: str
    recomputed_from: str | None = None
    changes: list[FigureChange] = Field(
        default_factory=list, description="headline changes against recomputed_from"
    )
    hardware_drift: list[HardwareDrift] = Field(default_factory=list, description=_DRIFT)
