"""``/evaluate``, ``/size``, ``/compare``, ``/curves``: engine results over HTTP, errors at field paths."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import FAS3270, error_locs, phase, workload
from models import ENGINE_VERSION


def evaluate(client: TestClient, configuration: dict[str, Any], **body: Any) -> Any:
    return client.post(
        "/api/v1/evaluate", json={"workloads": [workload()], "configuration": configuration, **body}
    )


def explicit_configuration(client: TestClient, reference: dict[str, Any] = FAS3270) -> dict[str, Any]:
    """A full engine Configuration, as ``/size`` returns it (FAS3270 sized for the test workload)."""
    response = client.post("/api/v1/size", json={"workloads": [workload()], "configuration": reference})
    assert response.status_code == 200, response.text
    return response.json()["configuration"]


# ---- /evaluate


def test_evaluate_a_catalog_reference_returns_every_window(client: TestClient) -> None:
    two_windows = workload(phases=[phase(), phase(name="night", window="backup", iops=500, read_pct=10)])

    response = client.post("/api/v1/evaluate", json={"workloads": [two_windows], "configuration": FAS3270})

    assert response.status_code == 200, response.text
    result = response.json()
    assert result["engine_version"] == ENGINE_VERSION
    assert [w["window"] for w in result["windows"]] == ["business hours", "backup"]
    assert result["configuration"].startswith("FAS3270")
    # no layout named: RAID-DP runs the write-anywhere model at its planned fill, no measured layout age
    assert "layout" not in result["configuration"]
    assert result["windows"][0]["pools"][0]["parity_utilization_pct"]["value"] > 0


def test_evaluate_accepts_the_full_configuration_that_size_returns(client: TestClient) -> None:
    configuration = explicit_configuration(client)

    response = evaluate(client, configuration)

    assert response.status_code == 200, response.text
    assert response.json()["configuration"] == configuration["name"]


def test_an_aged_wafl_layout_makes_drives_busier_than_a_fresh_one(client: TestClient) -> None:
    busy = {}
    for age in ("fresh", "aged"):
        response = evaluate(client, {**FAS3270, "drive_count": 48, "layout": age})
        assert response.status_code == 200, response.text
        busy[age] = response.json()["windows"][0]["pools"][0]["drive_utilization_pct"]["value"]

    assert busy["aged"] > busy["fresh"]


def test_evaluate_degraded_controller_failed_is_reported(client: TestClient) -> None:
    response = evaluate(client, FAS3270, degraded="controller-failed")

    assert response.status_code == 200
    assert response.json()["degraded"] == "controller-failed"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"read_pct": 120}, "read_pct"),
        (
            {"io_size_kib": None, "io_sizes": [{"size_kib": 4, "pct": 60}, {"size_kib": 64, "pct": 30}]},
            "phases",
        ),
        ({"iops": -1}, "iops"),
    ],
)
def test_an_impossible_phase_is_422_at_its_field_path(client: TestClient, change: dict, field: str) -> None:
    body = {"workloads": [workload(phases=[phase(**change)])], "configuration": FAS3270}

    locs = error_locs(client.post("/api/v1/evaluate", json=body))

    assert any(loc[:4] == ["body", "workloads", 0, "phases"] and field in loc for loc in locs), locs


def test_an_io_mix_not_summing_to_100_says_so(client: TestClient) -> None:
    mix = [{"size_kib": 4, "pct": 60}, {"size_kib": 64, "pct": 30}]
    body = {"workloads": [workload(phases=[phase(io_size_kib=None, io_sizes=mix)])], "configuration": FAS3270}

    response = client.post("/api/v1/evaluate", json=body)

    assert response.status_code == 422
    errors = [e for e in response.json()["detail"] if "sum to 100" in e["msg"]]
    # a cross-field check of the phase, placed at the field its message names
    assert [e["loc"] for e in errors] == [["body", "workloads", 0, "phases", 0, "io_sizes"]]


def test_a_raid6_group_of_three_drives_is_422_at_group_width(client: TestClient) -> None:
    response = evaluate(client, {"array_id": "emc-vnx5300", "raid_scheme": "raid6", "group_width": 3})

    assert error_locs(response) == [["body", "configuration", "group_width"]]
    assert "raid6" in response.json()["detail"][0]["msg"]


def test_a_raid6_group_of_three_in_a_full_configuration_is_422_inside_the_pool(client: TestClient) -> None:
    configuration = explicit_configuration(client)
    configuration["pools"][0]["raid"] = {"scheme": "raid6", "group_width": 3}

    locs = error_locs(evaluate(client, configuration))

    assert ["body", "configuration", "pools", 0, "raid"] in locs


def test_a_stripe_unit_the_scheme_or_array_cannot_have_is_422_naming_it(client: TestClient) -> None:
    configuration = explicit_configuration(client)
    configuration["pools"][0]["raid"] = {"scheme": "raidz2", "group_width": 8, "stripe_unit_kib": 128}
    response = evaluate(client, configuration)
    assert response.status_code == 422
    assert error_locs(response) == [["body", "configuration", "pools", 0, "raid", "stripe_unit_kib"]]
    assert "raidz2 has no stripe unit" in response.text

    configuration = explicit_configuration(client)
    configuration["architecture"] = {"stripe_units_kib": [64, 128]}
    configuration["pools"][0]["raid"] = {**configuration["pools"][0]["raid"], "stripe_unit_kib": 256}
    response = evaluate(client, configuration)
    assert response.status_code == 422
    assert error_locs(response)[0][-1] == "pools"
    assert (
        "pools[0].raid.stripe_unit_kib: this array offers stripe units of 64, 128 KiB, not 256"
        in response.text
    )


@pytest.mark.parametrize(
    ("reference", "loc"),
    [
        ({"array_id": "no-such-array"}, ["body", "configuration", "array_id"]),
        ({**FAS3270, "drive_id": "no-such-drive"}, ["body", "configuration", "drive_id"]),
        ({**FAS3270, "drive_id": "hdd-7k2-nlsas-16000"}, ["body", "configuration", "drive_id"]),
        ({**FAS3270, "raid_scheme": "raid10"}, ["body", "configuration", "raid_scheme"]),
        ({**FAS3270, "drive_count": 5000}, ["body", "configuration", "drive_count"]),
        ({**FAS3270, "flash_cache_gb": 3}, ["body", "configuration", "flash_cache_gb"]),
        ({**FAS3270, "port_option": "no such ports"}, ["body", "configuration", "port_option"]),
        ({**FAS3270, "controller_id": "no-such-controller"}, ["body", "configuration", "controller_id"]),
    ],
)
def test_a_catalog_reference_the_catalog_cannot_build_is_422_at_its_field(
    client: TestClient, reference: dict, loc: list
) -> None:
    assert error_locs(evaluate(client, reference)) == [loc]


def test_an_engine_input_error_is_422_at_the_path_its_field_names(client: TestClient) -> None:
    configuration = explicit_configuration(client)
    configuration["pools"][0]["drive_count"] = None  # a family cannot be evaluated

    locs = error_locs(evaluate(client, configuration))

    assert locs == [["body", "configuration", "pools", 0, "drive_count"]]


def test_a_workload_in_an_unknown_pool_is_422_at_that_workload(client: TestClient) -> None:
    body = {"workloads": [workload(), workload(name="other", pool="nowhere")], "configuration": FAS3270}

    assert error_locs(client.post("/api/v1/evaluate", json=body)) == [["body", "workloads", 1, "pool"]]


def test_more_than_the_phase_budget_is_422(client: TestClient) -> None:
    many = [workload(name=f"w{i}", phases=[phase(name=f"p{j}") for j in range(20)]) for i in range(7)]

    locs = error_locs(client.post("/api/v1/evaluate", json={"workloads": many, "configuration": FAS3270}))

    assert locs == [["body", "workloads"]]


@pytest.mark.parametrize(
    "huge",
    [
        {"iops": 1e300},
        {"iops": 1e15, "io_size_kib": 16384},
        {"mb_per_s": 1e300, "iops": 0},
    ],
)
def test_huge_numbers_never_crash_the_server(client: TestClient, huge: dict) -> None:
    body = {"workloads": [workload(capacity_tb=1e300, phases=[phase(**huge)])], "configuration": FAS3270}

    for path in ("/api/v1/evaluate", "/api/v1/size", "/api/v1/curves"):
        configuration = FAS3270 if path != "/api/v1/size" else FAS3270
        response = client.post(path, json={**body, "configuration": configuration})
        assert response.status_code in (200, 422), (path, response.text)


# ---- /size


def test_size_finds_the_fewest_drives_of_a_catalog_family(client: TestClient) -> None:
    response = client.post("/api/v1/size", json={"workloads": [workload()], "configuration": FAS3270})

    assert response.status_code == 200, response.text
    sized = response.json()
    assert sized["feasible"] is True
    assert sized["configuration"]["pools"][0]["drive_count"] == sized["drive_count"]
    assert sized["drive_count"] % sized["configuration"]["pools"][0]["raid"]["group_width"] == 0


def test_size_with_a_drive_count_is_422_at_drive_count(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": {**FAS3270, "drive_count": 48}}

    assert error_locs(client.post("/api/v1/size", json=body)) == [["body", "configuration", "drive_count"]]


def test_size_of_a_full_configuration_needs_exactly_one_open_pool(client: TestClient) -> None:
    configuration = explicit_configuration(client)  # every pool has a drive count

    response = client.post("/api/v1/size", json={"workloads": [workload()], "configuration": configuration})

    assert error_locs(response) == [["body", "configuration", "pools"]]


def test_size_tries_each_flash_cache_option_and_is_bounded_by_max_drives(client: TestClient) -> None:
    heavy = workload(phases=[phase(iops=200000)])
    body = {
        "workloads": [heavy],
        "configuration": {**FAS3270, "flash_cache_gb": 512},
        "flash_cache_options_gb": [512, 1024],
        "max_drives": 100,
    }

    response = client.post("/api/v1/size", json=body)

    assert response.status_code == 200, response.text
    sized = response.json()
    assert [o["flash_cache_gb"] for o in sized["cache_options"]] == [512, 1024]
    assert sized["feasible"] is False
    assert sized["drive_count"] <= 100


# ---- /compare


def test_compare_sizes_families_and_gives_deltas_against_the_first(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configurations": [FAS3270, {**FAS3270, "drive_count": 96}, {"array_id": "emc-vnx5300"}],
    }

    response = client.post("/api/v1/compare", json=body)

    assert response.status_code == 200, response.text
    result = response.json()
    columns = result["comparison"]["columns"]
    assert len(columns) == len(result["items"]) == 3
    assert result["items"][0]["sizing"] is not None  # drive_count null: sized
    assert result["items"][1]["sizing"] is None  # given
    first, second = columns[0]["headline"], columns[1]["headline"]
    assert columns[0]["delta"]["drives_total"] == 0
    assert columns[1]["delta"]["drives_total"] == second["drives_total"] - first["drives_total"]
    assert columns[1]["delta"]["usable_tb"] == pytest.approx(second["usable_tb"] - first["usable_tb"])
    window = columns[1]["delta"]["windows"][0]
    assert window["window"] == "business hours"
    assert window["read_latency_ms"] == pytest.approx(
        second["windows"][0]["read_latency_ms"] - first["windows"][0]["read_latency_ms"]
    )
    assert window["controller_busy_pct"] == pytest.approx(
        second["windows"][0]["controller_busy_pct"] - first["windows"][0]["controller_busy_pct"]
    )
    assert columns[1]["delta"]["passed"] in ("same", "now passes", "now fails")


def test_raid10_vs_raid_dp_in_one_request(client: TestClient) -> None:
    body = {"workloads": [workload()], "base": {"array_id": "generic"}, "schemes": ["raid10", "raid-dp"]}

    response = client.post("/api/v1/compare", json=body)

    assert response.status_code == 200, response.text
    items = response.json()["items"]
    assert [i["configuration"]["pools"][0]["raid"]["scheme"] for i in items] == ["raid10", "raid-dp"]
    assert all(i["sizing"] is not None for i in items)
    raid10, raid_dp = (i["result"]["capacity"] for i in items)
    assert raid10["usable_raw_pct"] < raid_dp["usable_raw_pct"]  # mirrors keep half


def test_schemes_of_a_full_configuration_use_each_schemes_width_and_name_it(client: TestClient) -> None:
    base = explicit_configuration(client, {"array_id": "generic", "raid_scheme": "raid-dp"})

    response = client.post(
        "/api/v1/compare", json={"workloads": [workload()], "base": base, "schemes": ["raid-dp", "raid10"]}
    )

    assert response.status_code == 200, response.text
    items = response.json()["items"]
    layouts = [i["configuration"]["pools"][0]["raid"] for i in items]
    assert [r["scheme"] for r in layouts] == ["raid-dp", "raid10"]
    assert layouts[1]["group_width"] == 8  # the generic array's default RAID 10 width
    assert layouts[1]["scatter"] == 0  # a WAFL layout age means nothing for RAID10
    # the label names the scheme computed, never the base's "raid-dp 16 ... (raid10)"
    pool = base["pools"][0]
    assert items[1]["configuration"]["name"] == (
        f"Generic dual-controller array, {pool['drive_count']} x {pool['drive']['name']}, raid10 8"
    )
    assert "raid-dp" not in items[1]["result"]["configuration"]


def test_a_scheme_the_array_lacks_is_422_at_that_scheme(client: TestClient) -> None:
    body = {"workloads": [workload()], "base": FAS3270, "schemes": ["raid-dp", "raid10"]}

    response = client.post("/api/v1/compare", json=body)

    assert error_locs(response) == [["body", "schemes", 1]]
    assert response.json()["detail"][0]["msg"] == (
        "the FAS3270 (HA pair) does not offer RAID 10 (it offers NetApp RAID-DP); "
        "ask for a hypothetical to compute it anyway"
    )


def test_a_scheme_the_array_lacks_is_422_for_a_full_configuration_too(client: TestClient) -> None:
    """Regression: a fully resolved configuration skipped the array's support check (issue 17 item 3)."""
    base = explicit_configuration(client)
    body = {"workloads": [workload()], "base": base, "schemes": ["raid-dp", "raid10"]}

    assert error_locs(client.post("/api/v1/compare", json=body)) == [["body", "schemes", 1]]


