"""``/health``: 200 when the service and its database are up, 503 when the database is not.

Answered from memory (the app's :class:`~backend.app.health_service.DatabaseProbe`), on the event
loop: no database round trip and no thread hop per call.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request, Response, status

from backend.app import health_service
from backend.app.catalog.service import CatalogStore
from backend.app.core.lanes import json_bytes
from backend.app.schemas import Health

router = APIRouter(prefix="/health", tags=["health"])


@router.get(
    "",
    response_model=Health,
    responses={status.HTTP_503_SERVICE_UNAVAILABLE: {"model": Health, "description": "Database unavailable"}},
)
async def get(request: Request) -> Response:
    # the app's state read directly and the answer written once by pydantic-core (json_bytes): no
    # dependency to solve and no second validation of the answer on the way out, the bulk of a
    # health call's CPU beside FastAPI's own (bench/asgi_overhead.py)
    probe: health_service.DatabaseProbe = request.app.state.database_probe
    if not probe.started:  # the first call waits (in a thread) for the first probe
        await anyio.to_thread.run_sync(probe.start_and_wait)
    catalog: CatalogStore = request.app.state.catalog
    health = health_service.check(probe, catalog)
    code = status.HTTP_200_OK if health.status == "ok" else status.HTTP_503_SERVICE_UNAVAILABLE
    return Response(json_bytes(health), status_code=code, media_type="application/json")
