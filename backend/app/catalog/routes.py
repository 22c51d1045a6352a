"""``/catalog``: the built-in hardware catalog, read-only, every response with its ``catalog_version``."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel

from backend.app.catalog import service
from backend.app.catalog.schemas import (
    ArrayDetail,
    ArrayList,
    DriveList,
    PortList,
    RaidSchemeList,
    WorkloadTemplateList,
)
from backend.app.catalog.service import CatalogStore
from backend.app.core.deps import CatalogDep
from backend.app.core.encoding import FixedAnswer
from backend.app.core.lanes import json_bytes
from backend.app.schemas import error_responses

router = APIRouter(prefix="/catalog", tags=["catalog"], responses=error_responses(503))


def _fixed(request: Request, store: CatalogStore, key: Hashable, build: Callable[[], BaseModel]) -> Response:
    """The answer ``build`` gives, serialized and gzipped once per loaded catalog (kept with what the
    store derives from it) and revalidated by ETag."""
    answer = store.derived.get(("answer", key))
    if not isinstance(answer, FixedAnswer):
        answer = FixedAnswer.of(json_bytes(build()))
        store.derived[("answer", key)] = answer
    return answer.response(request.headers)


@router.get("/drives", response_model=DriveList)
def list_drives(request: Request, catalog: CatalogDep) -> Response:
    return _fixed(request, catalog, "drives", lambda: service.list_drives(catalog))


@router.get("/arrays", response_model=ArrayList)
def list_arrays(request: Request, catalog: CatalogDep) -> Response:
    return _fixed(request, catalog, "arrays", lambda: service.list_arrays(catalog))


@router.get("/arrays/{array_id}", response_model=ArrayDetail, responses=error_responses(404))
def get_array(
    request: Request, catalog: CatalogDep, array_id: Annotated[str, Path(min_length=1, max_length=80)]
) -> Response:
    return _fixed(request, catalog, ("array", array_id), lambda: service.get_array(catalog, array_id))


@router.get("/raid-schemes", response_model=RaidSchemeList)
def list_raid_schemes(request: Request, catalog: CatalogDep) -> Response:
    return _fixed(request, catalog, "raid-schemes", lambda: service.list_raid_schemes(catalog))


@router.get("/ports", response_model=PortList)
def list_ports(request: Request, catalog: CatalogDep) -> Response:
    return _fixed(request, catalog, "ports", lambda: service.list_ports(catalog))


@router.get("/workload-templates", response_model=WorkloadTemplateList)
def list_workload_templates(request: Request, catalog: CatalogDep) -> Response:
    return _fixed(request, catalog, "workload-templates", lambda: service.list_workload_templates(catalog))
