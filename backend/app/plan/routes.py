"""``/plan/...``: the installed base; each route one line of work."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from backend.app.core.deps import SizingContextDep
from backend.app.core.lanes import ENGINE_LANE, json_in_lane
from backend.app.plan import service
from backend.app.plan.schemas import (
    ConsolidateRequest,
    ExpandRequest,
    QuoteCheckRequest,
    RefreshRequest,
    ReplicationRequest,
)
from backend.app.schemas import error_responses
from models.plan.consolidate import Consolidation
from models.plan.expand import ExpansionResult
from models.plan.quote import QuoteCheck
from models.plan.refresh import RefreshResult
from models.plan.replication import ReplicationResult

router = APIRouter(prefix="/plan", tags=["plan"], responses=error_responses(400, 503))


@router.post("/replication", response_model=ReplicationResult)
async def replication(body: ReplicationRequest, ctx: SizingContextDep) -> Response:
    """Asynchronous or synchronous replication: WAN bandwidth per window, lag, the write latency a
    distance adds, and the DR array sized for a failover."""
    return await json_in_lane(ENGINE_LANE["replication"], lambda: service.replication(body, ctx))


@router.post("/expand", response_model=ExpansionResult)
async def expand(body: ExpandRequest, ctx: SizingContextDep) -> Response:
    """The installed system plus shelves, drives of another model, flash cache or nodes: what the
    expansion buys per window and when growth breaks it again."""
    return await json_in_lane(ENGINE_LANE["expand"], lambda: service.expand(body, ctx))


@router.post("/quote-check", response_model=QuoteCheck)
async def quote_check(body: QuoteCheckRequest, ctx: SizingContextDep) -> Response:
    """A vendor's bill of materials against the windows, failure cases and growth: where it is
    under- or over-provisioned and by how much; parts the catalog lacks labelled."""
    return await json_in_lane(ENGINE_LANE["quote-check"], lambda: service.quote_check(body, ctx))


@router.post("/consolidate", response_model=Consolidation)
async def consolidate(body: ConsolidateRequest, ctx: SizingContextDep) -> Response:
    """N workloads onto fixed arrays and new arrays of candidate families at the least cost (or
    arrays, or rack units), every window and the capacity fitting; each array's busiest window."""
    return await json_in_lane(ENGINE_LANE["consolidate"], lambda: service.consolidate(body, ctx))


@router.post("/refresh", response_model=RefreshResult)
async def refresh(body: RefreshRequest, ctx: SizingContextDep) -> Response:
    """The current system's (observed) workloads sized onto a successor, side by side with the
    current system's measured and modelled figures."""
    return await json_in_lane(ENGINE_LANE["refresh"], lambda: service.refresh(body, ctx))
