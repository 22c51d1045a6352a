"""``scripts/prestart`` waits for the database before migrating."""

from __future__ import annotations

import time

from backend.app.wait_for_db import wait_for_database


def test_wait_for_database_returns_at_once_when_the_database_answers(db_url: str) -> None:
    started = time.monotonic()

    assert wait_for_database(db_url, timeout_s=10)
    assert time.monotonic() - started < 5


def test_wait_for_database_gives_up_at_the_deadline() -> None:
    started = time.monotonic()

    assert not wait_for_database(
        "postgresql+psycopg://postgres@127.0.0.1:1/x?connect_timeout=1", timeout_s=0.5, interval_s=0.1
    )
    assert time.monotonic() - started < 5
