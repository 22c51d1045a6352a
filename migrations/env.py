"""Alembic environment.

The database URL is, first to last: ``alembic -x url=...``, the ``sqlalchemy.url`` option when set
programmatically (tests: ``config.set_main_option("sqlalchemy.url", url)``), then DATABASE_URL
through ``Settings``. ``config.attributes["configure_logger"] = False`` keeps the caller's logging.

A downgrade that would drop stored data refuses unless ``-x allow_data_loss=true`` is given
(``backend/app/migration_guard.py``).

On PostgreSQL every lock a migration waits for is bounded by ``lock_timeout`` (``-x
lock_timeout_ms=``, else MIGRATION_LOCK_TIMEOUT_MS, 5000): an ALTER queued behind a session that
holds the table would otherwise hold every later request behind itself. Each statement is bounded
by ``statement_timeout`` (``-x statement_timeout_ms=``, else MIGRATION_STATEMENT_TIMEOUT_MS,
600000: ten minutes for a data migration).
"""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool

from backend.app.core.config import check_database_url, get_settings
from backend.app.db import DatabaseLimits, create_db_engine
from backend.app.tables import Base

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if url:
        return check_database_url(url)  # same check as the app's Settings
    return get_settings().database_url


def migration_limits() -> DatabaseLimits:
    """The waits a migration may have on PostgreSQL (see the module's docstring)."""
    x = context.get_x_argument(as_dictionary=True)

    def value(name: str, default: int) -> int:
        text = x.get(name) or os.environ.get(f"MIGRATION_{name.upper()}") or str(default)
        if not text.isdigit() or int(text) <= 0:
            raise ValueError(f"{name} must be a positive whole number of milliseconds, not {text!r}")
        return int(text)

    return DatabaseLimits(
        lock_timeout_ms=value("lock_timeout_ms", 5000),
        statement_timeout_ms=value("statement_timeout_ms", 600_000),
    )


def run_migrations_offline() -> None:
    """``alembic upgrade head --sql``: print the SQL instead of running it."""
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = create_db_engine(database_url(), migration_limits(), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
                # one transaction per revision: a downgrade refused part way (migration_guard) stops
                # at a revision that is whole, also on SQLite, whose DDL does not roll back
                transaction_per_migration=True,
            )
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
