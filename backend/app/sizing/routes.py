"""``/evaluate``, ``/size``, ``/compare``, ``/curves``: the engine over HTTP."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import Response
from pydantic import BaseModel

from backend.app.api.deps import SizingContextDep
from backend.app.schemas import error_responses
from backend.app.sizing import service
from backend.app.sizing.schemas import (
    CompareRequest,
    CompareResult,
    CurvesRequest,
    CurvesResult,
    EvaluateRequest,
    SizeRequest,
)
from models.evaluate import EvaluationResult
from models.size import SizingResult

router = APIRouter(tags=["sizing"], responses=error_responses(400, 503))


def _json(result: BaseModel) -> Response:
    """Serialize an engine result once with pydantic-core (the engine built and validated it
    already), instead of FastAPI validating the large nested model again on the way out."""
    return Response(result.model_dump_json(), media_type="application/json")


@router.post("/evaluate", response_model=EvaluationResult)
def evaluate(body: EvaluateRequest, ctx: SizingContextDep) -> Response:
    """Evaluate a configuration against every window of the workloads."""
    return _json(service.evaluate(body, ctx))


@router.post("/size", response_model=SizingResult)
def size(body: SizeRequest, ctx: SizingContextDep) -> Response:
    """The fewest drives (whole RAID groups) of a configuration family that meet every window."""
    return _json(service.size(body, ctx))


@router.post("/compare", response_model=CompareResult)
def compare(body: Annotated[CompareRequest, Body()], ctx: SizingContextDep) -> Response:
    """2-8 configurations side by side (families sized first), with deltas against the first."""
    return _json(service.compare(body, ctx))


@router.post("/curves", response_model=CurvesResult)
def curves(body: CurvesRequest, ctx: SizingContextDep) -> Response:
    """Latency vs load, IOPS vs queue depth and hit ratio vs cache size for one window (or only the
    curves ``curves`` names, e.g. the latency curve a what-if redraws)."""
    return _json(service.curves(body, ctx))
