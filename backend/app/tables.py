"""Database tables (SQLAlchemy 2.x typed ORM).

Named ``tables.py`` so nobody confuses it with the engine in ``models/``. The schema itself is created
by the Alembic migrations in ``migrations/versions``; keep the two in step (tests compare them).
"""

from __future__ import annotations

import base64
import secrets
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    bindparam,
    cast,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

# JSON on SQLite, JSONB (binary, indexable) on PostgreSQL.
JSONDocument = JSON().with_variant(JSONB(), "postgresql")


def json_document_param(name: str, dialect_name: str) -> ColumnElement[Any]:
    """The value of a :data:`JSONDocument` column given as JSON text already serialized, in the
    bound parameter ``name`` (a statement built once, the text given when it runs).

    PostgreSQL parses the text into JSONB itself (``CAST(:name AS JSONB)``), and SQLite's JSON
    column is the text as is: the document is not parsed and dumped again in Python on the way in.
    """
    value = bindparam(name, type_=Text())
    return cast(value, JSONB) if dialect_name == "postgresql" else value


HARDWARE_KINDS = ("drive", "controller", "array")
HARDWARE_KIND_CHECK = "kind IN (" + ", ".join(f"'{kind}'" for kind in HARDWARE_KINDS) + ")"

TRACE_JOB_STATUSES = ("queued", "running", "done", "failed", "cancelled")
TRACE_JOB_ACTIVE = ("queued", "running")
TRACE_JOB_STATUS_CHECK = "status IN (" + ", ".join(f"'{s}'" for s in TRACE_JOB_STATUSES) + ")"

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC timestamps on every backend.

    PostgreSQL stores ``timestamptz``; SQLite has no time zones and gives back naive values, which are
    UTC because only UTC is ever written.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime; store timezone-aware UTC values")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_report_id() -> str:
    """URL-safe random token, 24 bytes = 192 bits (32 characters)."""
    return secrets.token_urlsafe(24)


def new_id_and_token() -> tuple[str, str]:
    """A report id (24 random bytes, 32 characters) and an owner token (32 bytes, 43 characters)
    from one draw of 56 random bytes: one call to the system's random source per saved report."""
    raw = secrets.token_bytes(56)
    return base64.urlsafe_b64encode(raw[:24]).decode(), base64.urlsafe_b64encode(raw[24:]).decode().rstrip(
        "="
    )


def new_uuid() -> str:
    return str(uuid.uuid4())


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Report(Base):
    """A saved, shareable result: the inputs and outputs frozen with the versions that produced them.

    ``snapshot_json`` is the snapshot exactly as saved, the text every read returns (PostgreSQL's
    JSONB would reorder keys and rewrite numbers); ``snapshot`` holds the same document as JSON(B)
    for queries.
    """

    __tablename__ = "reports"

    id: Mapped[str] = mapped_column(String(64), primary_key=True, default=new_report_id)
    name: Mapped[str] = mapped_column(String(200))
    owner_token_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex of the owner token
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    engine_version: Mapped[str] = mapped_column(String(64))
    catalog_version: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(32))  # "evaluate", "size", "compare", ...
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    snapshot_json: Mapped[str] = mapped_column(Text)


class CustomHardware(Base):
    """A user-defined drive, controller or array, stored beside the built-in catalog."""

    __tablename__ = "custom_hardware"
    __table_args__ = (CheckConstraint(HARDWARE_KIND_CHECK, name="kind"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_uuid)
    kind: Mapped[str] = mapped_column(String(16), index=True)
    name: Mapped[str] = mapped_column(String(200))
    spec: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # sha256 hex of the owner token; NULL for records saved before owners existed (nobody edits those)
    owner_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class IdempotencyKey(Base):
    """The first answer to a write sent with an ``Idempotency-Key`` header, replayed to retries.

    Neither the key nor an owner token is stored: the row is found by a digest of the operation,
    the client and the key, and an owner token handed out under a key is derived from the key and
    the row's salt again on replay (see ``core.idempotency``).
    """

    __tablename__ = "idempotency_keys"

    key_digest: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256(operation, key)
    request_digest: Mapped[str] = mapped_column(String(64))  # sha256 of the validated request
    status_code: Mapped[int] = mapped_column(Integer)
    response_json: Mapped[str] = mapped_column(Text)  # the answer without its owner token
    token_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)  # of the owner token
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)


class TraceJob(Base):
    """Progress and result of one trace analysis (``/traces``); the upload itself lives under
    ``settings.traces_dir``."""

    __tablename__ = "trace_jobs"
    __table_args__ = (CheckConstraint(TRACE_JOB_STATUS_CHECK, name="status"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_uuid)
    status: Mapped[str] = mapped_column(String(16), index=True, default="queued")
    filename: Mapped[str] = mapped_column(String(255), default="")
    size_bytes: Mapped[int] = mapped_column(BigInteger, default=0)
    options: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    percent: Mapped[float] = mapped_column(Float, default=0.0)
    records: Mapped[int] = mapped_column(BigInteger, default=0)
    records_per_s: Mapped[float] = mapped_column(Float, default=0.0)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    # the server process running the job: "host/pid/start time" (see traces.service.this_worker),
    # or "dask:<scheduler address>" for a job the Dask cluster runs
    worker: Mapped[str | None] = mapped_column(String(160), nullable=True)
    # sha256 hex of the owner token handed out on upload (NULL for jobs queued before owners)
    owner_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the trace when it was named by URL (an object already in the trace storage), else None
    source_url: Mapped[str | None] = mapped_column(Text, nullable=True)
    partitions: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    error_detail: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
