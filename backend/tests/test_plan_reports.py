"""The installed-base plans as reports: saved, read byte-exact, recomputed unchanged, exported (JSON,
CSV, XLSX, and the quote check's proposal PDF read back with poppler), on SQLite and PostgreSQL."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from backend.tests.conftest import FAS3270, phase, workload
from backend.tests.test_report_exports import export, pdf_text, save

INSTALLED = {**FAS3270, "drive_id": "hdd-10k-sas-600", "drive_count": 46}
SEEN = {"source": "iostat", "iops": 4000, "read_pct": 70, "read_latency_ms": 6.0}
QUOTE = {"model": "FAS3270", "array_id": "netapp-fas3270", "drive_id": "hdd-10k-sas-600", "drive_count": 96}

PLANS: dict[str, dict[str, Any]] = {
    "replication": {
        "workloads": [workload()],
        "plan": {
            "mode": "async",
            "rpo_minutes": 15,
            "interval_minutes": 5,
            "window_hours": {"business hours": 10},
        },
    },
    "expand": {"workloads": [workload()], "configuration": INSTALLED, "expansion": {"shelves": 1}},
    "quote-check": {"workloads": [workload()], "quote": QUOTE},
    "consolidate": {
        "workloads": [
            workload(name="a", phases=[phase(iops=800)]),
            workload(name="b", phases=[phase(iops=600)]),
        ],
        "candidates": [FAS3270],
    },
    "refresh": {
        "workloads": [workload(phases=[phase(observed=SEEN)])],
        "current": INSTALLED,
        "successor": {"array_id": "netapp-fas8040", "raid_scheme": "raid-dp"},
    },
}


@pytest.mark.parametrize("kind", list(PLANS))
def test_every_plan_is_saved_byte_exact_recomputed_and_exported(client: TestClient, kind: str) -> None:
    created = save(client, kind, PLANS[kind])
    url = f"/api/v1/reports/{created['id']}"

    first = client.get(url)
    as_json = export(client, created["id"], "json")
    csv_rows = export(client, created["id"], "csv").text.splitlines()
    book = load_workbook(io.BytesIO(export(client, created["id"], "xlsx").content))
    recomputed = client.post(f"{url}/recompute")

    snapshot = first.json()
    assert first.content == as_json.content
    assert snapshot["kind"] == kind and snapshot["headline"] and snapshot["inputs"]
    assert csv_rows[0] == "configuration,window,component,figure,value,unit" and len(csv_rows) > 1
    assert book["Summary"]["A1"].value == f"Proposal ({kind})"
    assert recomputed.status_code == 201, recomputed.text
    assert recomputed.json()["changes"] and not any(c["changed"] for c in recomputed.json()["changes"])


def test_a_replication_report_keeps_the_link_it_sized(client: TestClient) -> None:
    created = save(client, "replication", PLANS["replication"])

    snapshot = client.get(f"/api/v1/reports/{created['id']}").json()

    # 5,000 IOPS x 30 % writes x 8 KiB = 12.288 MB/s; x 8 / 0.8 = 122.88 Mbit/s
    assert snapshot["headline"]["bandwidth_mbit_s"] == pytest.approx(122.88)


def test_a_bad_plan_is_422_under_the_reports_inputs(client: TestClient) -> None:
    bad = {**PLANS["replication"], "plan": {**PLANS["replication"]["plan"], "rpo_minutes": 5}}

    response = client.post("/api/v1/reports", json={"name": "x", "kind": "replication", "inputs": bad})

    assert response.status_code == 422
    assert [e["loc"] for e in response.json()["detail"]] == [["body", "inputs", "plan", "rpo_minutes"]]


def test_a_quote_check_exports_a_proposal_with_its_findings(client: TestClient, tmp_path: Path) -> None:
    created = save(client, "quote-check", PLANS["quote-check"])

    response = export(client, created["id"], "pdf")
    _, text = pdf_text(response.content, tmp_path)

    words = " ".join(text.split())
    assert "Quote check" in words and "Second opinion" in words and "drives" in words
    # what the quoted system's figures rest on, how far off HDD arrays have been, and the margin taken
    assert "Model error" in words and "HDD arrays: predictions of published measurements" in words
    assert "Conservative by default: controller (estimate)" in words
