"""Trace jobs record the server process that runs them.

With several uvicorn workers, a worker starting up must fail only the jobs whose process is gone
(a server restart), not the ones another live worker is running.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.app.migration_guard import refuse_data_loss

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("trace_jobs") as batch:
        batch.add_column(sa.Column("worker", sa.String(160), nullable=True))


def downgrade() -> None:
    refuse_data_loss(
        "0005", "the server process of trace jobs", "SELECT count(*) FROM trace_jobs WHERE worker IS NOT NULL"
    )
    with op.batch_alter_table("trace_jobs") as batch:
        batch.drop_column("worker")
