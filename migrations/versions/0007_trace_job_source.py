"""Trace jobs name their trace by URL and say in how many partitions it is analysed.

A trace can be analysed from an object already in the trace storage (``source_url``) instead of
an upload, and in several partitions of its block keys (``partitions``, on a Dask cluster).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.app.migration_guard import refuse_data_loss

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("trace_jobs") as batch:
        batch.add_column(sa.Column("source_url", sa.Text(), nullable=True))
        batch.add_column(sa.Column("partitions", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    refuse_data_loss(
        "0007",
        "the source URL and partition count of trace jobs",
        "SELECT count(*) FROM trace_jobs WHERE source_url IS NOT NULL OR partitions <> 1",
    )
    with op.batch_alter_table("trace_jobs") as batch:
        batch.drop_column("partitions")
        batch.drop_column("source_url")
