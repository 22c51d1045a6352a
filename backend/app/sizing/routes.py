"""``/evaluate``, ``/size``, ``/compare``, ``/curves``: the engine over HTTP."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

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


@router.post("/evaluate")
def evaluate(body: EvaluateRequest, ctx: SizingContextDep) -> EvaluationResult:
    """Evaluate a configuration against every window of the workloads."""
    return service.evaluate(body, ctx)


@router.post("/size")
def size(body: SizeRequest, ctx: SizingContextDep) -> SizingResult:
    """The fewest drives (whole RAID groups) of a configuration family that meet every window."""
    return service.size(body, ctx)


@router.post("/compare")
def compare(body: Annotated[CompareRequest, Body()], ctx: SizingContextDep) -> CompareResult:
    """2-8 configurations side by side (families sized first), with deltas against the first."""
    return service.compare(body, ctx)


@router.post("/curves")
def curves(body: CurvesRequest, ctx: SizingContextDep) -> CurvesResult:
    """Latency vs load, IOPS vs queue depth and hit ratio vs cache size for one window."""
    return service.curves(body, ctx)
