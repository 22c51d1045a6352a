"""Reports keep the exact JSON text of their snapshot, served byte for byte.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-21

PostgreSQL's JSONB reorders keys and rewrites numbers (``1e+20`` comes back as an integer), so a
report read from ``snapshot`` alone would not be the document that was saved. Existing rows get
their ``snapshot`` serialized as the text.

The downgrade keeps the text column (nullable again, so the code of 0001 can insert rows without
it), and the upgrade fills only the rows that have no text: a round trip keeps every saved report
byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    kept = "snapshot_json" in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("reports")}
    if not kept:
        with op.batch_alter_table("reports") as batch:
            batch.add_column(sa.Column("snapshot_json", sa.Text(), nullable=True))

    reports = sa.table(
        "reports",
        sa.column("id", sa.String(64)),
        sa.column("snapshot", sa.JSON()),
        sa.column("snapshot_json", sa.Text()),
    )
    connection = op.get_bind()
    missing = sa.select(reports.c.id, reports.c.snapshot).where(reports.c.snapshot_json.is_(None))
    for report_id, snapshot in connection.execute(missing).all():
        if isinstance(snapshot, str):  # SQLite drivers may hand back the raw text
            snapshot = json.loads(snapshot)
        connection.execute(
            reports.update().where(reports.c.id == report_id).values(snapshot_json=json.dumps(snapshot))
        )

    with op.batch_alter_table("reports") as batch:
        batch.alter_column("snapshot_json", existing_type=sa.Text(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("reports") as batch:
        batch.alter_column("snapshot_json", existing_type=sa.Text(), nullable=True)
