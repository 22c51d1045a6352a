"""``/evaluate``, ``/size``, ``/compare``, ``/curves``: the engine over HTTP."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from fastapi.responses import Response

from backend.app.core.deps import SizingContextDep
from backend.app.core.lanes import ENGINE_LANE, json_in_lane, plain_json
from backend.app.schemas import error_responses
from backend.app.sizing import service
from backend.app.sizing.schemas import (
    CompareRequest,
    CompareResult,
    CurvesRequest,
    CurvesResult,
    EvaluateAnswer,
    EvaluateRequest,
    RaidGridRequest,
    SizeAnswer,
    SizeRequest,
)
from models.evaluate import EvaluationResult
from models.raid_grid import RaidGrid
from models.size import SizingResult

router = APIRouter(tags=["sizing"], responses=error_responses(400, 503))

# the answers written by orjson from their fields (test_lanes compares them with pydantic's JSON)
plain_json(EvaluationResult, EvaluateAnswer, SizingResult, SizeAnswer, CurvesResult)

WithCurves = Annotated[
    bool, Query(description="also compute every curve of the first window (the answer's `curves`)")
]


@router.post("/evaluate", response_model=EvaluateAnswer)
async def evaluate(body: EvaluateRequest, ctx: SizingContextDep, with_curves: WithCurves = False) -> Response:
    """Evaluate a configuration against every window of the workloads."""
    return await json_in_lane(
        ENGINE_LANE["evaluate"], lambda: service.evaluate_answer(body, ctx, with_curves)
    )


@router.post("/size", response_model=SizeAnswer)
async def size(body: SizeRequest, ctx: SizingContextDep, with_curves: WithCurves = False) -> Response:
    """The fewest drives (whole RAID groups) of a configuration family that meet every window."""
    return await json_in_lane(ENGINE_LANE["size"], lambda: service.size_answer(body, ctx, with_curves))


@router.post("/compare", response_model=CompareResult)
async def compare(body: Annotated[CompareRequest, Body()], ctx: SizingContextDep) -> Response:
    """2-8 configurations side by side (families sized first), with deltas against the first."""
    return await json_in_lane(ENGINE_LANE["compare"], lambda: service.compare(body, ctx))


@router.post("/curves", response_model=CurvesResult)
async def curves(body: CurvesRequest, ctx: SizingContextDep) -> Response:
    """Latency vs load, IOPS vs queue depth and hit ratio vs cache size for one window (or only the
    curves ``curves`` names, e.g. the latency curve a what-if redraws)."""
    return await json_in_lane(ENGINE_LANE["curves"], lambda: service.curves(body, ctx))


@router.post("/raid-grid", response_model=RaidGrid)
async def raid_grid(body: RaidGridRequest, ctx: SizingContextDep) -> Response:
    """The configuration's drive in every RAID scheme its array offers, each sized for the workloads:
    drives, usable/raw, cost per usable TB and per 1,000 IOPS, failures tolerated, rebuild time, latency."""
    return await json_in_lane(ENGINE_LANE["raid-grid"], lambda: service.raid_grid(body, ctx))
