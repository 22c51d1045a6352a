"""Trace jobs name their trace by URL and say in how many partitions it is analysed.

A trace can be analysed from an object already in the trace storage (``source_url``) instead of
an upload, and in several partitions of its block keys (``partitions``, on a Dask cluster).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("trace_jobs") as batch:
        batch.add_column(sa.Column("source_url", sa.Text(), nullable=True))
        batch.add_column(sa.Column("partitions", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("trace_jobs") as batch:
        batch.drop_column("partitions")
        batch.drop_column("source_url")
