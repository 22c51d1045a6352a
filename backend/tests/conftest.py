"""Backend test fixtures: every database test runs on SQLite and on PostgreSQL.

PostgreSQL comes from TEST_DATABASE_URL (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``)
and is required, never skipped. Each test gets its own schema ``test_<random>`` (reached through
``search_path`` in the URL's ``options``), dropped afterwards, so tests never touch ``public``.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from backend.app.core.config import Settings
from backend.app.main import create_app

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_TEST_DATABASE_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` first (libpq ``options=-csearch_path=...``)."""
    return (
        make_url(url)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh, empty PostgreSQL schema for one test; yields a URL that uses it, drops it afterwards."""
    server_url = postgres_server_url()
    schema = f"test_{secrets.token_hex(6)}"
    admin = create_engine(server_url, poolclass=NullPool)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield with_search_path(server_url, schema)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file in ``tmp_path``, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sizer-test.db'}"
    else:
        with postgres_schema() as url:
            yield url


@pytest.fixture
def pg_url() -> Iterator[str]:
    """An empty PostgreSQL schema, for tests that only make sense on a database server."""
    with postgres_schema() as url:
        yield url


def alembic_config(url: str) -> Config:
    config = Config(str(REPO_ROOT / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))  # configparser interpolation
    config.attributes["configure_logger"] = False
    return config


def migrate(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


@pytest.fixture
def migrated_db_url(db_url: str) -> str:
    """``db_url`` with the schema created by ``alembic upgrade head``."""
    migrate(db_url)
    return db_url


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    """Settings independent of the caller's environment; the UI is not built unless told otherwise."""

    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "database_url": f"sqlite:///{tmp_path / 'unused.db'}",
            "cors_origins": [],
            "max_body_bytes": 1024 * 1024,
            "frontend_dist": tmp_path / "no-dist",
            "fixtures_dir": REPO_ROOT / "fixtures",
        }
        values.update(overrides)
        return Settings(**values)

    return make


@contextmanager
def serve(app: FastAPI) -> Iterator[TestClient]:
    """A test client running the app's lifespan (which disposes its engine at the end)."""
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def client(migrated_db_url: str, make_settings: Callable[..., Settings]) -> Iterator[TestClient]:
    """The app against a migrated test database (SQLite and PostgreSQL)."""
    with serve(create_app(make_settings(database_url=migrated_db_url))) as test_client:
        yield test_client


# ---- request bodies shared by the API tests ---------------------------------------------------

FAS3270 = {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp"}
"""A catalog reference: NetApp FAS3270 in RAID-DP, default drive and group width."""


def phase(**overrides: Any) -> dict[str, Any]:
    """5,000 random 8 KiB IOPS, 70% reads, in the window "business hours"."""
    return {
        "name": "day",
        "window": "business hours",
        "iops": 5000,
        "read_pct": 70,
        "io_size_kib": 8,
        **overrides,
    }


def workload(
    name: str = "oltp", phases: list[dict[str, Any]] | None = None, **overrides: Any
) -> dict[str, Any]:
    """A 2 TB workload with a 200 GB working set and one phase (see :func:`phase`)."""
    return {
        "name": name,
        "capacity_tb": 2,
        "working_set_gb": 200,
        "skew": {"zipf_alpha": 0.8},
        "phases": phases if phases is not None else [phase()],
        **overrides,
    }


def error_locs(response: Any) -> list[list[str | int]]:
    """The ``loc`` of every error in a 422 body."""
    assert response.status_code == 422, response.text
    return [error["loc"] for error in response.json()["detail"]]


@pytest.fixture
def fixtures_copy(tmp_path: Path) -> Path:
    """A writable copy of ``fixtures/`` (catalog, templates, calibration) for an app to point at."""
    target = tmp_path / "fixtures"
    shutil.copytree(REPO_ROOT / "fixtures", target, ignore=shutil.ignore_patterns("validation"))
    return target
