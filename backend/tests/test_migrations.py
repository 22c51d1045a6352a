"""Alembic migrations create exactly the tables in ``backend/app/tables.py``, and undo them."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from backend.app.db import create_db_engine
from backend.app.tables import Base, CustomHardware, Report
from backend.tests.conftest import alembic_config

APP_TABLES = {"reports", "custom_hardware", "trace_jobs"}


def table_names(url: str) -> set[str]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_migrations_upgrade_to_head_and_downgrade_to_base(db_url: str) -> None:
    config = alembic_config(db_url)

    command.upgrade(config, "head")
    assert table_names(db_url) == APP_TABLES | {"alembic_version"}

    command.downgrade(config, "base")
    assert table_names(db_url) & APP_TABLES == set()

    command.upgrade(config, "head")  # and the downgrade left nothing in the way
    assert table_names(db_url) >= APP_TABLES


def test_migrated_schema_matches_the_table_definitions(migrated_db_url: str) -> None:
    engine = create_engine(migrated_db_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        engine.dispose()

    assert diff == []


def test_report_round_trips_its_json_snapshot_with_a_utc_timestamp(migrated_db_url: str) -> None:
    engine = create_db_engine(migrated_db_url)
    snapshot = {"inputs": {"drives": 24, "raid": "RAID6 (8+2)"}, "outputs": {"iops": 41250.5}, "notes": None}
    taken_at = datetime(2025, 3, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    try:
        with Session(engine) as session:
            report = Report(
                name="Mail tier",
                owner_token_hash=hashlib.sha256(b"owner-token").hexdigest(),
                engine_version="0.1.0",
                catalog_version="2025-01",
                kind="evaluate",
                snapshot=snapshot,
                snapshot_json=json.dumps(snapshot),
                created_at=taken_at,
            )
            session.add(report)
            session.commit()
            report_id = report.id

        with Session(engine) as session:
            stored = session.scalars(select(Report).where(Report.id == report_id)).one()
    finally:
        engine.dispose()

    assert stored.snapshot == snapshot
    assert stored.created_at == taken_at
    assert stored.created_at.utcoffset() == timedelta(0)
    assert stored.created_at.hour == 12  # 14:00+02:00 stored and returned as 12:00 UTC


def test_new_report_ids_are_url_safe_tokens_of_at_least_128_bits(migrated_db_url: str) -> None:
    engine = create_db_engine(migrated_db_url)
    try:
        with Session(engine) as session:
            reports = [
                Report(
                    name=f"r{i}",
                    owner_token_hash="0" * 64,
                    engine_version="0.1.0",
                    catalog_version="x",
                    kind="size",
                    snapshot={},
                    snapshot_json="{}",
                )
                for i in range(3)
            ]
            session.add_all(reports)
            session.commit()
            ids = [r.id for r in reports]
            created = [r.created_at for r in reports]
    finally:
        engine.dispose()

    assert len(set(ids)) == 3
    for report_id in ids:
        assert len(report_id) * 6 >= 128  # base64url: 6 bits per character
        assert set(report_id) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert all(t.tzinfo is not None and t.utcoffset() == timedelta(0) for t in created)
    assert all(abs(datetime.now(UTC) - t) < timedelta(minutes=1) for t in created)


def test_custom_hardware_kind_must_be_drive_controller_or_array(migrated_db_url: str) -> None:
    engine = create_db_engine(migrated_db_url)
    try:
        with Session(engine) as session:
            session.add(CustomHardware(kind="drive", name="My SSD", spec={"capacity_tb": 3.84}))
            session.commit()

            session.add(CustomHardware(kind="toaster", name="Not hardware", spec={}))
            with pytest.raises(IntegrityError):
                session.commit()
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_postgresql_stores_json_documents_as_jsonb(pg_url: str) -> None:
    command.upgrade(alembic_config(pg_url), "head")
    engine = create_engine(pg_url, poolclass=NullPool)
    try:
        inspector = inspect(engine)
        types = {
            (table, column["name"]): type(column["type"]).__name__
            for table in APP_TABLES
            for column in inspector.get_columns(table)
        }
    finally:
        engine.dispose()

    assert types[("reports", "snapshot")] == "JSONB"
    assert types[("custom_hardware", "spec")] == "JSONB"


def test_migration_0002_keeps_existing_reports_with_their_snapshot_as_text(db_url: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, "0001")
    snapshot = {"inputs": {"drives": 24}, "result": {"iops": 41250.5, "passed": True}}
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(Report).values(
                    id="old-report",
                    name="saved before 0002",
                    owner_token_hash="0" * 64,
                    created_at=datetime(2025, 1, 1, tzinfo=UTC),
                    engine_version="0.1.0",
                    catalog_version="2025.1.0",
                    kind="evaluate",
                    snapshot=snapshot,
                )
            )

        command.upgrade(config, "head")

        with engine.connect() as connection:
            stored = connection.execute(
                text("SELECT snapshot_json FROM reports WHERE id = 'old-report'")
            ).scalar()
    finally:
        engine.dispose()

    assert stored is not None
    assert json.loads(stored) == snapshot


def _snapshot_compression(url: str) -> dict[str, str]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT attname, attcompression FROM pg_attribute "
                    "WHERE attrelid = 'reports'::regclass AND attname IN ('snapshot', 'snapshot_json')"
                )
            )
            return {name: method for name, method in rows}
    finally:
        engine.dispose()


def test_report_snapshots_are_lz4_compressed_on_postgresql_and_back_to_pglz_after_downgrade(
    pg_url: str,
) -> None:
    """This server is built with LZ4 (Debian's PostgreSQL is), so 0004 must have switched both columns."""
    config = alembic_config(pg_url)
    command.upgrade(config, "head")
    assert _snapshot_compression(pg_url) == {"snapshot": "l", "snapshot_json": "l"}

    command.downgrade(config, "0003")
    assert _snapshot_compression(pg_url) == {"snapshot": "p", "snapshot_json": "p"}
