"""Shared pieces of the hypothesis API tests: bounded settings, wide floats, a migrated SQLite app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import REPO_ROOT, migrate
from models.catalog import load_catalog

CATALOG = load_catalog(REPO_ROOT / "fixtures")


def bounded(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )


def wide(low: float, high: float) -> st.SearchStrategy[float]:
    """Floats across many orders of magnitude, the ends included."""
    return st.one_of(
        st.sampled_from([low, high]), st.floats(low, high, allow_nan=False, allow_infinity=False)
    )


def sqlite_client(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[TestClient]:
    """A TestClient on a freshly migrated SQLite database in its own temporary folder."""
    folder: Path = tmp_path_factory.mktemp(name)
    url = f"sqlite:///{folder / 'sizer.db'}"
    migrate(url)
    with TestClient(create_app(Settings(database_url=url, frontend_dist=folder / "no-dist"))) as client:
        yield client
