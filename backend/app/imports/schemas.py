"""Import requests and answers: load-generator text -> a phase; host statistics -> workloads."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from backend.app.engine.inputs import ConfigurationInput, Workloads
from backend.app.schemas import Request
from models.importers import HostStatsResult, ImportedPhase
from models.importers.arraystats import ArrayStatsResult
from models.importers.liveoptics import LiveOpticsResult
from models.importers.rvtools import RVToolsResult
from models.importers.timeline import MAX_LAYERS, CapacitySource, TimelineLayer, TimelineOptions
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


class Uploaded(BaseModel):
    """What was uploaded, and how long it took to read."""

    filename: str
    size_bytes: int
    seconds: float = Field(description="time taken to read and analyse the file [s]")


class HostStatsImport(HostStatsResult, Uploaded):
    """Host statistics read into workloads, with what was uploaded."""


class ArrayStatsImport(ArrayStatsResult, Uploaded):
    """An array's performance export read into workloads, with what was uploaded."""


class LiveOpticsImport(LiveOpticsResult, Uploaded):
    """A Live Optics workbook read into workloads, with what was uploaded."""


class RVToolsImport(RVToolsResult, Uploaded):
    """An RVTools workbook read into capacities, with what was uploaded."""


class TimelineRequest(Request):
    """Imports of one engagement to line up: their series (as the imports answered them, with
    each one's time zone) and capacities without performance data (RVTools groups)."""

    layers: list[TimelineLayer] = Field(min_length=1, max_length=MAX_LAYERS)
    capacity: list[CapacitySource] = Field(default_factory=list, max_length=2000)
    options: TimelineOptions = Field(default_factory=TimelineOptions)


class ObservedRequest(Request):
    """Workloads whose phases carry host observations, and the configuration they were measured on."""

    workloads: Workloads
    configuration: ConfigurationInput = Field(
        description="what you have now: the system the statistics came from"
    )
