"""``/recommend``: configurations from the whole catalog that meet every window."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from backend.app.core.deps import SizingContextDep
from backend.app.core.lanes import ENGINE_LANE, json_in_lane
from backend.app.recommend import service
from backend.app.recommend.schemas import RecommendRequest
from backend.app.schemas import error_responses
from models.recommend import Recommendation

router = APIRouter(tags=["recommend"], responses=error_responses(400, 503))


@router.post(
    "/recommend",
    summary="Ranked configurations from the whole catalog that meet every window",
    response_model=Recommendation,
)
async def recommend(body: RecommendRequest, ctx: SizingContextDep) -> Response:
    """Every array x drive x RAID scheme x group width x flash-cache option, each sized to its fewest
    drives meeting every window, filtered by the constraints (vendors, arrays, drives, schemes, max cost,
    rack units, power), ranked by cost, rack units and read latency, with the Pareto front. Arrays that
    cannot meet the workload come with their binding constraint; contradictory windows give an empty
    list and the reasons."""
    return await json_in_lane(ENGINE_LANE["recommend"], lambda: service.recommend(body, ctx))
