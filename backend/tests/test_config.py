"""Settings come from the environment and a bad one stops the service at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from backend.app.core.config import REPO_ROOT, Settings


@pytest.mark.parametrize(
    "url",
    [
        "not a url",
        "",
        "mysql+pymysql://user@localhost/sizer",
        "postgresql://postgres@127.0.0.1/test",  # psycopg2, not installed: must say +psycopg
        "sqlite://",  # in-memory: every connection would see a different, unmigrated database
        "sqlite:///:memory:",
    ],
)
def test_settings_reject_a_malformed_or_unsupported_database_url(url: str) -> None:
    with pytest.raises(ValidationError, match="DATABASE_URL"):
        Settings(database_url=url)


def test_a_bad_database_url_in_the_environment_fails_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres//oops")

    with pytest.raises(ValidationError, match="DATABASE_URL"):
        Settings()


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////var/lib/sizer/sizer.db",
        "sqlite+pysqlite:///relative/sizer.db",
        "postgresql+psycopg://sizer:sizer@db:5432/sizer",
        "postgresql+psycopg://postgres@127.0.0.1:5432/test?connect_timeout=3",
    ],
)
def test_settings_accept_sqlite_files_and_postgresql_with_psycopg(url: str) -> None:
    assert Settings(database_url=url).database_url == url


def test_defaults_are_an_embedded_sqlite_file_under_var_and_no_cors(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "CORS_ORIGINS", "MAX_BODY_BYTES", "FRONTEND_DIST", "FIXTURES_DIR"):
        monkeypatch.delenv(name, raising=False)

    settings = Settings()

    assert settings.database_url == f"sqlite:///{REPO_ROOT / 'var' / 'sizer.db'}"
    assert settings.cors_origins == []
    assert settings.max_body_bytes == 1024 * 1024
    assert settings.frontend_dist == REPO_ROOT / "frontend" / "dist"
    assert settings.fixtures_dir == REPO_ROOT / "fixtures"


@pytest.mark.parametrize(
    "value",
    ["http://localhost:5173, https://sizer.example", '["http://localhost:5173", "https://sizer.example"]'],
)
def test_cors_origins_read_as_a_comma_separated_or_json_list(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CORS_ORIGINS", value)

    assert Settings().cors_origins == ["http://localhost:5173", "https://sizer.example"]


def test_relative_directories_are_taken_from_the_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTEND_DIST", "frontend/dist")
    monkeypatch.setenv("FIXTURES_DIR", "/srv/fixtures")

    settings = Settings()

    assert settings.frontend_dist == REPO_ROOT / "frontend" / "dist"
    assert settings.fixtures_dir == Path("/srv/fixtures")


def test_body_limit_must_be_positive() -> None:
    with pytest.raises(ValidationError):
        Settings(max_body_bytes=0)
