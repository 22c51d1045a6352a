"""Alembic migrations create exactly the tables in ``backend/app/tables.py``, and undo them."""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from backend.app.core.config import Settings
from backend.app.db import create_db_engine
from backend.app.migration_guard import DataLossRefused
from backend.app.tables import Base, CustomHardware, Report
from backend.tests.conftest import REPO_ROOT, alembic_config, migrate

APP_TABLES = {"reports", "custom_hardware", "trace_jobs", "idempotency_keys"}


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


# ---- lossless downgrades ----------------------------------------------------------------------

# JSON text PostgreSQL's JSONB would rewrite (key order, number spelling): kept byte for byte or not
SNAPSHOT_TEXT = '{"z": 1, "a": 1.50, "big": 1e+20, "list": [3, 2, 1], "name": "caf\\u00e9"}'
REVISIONS = ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008"]
DROPS_DATA = {
    "0001": "reports",
    "0003": "trace jobs",
    "0005": "trace job workers",
    "0006": "owners",
    "0008": "trace job owners",
}
"""Revisions whose downgrade must drop what the test stores, so it refuses unless allowed."""
JSON_COLUMNS = {"snapshot", "spec", "options", "error_detail", "result"}


def _columns(connection: Any, table: str) -> set[str]:
    return {c["name"] for c in inspect(connection).get_columns(table)}


def store_rows(url: str) -> None:
    """A report, a custom drive and a trace job, in whatever columns the current revision has."""
    engine = create_engine(url, poolclass=NullPool)
    at = "2025-06-01 12:00:00+00:00"
    try:
        with engine.begin() as connection:
            tables = set(inspect(connection).get_table_names())
            report = {
                "id": "kept-report",
                "name": "Mail tier",
                "owner_token_hash": "a" * 64,
                "created_at": at,
                "engine_version": "0.1.0",
                "catalog_version": "2025.1.0",
                "kind": "evaluate",
                "snapshot": SNAPSHOT_TEXT,
            }
            if "snapshot_json" in _columns(connection, "reports"):
                report["snapshot_json"] = SNAPSHOT_TEXT
            hardware = {
                "id": "kept-drive",
                "kind": "drive",
                "name": "Lab SSD",
                "spec": '{"capacity_gb": 3840, "kind": "ssd"}',
                "created_at": at,
            }
            if "owner_token_hash" in _columns(connection, "custom_hardware"):
                hardware["owner_token_hash"] = "b" * 64
            rows: dict[str, dict[str, Any]] = {"reports": report, "custom_hardware": hardware}
            if "trace_jobs" in tables:
                job = {
                    "id": "kept-job",
                    "status": "done",
                    "filename": "trace.csv",
                    "size_bytes": 123,
                    "options": '{"format": "msr"}',
                    "percent": 100.0,
                    "records": 10,
                    "records_per_s": 5.0,
                    "cancel_requested": False,
                    "result": '{"iops": 1.25}',
                    "created_at": at,
                    "updated_at": at,
                }
                if "worker" in _columns(connection, "trace_jobs"):
                    job["worker"] = "host/1/0"
                if "owner_token_hash" in _columns(connection, "trace_jobs"):
                    job["owner_token_hash"] = "e" * 64
                rows["trace_jobs"] = job
            if "idempotency_keys" in tables:
                rows["idempotency_keys"] = {
                    "key_digest": "c" * 64,
                    "request_digest": "d" * 64,
                    "status_code": 201,
                    "response_json": '{"id": "kept-report"}',
                    "created_at": at,
                }
                if "token_salt" in _columns(connection, "idempotency_keys"):
                    rows["idempotency_keys"]["token_salt"] = "f" * 32
            for table, row in rows.items():
                names = ", ".join(row)
                values = ", ".join(
                    f"CAST(:{k} AS JSONB)" if k in JSON_COLUMNS and url.startswith("postgresql") else f":{k}"
                    for k in row
                )
                connection.execute(text(f"INSERT INTO {table} ({names}) VALUES ({values})"), row)
    finally:
        engine.dispose()


