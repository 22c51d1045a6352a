"""Import requests (the source text) and the imported phase, ready to drop into a workload."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from backend.app.schemas import Request
from models.importers import ImportedPhase
from models.workload import Phase

MAX_TEXT = 200_000


class _ImportRequest(Request):
    text: str = Field(min_length=1, max_length=MAX_TEXT, description="the file's contents")
    name: str | None = Field(default=None, min_length=1, max_length=80, description="phase name")
    window: str = Field(default="imported", min_length=1, max_length=80, description="window of the phase")


class IometerImport(_ImportRequest):
    """An Iometer access specification (``size,% of size,% reads,% random,delay,burst,align,reply`` lines)."""


class FioImport(_ImportRequest):
    """A fio job file (``format: job``) or a fio ``--output-format=json`` result (``format: json``)."""

    format: Literal["job", "json"]


class ImportResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    imported: ImportedPhase = Field(description="what the source said, with warnings")
    phase: Phase = Field(description="the imported phase in the requested window")
