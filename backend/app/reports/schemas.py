"""Report requests, the immutable snapshot a report stores, and the answer to a save.

A snapshot holds the request that produced the result (``inputs``), the result the server computed
from it, the versions and calibration it was computed with, the configurations the inputs resolved
to and a copy of every custom hardware record used, so it reads the same forever. Its ``headline``
(named figures) is what a recomputation diffs against.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from backend.app.calibration import Calibration
from backend.app.hardware.schemas import HardwareRecord
from backend.app.schemas import Request
from backend.app.sizing.schemas import (
    CompareRequest,
    CompareResult,
    CurvesRequest,
    CurvesResult,
    EvaluateRequest,
    SizeRequest,
)
from models.compare import Figure, FigureChange
from models.configuration import Configuration
from models.evaluate import EvaluationResult
from models.size import SizingResult

ReportKind = Literal["evaluate", "size", "compare", "curves"]

_RESULT_IGNORED = (
    "ignored: the server recomputes the result from inputs and never stores a result sent by the client"
)


class _ReportInput(Request):
    name: str = Field(min_length=1, max_length=200)
    result: Any = Field(default=None, description=_RESULT_IGNORED)


class EvaluateReportInput(_ReportInput):
    kind: Literal["evaluate"]
    inputs: EvaluateRequest


class SizeReportInput(_ReportInput):
    kind: Literal["size"]
    inputs: SizeRequest


class CompareReportInput(_ReportInput):
    kind: Literal["compare"]
    inputs: CompareRequest


class CurvesReportInput(_ReportInput):
    kind: Literal["curves"]
    inputs: CurvesRequest


ReportCreate = Annotated[
    EvaluateReportInput | SizeReportInput | CompareReportInput | CurvesReportInput,
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


ReportSnapshot = Annotated[
    EvaluateSnapshot | SizeSnapshot | CompareSnapshot | CurvesSnapshot, Field(discriminator="kind")
]


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
