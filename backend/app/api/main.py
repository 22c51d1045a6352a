"""The ``/api/v1`` router: every tag's router is included here."""

from __future__ import annotations

from fastapi import APIRouter

from backend.app.api.routes import health

api_router = APIRouter()
api_router.include_router(health.router)
