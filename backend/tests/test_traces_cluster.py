"""Trace jobs beyond one process: shared storage (fsspec), traces named by URL, a Dask cluster
(a ``LocalCluster`` of 2 worker processes), two API processes, a submitting process killed."""

from __future__ import annotations

import io
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import dask
import pytest
from distributed import LocalCluster
from sqlalchemy.orm import Session

from backend.app.core.config import Settings
from backend.app.db import create_db_engine
from backend.app.main import create_app
from backend.app.tables import TraceJob
from backend.app.traces.cluster import WORKER_CONFIG
from backend.tests.conftest import REPO_ROOT, serve
from backend.tests.test_traces_api import trace_bytes, wait_for
from models.traces import TraceFormat, TraceOptions, analyze_trace
from models.traces.mrc import mean_absolute_error

# one LocalCluster (module-scoped fixture) serves every test here: under pytest-xdist they run on
# one worker (`--dist loadgroup`), not one cluster of two processes per worker
pytestmark = pytest.mark.xdist_group("dask-cluster")

VOLUMES_MSR = b"""128166372000000000,usr,0,Read,0,4096,100
128166372010000000,usr,1,Write,8192,8192,100
128166372020000000,web,0,Read,4096,4096,100
"""


def _job_rows(settings: Settings) -> list[str]:
    engine = create_db_engine(settings.database_url)
    with Session(engine) as session:
        rows = [j.id for j in session.query(TraceJob).all()]
    engine.dispose()
    return rows


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    return tmp_path / "store"


@pytest.fixture
def local_settings(migrated_db_url: str, make_settings: Callable[..., Settings], store_dir: Path) -> Settings:
    return make_settings(database_url=migrated_db_url, traces_url=f"file://{store_dir}")


def test_a_trace_named_by_url_in_the_storage_is_analysed_and_left_in_place(
    local_settings: Settings, store_dir: Path
) -> None:
    corpus = store_dir / "corpus" / "msr.csv"
    corpus.parent.mkdir(parents=True)
    corpus.write_bytes(trace_bytes(TraceFormat.MSR, 5000))

    with serve(create_app(local_settings)) as client:
        created = client.post(f"/api/v1/traces?source_url=file://{corpus}")
        assert created.status_code == 202, created.text
        body = wait_for(client, created.json()["id"])
        assert body["status"] == "done", body
        assert body["source_url"] == f"file://{corpus}" and body["filename"] == "msr.csv"
        assert body["result"]["profile"]["records"] == 5000
        owner = {"X-Owner-Token": created.json()["owner_token"]}
        assert client.delete(f"/api/v1/traces/{body['id']}", headers=owner).status_code == 204

    assert corpus.exists()  # a trace named by URL is the user's: deleting the job keeps it


@pytest.mark.parametrize("where", ["/etc/hostname", "outside"])
def test_a_url_outside_the_storage_or_missing_is_a_422_at_source_url(
    local_settings: Settings, store_dir: Path, where: str
) -> None:
    url = where if where.startswith("/") else f"file://{store_dir}/no-such-trace.csv"
    with serve(create_app(local_settings)) as client:
        response = client.post("/api/v1/traces", params={"source_url": url})

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["query", "source_url"]
    assert _job_rows(local_settings) == []


def test_a_volume_filter_matching_nothing_is_a_400_listing_the_volumes(local_settings: Settings) -> None:
    with serve(create_app(local_settings)) as client:
        response = client.post("/api/v1/traces?volumes=mail", content=VOLUMES_MSR)
        kept = client.post("/api/v1/traces?volumes=usr", content=VOLUMES_MSR)
        body = wait_for(client, kept.json()["id"])

    assert response.status_code == 400
    assert response.json()["volumes"] == ["usr/0", "usr/1", "web/0"]
    assert "matches none of the volumes" in response.json()["detail"]
    assert body["status"] == "done" and body["result"]["profile"]["records"] == 2
    assert [v["selected"] for v in body["result"]["volumes"]] == [True, True, False]


