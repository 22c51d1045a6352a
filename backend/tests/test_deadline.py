"""No commit after the request's deadline or its client's departure (#34; core/deadline.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, MutableMapping
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.pool import NullPool

from backend.app.core import deadline
from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.app.tables import Report
from backend.tests.conftest import FAS3270, phase, serve, workload

REPORT = {
    "name": "deadline",
    "kind": "evaluate",
    "inputs": {"workloads": [workload(phases=[phase()])], "configuration": FAS3270},
}


def reports_stored(url: str) -> int:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(Report)).scalar_one())
    finally:
        engine.dispose()


@pytest.mark.parametrize("idempotency_key", [None, "deadline-test-key-0001"])
def test_a_save_past_its_deadline_is_503_and_stores_nothing(
    migrated_db_url: str, make_settings: Callable[..., Settings], idempotency_key: str | None
) -> None:
    # 1 microsecond: the evaluation alone takes longer, so the deadline has passed at the commit
    settings = make_settings(database_url=migrated_db_url, request_deadline_s=1e-6)
    headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
    with serve(create_app(settings)) as client:
        response = client.post("/api/v1/reports", json=REPORT, headers=headers)

    assert response.status_code == 503, response.text
    assert "nothing was saved" in response.json()["detail"]
    assert reports_stored(migrated_db_url) == 0


def test_a_save_within_its_deadline_is_stored(
    migrated_db_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url=migrated_db_url, request_deadline_s=600)
    with serve(create_app(settings)) as client:
        assert client.post("/api/v1/reports", json=REPORT).status_code == 201

    assert reports_stored(migrated_db_url) == 1


async def _post_then_leave(app: FastAPI, body: bytes) -> list[dict[str, Any]]:
    """POST /reports as a client that closes its connection once the body is sent."""
    sent: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = [
        {"type": "http.request", "body": body, "more_body": False},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/v1/reports",
        "raw_path": b"/api/v1/reports",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    await app(scope, receive, send)
    return sent


def test_a_save_whose_client_left_stores_nothing(
    migrated_db_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(make_settings(database_url=migrated_db_url, rate_limits_enabled=False))

    sent = asyncio.run(_post_then_leave(app, json.dumps(REPORT).encode()))

    assert sent[0]["status"] == 503
    assert b"client closed its connection" in sent[1]["body"]
    assert reports_stored(migrated_db_url) == 0


@pytest.mark.postgres
def test_a_late_transaction_gets_the_time_left_as_its_statement_timeout(
    pg_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(make_settings(database_url=pg_url, db_statement_timeout_ms=5000))
    session = app.state.session_factory()
    try:
        session.info["deadline"] = time.monotonic() + 2.0  # 2 s left, under the 5 s statement timeout
        limit = session.execute(text("SHOW statement_timeout")).scalar_one()
        assert limit.endswith("ms") and 1000 < int(limit.removesuffix("ms")) <= 2000
    finally:
        session.close()
        app.state.engine.dispose()


@pytest.mark.postgres
def test_a_transaction_with_time_to_spare_keeps_the_configured_statement_timeout(
    pg_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(make_settings(database_url=pg_url, db_statement_timeout_ms=5000))
    session = app.state.session_factory()
    try:
        session.info["deadline"] = time.monotonic() + 60.0
        assert session.execute(text("SHOW statement_timeout")).scalar_one() == "5s"
    finally:
        session.close()
        app.state.engine.dispose()


def test_a_session_without_a_request_has_no_deadline(make_settings: Callable[..., Settings]) -> None:
    app = create_app(make_settings())
    session = app.state.session_factory()
    try:
        assert deadline.remaining_s(session) is None
        deadline.check(session)  # nothing to refuse
    finally:
        session.close()
