"""Typed dependency aliases for routes.

Dependencies that only read ``app.state`` or build small objects are ``async``: they run on the
event loop instead of taking a threadpool round trip each. ``get_db`` stays a thread: closing a
session may talk to the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session, sessionmaker

from backend.app.calibration import Calibration
from backend.app.catalog.service import CatalogStore
from backend.app.hardware.service import DatabaseHardware
from backend.app.sizing.context import SizingContext


def get_db(request: Request) -> Iterator[Session]:
    """One session per request from the app's session factory; closed (and rolled back) afterwards.

    The session connects on its first query, so requests that never touch the database never
    take a connection.
    """
    session_factory: sessionmaker[Session] = request.app.state.session_factory
    with session_factory() as session:
        yield session


async def get_catalog(request: Request) -> CatalogStore:
    store: CatalogStore = request.app.state.catalog
    return store


async def get_calibration(request: Request) -> Calibration:
    calibration: Calibration = request.app.state.calibration
    return calibration


SessionDep = Annotated[Session, Depends(get_db)]
CatalogDep = Annotated[CatalogStore, Depends(get_catalog)]
CalibrationDep = Annotated[Calibration, Depends(get_calibration)]


async def get_sizing_context(
    catalog: CatalogDep, calibration: CalibrationDep, session: SessionDep
) -> SizingContext:
    """Catalog, calibration and the custom hardware in the database, for one request."""
    return SizingContext(catalog, calibration, DatabaseHardware(session))


SizingContextDep = Annotated[SizingContext, Depends(get_sizing_context)]
