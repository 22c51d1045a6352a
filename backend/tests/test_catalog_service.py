"""The catalog behind every request, and what health reports when it does not load."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from backend.app.catalog.service import CATALOG_UNAVAILABLE, CatalogStore
from backend.app.core.errors import CatalogUnavailable
from backend.tests.conftest import REPO_ROOT


def test_catalog_version_is_unavailable_rather_than_an_error_when_the_catalog_does_not_load(
    tmp_path: Path,
) -> None:
    store = CatalogStore(tmp_path / "empty-fixtures")

    assert store.version() == CATALOG_UNAVAILABLE
    with pytest.raises(CatalogUnavailable):
        store.get()


def test_stores_of_the_same_unchanged_folder_share_one_loaded_catalog() -> None:
    first = CatalogStore(REPO_ROOT / "fixtures").get()

    assert CatalogStore(REPO_ROOT / "fixtures").get() is first


def test_a_store_started_after_the_files_changed_loads_them_anew(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(REPO_ROOT / "fixtures", fixtures)
    running = CatalogStore(fixtures)
    assert running.version() == CatalogStore(REPO_ROOT / "fixtures").version()
    index = fixtures / "catalog" / "catalog.yaml"

    index.write_text(index.read_text().replace('catalog_version: "', 'catalog_version: "2099.1.0" #'))

    assert CatalogStore(fixtures).version() == "2099.1.0"
    assert running.version() != "2099.1.0"  # a running app keeps the catalog it loaded
