"""Every answer says what it rests on (``calibration``) and how far off this class of system has
been (``model_error``, from the shipped ``fixtures/calibration/model_error.yaml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from backend.tests.conftest import FAS3270, workload

SHIPPED = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "fixtures" / "calibration" / "model_error.yaml").read_text()
)
X70 = {"array_id": "pure-flasharray-x70", "raid_scheme": "raid6"}


def post(client: TestClient, path: str, configuration: dict[str, Any], **body: Any) -> Any:
    response = client.post(
        f"/api/v1/{path}", json={"workloads": [workload()], "configuration": configuration, **body}
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_an_evaluation_names_each_parts_status_and_the_hdd_class_error(client: TestClient) -> None:
    result = post(client, "evaluate", FAS3270)

    parts = result["calibration"]["parts"]
    assert [parts[p]["status"] for p in ("controller", "cache", "ports")] == ["estimate"] * 3
    assert result["calibration"]["estimated"] == ["drives", "controller", "cache", "ports"]
    error = result["model_error"]
    assert error["system_class"] == "hdd"
    expected = SHIPPED["classes"]["hdd"]["expected"]
    assert (error["median_pct"], error["p90_pct"], error["rows"]) == (
        expected["median_pct"],
        expected["p90_pct"],
        expected["rows"],
    )


def test_an_all_flash_array_quotes_its_class_error_from_the_shipped_table(client: TestClient) -> None:
    result = post(client, "evaluate", X70)

    error = result["model_error"]
    assert error["system_class"] == "all_flash"
    expected = SHIPPED["classes"]["all_flash"]["expected"]
    assert (error["median_pct"], error["p90_pct"], error["rows"]) == (
        expected["median_pct"],
        expected["p90_pct"],
        expected["rows"],
    )
    assert result["calibration"]["parts"]["controller"]["status"] == "estimate"
    assert "no published per-I/O cost for this model" in result["calibration"]["parts"]["controller"]["note"]


def test_a_configuration_given_whole_without_calibration_is_a_user_estimate(client: TestClient) -> None:
    sized = post(client, "size", FAS3270)
    whole = {**sized["configuration"], "calibration": None}

    result = post(client, "evaluate", whole)

    statuses = {p["status"] for p in result["calibration"]["parts"].values()}
    assert statuses == {"estimate (user)"}


def test_size_compare_and_curves_carry_calibration_and_model_error(client: TestClient) -> None:
    sized = post(client, "size", FAS3270)
    assert sized["result"]["model_error"]["system_class"] == "hdd"
    assert sized["configuration"]["calibration"]["controller"]["status"] == "estimate"

    curves = post(client, "curves", {**FAS3270, "drive_count": 48}, curves=["latency_vs_load"])
    assert curves["model_error"]["system_class"] == "hdd"
    assert curves["calibration"]["parts"]["drives"]["status"] in {"estimate", "datasheet"}

    compared = client.post(
        "/api/v1/compare",
        json={"workloads": [workload()], "configurations": [{**FAS3270, "drive_count": 48}, X70]},
    )
    assert compared.status_code == 200, compared.text
    classes = [item["result"]["model_error"]["system_class"] for item in compared.json()["items"]]
    assert classes == ["hdd", "all_flash"]


def test_a_streaming_load_takes_the_streaming_class(client: TestClient) -> None:
    stream = workload(
        phases=[
            {
                "name": "backup",
                "window": "night",
                "iops": 2000,
                "read_pct": 100,
                "random_pct": 0,
                "io_size_kib": 256,
            }
        ]
    )
    response = client.post("/api/v1/evaluate", json={"workloads": [stream], "configuration": FAS3270})
    assert response.status_code == 200, response.text
    assert response.json()["model_error"]["system_class"] == "streaming"


def test_estimated_parts_are_sized_at_the_pessimistic_end_by_default_and_the_cost_is_stated(
    client: TestClient,
) -> None:
    margined = post(client, "size", FAS3270)
    stated = post(client, "size", FAS3270, calibration_margin="as_stated")

    calibration = margined["result"]["calibration"]
    parts = {m["part"] for m in calibration["margins"]}
    assert "controller" in parts  # the FAS3270's CPU costs are estimates
    hdd_p90 = SHIPPED["classes"]["hdd"]["expected"]["p90_pct"]
    assert all(
        m["band_pct"] == hdd_p90 and m["factor"] == round(1 + hdd_p90 / 100, 4)
        for m in calibration["margins"]
    )
    assert margined["drive_count"] >= stated["drive_count"]
    extra = margined["drive_count"] - stated["drive_count"]
    assert calibration["margin_cost"].startswith(
        f"The margins cost {extra:+d} drives ({stated['drive_count']} as stated"
    )
    assert "Conservative by default: controller (estimate): CPU costs x" in margined["explanation"]
    # what is bought reads as the records state it: the returned configuration has the catalog's costs
    assert margined["configuration"]["controller"] == stated["configuration"]["controller"]
    assert stated["result"]["calibration"]["margins"] == []


def test_a_family_compared_is_sized_as_size_sizes_it_and_says_what_the_margins_cost(
    client: TestClient,
) -> None:
    compared = client.post(
        "/api/v1/compare",
        json={"workloads": [workload()], "configurations": [FAS3270, {**FAS3270, "drive_count": 48}]},
    )
    assert compared.status_code == 200, compared.text
    item = compared.json()["items"][0]
    sized = post(client, "size", FAS3270)
    # the same family, the same margins: the same count and the same cost as /size states
    assert item["sizing"]["drive_count"] == sized["drive_count"]
    assert item["result"]["calibration"]["margin_cost"] == sized["result"]["calibration"]["margin_cost"]
    assert item["result"]["calibration"]["margin_cost"].startswith("The margins cost")


def test_an_evaluation_states_its_margins_and_as_stated_has_none(client: TestClient) -> None:
    margined = post(client, "evaluate", {**FAS3270, "drive_count": 48})
    stated = post(client, "evaluate", {**FAS3270, "drive_count": 48}, calibration_margin="as_stated")

    assert margined["calibration"]["margins"] and stated["calibration"]["margins"] == []
    busy = [w["checks"] for w in (margined["windows"][0], stated["windows"][0])]
    cpu = [next(c["value"] for c in checks if c["name"] == "controllers") for checks in busy]
    assert cpu[0] > cpu[1]  # the same load on CPU costs x (1 + p90)


def test_the_default_ranges_include_the_models_own_error_for_the_class(client: TestClient) -> None:
    response = client.post(
        "/api/v1/whatif/ranges",
        json={"workloads": [workload()], "configuration": {**FAS3270, "drive_count": 48}, "method": "ends"},
    )
    assert response.status_code == 200, response.text
    band = response.json()["uncertainty"]["model_error_factor"]
    f = 1 + SHIPPED["classes"]["hdd"]["expected"]["p90_pct"] / 100  # HDD arrays' 90th-percentile |error|
    assert (band["low"], band["expected"], band["high"]) == pytest.approx((1 / f, 1.0, f))


def test_the_curves_are_those_of_the_margined_verdict_unless_as_stated(client: TestClient) -> None:
    config = {**FAS3270, "drive_count": 48}
    margined = post(client, "curves", config, curves=["latency_vs_load"])["latency_vs_load"]
    stated = post(client, "curves", config, curves=["latency_vs_load"], calibration_margin="as_stated")[
        "latency_vs_load"
    ]
    verdict = post(client, "evaluate", config)["windows"][0]["phases"][0]["read_latency_ms"]["value"]

    # the operating point read off the curve is the evaluation's (margined by default) ...
    assert margined["operating_read_latency_ms"] == pytest.approx(verdict)
    # ... and CPU costs x (1 + p90) leave less load to saturation than the record as stated
    # (48 x 15K FC on a FAS3270: about 14,400 against 15,600 I/O per s)
    assert margined["saturation_iops"] < 0.95 * stated["saturation_iops"]
    assert margined["operating_read_latency_ms"] > stated["operating_read_latency_ms"]


@pytest.mark.parametrize("path", ["evaluate", "size"])
def test_the_curves_an_answer_brings_are_those_of_its_margined_verdict(client: TestClient, path: str) -> None:
    config = {**FAS3270, "drive_count": 48} if path == "evaluate" else FAS3270
    response = client.post(
        f"/api/v1/{path}?with_curves=true", json={"workloads": [workload()], "configuration": config}
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    result = answer if path == "evaluate" else answer["result"]
    verdict = result["windows"][0]["phases"][0]["read_latency_ms"]["value"]
    assert answer["curves"]["latency_vs_load"]["operating_read_latency_ms"] == pytest.approx(verdict)


def _cpu(result: dict[str, Any]) -> float:
    return float(next(c["value"] for c in result["windows"][0]["checks"] if c["name"] == "controllers"))


PLANS: dict[str, tuple[dict[str, Any], Any]] = {
    # path: (body besides the workloads, the evaluation the margin shows in)
    "expand": (
        {"configuration": {**FAS3270, "drive_count": 48}, "expansion": {"shelves": 1}},
        lambda r: r["before"],
    ),
    "quote-check": (
        {
            "quote": {
                "model": "FAS3270",
                "array_id": "netapp-fas3270",
                "drive_id": "hdd-10k-sas-600",
                "drive_count": 50,
            }
        },
        lambda r: r["evaluation"],
    ),
    "consolidate": (
        {"fixed": [{**FAS3270, "drive_count": 48}], "options": {"fixed_only": True}},
        lambda r: r["arrays"][0]["result"],
    ),
    "refresh": ({"current": {**FAS3270, "drive_count": 48}, "successor": FAS3270}, lambda r: r["current"]),
}


@pytest.mark.parametrize("path", sorted(PLANS))
def test_each_plan_computes_at_the_margin_by_default_and_says_so(client: TestClient, path: str) -> None:
    body, evaluation = PLANS[path]

    def plan(**extra: Any) -> Any:
        response = client.post(f"/api/v1/plan/{path}", json={"workloads": [workload()], **body, **extra})
        assert response.status_code == 200, response.text
        return response.json()

    margined, stated = plan(), plan(calibration_margin="as_stated")

    # the FAS3270's controller is an estimate: CPU costs x (1 + p90 / 100) of HDD arrays, so its
    # utilization at the same load is that factor times the as-stated one
    f = 1 + SHIPPED["classes"]["hdd"]["expected"]["p90_pct"] / 100
    assert _cpu(evaluation(margined)) == pytest.approx(f * _cpu(evaluation(stated)), rel=1e-9)
    calibration = evaluation(margined)["calibration"]
    assert {m["part"] for m in calibration["margins"]} >= {"controller"}
    assert evaluation(margined)["model_error"]["system_class"] == "hdd"
    assert evaluation(stated)["calibration"]["margins"] == []
    assert "Conservative by default: controller (estimate): CPU costs x" in margined["text"]
    assert "Conservative by default" not in stated["text"]


@pytest.mark.parametrize("path", ["evaluate", "size"])
def test_an_answer_with_its_curves_computes_its_margins_once(
    client: TestClient, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import models.margins

    calls: list[str] = []
    margined = models.margins.with_margins

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(path)
        return margined(*args, **kwargs)

    monkeypatch.setattr(models.margins, "with_margins", counted)
    config = {**FAS3270, "drive_count": 48} if path == "evaluate" else FAS3270
    response = client.post(
        f"/api/v1/{path}?with_curves=true", json={"workloads": [workload()], "configuration": config}
    )

    assert response.status_code == 200, response.text
    assert response.json()["curves"]["latency_vs_load"] is not None
    assert calls == [path]  # the verdict's margins, reused for its curves


# ---- every answer carries calibration and model_error (issue #30's audit) -----------------------

INSTALLED = {**FAS3270, "drive_count": 48}


def _observed() -> dict[str, Any]:
    seen = {"iops": 4000, "read_pct": 70, "read_latency_ms": 6.0, "source": "iostat -x on the host"}
    return workload(
        phases=[
            {
                "name": "day",
                "window": "business hours",
                "iops": 5000,
                "read_pct": 70,
                "io_size_kib": 8,
                "observed": seen,
            }
        ]
    )


ANSWERS: dict[str, tuple[dict[str, Any], Any]] = {
    # path: (body, where the answer's calibration and model_error are)
    "whatif/growth": ({"configuration": INSTALLED, "months": 12}, lambda r: r),
    "whatif/sensitivity": ({"configuration": INSTALLED}, lambda r: r),
    "whatif/max-workload": ({"configuration": INSTALLED}, lambda r: r),
    "whatif/degraded": ({"configuration": INSTALLED}, lambda r: r),
    "whatif/ranges": ({"configuration": INSTALLED, "method": "ends"}, lambda r: r),
    "whatif/confidence": ({"configuration": INSTALLED, "samples": 50}, lambda r: r),
    "raid-grid": ({"configuration": FAS3270}, lambda r: r),
    "plan/replication": (
        {"plan": {"mode": "sync", "distance_km": 10}, "primary": INSTALLED, "dr": FAS3270},
        lambda r: r["dr"]["failover"]["result"],
    ),
    "plan/expand": ({"configuration": INSTALLED, "expansion": {"shelves": 1}}, lambda r: r["after"]),
    "plan/refresh": ({"current": INSTALLED, "successor": FAS3270}, lambda r: r["successor"]["result"]),
}


@pytest.mark.parametrize("path", sorted(ANSWERS))
def test_every_analysis_and_plan_says_what_it_rests_on_and_its_class_error(
    client: TestClient, path: str
) -> None:
    body, where = ANSWERS[path]
    response = client.post(f"/api/v1/{path}", json={"workloads": [workload()], **body})
    assert response.status_code == 200, response.text

    answer = where(response.json())
    # the FAS3270's controller is an estimate, and a random 8 KiB load on disks is the HDD class
    assert answer["calibration"]["parts"]["controller"]["status"] == "estimate"
    assert "controller" in answer["calibration"]["estimated"]
    expected = SHIPPED["classes"]["hdd"]["expected"]
    assert (answer["model_error"]["system_class"], answer["model_error"]["p90_pct"]) == (
        "hdd",
        expected["p90_pct"],
    )


def test_the_observed_comparison_says_what_the_model_rests_on(client: TestClient) -> None:
    response = client.post(
        "/api/v1/import/observed", json={"workloads": [_observed()], "configuration": INSTALLED}
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["model_error"]["system_class"] == "hdd"
    assert answer["calibration"]["parts"]["controller"]["status"] == "estimate"


def test_a_block_of_catalog_records_rests_on_them_and_one_given_whole_is_a_user_estimate(
    client: TestClient,
) -> None:
    derived = client.post(
        "/api/v1/whatif/building-blocks",
        json={
            "target": {"read_gb_s": 100},
            "catalog": {"array_id": "netapp-e5400", "drive_id": "hdd-7k2-nlsas-3000"},
        },
    )
    assert derived.status_code == 200, derived.text
    # bandwidth alone is a streaming target: the streaming class's error
    assert derived.json()["model_error"]["system_class"] == "streaming"
    assert derived.json()["calibration"]["parts"]["controller"]["status"] != "estimate (user)"

    block = {
        "name": "mine",
        "rack_units": 4,
        "drives": 60,
        "drive_capacity_gb": 4000,
        "read_gb_s": 4,
        "write_gb_s": 2,
    }
    given = client.post("/api/v1/whatif/building-blocks", json={"target": {"read_gb_s": 100}, "block": block})
    assert given.status_code == 200, given.text
    statuses = {p["status"] for p in given.json()["calibration"]["parts"].values()}
    assert statuses == {"estimate (user)"}

    # an IOPS target on a block given whole: its drives' kind, when stated, sets the class
    iops_block = {**block, "iops": 20_000}
    random = {"target": {"iops": 100_000}, "block": iops_block}
    disks = client.post(
        "/api/v1/whatif/building-blocks", json={**random, "block": {**iops_block, "drive_kind": "hdd"}}
    )
    assert disks.status_code == 200, disks.text
    assert disks.json()["model_error"]["p90_pct"] == SHIPPED["classes"]["hdd"]["expected"]["p90_pct"]
    assert disks.json()["model_error"]["system_class"] == "hdd"
    unknown = client.post("/api/v1/whatif/building-blocks", json=random)
    assert unknown.status_code == 200, unknown.text
    widest = max(
        (c["expected"]["p90_pct"], k) for k, c in SHIPPED["classes"].items() if c["expected"]["p90_pct"]
    )
    assert unknown.json()["model_error"]["system_class"] == widest[1]


def test_ranges_of_the_users_own_keep_the_models_error_unless_they_state_it(client: TestClient) -> None:
    # a range of one's own for the working set, nothing said of the model's error: the class's band stays
    mine = {"working_set_factor": {"low": 0.8, "expected": 1.0, "high": 1.2}}
    body = {"workloads": [workload()], "configuration": INSTALLED, "method": "ends"}
    kept = client.post("/api/v1/whatif/ranges", json={**body, "uncertainty": mine})
    assert kept.status_code == 200, kept.text
    f = 1 + SHIPPED["classes"]["hdd"]["expected"]["p90_pct"] / 100
    band = kept.json()["uncertainty"]["model_error_factor"]
    assert (band["low"], band["high"]) == pytest.approx((1 / f, f))
    assert kept.json()["uncertainty"]["working_set_factor"]["low"] == 0.8

    none = {**mine, "model_error_factor": {"low": 1, "expected": 1, "high": 1}}  # stated: taken as stated
    stated = client.post("/api/v1/whatif/ranges", json={**body, "uncertainty": none})
    assert stated.status_code == 200, stated.text
    assert stated.json()["uncertainty"]["model_error_factor"]["high"] == 1
