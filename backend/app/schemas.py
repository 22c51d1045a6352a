"""API response and request schemas of the backend's own endpoints (engine schemas live in ``models``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Health(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: Literal["ok", "degraded"]
    database: Literal["ok", "unavailable"]
    engine_version: str
    catalog_version: str


class ErrorDetail(BaseModel):
    """Body of every non-validation error response (4xx other than 422, and 5xx)."""

    detail: str
