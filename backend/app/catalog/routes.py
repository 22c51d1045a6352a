"""``/catalog``: the built-in hardware catalog, read-only, every response with its ``catalog_version``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from backend.app.catalog import service
from backend.app.catalog.schemas import (
    ArrayDetail,
    ArrayList,
    DriveList,
    PortList,
    RaidSchemeList,
    WorkloadTemplateList,
)
from backend.app.core.deps import CatalogDep
from backend.app.schemas import error_responses

router = APIRouter(prefix="/catalog", tags=["catalog"], responses=error_responses(503))


@router.get("/drives")
def list_drives(catalog: CatalogDep) -> DriveList:
    return service.list_drives(catalog)


@router.get("/arrays")
def list_arrays(catalog: CatalogDep) -> ArrayList:
    return service.list_arrays(catalog)


@router.get("/arrays/{array_id}", responses=error_responses(404))
def get_array(
    catalog: CatalogDep, array_id: Annotated[str, Path(min_length=1, max_length=80)]
) -> ArrayDetail:
    return service.get_array(catalog, array_id)


@router.get("/raid-schemes")
def list_raid_schemes(catalog: CatalogDep) -> RaidSchemeList:
    return service.list_raid_schemes(catalog)


@router.get("/ports")
def list_ports(catalog: CatalogDep) -> PortList:
    return service.list_ports(catalog)


@router.get("/workload-templates")
def list_workload_templates(catalog: CatalogDep) -> WorkloadTemplateList:
    return service.list_workload_templates(catalog)
