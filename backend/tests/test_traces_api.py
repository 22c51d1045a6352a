"""``/api/v1/traces``: upload -> poll -> done, cancel, 400 on garbage, restart recovery (SQLite and PostgreSQL)."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.app.core.config import Settings
from backend.app.db import create_db_engine
from backend.app.main import create_app
from backend.app.tables import TraceJob
from backend.tests.conftest import serve
from models.traces import TraceFormat
from models.traces.synthetic import SyntheticSpec, generate, write_trace
from models.workload import Workload


def trace_bytes(fmt: TraceFormat = TraceFormat.MSR, requests: int = 20_000) -> bytes:
    buf = io.BytesIO()
    spec = SyntheticSpec(requests=requests, n_blocks=20_000, iops=1000.0, latency_ms=3.0)
    write_trace(generate(spec), fmt, buf)
    return buf.getvalue()


@pytest.fixture
def traces_settings(migrated_db_url: str, make_settings: Callable[..., Settings], tmp_path: Path) -> Settings:
    return make_settings(database_url=migrated_db_url, traces_dir=tmp_path / "traces")


@pytest.fixture
def api(traces_settings: Settings) -> Iterator[TestClient]:
    with serve(create_app(traces_settings)) as client:
        yield client


def wait_for(client: TestClient, job_id: str, timeout_s: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        body = client.get(f"/api/v1/traces/{job_id}").json()
        if body["status"] in ("done", "failed", "cancelled") or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_upload_poll_done_returns_profile_curves_tiers_and_a_workload(api: TestClient) -> None:
    data = gzip.compress(trace_bytes())
    created = api.post(
        "/api/v1/traces?interval_s=5&name=mail&policies=arc&policies=s3fifo",
        content=data,
        headers={"content-type": "application/octet-stream"},
    )
    assert created.status_code == 202, created.text
    job_id = created.json()["id"]

    body = wait_for(api, job_id)

    assert body["status"] == "done", body
    assert body["percent"] == 100.0 and body["records"] == 20_000
    result = body["result"]
    assert result["parse"]["format"] == "msr"
    assert result["profile"]["records"] == 20_000
    assert [c["policy"] for c in result["mrc"]] == ["lru", "arc", "s3fifo"]
    assert result["curves_computed"] == ["lru", "arc", "s3fifo"]
    assert len(result["tiers"]["rows"]) == 6
    workload = Workload.model_validate(result["derived"]["workload"])
    assert workload.name == "mail" and workload.phases[0].iops > 0


def test_multipart_upload_with_a_given_format(api: TestClient) -> None:
    files = {"file": ("run.iolog", trace_bytes(TraceFormat.FIO_IOLOG, 3000), "application/octet-stream")}
    created = api.post("/api/v1/traces?format=fio", files=files)
    assert created.status_code == 202, created.text

    body = wait_for(api, created.json()["id"])

    assert body["status"] == "done" and body["filename"] == "run.iolog"
    assert body["result"]["parse"]["format"] == "fio"


def test_garbage_is_refused_with_400(api: TestClient) -> None:
    garbage = bytes(np.random.default_rng(0).integers(0, 256, 20_000, dtype=np.uint8))
    response = api.post("/api/v1/traces", content=garbage)
    assert response.status_code == 400
    assert "format" in response.json()["detail"]


def test_mostly_malformed_file_is_refused_with_a_sample_of_bad_lines(api: TestClient) -> None:
    text = b"0.1,R,0,4096\n" + b"".join(b"%d,Q,zz,4096\n" % i for i in range(50))
    response = api.post("/api/v1/traces?format=csv", content=text)

    assert response.status_code == 400
    body = response.json()
    assert body["format"] == "csv" and body["malformed_lines"] == 50
    assert [b["line"] for b in body["bad_lines"]][:3] == [2, 3, 4]


def test_bad_options_are_a_422(api: TestClient) -> None:
    response = api.post("/api/v1/traces?interval_s=0.5", content=trace_bytes(requests=100))
    assert response.status_code == 422


def test_delete_cancels_a_running_job_then_deletes_it(api: TestClient, traces_settings: Settings) -> None:
    created = api.post("/api/v1/traces", content=trace_bytes(TraceFormat.CSV, 400_000))
    job_id = created.json()["id"]
    owner = {"X-Owner-Token": created.json()["owner_token"]}

    cancelled = api.delete(f"/api/v1/traces/{job_id}", headers=owner)
    assert cancelled.status_code == 202
    assert cancelled.json()["cancel_requested"] is True
    body = wait_for(api, job_id)
    assert body["status"] == "cancelled"

    assert api.delete(f"/api/v1/traces/{job_id}", headers=owner).status_code == 204
    assert api.get(f"/api/v1/traces/{job_id}").status_code == 404
    assert not (traces_settings.traces_dir / job_id).exists()


def test_unknown_job_is_404(api: TestClient) -> None:
    assert api.get("/api/v1/traces/nope").status_code == 404
    assert api.delete("/api/v1/traces/nope").status_code == 404


def test_jobs_interrupted_by_a_restart_are_failed_at_start_up(traces_settings: Settings) -> None:
    engine = create_db_engine(traces_settings.database_url)
    with Session(engine) as session:
        session.add(TraceJob(id="interrupted", status="running", filename="x", size_bytes=1, options={}))
        session.commit()
    engine.dispose()

    with serve(create_app(traces_settings)) as client:
        body = client.get("/api/v1/traces/interrupted").json()

    assert body["status"] == "failed" and "restart" in body["error"]


def test_start_up_fails_only_the_jobs_whose_worker_process_is_gone(traces_settings: Settings) -> None:
    """A second uvicorn worker starting must not fail the job a live worker is running."""
    import socket

    from backend.app.traces.service import this_worker

    host = socket.gethostname()
    workers = {
        "live": this_worker(),  # this test process: alive
        "dead": f"{host}/{2**22 + 12345}/1",  # above Linux's pid_max: no such process
        "reused": this_worker().rsplit("/", 1)[0] + "/1",  # this pid, another start time
        "elsewhere": "another-host/1/1",
        "unknown": None,
    }
    engine = create_db_engine(traces_settings.database_url)
    with Session(engine) as session:
        for job_id, worker in workers.items():
            session.add(
                TraceJob(id=job_id, status="running", filename="x", size_bytes=1, options={}, worker=worker)
            )
        session.commit()
    engine.dispose()

    with serve(create_app(traces_settings)) as client:
        status = {job_id: client.get(f"/api/v1/traces/{job_id}").json()["status"] for job_id in workers}

    assert status == {
        "live": "running",
        "dead": "failed",
        "reused": "failed",
        "elsewhere": "failed",
        "unknown": "failed",
    }


def test_trace_uploads_have_their_own_size_limit(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings(max_body_bytes=1000, max_trace_bytes=5000, traces_dir=tmp_path / "t")
    client = TestClient(create_app(settings))

    assert client.post("/api/v1/traces", content=b"x" * 6000).status_code == 413
    assert client.post("/api/v1/traces", content=b"x" * 3000).status_code != 413  # over 1000, under 5000
    assert client.post("/api/v1/import/fio", content=b"x" * 3000).status_code == 413


def test_trace_jobs_table_is_in_the_metadata_alembic_compares() -> None:
    # Regression: TraceJob lived in backend/app/traces/tables.py, imported only through the
    # router, so migrations/env.py (which imports backend.app.tables alone) saw no trace_jobs
    # table and `alembic revision --autogenerate` proposed to drop it. A fresh interpreter,
    # since this test process has imported the app (and so every table) already.
    code = "from backend.app.tables import Base; print(sorted(Base.metadata.tables))"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)

    assert "trace_jobs" in out.stdout


def _rows(settings: Settings) -> list[tuple[str, str, int]]:
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:
        rows = [(j.id, j.status, j.size_bytes) for j in session.query(TraceJob).all()]
    engine.dispose()
    return rows


def test_a_refused_upload_leaves_neither_a_row_nor_a_folder(
    api: TestClient, traces_settings: Settings
) -> None:
    garbage = bytes(np.random.default_rng(1).integers(0, 256, 50_000, dtype=np.uint8))

    assert api.post("/api/v1/traces", content=garbage).status_code == 400
    assert api.post("/api/v1/traces", content=b"").status_code == 400

    assert _rows(traces_settings) == []
    assert not traces_settings.traces_dir.exists() or list(traces_settings.traces_dir.iterdir()) == []


def test_start_up_removes_orphaned_upload_folders_and_unfinished_uploads(traces_settings: Settings) -> None:
    from backend.app.traces.storage import UPLOAD_NAME

    kept, cut, orphan = (f"{i:08d}-0000-4000-8000-000000000000" for i in range(3))
    engine = create_db_engine(traces_settings.database_url)
    with Session(engine) as session:
        session.add(TraceJob(id=kept, status="done", filename="x", size_bytes=10, options={}))
        # an upload cut off by a crash: its row says 0 bytes and its process is gone
        session.add(TraceJob(id=cut, status="queued", filename="x", size_bytes=0, options={}, worker=None))
        session.commit()
    engine.dispose()
    for folder in (kept, cut, orphan, "corpus"):  # "corpus": not a job folder (traces named by URL)
        (traces_settings.traces_dir / folder).mkdir(parents=True)
        (traces_settings.traces_dir / folder / UPLOAD_NAME).write_bytes(b"0.1,R,0,4096\n")

    with serve(create_app(traces_settings)) as client:
        assert client.get(f"/api/v1/traces/{cut}").status_code == 404

    assert sorted(p.name for p in traces_settings.traces_dir.iterdir()) == sorted([kept, "corpus"])
    assert [r[0] for r in _rows(traces_settings)] == [kept]


def test_a_full_queue_answers_429_with_retry_after_before_reading_the_body(
    make_settings: Callable[..., Settings], migrated_db_url: str, tmp_path: Path
) -> None:
    settings = make_settings(database_url=migrated_db_url, traces_dir=tmp_path / "t", trace_queue_max=1)
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:
        from backend.app.traces.service import this_worker

        session.add(
            TraceJob(
                id="busy", status="running", filename="x", size_bytes=1, options={}, worker=this_worker()
            )
        )
        session.commit()
    engine.dispose()

    with serve(create_app(settings)) as client:
        response = client.post("/api/v1/traces", content=trace_bytes(requests=100))

    assert response.status_code == 429
    assert int(response.headers["retry-after"]) > 0
    assert "queued or running" in response.json()["detail"]
    assert [r[0] for r in _rows(settings)] == ["busy"]


def test_a_nul_in_the_workload_name_is_a_422_at_the_name(api: TestClient) -> None:
    response = api.post("/api/v1/traces?name=a%00b", content=trace_bytes(requests=100))

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["query", "name"]


def test_an_unknown_cache_policy_is_a_422_at_policies(api: TestClient) -> None:
    response = api.post("/api/v1/traces?policies=belady", content=trace_bytes(requests=100))

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][:2] == ["query", "policies"]


def test_a_gzip_bomb_fails_its_job_at_the_decompressed_size_cap(
    make_settings: Callable[..., Settings], migrated_db_url: str, tmp_path: Path
) -> None:
    settings = make_settings(
        database_url=migrated_db_url, traces_dir=tmp_path / "t", max_trace_text_bytes=4 * 1024 * 1024
    )
    line = b"0.5,R,4096,4096\n"
    bomb = gzip.compress(line * (64 * 1024 * 1024 // len(line)), compresslevel=9)  # 64 MiB -> ~100 KB

    with serve(create_app(settings)) as client:
        created = client.post("/api/v1/traces", content=bomb)
        assert created.status_code == 202, created.text
        body = wait_for(client, created.json()["id"])

    assert body["status"] == "failed"
    assert "more than 4,194,304 bytes of text" in body["error"]


def test_an_idempotency_key_replays_the_first_job_and_a_new_body_under_it_is_a_409(
    api: TestClient, traces_settings: Settings
) -> None:
    key = {"Idempotency-Key": "trace-upload-0001-abcdef"}
    data = trace_bytes(requests=500)

    first = api.post("/api/v1/traces?interval_s=5", content=data, headers=key)
    again = api.post("/api/v1/traces?interval_s=5", content=data, headers=key)
    other_body = api.post("/api/v1/traces?interval_s=5", content=data + b"\n", headers=key)
    other_options = api.post("/api/v1/traces?interval_s=10", content=data, headers=key)

    assert first.status_code == 202 and "idempotent-replayed" not in first.headers
    assert again.status_code == 202 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    assert other_body.status_code == 409 and other_options.status_code == 409
    assert [r[0] for r in _rows(traces_settings)] == [first.json()["id"]]  # one job, one upload
    assert [p.name for p in traces_settings.traces_dir.iterdir()] == [first.json()["id"]]


def test_a_client_over_its_trace_quota_gets_429_with_retry_after(
    make_settings: Callable[..., Settings], migrated_db_url: str, tmp_path: Path
) -> None:
    settings = make_settings(
        database_url=migrated_db_url, traces_dir=tmp_path / "t", rate_limit_traces="2/minute"
    )
    with serve(create_app(settings)) as client:
        codes = [client.post("/api/v1/traces", content=trace_bytes(requests=100)) for _ in range(3)]

    assert [r.status_code for r in codes] == [202, 202, 429]
    assert int(codes[2].headers["retry-after"]) > 0
