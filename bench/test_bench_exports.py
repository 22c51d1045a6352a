"""Export speed of a saved report (reported in closing notes, never asserted in the test suite).

Targets: the PDF proposal of a full report under 5 s, the BOM workbook under 1 s. The report is a
sizing of the OLTP template (three windows) on a FAS3170 with money in euros at 30% off list: its
proposal runs to about ten A4 pages (verdict, bill and money, three-ratio table, busy charts,
failure and capacity cases, the latency and hit-ratio curves, the math appendix, calibration,
inputs). Each benchmark calls ``GET /reports/{id}/export`` through the app (reading the stored
snapshot, rendering, printing or writing), on SQLite.

``test_pdf_first_print`` is a process's first PDF (Chromium started for it); the others print with
the Chromium the process keeps. ``test_pdf_one_shot`` is the fallback path (a fresh
``chromium --print-to-pdf`` per document).

Run: ``.venv/bin/pytest -q bench/test_bench_exports.py --benchmark-only --benchmark-columns=min,median,max``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.app.reports import pdf, proposal
from backend.tests.conftest import migrate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    db = tmp_path_factory.mktemp("exports") / "bench.db"
    url = f"sqlite:///{db}"
    migrate(url)
    app = create_app(Settings(database_url=url, rate_limits_enabled=False, fixtures_dir=FIXTURES))
    with TestClient(app) as client:
        templates = client.get("/api/v1/catalog/workload-templates").json()["templates"]
        workload = next(t["workload"] for t in templates if t["id"] == "oltp-database")
        body: dict[str, Any] = {
            "name": "OLTP on FAS3170: proposal",
            "kind": "size",
            "inputs": {
                "workloads": [workload],
                "configuration": {"array_id": "netapp-fas3170", "raid_scheme": "raid-dp"},
                "money": {"currency": "EUR", "discount_pct": 30},
            },
        }
        created = client.post("/api/v1/reports", json=body)
        assert created.status_code == 201, created.text
        yield client, created.json()["id"]


def export(client: TestClient, report_id: str, fmt: str) -> bytes:
    response = client.get(f"/api/v1/reports/{report_id}/export", params={"format": fmt})
    assert response.status_code == 200, response.text[:300]
    return response.content


def test_pdf_first_print(saved: tuple[TestClient, str], benchmark) -> None:
    client, report_id = saved
    pdf.stop_browsers()

    def first() -> bytes:
        pdf.stop_browsers()
        return export(client, report_id, "pdf")

    content = benchmark.pedantic(first, rounds=3, iterations=1)
    assert content.startswith(b"%PDF")


def test_pdf_proposal(saved: tuple[TestClient, str], benchmark) -> None:
    client, report_id = saved
    export(client, report_id, "pdf")  # the process's Chromium is running
    content = benchmark.pedantic(export, args=(client, report_id, "pdf"), rounds=8, iterations=1)
    assert content.startswith(b"%PDF")


def test_pdf_one_shot(saved: tuple[TestClient, str], benchmark) -> None:
    client, report_id = saved
    snapshot = json.loads(client.get(f"/api/v1/reports/{report_id}").content)
    html = proposal.render(snapshot, f"http://127.0.0.1/r/{report_id}")
    binary = pdf.chromium_binary("chromium")
    content = benchmark.pedantic(pdf._print_once, args=(html, binary, 60.0), rounds=3, iterations=1)
    assert content.startswith(b"%PDF")


def test_proposal_html(saved: tuple[TestClient, str], benchmark) -> None:
    client, report_id = saved
    snapshot = json.loads(client.get(f"/api/v1/reports/{report_id}").content)
    html = benchmark(proposal.render, snapshot, f"http://127.0.0.1/r/{report_id}")
    assert "Appendix" in html


def test_xlsx_workbook(saved: tuple[TestClient, str], benchmark) -> None:
    client, report_id = saved
    started = time.perf_counter()
    export(client, report_id, "xlsx")  # openpyxl imported
    print(f"first workbook (openpyxl imported): {time.perf_counter() - started:.3f} s")
    content = benchmark.pedantic(export, args=(client, report_id, "xlsx"), rounds=20, iterations=1)
    assert content[:2] == b"PK"
