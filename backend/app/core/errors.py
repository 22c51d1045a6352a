"""Domain errors raised by services, and the handlers that turn every error into JSON.

Services never raise ``HTTPException``: they raise the errors below and the handlers map them:

* :class:`InvalidInput` -> 422 ``{"detail": [{"loc": [...], "msg": ..., "type": ...}]}``, the same
  body FastAPI gives for request validation, so a client handles one shape for both;
* :class:`NotFound` -> 404, :class:`Forbidden` -> 403, :class:`CatalogUnavailable` -> 503, each
  ``{"detail": "..."}``.

Lost database connections give 503; anything else is a bug and gives a JSON 500 without details.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

Loc = tuple[str | int, ...]


class InvalidInput(Exception):
    """The request is well-formed but impossible; each error names the field path (``loc``)."""

    def __init__(self, errors: Sequence[tuple[Loc, str, str]]) -> None:
        self.errors = [{"loc": list(loc), "msg": msg, "type": kind} for loc, msg, kind in errors]
        super().__init__("; ".join(f"{'.'.join(map(str, loc))}: {msg}" for loc, msg, _ in errors))

    @classmethod
    def at(cls, loc: Loc, msg: str, kind: str = "value_error") -> InvalidInput:
        return cls([(loc, msg, kind)])


class NotFound(Exception):
    """No such resource: ``what`` (e.g. "report") and its ``id``."""

    def __init__(self, what: str, id: str) -> None:
        self.what = what
        self.id = id
        super().__init__(f"{what} {id!r} not found")


class Forbidden(Exception):
    """The caller may not do this (e.g. delete a report without its owner token)."""


class CatalogUnavailable(Exception):
    """The hardware catalog under ``settings.fixtures_dir`` does not load."""


async def invalid_input(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, InvalidInput)
    return JSONResponse({"detail": exc.errors}, status_code=422)


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=404)


async def forbidden(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=403)


async def catalog_unavailable(request: Request, exc: Exception) -> JSONResponse:
    logger.error("hardware catalog unavailable during %s %s: %s", request.method, request.url.path, exc)
    return JSONResponse({"detail": "hardware catalog unavailable"}, status_code=503)


async def database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """Lost or refused database connection -> 503; the pool reconnects on a later request."""
    logger.warning("database unavailable during %s %s: %s", request.method, request.url.path, exc)
    return JSONResponse({"detail": "database unavailable"}, status_code=503)


async def unhandled_error(request: Request, exc: Exception) -> JSONResponse:
    """Last resort for a bug: a JSON 500 without details (the server log has the traceback)."""
    logger.error(
        "unhandled %s during %s %s",
        type(exc).__name__,
        request.method,
        request.url.path,
        exc_info=(type(exc), exc, exc.__traceback__),
    )
    return JSONResponse({"detail": "internal server error"}, status_code=500)


def install_exception_handlers(app: FastAPI) -> None:
    app.add_exception_handler(InvalidInput, invalid_input)
    app.add_exception_handler(NotFound, not_found)
    app.add_exception_handler(Forbidden, forbidden)
    app.add_exception_handler(CatalogUnavailable, catalog_unavailable)
    app.add_exception_handler(OperationalError, database_unavailable)
    app.add_exception_handler(InterfaceError, database_unavailable)
    app.add_exception_handler(Exception, unhandled_error)
