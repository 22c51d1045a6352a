"""Request of ``/recommend``; the response is the engine's :class:`models.recommend.Recommendation`."""

from __future__ import annotations

from pydantic import Field, field_validator

from backend.app.engine.inputs import Workloads
from backend.app.schemas import Request
from backend.app.sizing.schemas import MARGIN_DESCRIPTION
from models.catalog import Layout
from models.provenance import CalibrationMargin
from models.recommend import DEFAULT_PARETO, OnePer, ParetoObjective, RecommendConstraints
from models.tco import MoneyInputs

MAX_LIMIT = 50


class RecommendRequest(Request):
    """Workloads, filters and windows; every field but ``workloads`` is optional."""

    workloads: Workloads
    constraints: RecommendConstraints = Field(default_factory=RecommendConstraints)
    limit: int = Field(default=10, ge=1, le=MAX_LIMIT, description="configurations to return, best first")
    one_per: OnePer = Field(
        default=OnePer.SCHEME,
        description="keep the best configuration per family, per array + drive + RAID scheme, or per array",
    )
    pareto: list[ParetoObjective] = Field(
        default_factory=lambda: list(DEFAULT_PARETO),
        min_length=2,
        max_length=len(ParetoObjective),
        json_schema_extra={"uniqueItems": True},
        description="objectives of the Pareto front, each once",
    )
    pareto_limit: int = Field(default=30, ge=0, le=100, description="largest Pareto front returned")
    layout: Layout | None = Field(
        default=None,
        description="WAFL layout age for RAID-DP/RAID-TEC families; null = the calibrated default",
    )
    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )
    money: MoneyInputs = Field(
        default_factory=MoneyInputs,
        description="currency, discounts, support, energy, rack space, horizon and data type behind each "
        "configuration's TCO (default: list prices in USD over 5 years)",
    )

    @field_validator("pareto")
    @classmethod
    def _distinct_objectives(cls, value: list[ParetoObjective]) -> list[ParetoObjective]:
        if len(set(value)) != len(value):
            raise ValueError("pareto objectives must be distinct")
        return value
