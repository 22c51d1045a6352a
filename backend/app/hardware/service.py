"""Custom hardware: create, read, replace and delete records, each validated by the engine's models.

A custom array's ``drives`` (and ``default_drive``) must name catalog drives or custom drive records;
a custom drive an array still names cannot be deleted (409 naming the array). Only the owner token
handed out on create (kept as a SHA-256 digest) replaces or deletes a record; anyone may read one.
Deleting a record does not touch saved reports: each report keeps a copy of the records it used.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from backend.app.catalog.service import CatalogStore
from backend.app.core import idempotency as idem
from backend.app.core.errors import (
    ID_PATTERN,
    Conflict,
    Forbidden,
    InvalidInput,
    Loc,
    NotFound,
    refuse_nul,
    well_formed_id,
)
from backend.app.core.owners import token_digest
from backend.app.hardware.schemas import (
    ArrayInput,
    DriveInput,
    HardwareCreated,
    HardwareInput,
    HardwareKind,
    HardwareList,
    HardwareRecord,
)
from backend.app.tables import CustomHardware, new_uuid, utcnow
from models.catalog import ArrayModel
from models.drives import DriveSpec

logger = logging.getLogger(__name__)

_RECORD: TypeAdapter[HardwareRecord] = TypeAdapter(HardwareRecord)
_CREATED: TypeAdapter[HardwareCreated] = TypeAdapter(HardwareCreated)


def to_record(row: CustomHardware) -> HardwareRecord:
    """The API record of a stored row (the stored spec is validated again by the engine's model)."""
    return _RECORD.validate_python(
        {"id": row.id, "kind": row.kind, "name": row.name, "spec": row.spec, "created_at": row.created_at}
    )


class DatabaseHardware:
    """Custom hardware looked up by id in the database (the source behind catalog references)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, record_id: str) -> HardwareRecord | None:
        if not ID_PATTERN.fullmatch(record_id):  # cannot be a record id: no need to ask the database
            return None
        row = self.session.get(CustomHardware, record_id)
        if row is None:
            return None
        try:
            return to_record(row)
        except ValidationError as exc:
            logger.warning("custom hardware %s no longer validates: %s", record_id, exc)
            return None


class OnDemandHardware:
    """Custom hardware looked up by id in a session of its own, opened for the lookup and closed
    after it (in the thread that asks); a record already looked up is not asked for again.

    The source behind the engine routes: almost none of their requests name custom hardware, and
    one that does still reads every record it names once. A session held for the whole request
    was closed by a generator dependency, which cost FastAPI more CPU per request than anything
    else it solves for ``/evaluate`` but the body. PostgreSQL reads committed data at each
    statement either way, so the records a request sees are the same as in one session.
    """

    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self.session_factory = session_factory
        self._records: dict[str, HardwareRecord | None] = {}

    def get(self, record_id: str) -> HardwareRecord | None:
        if not ID_PATTERN.fullmatch(record_id):  # cannot be a record id: no need to ask the database
            return None
        if record_id not in self._records:
            with self.session_factory() as session:
                self._records[record_id] = DatabaseHardware(session).get(record_id)
        return self._records[record_id]


def _spec(body: HardwareInput, record_id: str) -> dict[str, Any]:
    """The validated engine spec of ``body`` with its id set to the record id, as JSON data."""
    data = body.spec.model_dump(mode="json")
    if isinstance(body, DriveInput):
        data["id"] = record_id
        return DriveSpec.model_validate(data).model_dump(mode="json")
    if isinstance(body, ArrayInput):
        data["id"] = record_id
        return ArrayModel.model_validate(data).model_dump(mode="json")
    return data


def _check_array_drives(session: Session, catalog: CatalogStore, body: ArrayInput) -> None:
    """Every drive a custom array lists must exist: a catalog drive or a custom drive record."""
    known = catalog.get().drives
    wanted = list(body.spec.drives)
    if body.spec.default_drive is not None:
        wanted.append(body.spec.default_drive)
    custom_ids = {d for d in wanted if d not in known}
    custom_drives: set[str] = set()
    if custom_ids:
        custom_drives = set(
            session.scalars(
                select(CustomHardware.id).where(
                    CustomHardware.id.in_(custom_ids), CustomHardware.kind == "drive"
                )
            )
        )
    errors: list[tuple[Loc, str, str]] = [
        (
            ("body", "spec", "drives", j),
            f"unknown drive id {d!r} (not in the catalog or custom drives)",
            "value_error",
        )
        for j, d in enumerate(body.spec.drives)
        if d not in known and d not in custom_drives
    ]
    default = body.spec.default_drive
    if default is not None and default not in known and default not in custom_drives:
        errors.append((("body", "spec", "default_drive"), f"unknown drive id {default!r}", "value_error"))
    if errors:
        raise InvalidInput(errors)


def _name(body: HardwareInput) -> str:
    if body.name:
        return body.name
    spec = body.spec
    return spec.name if isinstance(body, DriveInput) else spec.model  # type: ignore[union-attr]


def _row(session: Session, record_id: str) -> CustomHardware:
    row = session.get(CustomHardware, well_formed_id("hardware", record_id))
    if row is None:
        raise NotFound("hardware", record_id)
    return row


def _check_owner(row: CustomHardware, owner_token: str | None) -> None:
    if row.owner_token_hash is None:
        raise Forbidden(f"hardware {row.id} was saved before records had owners; it cannot be changed")
    if not owner_token or not hmac.compare_digest(token_digest(owner_token), row.owner_token_hash):
        raise Forbidden("the X-Owner-Token header must carry this record's owner token")


def create(
    session: Session,
    catalog: CatalogStore,
    body: HardwareInput,
    idempotency: idem.Idempotency | None = None,
) -> tuple[HardwareCreated, bool]:
    """The new record with its owner token, False; or the first answer, True, when this is a retry
    of a create already stored under the same idempotency key."""
    first = idem.replay(session, idempotency, _CREATED, lambda i: session.get(CustomHardware, i) is not None)
    if first is not None:
        return first, True
    if isinstance(body, ArrayInput):
        _check_array_drives(session, catalog, body)
    record_id = new_uuid()
    name, spec = _name(body), _spec(body, record_id)
    refuse_nul([name, spec])
    owner_token = idem.owner_token(idempotency, record_id)
    row = CustomHardware(
        id=record_id,
        kind=body.kind,
        name=name,
        spec=spec,
        created_at=utcnow(),
        owner_token_hash=token_digest(owner_token),
    )
    session.add(row)
    created = _CREATED.validate_python({**to_record(row).model_dump(), "owner_token": owner_token})
    idem.remember(session, idempotency, 201, created)
    first = idem.commit(session, idempotency, _CREATED)
    return (first, True) if first is not None else (created, False)


def list_records(session: Session, kind: HardwareKind | None) -> HardwareList:
    query = select(CustomHardware).order_by(CustomHardware.created_at, CustomHardware.id)
    if kind is not None:
        query = query.where(CustomHardware.kind == kind)
    records: list[HardwareRecord] = []
    for row in session.scalars(query):
        try:
            records.append(to_record(row))
        except ValidationError as exc:  # stored under an older engine whose schema has since changed
            logger.warning("custom hardware %s no longer validates and is not listed: %s", row.id, exc)
    return HardwareList(hardware=records)


def get(session: Session, record_id: str) -> HardwareRecord:
    row = _row(session, record_id)
    try:
        return to_record(row)
    except ValidationError as exc:
        raise InvalidInput.at(
            ("path", "hardware_id"), f"the stored record no longer validates: {exc.errors()[0]['msg']}"
        ) from exc


def replace(
    session: Session, catalog: CatalogStore, record_id: str, body: HardwareInput, owner_token: str | None
) -> HardwareRecord:
    row = _row(session, record_id)
    _check_owner(row, owner_token)
    if body.kind != row.kind:
        raise InvalidInput.at(
            ("body", "kind"), f"record {record_id} is a {row.kind}; it cannot become a {body.kind}"
        )
    if isinstance(body, ArrayInput):
        _check_array_drives(session, catalog, body)
    name, spec = _name(body), _spec(body, record_id)
    refuse_nul([name, spec])
    row.name, row.spec = name, spec
    session.commit()
    return to_record(row)


def arrays_using(session: Session, drive_id: str) -> list[CustomHardware]:
    """The custom arrays that list ``drive_id`` among their drives or as their default drive."""
    arrays = session.scalars(
        select(CustomHardware).where(CustomHardware.kind == "array").order_by(CustomHardware.created_at)
    )
    return [
        row
        for row in arrays
        if drive_id in (row.spec.get("drives") or []) or row.spec.get("default_drive") == drive_id
    ]


def delete(session: Session, record_id: str, owner_token: str | None) -> None:
    row = _row(session, record_id)
    _check_owner(row, owner_token)
    if row.kind == "drive":
        users = arrays_using(session, record_id)
        if users:
            named = ", ".join(f"{array.name!r} ({array.id})" for array in users)
            raise Conflict(f"drive {record_id} is used by custom array {named}: change or delete that first")
    session.delete(row)
    session.commit()