def test_a_full_configuration_in_a_scheme_its_array_lacks_is_422_at_the_pool_scheme(
    client: TestClient,
) -> None:
    base = explicit_configuration(client)
    pool = {**base["pools"][0], "raid": {"scheme": "raid10", "group_width": 8}}

    response = evaluate(client, {**base, "pools": [pool]})

    assert error_locs(response) == [["body", "configuration", "pools", 0, "raid", "scheme"]]


def test_a_hypothetical_full_configuration_is_computed_and_labelled(client: TestClient) -> None:
    base = explicit_configuration(client)
    pool = {**base["pools"][0], "raid": {"scheme": "raid10", "group_width": 8}}

    response = evaluate(client, {**base, "pools": [pool], "hypothetical": True})

    assert response.status_code == 200, response.text
    assert response.json()["configuration"].endswith("(hypothetical: not offered by this array)")


def test_a_hypothetical_reference_is_computed_and_labelled(client: TestClient) -> None:
    response = evaluate(client, {**FAS3270, "raid_scheme": "raid10", "drive_count": 48, "hypothetical": True})

    assert response.status_code == 200, response.text
    # the engine's typical RAID 10 width (8) on the FAS's default drive
    assert response.json()["configuration"] == (
        "FAS3270 (HA pair), 48 x 600 GB 10K SAS 2.5in, raid10 8 (hypothetical: not offered by this array)"
    )