def dump(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every app table; JSON(B) columns parsed, text columns as stored."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            out: dict[str, list[dict[str, Any]]] = {}
            for table in sorted(set(inspect(connection).get_table_names()) - {"alembic_version"}):
                rows = connection.execute(text(f"SELECT * FROM {table}")).mappings().all()
                out[table] = [
                    {
                        k: json.loads(v) if k in JSON_COLUMNS and isinstance(v, str) else str(v)
                        for k, v in row.items()
                    }
                    for row in rows
                ]
            return out
    finally:
        engine.dispose()


def current_revision(url: str) -> str:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return str(MigrationContext.configure(connection).get_current_revision())
    finally:
        engine.dispose()


@pytest.mark.parametrize("revision", REVISIONS)
def test_each_downgrade_and_upgrade_keeps_every_row_or_refuses_to_drop_it(db_url: str, revision: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, revision)
    store_rows(db_url)
    before = dump(db_url)
    below = f"{int(revision) - 1:04d}" if revision != "0001" else "base"

    if revision in DROPS_DATA:
        with pytest.raises(DataLossRefused, match=f"downgrading {revision} would drop"):
            command.downgrade(config, below)
        assert current_revision(db_url) == revision
        assert dump(db_url) == before  # refused before changing anything

        config.attributes["allow_data_loss"] = True
        command.downgrade(config, below)
        command.upgrade(config, revision)
        after = dump(db_url)
        if revision != "0001":  # reports stay byte for byte when trace jobs or owners go
            assert after["reports"] == before["reports"]
    else:
        command.downgrade(config, below)
        command.upgrade(config, revision)
        assert dump(db_url) == before  # every row, and each report's text byte for byte


def test_a_report_keeps_its_exact_text_through_a_round_trip_to_0001(db_url: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, "0002")
    store_rows(db_url)

    command.downgrade(config, "0001")
    command.upgrade(config, "head")

    (report,) = dump(db_url)["reports"]
    assert report["snapshot_json"] == SNAPSHOT_TEXT  # not json.dumps of the parsed document


def test_downgrade_to_base_with_saved_reports_exits_non_zero_and_keeps_them(migrated_db_url: str) -> None:
    store_rows(migrated_db_url)

    done = subprocess.run(
        [str(REPO_ROOT / ".venv" / "bin" / "alembic"), "-x", f"url={migrated_db_url}", "downgrade", "base"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )

    assert done.returncode != 0
    assert "allow_data_loss" in done.stderr
    assert current_revision(migrated_db_url) == REVISIONS[-1]
    assert [r["id"] for r in dump(migrated_db_url)["reports"]] == ["kept-report"]


def test_a_migration_waiting_for_a_lock_fails_at_its_lock_timeout_changing_nothing(pg_url: str) -> None:
    # issue #34: migrations ran without timeouts, so one queued behind a session holding a table
    # would have hung, and every request behind it
    migrate(pg_url, "0007")
    config = alembic_config(pg_url)
    config.cmd_opts = argparse.Namespace(x=["lock_timeout_ms=200"])
    holder = create_engine(pg_url, poolclass=NullPool)
    try:
        with holder.connect() as connection:
            connection.execute(text("LOCK TABLE trace_jobs IN ACCESS SHARE MODE"))  # held until the end
            with pytest.raises(OperationalError, match="lock timeout"):
                command.upgrade(config, "0008")
    finally:
        holder.dispose()

    assert current_revision(pg_url) == "0007"


def test_app_sessions_end_idle_transactions_and_bound_lock_waits(
    pg_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url=pg_url, db_idle_in_transaction_timeout_ms=1500)
    engine = create_db_engine(settings.database_url, settings.database_limits())
    try:
        with engine.connect() as connection:
            shown = [
                connection.execute(text(f"SHOW {name}")).scalar()
                for name in ("idle_in_transaction_session_timeout", "lock_timeout", "statement_timeout")
            ]
    finally:
        engine.dispose()

    assert shown == ["1500ms", "5s", "5s"]
