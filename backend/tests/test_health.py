"""``GET /api/v1/health``: database status and the versions a saved report is stamped with."""

from __future__ import annotations

from collections.abc import Callable
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


@pytest.mark.postgres
def test_health_recovers_by_itself_when_postgresql_comes_back(
    pg_url: str, make_settings: Callable[..., Settings]
) -> None:
    migrate(pg_url)
    server = make_url(pg_url)
    proxy = TcpProxy((server.host or "127.0.0.1", server.port or 5432))
    proxy.start()
    via_proxy = server.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    try:
        with serve(create_app(make_settings(database_url=via_proxy))) as client:
            assert client.get("/api/v1/health").status_code == 200  # a pooled connection now exists

            proxy.stop()  # the database goes away: pooled connection cut, new ones refused
            down = client.get("/api/v1/health")
            assert down.status_code == 503
            assert down.json()["database"] == "unavailable"

            proxy.start()  # and comes back: no restart of the app needed
            up = client.get("/api/v1/health")
            assert up.status_code == 200
            assert up.json()["database"] == "ok"
    finally:
        proxy.stop()


def test_the_sqlite_file_directory_is_created_on_start(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    database = tmp_path / "var" / "sizer.db"

    with serve(create_app(make_settings(database_url=f"sqlite:///{database}"))) as client:
        response = client.get("/api/v1/health")

    assert database.parent.is_dir()
    assert response.status_code == 200
