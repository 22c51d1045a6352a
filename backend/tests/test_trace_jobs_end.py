"""Trace jobs always end (issue #34: a trace line holding a NUL byte left its job "running" for
ever, because PostgreSQL refused the outcome; seven of them filled the queue until a restart).
A NUL fails the job with a message, an outcome the database refuses is stored as a failure, a
watchdog fails jobs without progress, DELETE ends any state, the queue counts live jobs only
(SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from backend.app.core.config import Settings
from backend.app.core.owners import token_digest
from backend.app.db import create_db_engine
from backend.app.main import create_app
from backend.app.tables import TraceJob, utcnow
from backend.app.traces.jobs import Outcome, store_outcome
from backend.app.traces.service import this_worker
from backend.tests.conftest import serve
from backend.tests.test_traces_api import trace_bytes, wait_for


def with_nul(line: int = 1500, requests: int = 2000) -> bytes:
    """A 2,000-request MSR trace whose line ``line`` holds a NUL byte (the head check passes)."""
    lines = trace_bytes(requests=requests).split(b"\n")
    lines[line - 1] = lines[line - 1][:5] + b"\x00" + lines[line - 1][5:]
    return b"\n".join(lines)


@pytest.fixture
def settings(migrated_db_url: str, make_settings: Callable[..., Settings], tmp_path: Path) -> Settings:
    return make_settings(
        database_url=migrated_db_url, traces_dir=tmp_path / "t", trace_queue_max=1, rate_limits_enabled=False
    )


@pytest.fixture
def api(settings: Settings) -> Iterator[TestClient]:
    with serve(create_app(settings)) as client:
        yield client


def owner_of(job_id: str) -> dict[str, str]:
    """The X-Owner-Token header of a job made by :func:`add_jobs`."""
    return {"X-Owner-Token": f"owner-of-{job_id}"}


def add_jobs(settings: Settings, **jobs: dict[str, Any]) -> None:
    """Rows of trace jobs of this (live) process: ``id=dict(status=..., age_s=...)``."""
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:
        for job_id, values in jobs.items():
            at = utcnow() - timedelta(seconds=values.get("age_s", 0))
            session.add(
                TraceJob(
                    id=job_id,
                    status=values["status"],
                    filename="x",
                    size_bytes=1,
                    options={},
                    worker=this_worker(),
                    cancel_requested=values.get("cancel_requested", False),
                    owner_token_hash=token_digest(owner_of(job_id)["X-Owner-Token"]),
                    created_at=at,
                    updated_at=at,
                )
            )
        session.commit()
    engine.dispose()


def test_ten_nul_uploads_in_a_row_each_fail_with_a_message_and_leave_the_queue_free(api: TestClient) -> None:
    ended = []
    for _ in range(10):  # the queue holds one job: each upload needs the one before to have ended
        created = api.post("/api/v1/traces", content=with_nul())
        assert created.status_code == 202, created.text
        ended.append(wait_for(api, created.json()["id"]))
    after = api.post("/api/v1/traces", content=trace_bytes(requests=500))

    assert {job["status"] for job in ended} == {"failed"}
    assert ended[0]["error"].startswith("line 1,500 holds a NUL byte: a text trace has none")
    assert ended[0]["bad_lines"][0]["line"] == 1500
    assert "\u2400" in ended[0]["bad_lines"][0]["text"]  # the NUL, shown as the symbol for NUL
    assert after.status_code == 202
    assert wait_for(api, after.json()["id"])["status"] == "done"


def test_an_outcome_the_database_refuses_is_stored_as_a_failure_saying_so(settings: Settings) -> None:
    add_jobs(settings, j={"status": "running"})
    engine = create_db_engine(settings.database_url)
    store_outcome(sessionmaker(engine), "j", Outcome("done", result={"x": {1, 2}}))  # not JSON
    with Session(engine) as session:
        job = session.get(TraceJob, "j")
        assert job is not None
        assert (job.status, job.error) == (
            "failed",
            "the analysis ended (done) but the database refused its outcome",
        )
    engine.dispose()


def test_an_outcome_never_overwrites_a_job_cancelled_or_failed_meanwhile(settings: Settings) -> None:
    add_jobs(settings, c={"status": "cancelled"}, f={"status": "failed"})
    engine = create_db_engine(settings.database_url)
    for job_id in ("c", "f"):
        store_outcome(sessionmaker(engine), job_id, Outcome("done", result={}))
    with Session(engine) as session:
        assert [session.get(TraceJob, j).status for j in ("c", "f")] == ["cancelled", "failed"]  # type: ignore[union-attr]
    engine.dispose()


def test_the_watchdog_fails_jobs_without_progress_and_frees_their_slots(
    migrated_db_url: str, make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings(
        database_url=migrated_db_url, traces_dir=tmp_path / "t", trace_queue_max=2, trace_job_stall_s=60
    )
    add_jobs(settings, stuck={"status": "running", "age_s": 61}, waiting={"status": "queued", "age_s": 120})
    with serve(create_app(settings)) as client:
        stuck = client.get("/api/v1/traces/stuck").json()
        created = client.post("/api/v1/traces", content=trace_bytes(requests=500))
        waiting = client.get("/api/v1/traces/waiting").json()

    assert stuck["status"] == "failed"
    assert stuck["error"] == "no progress for 60 s: stopped by the server's watchdog (TRACE_JOB_STALL_S)"
    assert waiting["status"] == "failed"  # waited 120 s while no job moved
    assert created.status_code == 202


def test_a_queued_job_behind_a_moving_one_is_left_waiting(
    migrated_db_url: str, make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings(database_url=migrated_db_url, traces_dir=tmp_path / "t", trace_job_stall_s=60)
    add_jobs(settings, moving={"status": "running", "age_s": 5}, waiting={"status": "queued", "age_s": 120})
    with serve(create_app(settings)) as client:
        statuses = [client.get(f"/api/v1/traces/{j}").json()["status"] for j in ("moving", "waiting")]

    assert statuses == ["running", "queued"]


def test_delete_cancels_a_queued_job_at_once_and_a_running_one_when_asked_twice(
    api: TestClient, settings: Settings
) -> None:
    add_jobs(settings, queued={"status": "queued"}, running={"status": "running"})

    queued = api.delete("/api/v1/traces/queued", headers=owner_of("queued"))
    asked = api.delete("/api/v1/traces/running", headers=owner_of("running"))
    forced = api.delete("/api/v1/traces/running", headers=owner_of("running"))

    assert (queued.status_code, queued.json()["status"], queued.json()["error"]) == (
        202,
        "cancelled",
        "cancelled",
    )
    assert (asked.status_code, asked.json()["status"], asked.json()["cancel_requested"]) == (
        202,
        "running",
        True,
    )
    assert (forced.status_code, forced.json()["status"]) == (202, "cancelled")
    assert forced.json()["error"] == "cancelled (the analysis had not stopped)"
    assert [
        api.delete(f"/api/v1/traces/{j}", headers=owner_of(j)).status_code for j in ("queued", "running")
    ] == [
        204,
        204,
    ]


def test_a_job_cancelled_while_it_runs_stops_at_its_next_progress_check(
    api: TestClient, settings: Settings
) -> None:
    created = api.post("/api/v1/traces", content=trace_bytes(requests=400_000))
    job_id = created.json()["id"]
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:  # what a second DELETE does, while the analysis goes on
        session.execute(update(TraceJob).where(TraceJob.id == job_id).values(status="cancelled"))
        session.commit()
    engine.dispose()
    body = wait_for(api, job_id)

    assert body["status"] == "cancelled"
    assert api.post("/api/v1/traces", content=trace_bytes(requests=500)).status_code == 202


def test_a_job_over_its_cpu_time_budget_fails_saying_so(
    migrated_db_url: str, make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings(database_url=migrated_db_url, traces_dir=tmp_path / "t", trace_job_max_cpu_s=0)
    with serve(create_app(settings)) as client:
        created = client.post("/api/v1/traces", content=trace_bytes(requests=2000))
        body = wait_for(client, created.json()["id"])

    assert body["status"] == "failed"
    assert body["error"].startswith("the analysis used more than 0 s of CPU time (")
