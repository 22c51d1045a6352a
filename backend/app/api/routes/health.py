"""``/health``: 200 when the service and its database are up, 503 when the database is not.

Answered from memory (the app's :class:`~backend.app.health_service.DatabaseProbe`), on the event
loop: no database round trip and no thread hop per call.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request, Response, status

from backend.app import health_service
from backend.app.core.deps import CatalogDep
from backend.app.schemas import Health

router = APIRouter(prefix="/health", tags=["health"])


@router.get(
    "",
    responses={status.HTTP_503_SERVICE_UNAVAILABLE: {"model": Health, "description": "Database unavailable"}},
)
async def get(request: Request, catalog: CatalogDep, response: Response) -> Health:
    probe: health_service.DatabaseProbe = request.app.state.database_probe
    if not probe.started:  # the first call waits (in a thread) for the first probe
        await anyio.to_thread.run_sync(probe.start_and_wait)
    health = health_service.check(probe, catalog)
    if health.status != "ok":
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return health
