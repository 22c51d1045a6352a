"""The hardware catalog, loaded once from ``settings.fixtures_dir`` and shared by every request."""

from __future__ import annotations

import logging
from functools import lru_cache

from backend.app.core.config import get_settings
from models.catalog import Catalog, CatalogError, load_catalog

logger = logging.getLogger(__name__)

CATALOG_UNAVAILABLE = "unavailable"


@lru_cache(maxsize=1)
def get_catalog() -> Catalog:
    """The catalog, loaded on first use and cached for the process (a failed load is retried)."""
    return load_catalog(get_settings().fixtures_dir)


def catalog_version() -> str:
    """``catalog_version`` of the loaded catalog, or ``"unavailable"`` if the catalog does not load."""
    try:
        return get_catalog().catalog_version
    except CatalogError as exc:
        logger.error("hardware catalog in %s does not load: %s", get_settings().fixtures_dir, exc)
        return CATALOG_UNAVAILABLE
