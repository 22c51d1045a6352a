"""The chance of meeting every target over HTTP (``/whatif/confidence``, ``/size`` with
``confidence_pct``): the model's own error band from the calibration, errors at field paths."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.app.reports.proposal import render
from backend.tests.conftest import FAS3270, error_locs, phase, workload

ENTRY = {**FAS3270, "drive_count": 48}
ONLY_MODEL_ERROR = {
    "skew_alpha_delta": {"low": 0, "expected": 0, "high": 0},
    "hot_data_factor": {"low": 1, "expected": 1, "high": 1},
    "working_set_factor": {"low": 1, "expected": 1, "high": 1},
    "full_stripe_share_delta": {"low": 0, "expected": 0, "high": 0},
    "cache_factor": {"low": 1, "expected": 1, "high": 1},
    "model_error_factor": {"low": 0.9, "expected": 1, "high": 1.1},
}


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


def test_the_chance_takes_the_model_error_band_of_the_class_the_result_names(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": ENTRY}
    evaluated = ok(client.post("/api/v1/evaluate", json={**body, "calibration_margin": "as_stated"}))
    p90 = evaluated["model_error"]["p90_pct"]
    assert p90 is not None and p90 > 0

    got = ok(client.post("/api/v1/whatif/confidence", json={**body, "samples": 64, "seed": 5}))

    band = got["uncertainty"]["model_error_factor"]
    # 1 / (1 + p90) .. 1 + p90 around 1 (models.whatif.uncertainty.with_model_error_band)
    assert band["high"] == pytest.approx(1 + p90 / 100)
    assert band["low"] == pytest.approx(1 / (1 + p90 / 100))
    assert got["samples"] == 64 and 0 <= got["chance_pct"] <= 100
    assert "the model's own error (make validate)" in got["inputs"]
    again = ok(client.post("/api/v1/whatif/confidence", json={**body, "samples": 64, "seed": 5}))
    assert again["chance_pct"] == got["chance_pct"]  # seeded


def test_a_design_far_from_its_limits_meets_in_every_sample_and_one_past_them_in_none(
    client: TestClient,
) -> None:
    light = workload(phases=[phase(iops=500)])
    heavy = workload(phases=[phase(iops=50000)])
    for wl, chance in ((light, 100.0), (heavy, 0.0)):
        body = {"workloads": [wl], "configuration": ENTRY, "samples": 200}
        assert ok(client.post("/api/v1/whatif/confidence", json=body))["chance_pct"] == chance


def test_size_to_90_pct_never_answers_fewer_drives_than_the_stated_inputs_need(client: TestClient) -> None:
    family = {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp"}
    body = {
        "workloads": [workload(phases=[phase(iops=4000)])],
        "configuration": family,
        "calibration_margin": "as_stated",
        "relax": [{"case": c} for c in ("drive-failed", "rebuilding", "failover", "cold-cache", "horizon")],
    }
    stated = ok(client.post("/api/v1/size", json=body))
    sized = ok(client.post("/api/v1/size", json={**body, "confidence_pct": 90}))
    assert sized["drive_count"] >= stated["drive_count"]
    conf = sized["confidence"]
    assert (
        conf["target_pct"] == 90 and conf["chance_pct"] >= 90 and conf["drive_count"] == sized["drive_count"]
    )
    assert "90%" in sized["explanation"]
    assert stated["confidence"] is None


def test_a_saved_sizing_to_a_confidence_keeps_its_chance_in_the_report_and_the_proposal(
    client: TestClient,
) -> None:
    inputs = {
        "workloads": [workload(phases=[phase(iops=4000)])],
        "configuration": {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp"},
        "relax": [{"case": "horizon"}],
        "confidence_pct": 80,
    }
    created = client.post("/api/v1/reports", json={"name": "to 80%", "kind": "size", "inputs": inputs})
    assert created.status_code == 201, created.text
    snapshot = client.get(f"/api/v1/reports/{created.json()['id']}").json()
    chance = snapshot["result"]["confidence"]
    assert chance["target_pct"] == 80 and chance["chance_pct"] >= 80
    html = render(snapshot, "http://example.invalid/r/1")
    assert "Chance of meeting every target: " in html and "(sized to 80%)" in html


@pytest.mark.parametrize(
    ("extra", "loc"),
    [
        ({"confidence_pct": 100}, ["body", "confidence_pct"]),
        ({"confidence_pct": 90, "degraded": "drive-failed"}, ["body", "confidence_pct"]),
        ({"confidence_pct": 90, "flash_cache_options_gb": [0, 512]}, ["body", "confidence_pct"]),
    ],
)
def test_a_confidence_that_cannot_be_sized_to_is_422_at_confidence_pct(
    client: TestClient, extra: dict[str, Any], loc: list[str]
) -> None:
    body = {
        "workloads": [workload()],
        "configuration": {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp"},
    }
    assert error_locs(client.post("/api/v1/size", json={**body, **extra})) == [loc]


def test_a_sample_count_out_of_range_is_422_at_samples(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": ENTRY, "samples": 0}
    assert error_locs(client.post("/api/v1/whatif/confidence", json=body)) == [["body", "samples"]]
    only = {**body, "samples": 10, "uncertainty": ONLY_MODEL_ERROR}
    assert ok(client.post("/api/v1/whatif/confidence", json=only))["inputs"] == [
        "the model's own error (make validate)"
    ]
