"""The ``/api/v1`` routers, one per tag, in the order the OpenAPI document lists their paths.

``main.create_app`` includes each of them in the app under the ``/api/v1`` prefix itself, not
through one ``/api/v1`` router holding them all: FastAPI matches a request against every route of an
included router once to choose it and once more to dispatch into it, so each level of nesting
matched the routes before the one requested again (``POST /reports`` was checked against 53
routes per request, 27 now).
"""

from __future__ import annotations

from fastapi import APIRouter

from backend.app.api.routes import health
from backend.app.catalog import routes as catalog
from backend.app.hardware import routes as hardware
from backend.app.imports import routes as imports
from backend.app.plan import routes as plan
from backend.app.recommend import routes as recommend
from backend.app.reports import routes as reports
from backend.app.sizing import routes as sizing
from backend.app.traces import routes as traces
from backend.app.whatif import routes as whatif

API_ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    sizing.router,
    catalog.router,
    hardware.router,
    imports.router,
    reports.router,
    recommend.router,
    traces.router,
    whatif.router,
    plan.router,
)
