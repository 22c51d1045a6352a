"""Custom hardware gets an owner; writes remember their first answer per Idempotency-Key.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22

``custom_hardware.owner_token_hash`` is the SHA-256 of the token handed out on create (NULL for
records saved before: nobody can edit or delete those through the API). ``idempotency_keys`` keeps
the first answer to a write sent with an ``Idempotency-Key`` header, for the retries of that write.
The downgrade refuses to drop owners unless data loss is allowed (``backend/app/migration_guard.py``);
remembered answers are a cache and go without asking.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from backend.app.migration_guard import refuse_data_loss

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copy of the type in backend/app/tables.py as it was at this revision.
TIMESTAMP_UTC = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("custom_hardware") as batch:
        batch.add_column(sa.Column("owner_token_hash", sa.String(64), nullable=True))
    op.create_table(
        "idempotency_keys",
        sa.Column("key_digest", sa.String(64), nullable=False),
        sa.Column("request_digest", sa.String(64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("response_json", sa.Text(), nullable=False),
        sa.Column("created_at", TIMESTAMP_UTC, nullable=False),
        sa.PrimaryKeyConstraint("key_digest", name=op.f("pk_idempotency_keys")),
    )
    op.create_index(op.f("ix_idempotency_keys_created_at"), "idempotency_keys", ["created_at"])


def downgrade() -> None:
    refuse_data_loss(
        "0006",
        "the owners of custom hardware records",
        "SELECT count(*) FROM custom_hardware WHERE owner_token_hash IS NOT NULL",
    )
    op.drop_index(op.f("ix_idempotency_keys_created_at"), table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("custom_hardware") as batch:
        batch.drop_column("owner_token_hash")
