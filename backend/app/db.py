"""SQLAlchemy engine and session factory.

The app keeps its engine and session factory on ``app.state`` (see ``main.create_app``), so each
app built by a test talks to its own database. ``pool_pre_ping`` checks a pooled connection before
handing it out: after a database restart the stale connections are dropped and new ones opened, so
the service recovers by itself.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

POSTGRES_CONNECT_TIMEOUT_S = 5


def create_db_engine(database_url: str, **kwargs: Any) -> Engine:
    """Engine for a validated DATABASE_URL; creates the SQLite file's directory if it is missing."""
    url = make_url(database_url)
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    elif "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = POSTGRES_CONNECT_TIMEOUT_S
    engine = create_engine(url, pool_pre_ping=True, connect_args=connect_args, **kwargs)
    if url.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_on_connect)
    return engine


def _sqlite_on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def create_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)
