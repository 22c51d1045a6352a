"""Requests of ``/plan/...``; the answers are the engine's own models (:mod:`models.plan`)."""

from __future__ import annotations

from pydantic import Field, model_validator

from backend.app.engine.inputs import ConfigurationInput, Workloads
from backend.app.schemas import Request
from backend.app.sizing.schemas import MARGIN_DESCRIPTION
from models.plan.consolidate import ConsolidateOptions
from models.plan.expand import Expansion
from models.plan.quote import Quote
from models.plan.replication import ReplicationPlan
from models.provenance import CalibrationMargin


class PlanRequest(Request):
    """What every plan sizes: the workloads, with estimated parts at the pessimistic end unless stated."""

    calibration_margin: CalibrationMargin = Field(
        default=CalibrationMargin.PESSIMISTIC, description=MARGIN_DESCRIPTION
    )


class ReplicationRequest(PlanRequest):
    """Replication of the workloads' writes; optionally the primary array and the DR array's family."""

    workloads: Workloads
    plan: ReplicationPlan
    primary: ConfigurationInput | None = Field(
        default=None, description="the primary array: its write latency with the synchronous link's added"
    )
    dr: ConfigurationInput | None = Field(
        default=None,
        description="the DR array's family (drive_count null): sized for a failover, evaluated at the replicated writes",
    )


class ExpandRequest(PlanRequest):
    """The installed configuration (with its drive count) and what is added to it."""

    workloads: Workloads
    configuration: ConfigurationInput = Field(
        description="the installed system: a catalog reference with drive_count (null: the entry configuration) "
        "or a full configuration"
    )
    expansion: Expansion


class QuoteCheckRequest(PlanRequest):
    """A vendor's bill of materials (a small form, ``quote``, or pasted, ``text``) and the customer's
    workloads (windows, growth)."""

    workloads: Workloads
    quote: Quote | None = Field(default=None, description="the bill of materials as fields")
    text: str | None = Field(
        default=None,
        min_length=1,
        max_length=4000,
        description="the bill of materials pasted as text, one item a line (models.plan.quote_text)",
    )

    @model_validator(mode="after")
    def _one(self) -> QuoteCheckRequest:
        if (self.quote is None) == (self.text is None):
            raise ValueError("give the quote as fields (quote) or as text (text), one of them")
        return self


class ConsolidateRequest(PlanRequest):
    """N workloads (windows sharing a name run together) onto the fixed arrays and new arrays of the candidates."""

    workloads: Workloads
    candidates: list[ConfigurationInput] = Field(
        default_factory=list,
        max_length=8,
        description="families to buy new arrays of (one pool's drive_count null, or a catalog reference without it)",
    )
    fixed: list[ConfigurationInput] = Field(
        default_factory=list,
        max_length=8,
        description="arrays already owned, with their drive counts: placements on them cost nothing",
    )
    options: ConsolidateOptions = Field(default_factory=ConsolidateOptions)


class RefreshRequest(PlanRequest):
    """The current system (with its drive count) and its successor's family, for the same workloads."""

    workloads: Workloads = Field(description="typically imported, the phases carrying what the host observed")
    current: ConfigurationInput = Field(description="the system installed today, with its drive count")
    successor: ConfigurationInput = Field(description="the successor family: one pool's drive_count null")
