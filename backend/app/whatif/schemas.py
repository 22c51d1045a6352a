"""Requests and responses of ``/whatif/...``: engine models (``models.whatif``, ``models.conversion``,
``models.blocks``) inside thin request envelopes.

Workloads and configurations are given as for ``/evaluate`` (a full engine configuration or a
catalog reference; a reference without ``drive_count`` means the array's entry configuration).
"""

from __future__ import annotations

from typing import Self

from pydantic import ConfigDict, Field, model_validator

from backend.app.engine.inputs import ConfigurationInput, Workloads
from backend.app.schemas import Request
from models.base import ABSENT, GIVEN, Pct
from models.blocks import (
    DEFAULT_SCALING_EFFICIENCY,
    RACK_UNITS,
    RESERVED_RACK_UNITS,
    BlockSizing,
    BlockStreams,
    BlockTarget,
    BuildingBlock,
    DerivedBlock,
)
from models.cases import Relaxation
from models.confidence import MAX_SAMPLES
from models.evaluate import DegradedMode
from models.provenance import Assessed, CalibrationMargin
from models.raid import RaidLayout, RaidScheme
from models.whatif import BandMethod, SensitivitySteps, Uncertainty

_MARGIN = (
    "pessimistic (default): a part whose calibration is an estimate is taken at the pessimistic end of its "
    "class's error band, as /evaluate takes it; as_stated: every figure as its record states it (ranges: "
    "always as stated, the band includes the model's own error)"
)


class WhatIfRequest(Request):
    workloads: Workloads
    configuration: ConfigurationInput
    degraded: DegradedMode = Field(default=DegradedMode.NONE, description="evaluate in this degraded mode")
    calibration_margin: CalibrationMargin = Field(default=CalibrationMargin.PESSIMISTIC, description=_MARGIN)


class GrowthRequest(WhatIfRequest):
    months: int | None = Field(
        default=None, ge=0, le=240, description="months to project; null = the workloads' longest horizon"
    )
    step_months: int = Field(default=1, ge=1, le=120)
    grow_working_set: bool = Field(default=True, description="working sets grow with the data")


class SensitivityRequest(WhatIfRequest):
    steps: SensitivitySteps = Field(default_factory=SensitivitySteps)


class MaxWorkloadRequest(WhatIfRequest):
    pass


class RangesRequest(WhatIfRequest):
    uncertainty: Uncertainty | None = Field(
        default=None,
        description="plausible ranges; null = the engine's defaults with layout aging from the calibration",
    )
    method: BandMethod = BandMethod.ENDS
    samples: int = Field(default=64, ge=1, le=256, description="Monte Carlo draws")
    seed: int = Field(default=0, ge=0, le=2**32 - 1)
    coverage_pct: float = Field(default=90.0, gt=0.0, le=100.0, description="Monte Carlo band: central share")
    capability: bool = Field(default=True, description="also the band of the maximum load scale")


class ConfidenceRequest(Request):
    """The chance a design meets every target in every case judged (models.confidence): always as
    stated, the band includes the model's own error (no margin on top of it)."""

    workloads: Workloads
    configuration: ConfigurationInput
    uncertainty: Uncertainty | None = Field(
        default=None,
        description="plausible ranges; null = the engine's defaults with layout aging from the calibration "
        "and the model's own error band for this class of system",
    )
    relax: list[Relaxation] = Field(
        default_factory=list,
        max_length=32,
        description="cases the design need not meet (as for /evaluate); every other case decides each sample",
    )
    samples: int = Field(default=1000, ge=1, le=MAX_SAMPLES, description="Monte Carlo draws")
    seed: int = Field(default=0, ge=0, le=2**32 - 1)


class DegradedRequest(Request):
    workloads: Workloads
    configuration: ConfigurationInput
    calibration_margin: CalibrationMargin = Field(default=CalibrationMargin.PESSIMISTIC, description=_MARGIN)
    afr_pct: float = Field(default=2.0, gt=0.0, le=100.0, description="annual failure rate of a drive [%]")
    ure_per_bit: float | None = Field(
        default=None,
        gt=0.0,
        lt=1e-6,
        description="unrecoverable read errors per bit read; None = each drive's datasheet or class rating",
    )


class RaidConversionRequest(Request):
    measured_iops: float = Field(ge=0.0, le=1e9, description="front-end IOPS measured (drives saturated)")
    read_pct: Pct
    from_raid: RaidLayout
    to_raid: RaidLayout
    read_hit_pct: Pct = Field(default=0.0, description="share of reads served by a cache [%]")
    from_drives: int | None = Field(default=None, ge=1, le=100000)
    to_drives: int | None = Field(default=None, ge=1, le=100000)
    size_kib: float = Field(default=4.0, gt=0.0, le=16384.0, description="size of a random write [KiB]")
    fill_pct: Pct = Field(
        default=100.0,
        description="pool fill the write cost is taken at [%] (write-anywhere layouts; sizing states its own "
        "in each pool's write penalty, input fill)",
    )


class CatalogBlock(Request):
    """A building block from catalog records (or custom hardware record ids)."""

    array_id: str = Field(min_length=1, max_length=80)
    drive_id: str | None = Field(
        default=None, min_length=1, max_length=80, description="default: the array's"
    )
    raid_scheme: RaidScheme | None = None
    group_width: int | None = Field(default=None, ge=1, le=64)
    drives: int | None = Field(
        default=None, ge=1, le=10000, description="drives per block; default from packaging"
    )
    rack_units: float | None = Field(
        default=None, ge=0.5, le=48.0, description="height of a block [U], half a unit to 48"
    )
    port_option: str | None = Field(default=None, min_length=1, max_length=80)
    name: str | None = Field(default=None, min_length=1, max_length=120)
    streams: BlockStreams | None = Field(
        default=None, description="the streams the block serves; default: 1 MiB reads, streams unstated"
    )


class BuildingBlocksRequest(Request):
    """Give ``block`` (figures of your own) or ``catalog`` (derived from catalog records), not both
    (the schema says so: ``if``/``then``/``else``)."""

    model_config = ConfigDict(
        json_schema_extra={  # block given: no catalog; else a catalog block
            "if": {"required": ["block"], "properties": {"block": GIVEN}},
            "then": {"properties": {"catalog": ABSENT}},
            "else": {"required": ["catalog"], "properties": {"catalog": GIVEN}},
        }
    )

    target: BlockTarget
    block: BuildingBlock | None = None
    catalog: CatalogBlock | None = None
    scaling_efficiency: float = Field(default=DEFAULT_SCALING_EFFICIENCY, gt=0.0, le=1.0)
    rack_units_per_rack: int = Field(default=RACK_UNITS, ge=1, le=60)
    reserved_rack_units: int = Field(default=RESERVED_RACK_UNITS, ge=0, le=59)

    @model_validator(mode="after")
    def _one_block(self) -> Self:
        if (self.block is None) == (self.catalog is None):
            raise ValueError("give either block or catalog")
        return self


class BuildingBlocksResult(Assessed):
    """The blocks, racks and watts, with what the block's figures rest on and the class's error."""

    derived: DerivedBlock | None = Field(
        description="the block and its arithmetic, when derived from the catalog"
    )
    sizing: BlockSizing
