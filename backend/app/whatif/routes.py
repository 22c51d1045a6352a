"""``/whatif/...``: growth, sensitivity, maximum workload, ranges, the chance of meeting every target, degraded modes, RAID conversion, building blocks."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from backend.app.core.deps import SizingContextDep
from backend.app.core.lanes import ENGINE_LANE, json_in_lane
from backend.app.schemas import error_responses
from backend.app.whatif import service
from backend.app.whatif.schemas import (
    BuildingBlocksRequest,
    BuildingBlocksResult,
    ConfidenceRequest,
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
from models.whatif.uncertainty import Confidence

router = APIRouter(prefix="/whatif", tags=["whatif"], responses=error_responses(400, 503))


@router.post("/growth", response_model=GrowthProjection)
async def growth(body: GrowthRequest, ctx: SizingContextDep) -> Response:
    """Month by month as the workloads grow: when each window and the capacity first break."""
    return await json_in_lane(ENGINE_LANE["growth"], lambda: service.growth(body, ctx))


@router.post("/sensitivity", response_model=SensitivityResult)
async def sensitivity(body: SensitivityRequest, ctx: SizingContextDep) -> Response:
    """Tornado: each input moved down and up by a step, ranked by how much it moves the result."""
    return await json_in_lane(ENGINE_LANE["sensitivity"], lambda: service.sensitivity(body, ctx))


@router.post("/max-workload", response_model=MaxWorkloadResult)
async def max_workload(body: MaxWorkloadRequest, ctx: SizingContextDep) -> Response:
    """The largest load scale each window's mix sustains within its targets and limits, and what binds."""
    return await json_in_lane(ENGINE_LANE["max-workload"], lambda: service.max_workload(body, ctx))


@router.post("/ranges", response_model=RangesResult)
async def ranges(body: RangesRequest, ctx: SizingContextDep) -> Response:
    """Low / expected / high bands over the plausible ranges of uncertain inputs, and which matters most."""
    return await json_in_lane(ENGINE_LANE["ranges"], lambda: service.ranges(body, ctx))


@router.post("/confidence", response_model=Confidence)
async def confidence(body: ConfidenceRequest, ctx: SizingContextDep) -> Response:
    """The chance of meeting every target in every case judged (healthy, a drive failed, rebuilding,
    failover, cold caches, at the horizon) over the inputs' ranges and the model's error band."""
    return await json_in_lane(ENGINE_LANE["confidence"], lambda: service.confidence(body, ctx))


@router.post("/degraded", response_model=DegradedComparison)
async def degraded(body: DegradedRequest, ctx: SizingContextDep) -> Response:
    """Normal, drive failed, rebuilding (hours and exposure) and controller down, side by side."""
    return await json_in_lane(ENGINE_LANE["degraded"], lambda: service.degraded(body, ctx))


@router.post("/raid-conversion", response_model=RaidConversion)
async def raid_conversion(body: RaidConversionRequest, ctx: SizingContextDep) -> Response:
    """A benchmark result under one RAID scheme converted to another, with the shortcuts beside it."""
    return await json_in_lane(ENGINE_LANE["raid-conversion"], lambda: service.raid_conversion(body, ctx))


@router.post("/building-blocks", response_model=BuildingBlocksResult)
async def building_blocks(body: BuildingBlocksRequest, ctx: SizingContextDep) -> Response:
    """Blocks, racks, rack units, power and GB/s per rack unit for a throughput or capacity target."""
    return await json_in_lane(ENGINE_LANE["building-blocks"], lambda: service.building_blocks(body, ctx))