def test_a_hypothetical_the_array_offers_is_not_labelled(client: TestClient) -> None:
    response = evaluate(client, {**FAS3270, "drive_count": 48, "hypothetical": True})

    assert response.status_code == 200, response.text
    assert "hypothetical" not in response.json()["configuration"]


def test_hypothetical_schemes_are_computed_on_the_same_array_and_labelled(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "base": FAS3270,
        "schemes": ["raid-dp", "raid10"],
        "unsupported": "hypothetical",
    }

    response = client.post("/api/v1/compare", json=body)

    assert response.status_code == 200, response.text
    raid_dp, raid10 = response.json()["items"]
    assert raid10["configuration"]["array_id"] == "netapp-fas3270"
    assert raid10["configuration"]["hypothetical"] is True
    assert raid10["result"]["configuration"].endswith("(hypothetical: not offered by this array)")
    assert raid_dp["configuration"]["hypothetical"] is False


def test_a_peer_computes_the_scheme_with_the_same_drives_on_an_array_that_offers_it(
    client: TestClient,
) -> None:
    base = explicit_configuration(client)
    body = {"workloads": [workload()], "base": base, "schemes": ["raid-dp", "raid10"], "unsupported": "peer"}

    response = client.post("/api/v1/compare", json=body)

    assert response.status_code == 200, response.text
    raid_dp, raid10 = response.json()["items"]
    assert raid_dp["note"] is None
    assert raid10["configuration"]["array_id"] == "generic"
    assert raid10["configuration"]["pools"][0]["drive"] == base["pools"][0]["drive"]
    assert raid10["configuration"]["pools"][0]["raid"]["scheme"] == "raid10"
    assert raid10["note"].startswith(
        "The FAS3270 (HA pair) does not offer RAID 10: this column puts the same drives (600 GB 10K SAS 2.5in), "
        "headroom, ports in the Generic dual-controller array, which does. Every other difference: "
    )


