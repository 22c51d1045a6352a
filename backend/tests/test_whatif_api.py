"""``/whatif/...``: growth, sensitivity, maximum workload, ranges, degraded modes, RAID conversion,
building blocks over HTTP (SQLite and PostgreSQL), errors at field paths."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import FAS3270, error_locs, phase, workload

ENTRY = {**FAS3270, "drive_count": 48}
"""FAS3270 RAID-DP with 48 drives (three groups of 16)."""


def post(client: TestClient, path: str, **body: Any) -> Any:
    return client.post(f"/api/v1/whatif/{path}", json=body)


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


# ---- growth


def test_growth_projects_every_month_and_finds_the_break(client: TestClient) -> None:
    growing = workload(growth_pct_per_year=60, horizon_years=3, phases=[phase(read_latency_target_ms=20)])

    result = ok(post(client, "growth", workloads=[growing], configuration=ENTRY))

    assert result["months"] == 36 and len(result["points"]) == 37
    assert result["points"][12]["factors"]["oltp"] == pytest.approx(1.6)
    (window,) = result["windows"]
    assert window["window"] == "business hours"
    assert window["break_month"] is not None
    assert result["first_break_month"] <= window["break_month"]
    assert {"max_utilization_pct", "read_latency_ms", "headroom_used_pct"} <= set(
        result["points"][0]["windows"][0]
    )


def test_growth_rejects_a_horizon_beyond_20_years(client: TestClient) -> None:
    response = post(client, "growth", workloads=[workload()], configuration=ENTRY, months=300)

    assert error_locs(response) == [["body", "months"]]


# ---- sensitivity


def test_sensitivity_ranks_every_input(client: TestClient) -> None:
    result = ok(post(client, "sensitivity", workloads=[workload()], configuration=ENTRY))

    bars = result["bars"]
    assert {b["input"] for b in bars} == {
        "iops",
        "write_pct",
        "working_set",
        "skew",
        "cache",
        "drive_count",
        "layout_aging",
        "hit_ratio",
    }
    assert [b["rank"] for b in bars] == list(range(1, 9))
    assert result["most_influential"] == bars[0]["input"]
    swings = [b["swing_pts"] for b in bars if b["applicable"]]
    assert swings == sorted(swings, reverse=True)


def test_a_zero_step_is_422_at_its_field(client: TestClient) -> None:
    response = post(client, "sensitivity", workloads=[workload()], configuration=ENTRY, steps={"iops_pct": 0})

    assert error_locs(response) == [["body", "steps", "iops_pct"]]


# ---- maximum workload


def test_the_maximum_workload_passes_and_one_percent_more_fails(client: TestClient) -> None:
    result = ok(post(client, "max-workload", workloads=[workload()], configuration=ENTRY))

    scale = result["max_scale"]
    assert scale > 1 and result["binding_window"] == "business hours"
    for factor, passes in ((scale, True), (scale * 1.01, False)):
        scaled = workload(phases=[phase(iops=5000 * factor)])
        evaluation = client.post("/api/v1/evaluate", json={"workloads": [scaled], "configuration": ENTRY})
        assert evaluation.json()["windows"][0]["passed"] is passes, factor


def test_an_unknown_pool_is_422_under_the_workloads(client: TestClient) -> None:
    response = post(client, "max-workload", workloads=[workload(pool="nope")], configuration=ENTRY)

    assert error_locs(response) == [["body", "workloads", 0, "pool"]]


# ---- ranges


def test_ranges_by_monte_carlo_are_seeded_and_use_the_engine_default_layout_aging(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configuration": ENTRY,
        "method": "monte-carlo",
        "samples": 8,
        "seed": 3,
    }

    first = ok(post(client, "ranges", **body))
    second = ok(post(client, "ranges", **body))

    assert first["headroom_used_pct"] == second["headroom_used_pct"]
    assert first["samples"] == 8 and 0 <= first["pass_probability"] <= 1
    aging = first["uncertainty"]["full_stripe_share_delta"]
    # no default layout age is calibrated: the engine's documented -0.15 .. +0.10
    assert aging["low"] == pytest.approx(-0.15)
    assert aging["high"] == pytest.approx(0.10)
    cap = first["capability_scale"]
    assert cap["low"] <= cap["expected"] <= cap["high"]


def test_a_range_out_of_order_is_422_at_the_range(client: TestClient) -> None:
    uncertainty = {"working_set_factor": {"low": 2, "expected": 1, "high": 3}}

    response = post(client, "ranges", workloads=[workload()], configuration=ENTRY, uncertainty=uncertainty)

    assert error_locs(response) == [["body", "uncertainty", "working_set_factor"]]


# ---- degraded modes


def test_degraded_modes_side_by_side(client: TestClient) -> None:
    result = ok(post(client, "degraded", workloads=[workload()], configuration=ENTRY))

    assert [m["mode"] for m in result["modes"]] == ["none", "drive-failed", "rebuilding", "controller-failed"]
    rebuilding = result["modes"][2]
    (exposure,) = rebuilding["rebuild"]
    assert exposure["rebuild_hours"]["value"] > 0
    assert exposure["failures_tolerated_during_rebuild"] == 1  # RAID-DP: one more failure survives
    assert result["worst_mode"] in {m["mode"] for m in result["modes"]}


# ---- RAID conversion


def test_raid_conversion_shows_the_back_end_arithmetic(client: TestClient) -> None:
    result = ok(
        post(
            client,
            "raid-conversion",
            measured_iops=10000,
            read_pct=70,
            from_raid={"scheme": "raid5", "group_width": 5},
            to_raid={"scheme": "raid10", "group_width": 8},
        )
    )

    assert result["backend_iops"]["value"] == pytest.approx(19000)
    assert result["converted_iops"]["value"] == pytest.approx(19000 / 1.3)
    assert {s["name"] for s in result["shortcuts"]} >= {
        "RAID10 is twice RAID5",
        "divide by the write penalty",
    }


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"read_pct": 120}, ["body", "read_pct"]),
        ({"from_drives": 8}, ["body", "to_drives"]),
        ({"to_raid": {"scheme": "raid6", "group_width": 3}}, ["body", "to_raid"]),
    ],
)
def test_raid_conversion_errors_name_the_field(client: TestClient, change: dict, loc: list) -> None:
    body = {
        "measured_iops": 1000,
        "read_pct": 70,
        "from_raid": {"scheme": "raid5", "group_width": 5},
        "to_raid": {"scheme": "raid10", "group_width": 8},
        **change,
    }

    locs = error_locs(post(client, "raid-conversion", **body))

    assert any(found[: len(loc)] == loc for found in locs), locs


# ---- building blocks


def test_one_tb_per_second_in_e5460_blocks(client: TestClient) -> None:
    result = ok(
        post(
            client,
            "building-blocks",
            target={"read_gb_s": 1000},
            catalog={
                "array_id": "netapp-e5400",
                "drive_id": "hdd-7k2-nlsas-3000",
                # Lustre clients: 64 streams of 1 MiB reads, each read 40 MiB ahead (the published set-up)
                "streams": {"io_size_kib": 1024, "sequential_streams": 64, "readahead_kib": 40960},
            },
        )
    )

    sizing = result["sizing"]
    assert result["derived"]["block"]["read_gb_s"] == pytest.approx(4.0)
    assert (sizing["blocks"], sizing["racks"], sizing["blocks_per_rack"]) == (264, 27, 10)
    assert sizing["gb_s_per_rack"]["value"] == pytest.approx(38.0)


def test_a_custom_scale_out_nas_block(client: TestClient) -> None:
    block = {
        "name": "NAS node",
        "kind": "nas-node",
        "rack_units": 4,
        "drives": 36,
        "drive_capacity_gb": 4000,
        "read_gb_s": 1.5,
        "write_gb_s": 1.0,
    }

    result = ok(
        post(client, "building-blocks", target={"read_gb_s": 30}, block=block, scaling_efficiency=0.9)
    )

    assert result["derived"] is None and result["sizing"]["blocks"] == 23


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"target": {"read_gb_s": 1}}, ["body"]),
        (
            {"target": {"read_gb_s": 1}, "catalog": {"array_id": "no-such-array"}},
            ["body", "catalog", "array_id"],
        ),
        ({"target": {"iops": 1000}, "catalog": {"array_id": "netapp-e5400"}}, ["body", "catalog"]),
        ({"target": {}, "catalog": {"array_id": "netapp-e5400"}}, ["body", "target"]),
        (
            {"target": {"read_gb_s": 1}, "catalog": {"array_id": "netapp-e5400", "raid_scheme": "raid-dp"}},
            ["body", "catalog", "raid_scheme"],
        ),
    ],
)
def test_building_block_errors_name_the_field(client: TestClient, body: dict, loc: list) -> None:
    assert error_locs(post(client, "building-blocks", **body)) == [loc]
