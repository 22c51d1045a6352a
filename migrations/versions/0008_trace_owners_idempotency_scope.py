"""Trace jobs get an owner; idempotency keys are scoped per client, with a salt per owner token.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28

``trace_jobs.owner_token_hash`` is the SHA-256 of the token handed out on upload (NULL for jobs
queued before: nobody can cancel or delete those through the API). ``idempotency_keys.token_salt``
is the random salt of the owner token derived on replay (``backend/app/core/idempotency.py``);
rows written before it (their key digests had no client) are never found again and expire. The
downgrade refuses to drop owners unless data loss is allowed (``backend/app/migration_guard.py``);
salts belong to remembered answers, a cache, and go without asking.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.app.migration_guard import refuse_data_loss

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("trace_jobs") as batch:
        batch.add_column(sa.Column("owner_token_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("token_salt", sa.String(64), nullable=True))


def downgrade() -> None:
    refuse_data_loss(
        "0008",
        "the owners of trace jobs",
        "SELECT count(*) FROM trace_jobs WHERE owner_token_hash IS NOT NULL",
    )
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("token_salt")
    with op.batch_alter_table("trace_jobs") as batch:
        batch.drop_column("owner_token_hash")
