"""``/hardware``: user-defined drives, controllers and arrays (CRUD)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request, Response, status

from backend.app.core.deps import CatalogDep, SessionDep, SettingsDep
from backend.app.core.idempotency import REPLAYED_HEADER, Idempotency, IdempotencyKeyHeader
from backend.app.core.ratelimit import WriteQuota, client_of
from backend.app.hardware import service
from backend.app.hardware.schemas import (
    HardwareCreated,
    HardwareInput,
    HardwareKind,
    HardwareList,
    HardwareRecord,
)
from backend.app.schemas import error_responses

router = APIRouter(prefix="/hardware", tags=["hardware"], responses=error_responses(503))

HardwareId = Annotated[str, Path(min_length=1, max_length=64, description="record id")]
OwnerToken = Annotated[
    str | None, Header(max_length=200, description="the owner token from the record's creation")
]
QUOTA = [Depends(WriteQuota("hardware"))]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses=error_responses(400, 409, 410, 429),
    dependencies=QUOTA,
)
def create(
    session: SessionDep,
    catalog: CatalogDep,
    settings: SettingsDep,
    body: Annotated[HardwareInput, Body()],
    request: Request,
    response: Response,
    idempotency_key: IdempotencyKeyHeader = None,
) -> HardwareCreated:
    """A new record and its owner token (editing and deleting need it). With an
    ``Idempotency-Key``, a retry gets the first answer (``Idempotent-Replayed: true``)."""
    key = Idempotency.of(
        "hardware.create", idempotency_key, body, settings.idempotency_ttl_s, client_of(request)
    )
    created, replayed = service.create(session, catalog, body, key)
    if replayed:
        response.headers[REPLAYED_HEADER] = "true"
    return created


@router.get("", name="list")
def list_records(
    session: SessionDep,
    kind: Annotated[HardwareKind | None, Query(description="only records of this kind")] = None,
) -> HardwareList:
    return service.list_records(session, kind)


@router.get("/{hardware_id}", responses=error_responses(404))
def get(session: SessionDep, hardware_id: HardwareId) -> HardwareRecord:
    return service.get(session, hardware_id)


@router.put("/{hardware_id}", responses=error_responses(400, 403, 404, 429), dependencies=QUOTA)
def replace(
    session: SessionDep,
    catalog: CatalogDep,
    hardware_id: HardwareId,
    body: Annotated[HardwareInput, Body()],
    x_owner_token: OwnerToken = None,
) -> HardwareRecord:
    """The record's new spec (its kind stays); needs the owner token."""
    return service.replace(session, catalog, hardware_id, body, x_owner_token)


@router.delete(
    "/{hardware_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(403, 404, 409, 429),
    dependencies=QUOTA,
)
def delete(session: SessionDep, hardware_id: HardwareId, x_owner_token: OwnerToken = None) -> Response:
    """Delete the record (needs the owner token); a drive a custom array still uses is 409."""
    service.delete(session, hardware_id, x_owner_token)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
