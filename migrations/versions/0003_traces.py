"""Trace analysis jobs.

Revision ID: 0003
Revises: 0002
Create Date: 2025-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from backend.app.migration_guard import refuse_data_loss

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the types in backend/app/tables.py as they were at this revision.
JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP_UTC = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "trace_jobs",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("filename", sa.String(255), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("options", JSON_DOCUMENT, nullable=False),
        sa.Column("percent", sa.Float(), nullable=False),
        sa.Column("records", sa.BigInteger(), nullable=False),
        sa.Column("records_per_s", sa.Float(), nullable=False),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("error_detail", JSON_DOCUMENT, nullable=True),
        sa.Column("result", JSON_DOCUMENT, nullable=True),
        sa.Column("created_at", TIMESTAMP_UTC, nullable=False),
        sa.Column("updated_at", TIMESTAMP_UTC, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trace_jobs")),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed', 'cancelled')",
            name=op.f("ck_trace_jobs_status"),
        ),
    )
    op.create_index(op.f("ix_trace_jobs_status"), "trace_jobs", ["status"])


def downgrade() -> None:
    refuse_data_loss("0003", "every trace job", "SELECT count(*) FROM trace_jobs")
    op.drop_index(op.f("ix_trace_jobs_status"), table_name="trace_jobs")
    op.drop_table("trace_jobs")
