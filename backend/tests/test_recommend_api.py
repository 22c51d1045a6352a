"""``/recommend``: ranked configurations from the catalog over HTTP; contradictions 200, bad constraints 422."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import error_locs, phase, workload
from models import ENGINE_VERSION

SMALL = {"array_ids": ["netapp-fas2050", "emc-unity-400"]}
"""Two arrays: keeps each request to a fraction of a second."""


def recommend(client: TestClient, **body: Any) -> Any:
    return client.post("/api/v1/recommend", json={"workloads": [workload()], **body})


def test_recommend_returns_configurations_that_meet_every_window_best_first(client: TestClient) -> None:
    response = recommend(client, constraints=SMALL, limit=5)

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["engine_version"] == ENGINE_VERSION
    items = body["configurations"]
    assert 1 <= len(items) <= 5
    assert all(item["headline"]["passed"] for item in items)
    assert [item["rank"] for item in items] == sorted(item["rank"] for item in items)
    costs = [item["cost_usd"] for item in items]
    assert costs == sorted(costs)
    assert {item["array_id"] for item in items} <= set(SMALL["array_ids"])
    assert body["stats"]["candidates"] > body["stats"]["families"] > 0


def test_each_recommended_configuration_says_what_it_rests_on(client: TestClient) -> None:
    response = recommend(client, constraints=SMALL, limit=2)

    assert response.status_code == 200, response.text
    for item in response.json()["configurations"]:
        assert item["calibration"]["parts"]["controller"]["status"] in {"fitted", "estimate"}
        assert item["model_error"]["system_class"] in {"hdd", "hybrid", "all_flash"}


def test_a_returned_configuration_evaluates_the_same_through_evaluate(client: TestClient) -> None:
    item = recommend(client, constraints=SMALL, limit=1).json()["configurations"][0]

    response = client.post(
        "/api/v1/evaluate", json={"workloads": [workload()], "configuration": item["configuration"]}
    )

    assert response.status_code == 200, response.text
    assert response.json()["passed"] is True
    assert response.json()["bill"]["cost_usd"] == item["cost_usd"]


def test_a_raid_dp_family_runs_the_write_anywhere_model_at_its_planned_fill(client: TestClient) -> None:
    light = workload(phases=[phase(iops=1000)])
    body = client.post(
        "/api/v1/recommend",
        json={"workloads": [light], "constraints": {"array_ids": ["netapp-fas2050"]}, "limit": 1},
    ).json()

    raid = body["configurations"][0]["configuration"]["pools"][0]["raid"]
    assert raid["scheme"] == "raid-dp"
    # no default layout age in fixtures/calibration/engine.yaml: the stripe share follows the fill
    assert raid["full_stripe_share"] is None
    assert raid["scatter"] == 0.0


def test_a_max_cost_below_every_feasible_configuration_is_200_with_an_empty_list_and_the_reason(
    client: TestClient,
) -> None:
    response = recommend(client, constraints={**SMALL, "max_cost_usd": 1000})

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["configurations"] == []
    assert body["pareto_front"] == []
    assert any("max_cost_usd" in reason for reason in body["reasons"])


def test_a_workload_no_array_can_carry_names_each_arrays_binding_constraint(client: TestClient) -> None:
    huge = workload(phases=[phase(iops=5_000_000)])

    response = client.post(
        "/api/v1/recommend", json={"workloads": [huge], "constraints": {"array_ids": ["netapp-fas2050"]}}
    )

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["configurations"] == []
    [array] = body["infeasible"]
    assert array["array_id"] == "netapp-fas2050"
    assert "controllers" in array["binding_constraint"]
    assert body["reasons"]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"constraints": {"max_cost_usd": -5}}, ["body", "constraints", "max_cost_usd"]),
        ({"constraints": {"drive_kinds": ["tape"]}}, ["body", "constraints", "drive_kinds", 0]),
        ({"constraints": {"raid_schemes": []}}, ["body", "constraints", "raid_schemes"]),
        ({"constraints": {"max_rack_units": "many"}}, ["body", "constraints", "max_rack_units"]),
        (
            {"constraints": {"headroom": {"drive_max_pct": 140}}},
            ["body", "constraints", "headroom", "drive_max_pct"],
        ),
        ({"constraints": {"colour": "blue"}}, ["body", "constraints", "colour"]),
        ({"limit": 0}, ["body", "limit"]),
        ({"pareto": ["cost", "cost"]}, ["body", "pareto"]),
        ({"pareto": ["cost", "beauty"]}, ["body", "pareto", 1]),
    ],
)
def test_malformed_constraints_are_422_at_their_field(client: TestClient, body: dict, loc: list) -> None:
    locs = error_locs(recommend(client, **body))

    assert any(found[: len(loc)] == loc for found in locs), locs


@pytest.mark.parametrize(
    ("constraints", "loc"),
    [
        ({"vendors": ["NetApp", "Acme"]}, ["body", "constraints", "vendors", 1]),
        ({"array_ids": ["netapp-fas9999"]}, ["body", "constraints", "array_ids", 0]),
        ({"drive_ids": ["floppy"]}, ["body", "constraints", "drive_ids", 0]),
    ],
)
def test_unknown_catalog_ids_are_422_at_the_list_item(
    client: TestClient, constraints: dict, loc: list
) -> None:
    assert error_locs(recommend(client, constraints=constraints)) == [loc]


def test_a_workload_naming_a_pool_is_422_at_its_pool(client: TestClient) -> None:
    response = client.post(
        "/api/v1/recommend", json={"workloads": [workload(pool="aggr1")], "constraints": SMALL}
    )

    assert error_locs(response) == [["body", "workloads", 0, "pool"]]


# ---- conservative by default: recommend sizes each family as /size does (issue #30)

HEALTHY_ONLY = [{"case": c} for c in ("drive-failed", "rebuilding", "failover", "cold-cache", "horizon")]
"""recommend judges healthy operation today (models.recommend); /size is told the same to compare."""

X70_FAMILY = {
    "array_ids": ["pure-flasharray-x70"],
    "drive_ids": ["nvme-7450-pro-7680"],
    "raid_schemes": ["raid6"],
}


@pytest.mark.parametrize("margin", ["pessimistic", "as_stated"])
def test_recommend_finds_the_drive_count_size_finds_for_the_same_family_at_the_same_margins(
    client: TestClient, margin: str
) -> None:
    # regression: recommend sized the raw catalog, so at the default (pessimistic) margins its
    # //X70 count (7 drives at 150,000 IOPS) was below /size's for the same family (9)
    busy = [workload(phases=[phase(iops=150000)], capacity_tb=5)]
    body = {"workloads": busy, "constraints": X70_FAMILY, "limit": 1, "calibration_margin": margin}
    item = client.post("/api/v1/recommend", json=body).json()["configurations"][0]
    family = {
        "array_id": "pure-flasharray-x70",
        "drive_id": item["drive_id"],
        "raid_scheme": "raid6",
        "group_width": item["group_width"],
    }

    sized = client.post(
        "/api/v1/size",
        json={
            "workloads": busy,
            "configuration": family,
            "relax": HEALTHY_ONLY,
            "calibration_margin": margin,
        },
    ).json()

    assert sized["feasible"] is True
    assert item["drive_count"] == sized["drive_count"]
    assert [m["part"] for m in item["calibration"]["margins"]] == (
        ["controller", "drives"] if margin == "pessimistic" else []
    )


def test_margins_cost_drives_in_recommend_and_the_configuration_reads_as_its_records_state_it(
    client: TestClient,
) -> None:
    busy = [workload(phases=[phase(iops=150000)], capacity_tb=5)]
    body = {"workloads": busy, "constraints": X70_FAMILY, "limit": 1}
    margined = client.post("/api/v1/recommend", json=body).json()
    stated = client.post("/api/v1/recommend", json={**body, "calibration_margin": "as_stated"}).json()

    m_item, s_item = margined["configurations"][0], stated["configurations"][0]
    # estimated controller and drives taken slower can only need as many drives or more
    assert m_item["drive_count"] >= s_item["drive_count"]
    # at 150,000 IOPS both margins are priced in; whether they add a drive depends on the shipped
    # all-flash band (62.9%: the six-drive RAID 6 minimum still carries the slowed drives)
    assert [m["part"] for m in m_item["calibration"]["margins"]] == ["controller", "drives"]
    assert s_item["calibration"]["margins"] == []
    # what is bought: the records' own figures, under the records' own ids
    assert m_item["array_id"] == m_item["configuration"]["array_id"] == "pure-flasharray-x70"
    assert m_item["configuration"]["controller"] == s_item["configuration"]["controller"]
    assert m_item["configuration"]["pools"][0]["drive"] == s_item["configuration"]["pools"][0]["drive"]
    assert any(n.startswith("Conservative by default") for n in margined["notes"])
    assert not any(n.startswith("Conservative by default") for n in stated["notes"])