def test_unreachable_storage_is_a_503_with_nothing_created(
    migrated_db_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url=migrated_db_url, traces_url="file:///proc/sizer-traces")
    with serve(create_app(settings)) as client:
        response = client.post("/api/v1/traces", content=trace_bytes(requests=100))

    assert response.status_code == 503
    assert "trace storage" in response.json()["detail"]
    assert "/proc" not in response.json()["detail"]  # no server path in an answer
    assert _job_rows(settings) == []


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_scheduler_is_a_503_with_nothing_created(
    migrated_db_url: str, make_settings: Callable[..., Settings], store_dir: Path
) -> None:
    settings = make_settings(
        database_url=migrated_db_url,
        traces_url=f"file://{store_dir}",
        dask_scheduler_address=f"tcp://127.0.0.1:{_closed_port()}",
        dask_connect_timeout_s=0.5,
    )
    with serve(create_app(settings)) as client:
        response = client.post("/api/v1/traces", content=trace_bytes(requests=100))

    assert response.status_code == 503
    assert "Dask scheduler" in response.json()["detail"]
    assert _job_rows(settings) == []
    assert not store_dir.exists() or list(store_dir.iterdir()) == []


# ---- on a Dask cluster ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """Two worker processes of one thread each, for the module's tests (~5 s to start)."""
    dask.config.set(WORKER_CONFIG)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as c:
        yield c


@pytest.fixture
def dask_settings(
    migrated_db_url: str, make_settings: Callable[..., Settings], store_dir: Path, cluster: LocalCluster
) -> Settings:
    return make_settings(
        database_url=migrated_db_url,
        traces_url=f"file://{store_dir}",
        dask_scheduler_address=cluster.scheduler_address,
    )


def test_a_job_on_a_two_worker_cluster_matches_the_in_process_analysis(dask_settings: Settings) -> None:
    data = trace_bytes(TraceFormat.MSR, 40_000)
    with serve(create_app(dask_settings)) as client:
        created = client.post("/api/v1/traces?interval_s=5&policies=arc", content=data)
        assert created.status_code == 202, created.text
        body = wait_for(client, created.json()["id"], timeout_s=60)

    here = analyze_trace(io.BytesIO(data), TraceOptions(interval_s=5, policies=["arc"]))
    assert body["status"] == "done", body
    assert body["partitions"] == 2  # one per worker thread
    result = body["result"]
    assert result["partitions"] == 2
    for key in ("records", "read_pct", "sequential_pct", "footprint_blocks", "mean_iops", "peak_iops"):
        assert result["profile"][key] == pytest.approx(getattr(here.profile, key), rel=1e-12), key
    assert result["profile"]["series"]["working_set_gb"] == here.profile.series.working_set_gb
    assert result["tiers"] == here.tiers.model_dump(mode="json")
    for got, want in zip(result["mrc"], here.mrc, strict=True):
        assert got["policy"] == want.policy
        assert mean_absolute_error(got["request_miss_ratio"], want.request_miss_ratio) <= 0.03


def _serve_in_a_process(settings: Settings, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "TRACES_URL": settings.traces_url or "",
        "DASK_SCHEDULER_ADDRESS": settings.dask_scheduler_address or "",
        "FIXTURES_DIR": str(settings.fixtures_dir),
        "FRONTEND_DIST": str(settings.frontend_dist),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "backend.app.main:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the API process did not start")


def test_a_job_survives_the_death_of_the_api_process_that_submitted_it(dask_settings: Settings) -> None:
    """Two API processes share the database and the storage: a job submitted through one (then
    killed with SIGKILL) is seen, progresses and completes through the other."""
    import httpx

    port = _closed_port()
    first = _serve_in_a_process(dask_settings, port)
    try:
        created = httpx.post(
            f"http://127.0.0.1:{port}/api/v1/traces?interval_s=5",
            content=trace_bytes(TraceFormat.MSR, 50_000),
            timeout=60,
        )
        assert created.status_code == 202, created.text
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    job_id = created.json()["id"]

    with serve(create_app(dask_settings)) as second:  # its start-up must not fail the cluster's job
        seen = [second.get(f"/api/v1/traces/{job_id}").json()]
        body = wait_for(second, job_id, timeout_s=90)

    assert seen[0]["status"] in ("queued", "running", "done")
    assert body["status"] == "done", body
    assert body["result"]["profile"]["records"] == 50_000
