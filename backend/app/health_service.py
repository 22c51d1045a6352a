"""Liveness and readiness: is the database answering, and which engine and catalog are loaded."""

from __future__ import annotations

import logging

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from backend.app.catalog.service import CatalogStore
from backend.app.schemas import Health
from models import ENGINE_VERSION

logger = logging.getLogger(__name__)


def database_is_up(session: Session) -> bool:
    """True when ``SELECT 1`` succeeds."""
    try:
        session.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        logger.warning("database health check failed: %s", exc)
        return False
    return True


def check(session: Session, catalog: CatalogStore) -> Health:
    database_ok = database_is_up(session)
    return Health(
        status="ok" if database_ok else "degraded",
        database="ok" if database_ok else "unavailable",
        engine_version=ENGINE_VERSION,
        catalog_version=catalog.version(),
    )
