"""The catalog behind every request, and what health reports when it does not load."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.app import catalog_service
from backend.app.core.config import get_settings


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    get_settings.cache_clear()
    catalog_service.get_catalog.cache_clear()
    yield
    get_settings.cache_clear()
    catalog_service.get_catalog.cache_clear()


def test_catalog_version_is_unavailable_rather_than_an_error_when_the_catalog_does_not_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_caches: None
) -> None:
    monkeypatch.setenv("FIXTURES_DIR", str(tmp_path / "empty-fixtures"))

    assert catalog_service.catalog_version() == catalog_service.CATALOG_UNAVAILABLE
