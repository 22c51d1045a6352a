"""Initial schema: saved reports and user-defined hardware.

Revision ID: 0001
Revises:
Create Date: 2025-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from backend.app.migration_guard import refuse_data_loss

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the types in backend/app/tables.py as they were at this revision.
JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP_UTC = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("owner_token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", TIMESTAMP_UTC, nullable=False),
        sa.Column("engine_version", sa.String(64), nullable=False),
        sa.Column("catalog_version", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("snapshot", JSON_DOCUMENT, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_table(
        "custom_hardware",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("spec", JSON_DOCUMENT, nullable=False),
        sa.Column("created_at", TIMESTAMP_UTC, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_custom_hardware")),
        sa.CheckConstraint("kind IN ('drive', 'controller', 'array')", name=op.f("ck_custom_hardware_kind")),
    )
    op.create_index(op.f("ix_custom_hardware_kind"), "custom_hardware", ["kind"])


def downgrade() -> None:
    refuse_data_loss(
        "0001",
        "every saved report and custom hardware record",
        "SELECT (SELECT count(*) FROM reports) + (SELECT count(*) FROM custom_hardware)",
    )
    op.drop_index(op.f("ix_custom_hardware_kind"), table_name="custom_hardware")
    op.drop_table("custom_hardware")
    op.drop_table("reports")
