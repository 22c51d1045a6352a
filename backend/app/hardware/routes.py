"""``/hardware``: user-defined drives, controllers and arrays (CRUD)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Response, status

from backend.app.core.deps import CatalogDep, SessionDep
from backend.app.hardware import service
from backend.app.hardware.schemas import HardwareInput, HardwareKind, HardwareList, HardwareRecord
from backend.app.schemas import error_responses

router = APIRouter(prefix="/hardware", tags=["hardware"], responses=error_responses(503))

HardwareId = Annotated[str, Path(min_length=1, max_length=64, description="record id")]


@router.post("", status_code=status.HTTP_201_CREATED, responses=error_responses(400))
def create(
    session: SessionDep, catalog: CatalogDep, body: Annotated[HardwareInput, Body()]
) -> HardwareRecord:
    return service.create(session, catalog, body)


@router.get("", name="list")
def list_records(
    session: SessionDep,
    kind: Annotated[HardwareKind | None, Query(description="only records of this kind")] = None,
) -> HardwareList:
    return service.list_records(session, kind)


@router.get("/{hardware_id}", responses=error_responses(404))
def get(session: SessionDep, hardware_id: HardwareId) -> HardwareRecord:
    return service.get(session, hardware_id)


@router.put("/{hardware_id}", responses=error_responses(400, 404))
def replace(
    session: SessionDep, catalog: CatalogDep, hardware_id: HardwareId, body: Annotated[HardwareInput, Body()]
) -> HardwareRecord:
    return service.replace(session, catalog, hardware_id, body)


@router.delete("/{hardware_id}", status_code=status.HTTP_204_NO_CONTENT, responses=error_responses(404))
def delete(session: SessionDep, hardware_id: HardwareId) -> Response:
    service.delete(session, hardware_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