def test_a_peer_that_lacks_the_scheme_too_is_422_at_peer_array_id(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "base": FAS3270,
        "schemes": ["raid-dp", "raid10"],
        "unsupported": "peer",
        "peer_array_id": "netapp-fas3170",
    }

    assert error_locs(client.post("/api/v1/compare", json=body)) == [["body", "peer_array_id"]]


def test_headroom_targets_on_a_catalog_reference_apply_in_one_request(client: TestClient) -> None:
    strict = {"drive_max_pct": 35.0}

    loose = client.post("/api/v1/size", json={"workloads": [workload()], "configuration": FAS3270})
    tight = client.post(
        "/api/v1/size", json={"workloads": [workload()], "configuration": {**FAS3270, "headroom": strict}}
    )

    assert loose.status_code == tight.status_code == 200, tight.text
    assert tight.json()["configuration"]["headroom"]["drive_max_pct"] == 35.0
    checks = tight.json()["result"]["windows"][0]["checks"]
    assert next(c for c in checks if c["name"].startswith("drives"))["limit"] == 35.0
    assert tight.json()["drive_count"] > loose.json()["drive_count"]


def test_compare_needs_two_to_eight_configurations(client: TestClient) -> None:
    one = {"workloads": [workload()], "configurations": [FAS3270]}
    nine = {"workloads": [workload()], "configurations": [FAS3270] * 9}

    assert error_locs(client.post("/api/v1/compare", json=one)) == [["body", "configurations"]]
    assert error_locs(client.post("/api/v1/compare", json=nine)) == [["body", "configurations"]]


