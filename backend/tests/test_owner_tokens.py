"""Owner tokens nobody else can replay (issue #34: anyone could cancel a trace job; a second
client replaying the first one's Idempotency-Key and body got its owner token and deleted its
report). Trace jobs have owners; keys live in one space per client and operation; a replay of
a deleted record is a 410 (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from backend.app.core.config import Settings
from backend.app.core.idempotency import Idempotency
from backend.app.main import create_app
from backend.tests.conftest import FAS3270, serve, workload
from backend.tests.test_hardware_api import HDD
from backend.tests.test_traces_api import trace_bytes

KEY = {"Idempotency-Key": "4d1e6b8a-2f3c-4a5b-9c7d-0e1f2a3b4c5d"}
REPORT = {
    "name": "Mail tier",
    "kind": "evaluate",
    "inputs": {"workloads": [workload()], "configuration": {**FAS3270, "drive_count": 48}},
}


@pytest.fixture
def app(migrated_db_url: str, make_settings: Callable[..., Settings], tmp_path: Path) -> Iterator[FastAPI]:
    settings = make_settings(
        database_url=migrated_db_url, traces_dir=tmp_path / "t", rate_limits_enabled=False
    )
    application = create_app(settings)
    with serve(application):
        yield application


def at(app: FastAPI, address: str) -> TestClient:
    """A client of ``app`` connecting from ``address``."""
    return TestClient(app, client=(address, 40000), raise_server_exceptions=False)


def owner(answer: Any) -> dict[str, str]:
    return {"X-Owner-Token": answer.json()["owner_token"]}


def test_a_trace_job_is_cancelled_and_deleted_with_its_owner_token_only(app: FastAPI) -> None:
    client = at(app, "10.0.0.1")
    created = client.post("/api/v1/traces", content=trace_bytes(requests=500))
    job = f"/api/v1/traces/{created.json()['id']}"

    missing = client.delete(job)
    wrong = client.delete(job, headers={"X-Owner-Token": "not-the-token"})
    cancelled = client.delete(job, headers=owner(created))

    assert created.status_code == 202 and len(created.json()["owner_token"]) >= 40
    assert (missing.status_code, wrong.status_code) == (403, 403)
    assert missing.json()["detail"].startswith("the X-Owner-Token header must carry the owner token")
    assert cancelled.status_code in (202, 204)


@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/v1/reports", REPORT), ("/api/v1/hardware", {"kind": "drive", "spec": HDD})],
)
def test_another_client_replaying_a_key_gets_its_own_record_never_the_first_ones_token(
    app: FastAPI, path: str, body: dict[str, Any]
) -> None:
    first_client, second_client = at(app, "10.0.0.1"), at(app, "10.0.0.2")

    first = first_client.post(path, json=body, headers=KEY)
    replay = first_client.post(path, json=body, headers=KEY)
    second = second_client.post(path, json=body, headers=KEY)

    assert (first.status_code, replay.status_code, second.status_code) == (201, 201, 201)
    assert replay.json() == first.json() and replay.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in second.headers
    assert second.json()["id"] != first.json()["id"]
    assert second.json()["owner_token"] != first.json()["owner_token"]
    assert second_client.delete(f"{path}/{first.json()['id']}", headers=owner(second)).status_code == 403


def test_another_client_replaying_a_trace_upload_key_queues_its_own_job(app: FastAPI) -> None:
    first_client, second_client = at(app, "10.0.0.1"), at(app, "10.0.0.2")
    data = trace_bytes(requests=500)

    first = first_client.post("/api/v1/traces", content=data, headers=KEY)
    replay = first_client.post("/api/v1/traces", content=data, headers=KEY)
    second = second_client.post("/api/v1/traces", content=data, headers=KEY)

    assert replay.json() == first.json() and replay.headers["Idempotent-Replayed"] == "true"
    assert second.status_code == 202 and "Idempotent-Replayed" not in second.headers
    assert second.json()["owner_token"] != first.json()["owner_token"]
    assert (
        second_client.delete(f"/api/v1/traces/{first.json()['id']}", headers=owner(second)).status_code == 403
    )


@pytest.mark.parametrize(
    ("path", "body", "deleted"),
    [
        ("/api/v1/reports", REPORT, 204),
        ("/api/v1/hardware", {"kind": "drive", "spec": HDD}, 204),
        ("/api/v1/traces", None, 202),  # a queued job is cancelled; the second DELETE removes it
    ],
)
def test_a_replay_of_a_deleted_record_is_410_and_a_new_key_creates_another(
    app: FastAPI, path: str, body: dict[str, Any] | None, deleted: int
) -> None:
    client = at(app, "10.0.0.1")
    send: dict[str, Any] = {"json": body} if body is not None else {"content": trace_bytes(requests=500)}

    first = client.post(path, headers=KEY, **send)
    record = f"{path}/{first.json()['id']}"
    while (gone := client.delete(record, headers=owner(first))).status_code != 204:
        assert gone.status_code == deleted
    replay = client.post(path, headers=KEY, **send)
    fresh = client.post(path, headers={"Idempotency-Key": KEY["Idempotency-Key"] + "-2"}, **send)

    assert replay.status_code == 410
    assert replay.json()["detail"] == (
        f"the record this Idempotency-Key created ({first.json()['id']}) has been deleted; "
        "use a new key to create another"
    )
    assert fresh.status_code in (201, 202) and fresh.json()["id"] != first.json()["id"]


def test_an_owner_token_needs_the_key_and_the_stored_salt() -> None:
    write = Idempotency("reports.create", "k" * 20, "d", 60.0, client="10.0.0.1")
    same_key_other_salt = Idempotency("reports.create", "k" * 20, "d", 60.0, client="10.0.0.1")

    assert write.owner_token("r1") == write.owner_token("r1", write.salt)
    assert write.owner_token("r1") != same_key_other_salt.owner_token("r1")
    assert (
        write.key_digest != Idempotency("reports.create", "k" * 20, "d", 60.0, client="10.0.0.2").key_digest
    )
