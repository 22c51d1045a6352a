"""Wait until the database answers ``SELECT 1``: ``python -m backend.app.wait_for_db [TIMEOUT_S]``.

Used by ``scripts/prestart`` before migrating; exits 1 if the database is still down at the deadline.
"""

from __future__ import annotations

import logging
import sys
import time

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from backend.app.core.config import get_settings
from backend.app.db import create_db_engine

logger = logging.getLogger(__name__)


def wait_for_database(database_url: str, timeout_s: float = 60.0, interval_s: float = 1.0) -> bool:
    """True as soon as ``SELECT 1`` succeeds, False if it still fails after ``timeout_s`` [s]."""
    engine = create_db_engine(database_url, poolclass=NullPool)
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            try:
                with engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
                return True
            except SQLAlchemyError as exc:
                if time.monotonic() + interval_s > deadline:
                    logger.error("database still unavailable after %.0f s: %s", timeout_s, exc)
                    return False
                logger.info("waiting for the database: %s", type(exc).__name__)
                time.sleep(interval_s)
    finally:
        engine.dispose()


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    timeout_s = float(argv[0]) if argv else 60.0
    return 0 if wait_for_database(get_settings().database_url, timeout_s) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
