"""The headline verdict over every case through the API (issue: FAS8040 'passed' while its
failure verdict read 'one RAID group is 108.4% busy ... it cannot keep up')."""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Any

import yaml
from fastapi.testclient import TestClient

from backend.app.reports.proposal import render
from backend.tests.conftest import REPO_ROOT, error_locs

FAS8040_OLTP: dict[str, Any] = {
    "array_id": "netapp-fas8040",
    "drive_id": "hdd-10k-sas-900",
    "raid_scheme": "raid-dp",
    "flash_cache_gb": 1024,
}
EVERY_FAILURE_RELAXED = [
    {"case": c} for c in ("drive-failed", "rebuilding", "failover", "cold-cache", "horizon")
]


def oltp_template() -> dict[str, Any]:
    doc = yaml.safe_load((REPO_ROOT / "fixtures" / "templates" / "oltp-database.yaml").read_text())
    return doc["workload"]


def test_the_fas8040_oltp_case_sizes_for_its_failures_and_reads_passed_only_when_they_keep_up(
    client: TestClient,
) -> None:
    # the drives as their records state them (no calibration margin): this test is about the cases
    body = {"workloads": [oltp_template()], "configuration": FAS8040_OLTP, "calibration_margin": "as_stated"}
    healthy_only = client.post("/api/v1/size", json={**body, "relax": EVERY_FAILURE_RELAXED}).json()
    # healthy today alone: 112 drives (128 before this round of physics: stream requests, rebuild, flash
    # cache ceilings), while a drive failure leaves one RAID group over 100% busy
    assert healthy_only["drive_count"] == 112
    assert any("cannot keep up" in (w["failure_verdict"] or "") for w in healthy_only["result"]["windows"])
    assert healthy_only["result"]["verdict"]["headline"] == (
        "Meets every target healthy; not sized for a drive failure; a rebuild; a controller or node "
        "failover; cold caches after a restart; growth to the horizon."
    )

    answer = client.post("/api/v1/size", json=body).json()
    assert answer["feasible"] and answer["drive_count"] > 112
    result = answer["result"]
    verdict = result["verdict"]
    assert result["passed"] and verdict["passed"]
    assert verdict["horizon_months"] == 36  # 3 years of 20%/year growth
    assert verdict["headline"] == (
        "Meets every target healthy, with a drive failed, while a drive rebuilds, after a controller or "
        "node failover, with cold caches after a restart and at month 36 of growth."
    )
    assert {c["status"] for c in verdict["cases"]} == {"meets"}
    assert not any("cannot keep up" in (w["failure_verdict"] or "") for w in result["windows"])

    # the 112-drive design evaluated as it is: it does not read passed
    sized_112 = {**healthy_only["configuration"]}
    evaluated = client.post(
        "/api/v1/evaluate",
        json={"workloads": [oltp_template()], "configuration": sized_112, "calibration_margin": "as_stated"},
    )
    assert evaluated.status_code == 200
    got = evaluated.json()
    assert not got["passed"] and not got["verdict"]["passed"]
    failing = [c for c in got["verdict"]["cases"] if c["status"] == "fails"]
    assert any(c["case"] == "rebuilding" and c["window"] == "nightly export" for c in failing)
    assert got["verdict"]["headline"].startswith("Does not meet every target: ")


def test_a_relaxation_for_one_window_is_named_in_the_headline(client: TestClient) -> None:
    body = {
        "workloads": [oltp_template()],
        "configuration": FAS8040_OLTP,
        "relax": [{"case": "cold-cache", "window": "month-end batch"}, {"case": "horizon"}],
    }
    answer = client.post("/api/v1/size", json=body).json()
    verdict = answer["result"]["verdict"]
    assert verdict["headline"].endswith(
        "; not sized for cold caches after a restart in month-end batch; growth to the horizon."
    )
    assert verdict["horizon_months"] is None
    statuses = {(c["case"], c["window"]): c["status"] for c in verdict["cases"]}
    assert statuses[("cold-cache", "month-end batch")] == "relaxed"
    assert statuses[("cold-cache", "business hours")] == "meets"


def test_a_relaxation_naming_an_unknown_window_is_a_422_at_that_field(client: TestClient) -> None:
    body = {
        "workloads": [oltp_template()],
        "configuration": FAS8040_OLTP,
        "relax": [{"case": "rebuilding", "window": "weekend"}],
    }
    assert ["body", "relax", 0, "window"] in error_locs(client.post("/api/v1/size", json=body))
    assert ["body", "relax", 0, "window"] in error_locs(client.post("/api/v1/evaluate", json=body))


def test_an_unknown_case_is_a_422_at_that_field(client: TestClient) -> None:
    body = {"workloads": [oltp_template()], "configuration": FAS8040_OLTP, "relax": [{"case": "healthy"}]}
    assert ["body", "relax", 0, "case"] in error_locs(client.post("/api/v1/size", json=body))


def test_the_csv_export_has_the_parity_drives_beside_the_data_drives(client: TestClient) -> None:
    inputs = {
        "workloads": [oltp_template()],
        "configuration": {**FAS8040_OLTP, "drive_count": 128},
    }
    created = client.post("/api/v1/reports", json={"name": "FAS8040", "kind": "evaluate", "inputs": inputs})
    assert created.status_code == 201, created.text
    report = created.json()
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/api/v1/reports/{report['id']}/export", params={"format": "csv"}).text)
        )
    )
    parity = [r for r in rows if r["figure"] == "parity_utilization_pct"]
    result = client.get(f"/api/v1/reports/{report['id']}").json()["result"]
    windows = result["windows"]
    assert [r["window"] for r in parity] == [w["window"] for w in windows]
    assert float(parity[0]["value"]) == windows[0]["pools"][0]["parity_utilization_pct"]["value"]
    # the saved evaluation carries the verdict over every case: 128 drives do not meet them all
    assert result["passed"] is False and result["verdict"]["passed"] is False


def test_the_proposal_leads_with_the_verdict_and_lists_every_case(client: TestClient) -> None:
    inputs = {"workloads": [oltp_template()], "configuration": {**FAS8040_OLTP, "drive_count": 128}}
    created = client.post("/api/v1/reports", json={"name": "FAS8040", "kind": "evaluate", "inputs": inputs})
    snapshot = client.get(f"/api/v1/reports/{created.json()['id']}").json()
    html = render(snapshot, "http://example.invalid/r/1")
    headline = snapshot["result"]["verdict"]["headline"]
    assert headline.startswith("Does not meet every target: ")
    assert escape(headline) in html
    assert "Every case judged" in html
    failing = [c for c in snapshot["result"]["verdict"]["cases"] if c["status"] == "fails"]
    assert failing and all(escape(c["text"]) in html for c in failing)
