"""``/import``: Iometer and fio files into a phase; a parse error is a 422 at ``text``."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import FAS3270, error_locs, workload

# the published Iometer file-server access specification
FILE_SERVER_SPEC = (
    "'size,% of size,% reads,% random,delay,burst,align,reply\n"
    "512,10,80,100,0,1,0,0\n"
    "1024,5,80,100,0,1,0,0\n"
    "2048,5,80,100,0,1,0,0\n"
    "4096,60,80,100,0,1,0,0\n"
    "8192,2,80,100,0,1,0,0\n"
    "16384,4,80,100,0,1,0,0\n"
    "32768,4,80,100,0,1,0,0\n"
    "65536,10,80,100,0,1,0,0\n"
)

FIO_JOB = "[oltp]\nrw=randrw\nrwmixread=70\nbs=8k\niodepth=16\nrate_iops=700\nnumjobs=2\n"

FIO_RESULT = {
    "fio version": "fio-3.35",
    "jobs": [
        {
            "jobname": "oltp",
            "job options": {"rw": "randrw", "iodepth": "8"},
            "read": {"iops": 3000, "bw_bytes": 3000 * 4096, "lat_ns": {"mean": 2_000_000}},
            "write": {"iops": 1000, "bw_bytes": 1000 * 8192, "lat_ns": {"mean": 500_000}},
        }
    ],
}


def test_an_iometer_spec_becomes_a_phase_in_the_requested_window(client: TestClient) -> None:
    response = client.post(
        "/api/v1/import/iometer", json={"text": FILE_SERVER_SPEC, "window": "business hours"}
    )

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["imported"]["source_format"] == "iometer"
    assert (body["phase"]["read_pct"], body["phase"]["random_pct"]) == (80, 100)
    assert body["phase"]["window"] == "business hours"
    assert [s["size_kib"] for s in body["phase"]["io_sizes"]] == [0.5, 1, 2, 4, 8, 16, 32, 64]


def test_an_imported_phase_drops_straight_into_an_evaluation(client: TestClient) -> None:
    imported = client.post("/api/v1/import/iometer", json={"text": FILE_SERVER_SPEC, "name": "files"}).json()
    phase = {**imported["phase"], "iops": 3000}

    response = client.post(
        "/api/v1/evaluate", json={"workloads": [workload(phases=[phase])], "configuration": FAS3270}
    )

    assert response.status_code == 200, response.text
    assert response.json()["windows"][0]["window"] == "imported"


def test_a_fio_job_file_gives_rate_and_queue_depth(client: TestClient) -> None:
    response = client.post("/api/v1/import/fio", json={"text": FIO_JOB, "format": "job"})

    assert response.status_code == 200, response.text
    imported = response.json()["imported"]
    assert imported["source_format"] == "fio-job"
    assert imported["iops"] == pytest.approx(2000)  # 700 read IOPS cap / 70% reads x 2 jobs
    assert imported["queue_depth"] == 32


def test_a_fio_json_result_gives_measured_latencies(client: TestClient) -> None:
    response = client.post("/api/v1/import/fio", json={"text": json.dumps(FIO_RESULT), "format": "json"})

    assert response.status_code == 200, response.text
    imported = response.json()["imported"]
    assert imported["iops"] == 4000
    assert imported["measured_read_latency_ms"] == 2.0


def test_a_parse_error_is_422_at_text_with_the_line(client: TestClient) -> None:
    bad = "'size,% of size,% reads,% random,delay,burst,align,reply\n4096,100,80,lots,0,1,0,0\n"

    response = client.post("/api/v1/import/iometer", json={"text": bad})

    assert error_locs(response) == [["body", "text"]]
    assert response.json()["detail"][0]["msg"].startswith("line 2")


def test_a_json_result_sent_as_a_job_file_is_422(client: TestClient) -> None:
    response = client.post("/api/v1/import/fio", json={"text": "{not json", "format": "json"})

    assert error_locs(response) == [["body", "text"]]


def test_an_unknown_fio_format_is_422(client: TestClient) -> None:
    assert error_locs(client.post("/api/v1/import/fio", json={"text": FIO_JOB, "format": "xml"})) == [
        ["body", "format"]
    ]
