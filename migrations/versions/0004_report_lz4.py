"""Reports: LZ4 compression for the two snapshot columns on PostgreSQL.

A snapshot is tens of kilobytes of JSON, stored twice (JSONB for queries, text for exact reads);
PostgreSQL's default pglz compression of both was most of the cost of saving a report. LZ4
(PostgreSQL 14+, built with lz4 as the Debian and Docker images are) compresses them several times
faster. A server without LZ4 keeps pglz: the migration notes it and goes on. SQLite: nothing.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _set_compression(method: str) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        f"""
        DO $$
        BEGIN
            ALTER TABLE reports
                ALTER COLUMN snapshot SET COMPRESSION {method},
                ALTER COLUMN snapshot_json SET COMPRESSION {method};
        EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
            RAISE NOTICE 'reports: % compression not available here; the columns keep their own', '{method}';
        END
        $$;
        """
    )


def upgrade() -> None:
    _set_compression("lz4")


def downgrade() -> None:
    _set_compression("pglz")
