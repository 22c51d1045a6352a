"""Request options and responses of ``/traces``."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from models.traces import TraceAnalysis
from models.traces.records import BadLine

JobStatus = Literal["queued", "running", "done", "failed", "cancelled"]


class TraceJobCreated(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    status: JobStatus
    owner_token: str = Field(
        description="needed (as X-Owner-Token) to cancel or delete the job; shown once, keep it"
    )


class TraceRejection(BaseModel):
    """Body of a 400: the upload is not a trace the reader understands."""

    detail: str
    format: str | None = None
    malformed_lines: int | None = None
    lines: int | None = None
    bad_lines: list[BadLine] = []
    volumes: list[str] | None = Field(
        default=None, description="the volumes in the trace's head, when a volume filter matched none"
    )


class TraceJob(BaseModel):
    """A trace analysis: progress while it runs, the analysis when done, the reason when it failed."""

    model_config = ConfigDict(frozen=True)

    id: str
    status: JobStatus
    filename: str
    source_url: str | None = Field(default=None, description="the trace, when it was named by URL")
    partitions: int = Field(default=1, description="partitions of the block keys the trace is analysed in")
    size_bytes: int
    percent: float = Field(description="0-100")
    records: int
    records_per_s: float
    cancel_requested: bool
    error: str | None = None
    bad_lines: list[BadLine] = []
    created_at: datetime
    updated_at: datetime
    result: TraceAnalysis | None = None
