"""``GET /api/v1/health``: database status and the versions a saved report is stamped with."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import migrate, serve
from backend.tests.tcp_proxy import TcpProxy
from models import ENGINE_VERSION

CLOSED_PORT_URL = "postgresql+psycopg://postgres@127.0.0.1:1/x?connect_timeout=2"


def test_health_is_ok_with_engine_and_catalog_versions(client: TestClient) -> None:
    response = client.get("/api/v1/health")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["engine_version"] == ENGINE_VERSION
    assert isinstance(body["catalog_version"], str) and body["catalog_version"]


def test_health_is_503_degraded_when_the_database_port_is_closed(
    make_settings: Callable[..., Settings],
) -> None:
    with serve(create_app(make_settings(database_url=CLOSED_PORT_URL))) as client:
        response = client.get("/api/v1/health")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"] == "unavailable"
    assert body["engine_version"] == ENGINE_VERSION


def test_health_is_503_when_the_sqlite_file_cannot_be_opened(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    a_directory = tmp_path / "not-a-file.db"
    a_directory.mkdir()

    with serve(create_app(make_settings(database_url=f"sqlite:///{a_directory}"))) as client:
        response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def health_until(client: TestClient, status_code: int, within_s: float = 15.0) -> list[float]:
    """Ask ``/health`` until it answers ``status_code``; the seconds each answer took."""
    took: list[float] = []
    deadline = time.monotonic() + within_s
    while True:
        started = time.monotonic()
        answer = client.get("/api/v1/health").status_code
        took.append(time.monotonic() - started)
        if answer == status_code:
            return took
        assert time.monotonic() < deadline, f"health never answered {status_code}"
        time.sleep(0.05)


@contextmanager
def behind_proxy(pg_url: str) -> Iterator[tuple[TcpProxy, str]]:
    """A migrated PostgreSQL schema reached through a :class:`TcpProxy`; (proxy, URL through it)."""
    migrate(pg_url)
    server = make_url(pg_url)
    proxy = TcpProxy((server.host or "127.0.0.1", server.port or 5432))
    proxy.start()
    try:
        yield proxy, server.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    finally:
        proxy.stop()


@pytest.mark.postgres
def test_health_recovers_by_itself_when_postgresql_comes_back(
    pg_url: str, make_settings: Callable[..., Settings]
) -> None:
    with behind_proxy(pg_url) as (proxy, via_proxy):
        settings = make_settings(database_url=via_proxy, health_probe_interval_s=0.1)
        with serve(create_app(settings)) as client:
            assert client.get("/api/v1/health").status_code == 200  # a pooled connection now exists

            proxy.stop()  # the database goes away: pooled connection cut, new ones refused
            health_until(client, 503)
            assert client.get("/api/v1/health").json()["database"] == "unavailable"

            proxy.start()  # and comes back: no restart of the app needed
            health_until(client, 200)
            assert client.get("/api/v1/hardware").status_code == 200


@pytest.mark.postgres
def test_during_a_network_blackhole_health_turns_503_and_requests_end_with_503(
    pg_url: str, make_settings: Callable[..., Settings]
) -> None:
    """A database that stops answering without refusing: nothing may wait for the whole outage."""
    with behind_proxy(pg_url) as (proxy, via_proxy):
        settings = make_settings(
            database_url=via_proxy, health_probe_interval_s=0.2, db_statement_timeout_ms=300
        )
        app = create_app(settings)
        with serve(app) as client:
            assert client.get("/api/v1/health").status_code == 200
            assert client.get("/api/v1/hardware").status_code == 200  # a pooled connection exists

            proxy.blackhole()
            health_answers = health_until(client, 503)
            stuck = client.get("/api/v1/hardware")  # its pooled connection never answers

            proxy.stop()
            proxy.start()
            health_until(client, 200)
            after = client.get("/api/v1/hardware")

    print(f"\nblackhole: health answered in at most {max(health_answers) * 1000:.0f} ms")
    assert stuck.status_code == 503
    assert stuck.json() == {"detail": "database unavailable"}
    assert app.state.engine.sizer_watchdog.cuts >= 1  # the client cut the silent connection
    assert after.status_code == 200


def test_the_sqlite_file_directory_is_created_on_start(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    database = tmp_path / "var" / "sizer.db"

    with serve(create_app(make_settings(database_url=f"sqlite:///{database}"))) as client:
        response = client.get("/api/v1/health")

    assert database.parent.is_dir()
    assert response.status_code == 200
