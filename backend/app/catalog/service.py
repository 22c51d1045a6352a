"""The catalog behind every request, loaded from ``settings.fixtures_dir`` on first use.

Each app holds a :class:`CatalogStore` for its own fixtures folder. Loading takes most of a second,
so loaded catalogs are shared across apps in the process, keyed by the folder and a fingerprint of
its YAML files (name, size, modification time): an app started on changed files loads them anew,
while a running app keeps the catalog it loaded first (a catalog release is a restart).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Hashable
from functools import lru_cache
from pathlib import Path

from backend.app.catalog.schemas import (
    ArrayDetail,
    ArrayList,
    DriveList,
    PortList,
    RaidSchemeList,
    WorkloadTemplateList,
)
from backend.app.core.errors import CatalogUnavailable, NotFound
from models.catalog import Catalog, CatalogError, load_catalog
from models.support import group_widths, node_choices

logger = logging.getLogger(__name__)

CATALOG_UNAVAILABLE = "unavailable"

Fingerprint = tuple[tuple[str, int, int], ...]


def fingerprint(fixtures_dir: Path) -> Fingerprint:
    """(relative path, size, mtime_ns) of every YAML file under ``fixtures_dir``, sorted."""
    entries: list[tuple[str, int, int]] = []
    for folder, _dirs, files in os.walk(fixtures_dir):
        for name in files:
            if name.endswith((".yaml", ".yml")):
                path = Path(folder) / name
                stat = path.stat()
                entries.append((path.relative_to(fixtures_dir).as_posix(), stat.st_size, stat.st_mtime_ns))
    return tuple(sorted(entries))


@lru_cache(maxsize=8)
def _load(fixtures_dir: str, _fingerprint: Fingerprint) -> Catalog:
    return load_catalog(Path(fixtures_dir))


class CatalogStore:
    """The catalog of one fixtures folder, loaded on first use (a failed load is retried next time)."""

    def __init__(self, fixtures_dir: Path) -> None:
        self.fixtures_dir = fixtures_dir
        self._catalog: Catalog | None = None
        self._lock = threading.Lock()
        # Results derived from the loaded catalog alone (e.g. configurations built from catalog
        # references), for :mod:`backend.app.engine.context`; emptied when the catalog loads.
        self.derived: dict[Hashable, object] = {}

    def get(self) -> Catalog:
        """The catalog; :class:`CatalogUnavailable` when the files do not load."""
        if self._catalog is None:
            with self._lock:
                if self._catalog is None:
                    try:
                        self._catalog = _load(str(self.fixtures_dir), fingerprint(self.fixtures_dir))
                        self.derived.clear()
                    except (CatalogError, OSError) as exc:
                        raise CatalogUnavailable(str(exc)) from exc
        return self._catalog

    def version(self) -> str:
        """``catalog_version`` of the loaded catalog, or ``"unavailable"`` if it does not load."""
        try:
            return self.get().catalog_version
        except CatalogUnavailable as exc:
            logger.error("hardware catalog in %s does not load: %s", self.fixtures_dir, exc)
            return CATALOG_UNAVAILABLE


def list_drives(store: CatalogStore) -> DriveList:
    catalog = store.get()
    return DriveList(catalog_version=catalog.catalog_version, drives=list(catalog.drives.values()))


def list_arrays(store: CatalogStore) -> ArrayList:
    catalog = store.get()
    return ArrayList(catalog_version=catalog.catalog_version, arrays=list(catalog.arrays.values()))


def get_array(store: CatalogStore, array_id: str) -> ArrayDetail:
    catalog = store.get()
    array = catalog.arrays.get(array_id)
    if array is None:
        raise NotFound("array", array_id)
    return ArrayDetail(
        catalog_version=catalog.catalog_version,
        array=array,
        drives=catalog.drives_for(array),
        group_widths=group_widths(array),
        node_choices=node_choices(array),
    )


def list_raid_schemes(store: CatalogStore) -> RaidSchemeList:
    catalog = store.get()
    return RaidSchemeList(
        catalog_version=catalog.catalog_version, raid_schemes=list(catalog.raid_schemes.values())
    )


def list_ports(store: CatalogStore) -> PortList:
    catalog = store.get()
    return PortList(catalog_version=catalog.catalog_version, ports=list(catalog.ports.values()))


def list_workload_templates(store: CatalogStore) -> WorkloadTemplateList:
    catalog = store.get()
    return WorkloadTemplateList(
        catalog_version=catalog.catalog_version, templates=list(catalog.templates.values())
    )
