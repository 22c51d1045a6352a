"""The ``/api/v1`` router: every tag's router is included here."""

from __future__ import annotations

from fastapi import APIRouter

from backend.app.api.routes import health
from backend.app.catalog import routes as catalog
from backend.app.hardware import routes as hardware
from backend.app.imports import routes as imports
from backend.app.recommend import routes as recommend
from backend.app.reports import routes as reports
from backend.app.sizing import routes as sizing
from backend.app.traces import routes as traces
from backend.app.whatif import routes as whatif

api_router = APIRouter()
api_router.include_router(health.router)
api_router.include_router(sizing.router)
api_router.include_router(catalog.router)
api_router.include_router(hardware.router)
api_router.include_router(imports.router)
api_router.include_router(reports.router)
api_router.include_router(recommend.router)
api_router.include_router(traces.router)
api_router.include_router(whatif.router)
