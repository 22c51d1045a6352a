"""``/reports``: saved on the server's own result, immutable, recomputable, deletable by the owner only."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from backend.app.core.config import Settings
from backend.app.db import create_db_engine
from backend.app.main import create_app
from backend.app.reports.schemas import ReportCreated
from backend.app.tables import Report
from backend.tests.conftest import FAS3270, error_locs, phase, serve, workload
from models import ENGINE_VERSION

EVALUATE: dict[str, Any] = {"workloads": [workload()], "configuration": {**FAS3270, "drive_count": 48}}


def save(
    client: TestClient, kind: str = "evaluate", inputs: dict[str, Any] | None = None, **extra: Any
) -> dict:
    body = {"name": "Mail tier", "kind": kind, "inputs": inputs or EVALUATE, **extra}
    response = client.post("/api/v1/reports", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def report_count(url: str) -> int:
    engine = create_db_engine(url)
    try:
        with Session(engine) as session:
            return session.scalar(select(func.count()).select_from(Report)) or 0
    finally:
        engine.dispose()


def test_a_saved_report_has_an_unguessable_id_a_share_url_and_an_owner_token(client: TestClient) -> None:
    created = save(client)

    assert len(created["id"]) * 6 >= 128  # base64url characters carry 6 bits each
    assert created["share_url"] == f"/r/{created['id']}"
    assert len(created["owner_token"]) >= 32
    assert created["engine_version"] == ENGINE_VERSION
    assert created["catalog_version"] == client.get("/api/v1/health").json()["catalog_version"]


def test_the_server_recomputes_the_result_and_ignores_a_client_result(client: TestClient) -> None:
    created = save(client, result={"passed": True, "windows": "forged"})

    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()
    expected = client.post("/api/v1/evaluate", json=EVALUATE).json()

    assert snapshot["result"] == expected
    assert snapshot["inputs"]["configuration"] == {
        **EVALUATE["configuration"],
        **snapshot["inputs"]["configuration"],
    }
    assert snapshot["kind"] == "evaluate"
    assert snapshot["engine_version"] == ENGINE_VERSION
    assert snapshot["calibration"]["parameters"]["command_queuing"]["sas_fc"]["q_half"] > 0
    assert snapshot["configurations"][0]["array_id"] == "netapp-fas3270"
    assert snapshot["headline"]["drives_total"] == expected["bill"]["drives"] + expected["bill"]["spares"]


@pytest.mark.parametrize(
    ("kind", "inputs"),
    [
        ("size", {"workloads": [workload()], "configuration": FAS3270}),
        (
            "compare",
            {"workloads": [workload()], "base": {"array_id": "generic"}, "schemes": ["raid10", "raid6"]},
        ),
        ("curves", {"workloads": [workload()], "configuration": FAS3270}),
    ],
)
def test_every_kind_of_result_can_be_saved_and_exported(client: TestClient, kind: str, inputs: dict) -> None:
    created = save(client, kind, inputs)

    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()
    exported = client.get(f"/api/v1/reports/{created['id']}/export", params={"format": "csv"})

    assert snapshot["kind"] == kind
    assert snapshot["headline"]
    assert exported.status_code == 200
    assert len(list(csv.reader(io.StringIO(exported.text)))) > 10


def test_invalid_inputs_save_nothing(client: TestClient, migrated_db_url: str) -> None:
    bad = {"workloads": [workload(phases=[phase(read_pct=120)])], "configuration": FAS3270}

    response = client.post("/api/v1/reports", json={"name": "x", "kind": "evaluate", "inputs": bad})
    impossible = client.post(
        "/api/v1/reports",
        json={
            "name": "x",
            "kind": "evaluate",
            "inputs": {**EVALUATE, "configuration": {**FAS3270, "group_width": 99}},
        },
    )

    assert any("read_pct" in loc for loc in error_locs(response))
    assert error_locs(impossible) == [["body", "inputs", "configuration", "group_width"]]
    assert report_count(migrated_db_url) == 0


def test_a_report_is_committed_before_the_201(client: TestClient, migrated_db_url: str) -> None:
    created = save(client)

    engine = create_db_engine(migrated_db_url)  # a separate connection sees it at once
    try:
        with Session(engine) as session:
            row = session.get(Report, created["id"])
            assert row is not None
            assert row.owner_token_hash == hashlib.sha256(created["owner_token"].encode()).hexdigest()
            assert created["owner_token"] not in row.snapshot_json
    finally:
        engine.dispose()


def test_a_save_is_one_insert_committed_by_itself_with_nothing_read_back(client: TestClient) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    postgres = engine.dialect.name == "postgresql"
    statements: list[tuple[str, bool | None]] = []

    def record(connection: Any, cursor: Any, statement: str, *_: Any) -> None:
        statements.append((statement.split()[0].upper(), cursor.connection.autocommit if postgres else None))

    event.listen(engine, "before_cursor_execute", record)
    try:
        created = save(client)
    finally:
        event.remove(engine, "before_cursor_execute", record)

    # in psycopg's autocommit mode: no BEGIN or COMMIT round trip
    assert statements == [("INSERT", True if postgres else None)]
    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()
    assert snapshot["id"] == created["id"]


def test_the_201_is_the_answer_the_response_model_gives(client: TestClient) -> None:
    body = {"name": "Mail tier", "kind": "evaluate", "inputs": EVALUATE}
    key = {"Idempotency-Key": "the-201-is-the-response-model"}

    first = client.post("/api/v1/reports", json=body, headers=key)
    retry = client.post("/api/v1/reports", json=body, headers=key)
    recomputed = client.post(f"/api/v1/reports/{first.json()['id']}/recompute")

    adapter = TypeAdapter(ReportCreated)  # what FastAPI's response_model serializes with
    for answer in (first, retry, recomputed):
        assert answer.status_code == 201
        assert answer.headers["content-type"] == "application/json"
        assert answer.content == adapter.dump_json(adapter.validate_json(answer.content), by_alias=True)
    assert "Idempotent-Replayed" not in first.headers
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert recomputed.json()["recomputed_from"] == first.json()["id"]
    assert [c["changed"] for c in recomputed.json()["changes"]] == [False] * len(recomputed.json()["changes"])


def test_get_returns_the_snapshot_byte_for_byte_as_saved(client: TestClient, migrated_db_url: str) -> None:
    created = save(client)

    response = client.get(f"/api/v1/reports/{created['id']}")

    engine = create_db_engine(migrated_db_url)
    try:
        with Session(engine) as session:
            stored = session.get(Report, created["id"])
            assert stored is not None
            assert response.content == stored.snapshot_json.encode()
    finally:
        engine.dispose()
    assert response.headers["content-type"] == "application/json"


def test_a_report_reads_the_same_after_the_catalog_changes(
    migrated_db_url: str, make_settings: Callable[..., Settings], fixtures_copy: Path
) -> None:
    settings = make_settings(database_url=migrated_db_url, fixtures_dir=fixtures_copy)
    with serve(create_app(settings)) as before_change:
        created = save(before_change)
        saved = before_change.get(f"/api/v1/reports/{created['id']}").content

    # a new catalog release: the FAS3270 controller gets twice the CPU cost and a new version
    arrays = fixtures_copy / "catalog" / "netapp-fas.yaml"
    arrays.write_text(arrays.read_text().replace("cpu_us_read_miss: ", "cpu_us_read_miss: 2"))
    index = fixtures_copy / "catalog" / "catalog.yaml"
    index.write_text(index.read_text().replace('catalog_version: "', 'catalog_version: "2099.1.0" #'))

    with serve(create_app(settings)) as after_change:
        assert after_change.get("/api/v1/health").json()["catalog_version"] == "2099.1.0"
        assert after_change.get(f"/api/v1/reports/{created['id']}").content == saved

        recomputed = after_change.post(f"/api/v1/reports/{created['id']}/recompute")

        assert recomputed.status_code == 201, recomputed.text
        fresh = recomputed.json()
        assert fresh["id"] != created["id"]
        assert fresh["catalog_version"] == "2099.1.0"
        assert fresh["recomputed_from"] == created["id"]
        changed = {c["figure"] for c in fresh["changes"] if c["changed"]}
        assert "business hours: controller_busy_pct" in changed
        busy = next(c for c in fresh["changes"] if c["figure"] == "business hours: controller_busy_pct")
        assert busy["after"] > busy["before"]
        assert busy["delta"] == pytest.approx(busy["after"] - busy["before"])

        new_snapshot = after_change.get(f"/api/v1/reports/{fresh['id']}").json()
        assert new_snapshot["recomputed_from"] == created["id"]
        assert new_snapshot["changes"] == fresh["changes"]
        assert after_change.get(f"/api/v1/reports/{created['id']}").content == saved


def test_recompute_on_unchanged_versions_changes_nothing(client: TestClient) -> None:
    created = save(client)

    fresh = client.post(f"/api/v1/reports/{created['id']}/recompute").json()

    assert fresh["id"] != created["id"]
    assert fresh["changes"] and not any(c["changed"] for c in fresh["changes"])


def test_delete_needs_the_owner_token(client: TestClient) -> None:
    created = save(client)
    url = f"/api/v1/reports/{created['id']}"

    assert client.delete(url).status_code == 403
    assert client.delete(url, headers={"X-Owner-Token": "not-the-token"}).status_code == 403
    assert client.get(url).status_code == 200
    assert client.delete(url, headers={"X-Owner-Token": created["owner_token"]}).status_code == 204
    assert client.get(url).status_code == 404
    assert client.delete(url, headers={"X-Owner-Token": created["owner_token"]}).status_code == 404


@pytest.mark.parametrize(
    ("method", "suffix"), [("GET", ""), ("POST", "/recompute"), ("DELETE", ""), ("GET", "/export")]
)
def test_unknown_report_ids_are_404(client: TestClient, method: str, suffix: str) -> None:
    response = client.request(
        method, f"/api/v1/reports/no-such-report{suffix}", headers={"X-Owner-Token": "t"}
    )

    assert response.status_code == 404


def test_there_is_no_way_to_list_reports(client: TestClient) -> None:
    save(client)

    assert client.get("/api/v1/reports").status_code == 405


def test_json_export_is_the_snapshot_as_a_download(client: TestClient) -> None:
    created = save(client)

    exported = client.get(f"/api/v1/reports/{created['id']}/export")

    assert exported.content == client.get(f"/api/v1/reports/{created['id']}").content
    assert exported.headers["content-disposition"] == f'attachment; filename="report-{created["id"]}.json"'


def test_csv_export_has_one_row_per_window_and_component_figure(client: TestClient) -> None:
    two_windows = workload(phases=[phase(), phase(name="night", window="backup", iops=500, read_pct=10)])
    created = save(client, inputs={**EVALUATE, "workloads": [two_windows]})

    exported = client.get(f"/api/v1/reports/{created['id']}/export", params={"format": "csv"})

    assert exported.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert list(rows[0]) == ["configuration", "window", "component", "figure", "value", "unit"]
    busy = [r for r in rows if r["component"] == "controllers" and r["figure"] == "utilization_pct"]
    assert [r["window"] for r in busy] == ["business hours", "backup"]
    result = client.get(f"/api/v1/reports/{created['id']}").json()["result"]
    assert float(busy[0]["value"]) == result["windows"][0]["controller_utilization_pct"]["value"]
    assert {r["window"] for r in rows if r["component"] == "capacity"} == {"(all)"}


def test_csv_export_defuses_spreadsheet_formulas_in_names(client: TestClient) -> None:
    sneaky = workload(name="=HYPERLINK(1)")
    created = save(client, inputs={**EVALUATE, "workloads": [sneaky]})

    text = client.get(f"/api/v1/reports/{created['id']}/export", params={"format": "csv"}).text

    assert "phase '=HYPERLINK(1)/day" not in text  # the component starts with "phase", already safe
    assert not any(cell.startswith("=") for row in csv.reader(io.StringIO(text)) for cell in row)


HDD_10K = {
    "name": "Lab 10K",
    "kind": "hdd",
    "capacity_gb": 1200,
    "rpm": 10000,
    "avg_read_seek_ms": 4.2,
    "avg_write_seek_ms": 4.6,
    "media_rate_mb_s": 150,
}


def report_on_custom_drive(client: TestClient) -> tuple[dict, dict]:
    """(the custom drive as created, a report evaluated on it)."""
    drive = client.post("/api/v1/hardware", json={"kind": "drive", "spec": HDD_10K}).json()
    inputs = {
        "workloads": [workload()],
        "configuration": {"array_id": "generic", "drive_id": drive["id"], "drive_count": 24},
    }
    return drive, save(client, inputs=inputs)


def test_a_report_keeps_a_copy_of_the_custom_hardware_it_used(client: TestClient) -> None:
    drive, created = report_on_custom_drive(client)
    owner = {"X-Owner-Token": drive["owner_token"]}

    assert client.delete(f"/api/v1/hardware/{drive['id']}", headers=owner).status_code == 204

    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()
    assert [r["id"] for r in snapshot["custom_hardware"]] == [drive["id"]]
    assert snapshot["custom_hardware"][0]["spec"]["rpm"] == 10000
    recomputed = client.post(f"/api/v1/reports/{created['id']}/recompute")  # uses the saved copy
    assert recomputed.status_code == 201, recomputed.text
    assert not any(c["changed"] for c in recomputed.json()["changes"])
    assert recomputed.json()["hardware_drift"] == [
        {"id": drive["id"], "name": "Lab 10K", "change": "deleted"}
    ]


def test_a_recomputation_uses_the_saved_hardware_copy_and_says_the_live_record_changed(
    client: TestClient,
) -> None:
    drive, created = report_on_custom_drive(client)
    faster = {"kind": "drive", "spec": {**HDD_10K, "rpm": 15000}}
    edited = client.put(
        f"/api/v1/hardware/{drive['id']}", json=faster, headers={"X-Owner-Token": drive["owner_token"]}
    )

    recomputed = client.post(f"/api/v1/reports/{created['id']}/recompute").json()
    again = client.get(f"/api/v1/reports/{recomputed['id']}").json()

    assert edited.status_code == 200
    # the 10K copy, not the live 15K record: no headline figure moves
    assert not any(c["changed"] for c in recomputed["changes"])
    assert recomputed["hardware_drift"] == [{"id": drive["id"], "name": "Lab 10K", "change": "changed"}]
    assert again["hardware_drift"] == recomputed["hardware_drift"]
    assert again["custom_hardware"][0]["spec"]["rpm"] == 10000


def test_a_save_retried_with_the_same_idempotency_key_stores_one_report(
    client: TestClient, migrated_db_url: str
) -> None:
    body = {"name": "Mail tier", "kind": "evaluate", "inputs": EVALUATE}
    key = {"Idempotency-Key": "0b8f0d4e-5a7c-4e43-a1f2-6f0c9d2b7e31"}

    first = client.post("/api/v1/reports", json=body, headers=key)
    retry = client.post("/api/v1/reports", json=body, headers=key)
    changed = client.post("/api/v1/reports", json={**body, "name": "Other"}, headers=key)

    assert (first.status_code, retry.status_code, changed.status_code) == (201, 201, 409)
    assert retry.json() == first.json()  # same id, same owner token
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert report_count(migrated_db_url) == 1
    url = f"/api/v1/reports/{first.json()['id']}"
    assert client.delete(url, headers={"X-Owner-Token": retry.json()["owner_token"]}).status_code == 204


def test_concurrent_saves_with_one_idempotency_key_store_one_report(
    client: TestClient, migrated_db_url: str
) -> None:
    body = {"name": "Mail tier", "kind": "evaluate", "inputs": EVALUATE}
    key = {"Idempotency-Key": "concurrent-retries-of-one-save"}

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: client.post("/api/v1/reports", json=body, headers=key), range(4)))

    assert [a.status_code for a in answers] == [201] * 4
    assert len({a.json()["id"] for a in answers}) == 1
    assert len({a.json()["owner_token"] for a in answers}) == 1
    assert report_count(migrated_db_url) == 1


def test_an_unknown_kind_is_422(client: TestClient) -> None:
    response = client.post("/api/v1/reports", json={"name": "x", "kind": "poem", "inputs": {}})

    assert response.status_code == 422


def test_a_nul_character_is_refused_alike_on_every_database(client: TestClient) -> None:
    named = client.post("/api/v1/reports", json={"name": "a\x00b", "kind": "evaluate", "inputs": EVALUATE})
    inside = client.post(
        "/api/v1/reports",
        json={
            "name": "ok",
            "kind": "evaluate",
            "inputs": {**EVALUATE, "workloads": [workload(name="a\x00")]},
        },
    )

    assert error_locs(named) == [["body", "name"]]
    assert error_locs(inside) == [["body", "inputs", "workloads", 0, "name"]]


@pytest.mark.parametrize("report_id", ["a%00b", "not%20a%20token", "x" * 64])
def test_ids_no_report_could_have_are_404_without_a_database_error(
    client: TestClient, report_id: str
) -> None:
    assert client.get(f"/api/v1/reports/{report_id}").status_code == 404
    assert client.post(f"/api/v1/reports/{report_id}/recompute").status_code == 404
