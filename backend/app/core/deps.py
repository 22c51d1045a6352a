"""Typed dependency aliases for routes.

Dependencies that only read ``app.state`` or build small objects are ``async``: they run on the
event loop instead of taking a threadpool round trip each. ``get_db`` too: a session connects on
its first query (in the route's thread), and only a session that did is closed in the threadpool,
since closing it talks to the database (rollback, connection back to the pool).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import anyio
from fastapi import Depends, Request
from sqlalchemy.orm import Session, sessionmaker

from backend.app.catalog.service import CatalogStore
from backend.app.core import deadline
from backend.app.core.config import Settings
from backend.app.engine.context import SizingContext
from backend.app.hardware.service import OnDemandHardware
from models.catalog import Calibration


async def get_db(request: Request) -> AsyncIterator[Session]:
    """One session per request from the app's session factory; closed (and rolled back) afterwards.

    The session connects on its first query, so requests that never touch the database never
    take a connection, and their session is closed on the event loop without a thread hop.
    """
    session_factory: sessionmaker[Session] = request.app.state.session_factory
    session = deadline.bind(session_factory(), request)
    try:
        yield session
    finally:
        if session.in_transaction():
            # A limiter of its own, never the threadpool's: requests holding every pool thread
            # while they wait for a connection must not keep this one from going back.
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(session.close, limiter=anyio.CapacityLimiter(1))
        else:
            session.close()


def open_session(request: Request) -> Session:
    """A new session from the app's session factory, for a synchronous route to use and close in
    its own thread (``with open_session(request) as session:``): no generator dependency for
    FastAPI to solve, and a session that read something is closed where it was used, not handed to
    another thread after the answer (a round trip per request for :func:`get_db`)."""
    session_factory: sessionmaker[Session] = request.app.state.session_factory
    return deadline.bind(session_factory(), request)


async def get_catalog(request: Request) -> CatalogStore:
    store: CatalogStore = request.app.state.catalog
    return store


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_calibration(request: Request) -> Calibration:
    calibration: Calibration = request.app.state.calibration
    return calibration


SessionDep = Annotated[Session, Depends(get_db)]
CatalogDep = Annotated[CatalogStore, Depends(get_catalog)]
CalibrationDep = Annotated[Calibration, Depends(get_calibration)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


async def get_sizing_context(request: Request) -> SizingContext:
    """Catalog, calibration and the custom hardware in the database, for one request (catalog and
    calibration read from ``app.state`` here: two dependencies fewer for FastAPI to solve on every
    engine request). Custom hardware is read in a session per lookup, opened only when a request
    names a record: no session dependency (a generator, the costliest kind to solve) per request."""
    state = request.app.state
    return SizingContext(
        state.catalog, state.calibration, OnDemandHardware(state.session_factory), state.model_errors
    )


SizingContextDep = Annotated[SizingContext, Depends(get_sizing_context)]
