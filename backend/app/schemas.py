"""API response and request schemas of the backend's own endpoints (engine schemas live in ``models``)."""

from __future__ import annotations

from typing import Any, Literal

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


class Request(BaseModel):
    """Base of the API's own request bodies: immutable, unknown fields and NaN/infinity refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


_DESCRIPTIONS = {
    400: "Malformed request body (not decodable as JSON text)",
    403: "Not allowed (e.g. a wrong or missing owner token)",
    404: "No such resource",
    409: "Conflicts with what is stored (an Idempotency-Key reused for another request, a record in use)",
    410: "The record this Idempotency-Key created has been deleted; a new key creates another",
    429: "Over a rate limit or quota; retry after the Retry-After header's seconds",
    503: "Database or hardware catalog unavailable",
}


_HEADERS: dict[int, dict[str, Any]] = {
    429: {
        "Retry-After": {
            "description": "seconds until the limit admits the request again",
            "schema": {"type": "integer", "minimum": 1},
        }
    }
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries documenting ``{"detail": "..."}`` bodies for ``codes``."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        out[code] = {"model": ErrorDetail, "description": _DESCRIPTIONS[code]}
        if code in _HEADERS:
            out[code]["headers"] = _HEADERS[code]
    return out
