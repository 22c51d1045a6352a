"""Exception handlers: every error is JSON ``{"detail": ...}`` and none carries a traceback.

FastAPI's own handlers stay in place for ``HTTPException`` (``{"detail": "..."}``) and request
validation (422, ``{"detail": [{"loc": [...], "msg": ..., "type": ...}]}``).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError

logger = logging.getLogger(__name__)


async def database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """Lost or refused database connection -> 503; the pool reconnects on a later request."""
    logger.warning("database unavailable during %s %s: %s", request.method, request.url.path, exc)
    return JSONResponse({"detail": "database unavailable"}, status_code=503)


async def unhandled_error(request: Request, exc: Exception) -> JSONResponse:
    """Last resort for a bug: a JSON 500 without details (the server log has the traceback)."""
    logger.error("unhandled %s during %s %s", type(exc).__name__, request.method, request.url.path)
    return JSONResponse({"detail": "internal server error"}, status_code=500)


def install_exception_handlers(app: FastAPI) -> None:
    app.add_exception_handler(OperationalError, database_unavailable)
    app.add_exception_handler(InterfaceError, database_unavailable)
    app.add_exception_handler(Exception, unhandled_error)
