"""``/health``: 200 when the service and its database are up, 503 when the database is not."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from backend.app import health_service
from backend.app.core.deps import CatalogDep, SessionDep
from backend.app.schemas import Health

router = APIRouter(prefix="/health", tags=["health"])


@router.get(
    "",
    responses={status.HTTP_503_SERVICE_UNAVAILABLE: {"model": Health, "description": "Database unavailable"}},
)
def get(session: SessionDep, catalog: CatalogDep, response: Response) -> Health:
    health = health_service.check(session, catalog)
    if health.status != "ok":
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return health