def test_a_bad_configuration_in_a_comparison_is_422_at_its_index(client: TestClient) -> None:
    body = {"workloads": [workload()], "configurations": [FAS3270, {**FAS3270, "group_width": 40}]}

    assert error_locs(client.post("/api/v1/compare", json=body)) == [
        ["body", "configurations", 1, "group_width"]
    ]


# ---- /curves


def test_curves_give_latency_vs_load_queue_depth_and_hit_ratio(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": {**FAS3270, "drive_count": 48, "flash_cache_gb": 512}}

    response = client.post("/api/v1/curves", json=body)

    assert response.status_code == 200, response.text
    curves = response.json()
    assert curves["window"] == "business hours"
    assert curves["notes"] == []
    lvl = curves["latency_vs_load"]
    assert lvl["operating_iops"] == pytest.approx(5000)
    assert lvl["saturation_iops"] > 5000
    iops = [p["iops"] for p in curves["queue_depth"]["points"]]
    assert iops == sorted(iops)
    hit = curves["hit_ratio"]
    assert hit["working_set_gb"] == 200
    assert hit["flash_cache_gb"] == 512
    assert hit["configured_cache_gb"] == pytest.approx(hit["dram_cache_gb"] + 512)
    marked = [
        p for p in hit["points"] if p["cache_gb"] == pytest.approx(min(hit["configured_cache_gb"], 200))
    ]
    assert marked and marked[0]["hit_pct"] == pytest.approx(hit["configured_hit_pct"])
    hits = [p["hit_pct"] for p in hit["points"]]
    assert hits == sorted(hits) and hits[-1] == pytest.approx(100)


def test_curves_computes_only_the_curves_asked_for(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": FAS3270, "curves": ["latency_vs_load"]}

    response = client.post("/api/v1/curves", json=body)

    assert response.status_code == 200, response.text
    curves = response.json()
    assert curves["latency_vs_load"]["operating_iops"] == pytest.approx(5000)
    assert curves["queue_depth"] is None and curves["hit_ratio"] is None
    assert curves["notes"] == []


def test_the_same_latency_curve_whether_asked_alone_or_with_the_others(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": FAS3270}

    alone = client.post("/api/v1/curves", json={**body, "curves": ["latency_vs_load"]}).json()
    every = client.post("/api/v1/curves", json=body).json()

    assert alone["latency_vs_load"] == every["latency_vs_load"]


@pytest.mark.parametrize(
    ("curves", "loc"),
    [
        ([], ["body", "curves"]),
        (["latency_vs_load", "latency_vs_load"], ["body", "curves"]),
        (["tail_latency"], ["body", "curves", 0]),
    ],
)
def test_curves_names_each_known_curve_at_most_once(client: TestClient, curves: list, loc: list) -> None:
    body = {"workloads": [workload()], "configuration": FAS3270, "curves": curves}

    assert error_locs(client.post("/api/v1/curves", json=body)) == [loc]


def test_curves_of_an_unknown_window_is_422_at_window(client: TestClient) -> None:
    body = {"workloads": [workload()], "configuration": FAS3270, "window": "weekend"}

    assert error_locs(client.post("/api/v1/curves", json=body)) == [["body", "window"]]


def test_an_idle_window_has_no_latency_curve_and_says_why(client: TestClient) -> None:
    idle = workload(phases=[phase(iops=0)])

    response = client.post("/api/v1/curves", json={"workloads": [idle], "configuration": FAS3270})

    assert response.status_code == 200, response.text
    curves = response.json()
    assert curves["latency_vs_load"] is None
    assert any(note.startswith("latency vs load") for note in curves["notes"])


def test_an_engine_refusal_reads_as_one_sentence(client: TestClient) -> None:
    response = evaluate(client, {"array_id": "generic", "raid_scheme": "raid10", "group_width": 7})

    assert error_locs(response) == [["body", "configuration", "group_width"]]
    assert response.json()["detail"][0]["msg"] == "raid10 group width must be even"


def test_a_catalog_reference_may_state_short_stroking_and_a_planned_fill(client: TestClient) -> None:
    # both are optimisms the user states: the pool carries them, and sizing names what they save
    ref = {**FAS3270, "drive_fraction_used": 0.5, "planned_fill_pct": 40}
    response = client.post("/api/v1/evaluate", json={"workloads": [workload()], "configuration": ref})
    assert response.status_code == 200, response.text
    pool = response.json()["windows"][0]["pools"][0]
    assert pool["span_pct"] <= 50.0 + 1e-9  # half of each drive at most

    bad = client.post(
        "/api/v1/evaluate",
        json={"workloads": [workload()], "configuration": {**FAS3270, "drive_fraction_used": 1.5}},
    )
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["loc"] == ["body", "configuration", "drive_fraction_used"]


# ---- what-if dials (adjust)


def test_a_what_if_dial_gives_the_same_result_as_the_input_it_moves(client: TestClient) -> None:
    dialled = evaluate(client, {**FAS3270, "drive_count": 48}, adjust={"drive_count": 64, "iops_scale": 2})
    direct = client.post(
        "/api/v1/evaluate",
        json={
            "workloads": [workload(phases=[phase(iops=10000)])],
            "configuration": {**FAS3270, "drive_count": 64},
        },
    )

    assert dialled.status_code == direct.status_code == 200, dialled.text
    assert dialled.json()["windows"] == direct.json()["windows"]
    assert dialled.json()["bill"]["drives"] == 64


def test_the_latency_curve_follows_the_dials(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configuration": {**FAS3270, "drive_count": 48},
        "curves": ["latency_vs_load"],
    }

    base = client.post("/api/v1/curves", json=body).json()["latency_vs_load"]
    doubled = client.post("/api/v1/curves", json={**body, "adjust": {"iops_scale": 2}}).json()[
        "latency_vs_load"
    ]

    assert doubled["operating_iops"] == 2 * base["operating_iops"]  # 5,000 -> 10,000 IOPS


def test_a_flash_size_the_array_does_not_sell_is_422_at_the_dial(client: TestClient) -> None:
    response = evaluate(client, {**FAS3270, "drive_count": 48}, adjust={"flash_cache_gb": 300})

    assert error_locs(response) == [["body", "adjust", "flash_cache_gb"]]


# ---- /raid-grid


def test_the_raid_grid_sizes_every_scheme_the_array_offers(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configuration": {"array_id": "netapp-e5400", "raid_scheme": "raid6"},
    }

    response = client.post("/api/v1/raid-grid", json=body)

    assert response.status_code == 200, response.text
    grid = response.json()
    array = client.get("/api/v1/catalog/arrays/netapp-e5400").json()["array"]
    assert [r["scheme"] for r in grid["rows"]] == [o["scheme"] for o in array["raid"]]
    assert grid["window"] == "business hours"
    assert grid["frontend_iops"] == 5000
    for row in grid["rows"]:
        # each row is the sizing of that scheme: /size of the same reference gives the same figures
        sized = client.post(
            "/api/v1/size",
            json={
                "workloads": [workload()],
                "configuration": {"array_id": "netapp-e5400", "raid_scheme": row["scheme"]},
            },
        ).json()
        assert row["drives"] == sized["result"]["bill"]["drives"]
        assert row["usable_raw_pct"]["value"] == sized["result"]["capacity"]["usable_raw_pct"]
        cost = sized["result"]["bill"]["cost_usd"]
        assert row["cost_per_usable_tb"]["value"] == pytest.approx(
            cost / sized["result"]["capacity"]["usable_tb"]
        )
        assert row["cost_per_1000_iops"]["value"] == pytest.approx(cost / 5)  # 5,000 IOPS = 5 thousand


def test_the_raid_grid_states_failures_tolerated_and_rebuild_time(client: TestClient) -> None:
    body = {"workloads": [workload(phases=[phase(io_size_kib=4)])], "configuration": {"array_id": "generic"}}

    rows = {r["scheme"]: r for r in client.post("/api/v1/raid-grid", json=body).json()["rows"]}

    assert rows["raid0"]["failures_tolerated"] == 0
    assert rows["raid0"]["rebuild_hours"] is None
    assert rows["raid6"]["failures_tolerated"] == 2
    assert rows["raid10"]["failures_tolerated"] == 1
    assert rows["raid6"]["rebuild_hours"]["value"] > 0
    # 30% of the I/O are random 4 KiB writes, each written to both mirror halves
    assert rows["raid10"]["write_penalty"]["value"] == pytest.approx(2.0)


# ---- one request for a results page: the answer and its first window's curves


def test_size_with_curves_brings_the_curves_post_curves_gives_for_the_sized_configuration(
    client: TestClient,
) -> None:
    two_windows = workload(phases=[phase(), phase(name="night", window="backup", iops=500, read_pct=10)])
    body = {"workloads": [two_windows], "configuration": FAS3270}

    answer = client.post("/api/v1/size?with_curves=true", json=body)

    assert answer.status_code == 200, answer.text
    sized = answer.json()
    alone = client.post(
        "/api/v1/curves", json={"workloads": [two_windows], "configuration": sized["configuration"]}
    )
    assert sized["curves"] == alone.json()
    assert sized["curves"]["window"] == "business hours"  # the first window
    plain = client.post("/api/v1/size", json=body).json()
    assert "curves" not in plain  # without the option the answer is the sizing alone, as before
    assert {k: v for k, v in sized.items() if k != "curves"} == {
        k: v for k, v in plain.items() if k != "curves"
    }


def test_evaluate_with_curves_brings_the_first_windows_curves(client: TestClient) -> None:
    configuration = {**FAS3270, "drive_count": 48}

    answer = evaluate(client, configuration, degraded="none").json()
    with_curves = client.post(
        "/api/v1/evaluate?with_curves=true", json={"workloads": [workload()], "configuration": configuration}
    ).json()
    alone = client.post("/api/v1/curves", json={"workloads": [workload()], "configuration": configuration})

    assert "curves" not in answer
    assert with_curves["curves"] == alone.json()
    assert {k: v for k, v in with_curves.items() if k != "curves"} == {
        k: v for k, v in answer.items() if k != "curves"
    }


def test_a_family_that_cannot_be_sized_has_no_curves_to_draw(client: TestClient) -> None:
    huge = workload(phases=[phase(iops=5_000_000)])

    response = client.post(
        "/api/v1/size?with_curves=true",
        json={"workloads": [huge], "configuration": FAS3270, "max_drives": 14},
    )

    assert response.status_code == 200, response.text
    assert response.json()["feasible"] is False
    assert response.json()["curves"] is None


def test_with_curves_must_be_a_boolean(client: TestClient) -> None:
    response = client.post(
        "/api/v1/size?with_curves=maybe", json={"workloads": [workload()], "configuration": FAS3270}
    )

    assert error_locs(response) == [["query", "with_curves"]]


def test_a_wal_in_nvram_a_controller_without_nvram_cannot_have_is_422_naming_the_field(
    client: TestClient,
) -> None:
    configuration = explicit_configuration(client)
    configuration["controller"]["nvram_mb"] = 0
    configuration["architecture"] = {"write_architecture": "replicated_scale_out", "wal": "nvram"}

    response = evaluate(client, configuration)

    (loc,) = error_locs(response)
    assert loc[0] == "body" and loc[-1] == "architecture"
    assert "architecture.wal" in response.json()["detail"][0]["msg"]


W = [workload(phases=[phase()])]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        # the union's tags ("configurations", "schemes") are body fields too: each error is at the
        # field the client sent wrong, never at the tag (#34: they were at configurations / schemes)
        (
            {"workloads": W, "configurations": [FAS3270, FAS3270], "relax": [{"case": "healthy"}]},
            ["body", "relax", 0, "case"],
        ),
        (
            {"workloads": W, "configurations": [FAS3270, FAS3270], "degraded": "sideways"},
            ["body", "degraded"],
        ),
        ({"workloads": W, "configurations": [FAS3270, FAS3270], "colour": "red"}, ["body", "colour"]),
        ({"workloads": [], "configurations": [FAS3270, FAS3270]}, ["body", "workloads"]),
        ({"workloads": W, "schemes": ["raid-dp", "raid10"]}, ["body", "base"]),
        (
            {"workloads": W, "base": FAS3270, "schemes": ["raid-dp", "raid10"], "unsupported": "ignore"},
            ["body", "unsupported"],
        ),
        # base and schemes make it a scheme comparison: configurations is the field it does not take
        (
            {
                "workloads": W,
                "configurations": [FAS3270, FAS3270],
                "base": FAS3270,
                "schemes": ["raid-dp", "raid10"],
            },
            ["body", "configurations"],
        ),
        # a field of a configuration stays at that configuration
        (
            {"workloads": W, "configurations": [FAS3270, {**FAS3270, "drive_count": -3}]},
            ["body", "configurations", 1, "drive_count"],
        ),
        ({"workloads": W, "base": FAS3270, "schemes": ["raid-dp", "raid-zz"]}, ["body", "schemes", 1]),
    ],
)
def test_a_compare_error_is_at_the_field_sent_wrong(
    client: TestClient, body: dict[str, Any], loc: list[Any]
) -> None:
    assert error_locs(client.post("/api/v1/compare", json=body)) == [loc]
