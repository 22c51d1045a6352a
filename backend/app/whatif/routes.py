"""``/whatif/...``: growth, sensitivity, maximum workload, ranges, degraded modes, RAID conversion, building blocks."""

from __future__ import annotations

from fastapi import APIRouter

from backend.app.api.deps import SizingContextDep
from backend.app.schemas import error_responses
from backend.app.whatif import service
from backend.app.whatif.schemas import (
    BuildingBlocksRequest,
    BuildingBlocksResult,
    DegradedRequest,
    GrowthRequest,
    MaxWorkloadRequest,
    RaidConversionRequest,
    RangesRequest,
    SensitivityRequest,
)
from models.conversion import RaidConversion
from models.whatif import (
    DegradedComparison,
    GrowthProjection,
    MaxWorkloadResult,
    RangesResult,
    SensitivityResult,
)

router = APIRouter(prefix="/whatif", tags=["whatif"], responses=error_responses(400, 503))


@router.post("/growth")
def growth(body: GrowthRequest, ctx: SizingContextDep) -> GrowthProjection:
    """Month by month as the workloads grow: when each window and the capacity first break."""
    return service.growth(body, ctx)


@router.post("/sensitivity")
def sensitivity(body: SensitivityRequest, ctx: SizingContextDep) -> SensitivityResult:
    """Tornado: each input moved down and up by a step, ranked by how much it moves the result."""
    return service.sensitivity(body, ctx)


@router.post("/max-workload")
def max_workload(body: MaxWorkloadRequest, ctx: SizingContextDep) -> MaxWorkloadResult:
    """The largest load scale each window's mix sustains within its targets and limits, and what binds."""
    return service.max_workload(body, ctx)


@router.post("/ranges")
def ranges(body: RangesRequest, ctx: SizingContextDep) -> RangesResult:
    """Low / expected / high bands over the plausible ranges of uncertain inputs, and which matters most."""
    return service.ranges(body, ctx)


@router.post("/degraded")
def degraded(body: DegradedRequest, ctx: SizingContextDep) -> DegradedComparison:
    """Normal, drive failed, rebuilding (hours and exposure) and controller down, side by side."""
    return service.degraded(body, ctx)


@router.post("/raid-conversion")
def raid_conversion(body: RaidConversionRequest, ctx: SizingContextDep) -> RaidConversion:
    """A benchmark result under one RAID scheme converted to another, with the shortcuts beside it."""
    return service.raid_conversion(body, ctx)


@router.post("/building-blocks")
def building_blocks(body: BuildingBlocksRequest, ctx: SizingContextDep) -> BuildingBlocksResult:
    """Blocks, racks, rack units, power and GB/s per rack unit for a throughput or capacity target."""
    return service.building_blocks(body, ctx)
