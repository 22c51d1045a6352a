"""Import requests and answers: load-generator text -> a phase; host statistics -> workloads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from backend.app.engine.inputs import ConfigurationInput, Workloads
from backend.app.schemas import Request
from models.importers import HostStatsResult, ImportedPhase
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


class HostStatsImport(HostStatsResult):
    """Host statistics read into workloads, with what was uploaded."""

    filename: str
    size_bytes: int
    seconds: float = Field(description="time taken to read and analyse the file [s]")


class ObservedRequest(Request):
    """Workloads whose phases carry host observations, and the configuration they were measured on."""

    workloads: Workloads
    configuration: ConfigurationInput = Field(
        description="what you have now: the system the statistics came from"
    )
