"""The ``trace_jobs`` table: one uploaded trace and its background analysis.

Defined on the shared :class:`~backend.app.tables.Base` (so ``Base.metadata`` and the Alembic
comparison see it once this module is imported; ``backend.app.main`` imports it through the router).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, CheckConstraint, Float, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from backend.app.tables import Base, JSONDocument, UTCDateTime, new_uuid, utcnow

JOB_STATUSES = ("queued", "running", "done", "failed", "cancelled")
ACTIVE_STATUSES = ("queued", "running")
STATUS_CHECK = "status IN (" + ", ".join(f"'{s}'" for s in JOB_STATUSES) + ")"


class TraceJob(Base):
    """Progress and result of one trace analysis; the upload itself lives under ``settings.traces_dir``."""

    __tablename__ = "trace_jobs"
    __table_args__ = (CheckConstraint(STATUS_CHECK, name="status"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_uuid)
    status: Mapped[str] = mapped_column(String(16), index=True, default="queued")
    filename: Mapped[str] = mapped_column(String(255), default="")
    size_bytes: Mapped[int] = mapped_column(BigInteger, default=0)
    options: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    percent: Mapped[float] = mapped_column(Float, default=0.0)
    records: Mapped[int] = mapped_column(BigInteger, default=0)
    records_per_s: Mapped[float] = mapped_column(Float, default=0.0)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    error_detail: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
