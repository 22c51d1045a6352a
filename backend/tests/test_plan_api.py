"""``/plan/...`` over HTTP (SQLite and PostgreSQL): the installed base's flows, errors at field paths."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import FAS3270, error_locs, phase, workload


def post(client: TestClient, path: str, **body: Any) -> Any:
    return client.post(f"/api/v1/plan/{path}", json=body)


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


ASYNC = {"mode": "async", "rpo_minutes": 15, "interval_minutes": 5, "window_hours": {"business hours": 10}}


# ---- replication


def test_async_replication_sizes_the_wan_link(client: TestClient) -> None:
    # 5,000 IOPS x 30 % writes x 8 KiB = 12.288 MB/s; B = 12.288 x max(1, 5 / 10) x 8 / 0.8 = 122.88 Mbit/s
    result = ok(post(client, "replication", workloads=[workload()], plan=ASYNC))

    assert result["bandwidth_mbit_s"]["value"] == pytest.approx(122.88)
    assert result["lag_minutes"]["value"] == pytest.approx(10.0)
    assert result["busiest_window"] == "business hours"


def test_sync_replication_adds_the_distance_to_each_write_and_sizes_the_dr_array(client: TestClient) -> None:
    plan = {"mode": "sync", "distance_km": 100, "link_mbit_s": 1000}
    result = ok(
        post(
            client,
            "replication",
            workloads=[workload()],
            plan=plan,
            primary={**FAS3270, "drive_count": 48},
            dr=FAS3270,
        )
    )

    # 2 x 2 x 100 km x 5 us = 2 ms; 8 KiB x 8 / 1 Gbit/s = 0.065536 ms; 0.1 ms remote acknowledgement
    assert result["sync_write_ms"]["value"] == pytest.approx(2.165536)
    base = result["primary"]["windows"][0]["write_latency_ms"]
    assert result["write_latency_ms"]["business hours"] == pytest.approx(base + 2.165536)
    assert result["dr"]["failover"]["feasible"] is True
    assert result["dr"]["replicated_writes"]["windows"][0]["read_pct"] == 0


def test_an_rpo_no_longer_than_the_interval_is_422_at_the_rpo(client: TestClient) -> None:
    response = post(client, "replication", workloads=[workload()], plan={**ASYNC, "rpo_minutes": 5})

    assert error_locs(response) == [["body", "plan", "rpo_minutes"]]
    assert "interval" in response.json()["detail"][0]["msg"]


def test_a_window_without_its_duration_is_422_at_that_window(client: TestClient) -> None:
    night = phase(name="night", window="nightly export")
    response = post(client, "replication", workloads=[workload(phases=[phase(), night])], plan=ASYNC)

    assert error_locs(response) == [["body", "plan", "window_hours", "nightly export"]]


def test_async_without_an_interval_is_422_at_the_plan(client: TestClient) -> None:
    plan = {k: v for k, v in ASYNC.items() if k != "interval_minutes"}

    response = post(client, "replication", workloads=[workload()], plan=plan)

    assert error_locs(response) == [["body", "plan"]]
    assert "interval_minutes" in response.json()["detail"][0]["msg"]


def test_a_dr_family_with_a_drive_count_is_422_at_the_count(client: TestClient) -> None:
    response = post(
        client, "replication", workloads=[workload()], plan=ASYNC, dr={**FAS3270, "drive_count": 48}
    )

    assert error_locs(response) == [["body", "dr", "drive_count"]]


# ---- expand

INSTALLED = {**FAS3270, "drive_id": "hdd-10k-sas-600", "drive_count": 46}


def test_one_shelf_more_adds_24_drives_and_a_shelf(client: TestClient) -> None:
    result = ok(
        post(client, "expand", workloads=[workload()], configuration=INSTALLED, expansion={"shelves": 1})
    )

    assert result["drives_added"]["value"] == 24
    assert result["shelves_added"]["value"] == 1
    assert len(result["windows"]) == 1 and result["windows"][0]["window"] == "business hours"


def test_shelves_beyond_the_arrays_maximum_are_422_at_shelves(client: TestClient) -> None:
    response = post(
        client, "expand", workloads=[workload()], configuration=INSTALLED, expansion={"shelves": 60}
    )

    assert error_locs(response) == [["body", "expansion", "shelves"]]


def test_a_drive_the_array_cannot_mix_is_422_at_its_drive_id(client: TestClient) -> None:
    expansion = {"groups": [{"drive_id": "hdd-7k2-nlsas-22000", "count": 16}]}

    response = post(client, "expand", workloads=[workload()], configuration=INSTALLED, expansion=expansion)

    assert error_locs(response) == [["body", "expansion", "groups", 0, "drive_id"]]
    assert "cannot take" in response.json()["detail"][0]["msg"]


def test_an_empty_expansion_is_422_at_the_expansion(client: TestClient) -> None:
    response = post(client, "expand", workloads=[workload()], configuration=INSTALLED, expansion={})

    assert error_locs(response) == [["body", "expansion"]]


# ---- quote check

QUOTE = {"model": "FAS3270", "array_id": "netapp-fas3270", "drive_id": "hdd-10k-sas-600", "drive_count": 96}


def test_a_quote_is_checked_with_its_findings(client: TestClient) -> None:
    result = ok(post(client, "quote-check", workloads=[workload(phases=[phase(iops=1500)])], quote=QUOTE))

    # 96 quoted: 92 in groups + ceil(92 / 28) = 4 spares
    assert result["configuration"]["pools"][0]["drive_count"] == 92
    assert result["findings"][0]["area"] == "drives"
    assert result["verdict"] in {"over", "right", "under"}
    assert result["labels"] == []


def test_a_model_the_catalog_lacks_is_estimated_and_labelled(client: TestClient) -> None:
    quote = {**QUOTE, "model": "Acme 9000", "array_id": None}

    result = ok(post(client, "quote-check", workloads=[workload()], quote=quote))

    assert result["labels"][0].startswith("estimate: Acme 9000")


def test_an_unknown_array_id_is_422_at_the_quotes_array_id(client: TestClient) -> None:
    response = post(client, "quote-check", workloads=[workload()], quote={**QUOTE, "array_id": "nope"})

    assert error_locs(response) == [["body", "quote", "array_id"]]


def test_an_unknown_drive_is_422_at_the_quotes_drive_id(client: TestClient) -> None:
    response = post(client, "quote-check", workloads=[workload()], quote={**QUOTE, "drive_id": "nope"})

    assert error_locs(response) == [["body", "quote", "drive_id"]]


def test_a_cache_size_the_array_does_not_sell_is_422_at_the_quotes_flash_cache(client: TestClient) -> None:
    response = post(client, "quote-check", workloads=[workload()], quote={**QUOTE, "flash_cache_gb": 333})

    assert error_locs(response) == [["body", "quote", "flash_cache_gb"]]


# ---- consolidate


def test_two_workloads_are_placed_and_each_array_fits(client: TestClient) -> None:
    light = [workload(name="a", phases=[phase(iops=800)]), workload(name="b", phases=[phase(iops=600)])]

    result = ok(post(client, "consolidate", workloads=light, candidates=[FAS3270]))

    assert sorted(n for a in result["arrays"] for n in a["workloads"]) == ["a", "b"]
    assert all(a["result"]["passed"] for a in result["arrays"])
    assert result["unplaced"] == []


def test_workloads_that_fit_the_array_already_owned_cost_nothing(client: TestClient) -> None:
    owned = {**FAS3270, "drive_count": 48, "name": "ours"}

    result = ok(
        post(client, "consolidate", workloads=[workload()], fixed=[owned], options={"fixed_only": True})
    )

    (array,) = result["arrays"]
    assert array["fixed"] is True and array["name"] == "ours" and array["workloads"] == ["oltp"]
    assert result["total_cost_usd"] == 0


def test_a_candidate_with_a_drive_count_is_422_at_its_drive_count(client: TestClient) -> None:
    response = post(
        client, "consolidate", workloads=[workload()], candidates=[{**FAS3270, "drive_count": 48}]
    )

    assert error_locs(response) == [["body", "candidates", 0, "drive_count"]]


def test_fixed_only_without_fixed_arrays_is_422_at_the_option(client: TestClient) -> None:
    response = post(
        client, "consolidate", workloads=[workload()], candidates=[FAS3270], options={"fixed_only": True}
    )

    assert error_locs(response) == [["body", "options", "fixed_only"]]


# ---- refresh


def test_a_refresh_sizes_the_successor_beside_today(client: TestClient) -> None:
    seen = {"source": "iostat", "iops": 4000, "read_pct": 70, "read_latency_ms": 6.0}
    imported = workload(phases=[phase(observed=seen)])
    successor = {"array_id": "netapp-fas8040", "raid_scheme": "raid-dp"}

    result = ok(post(client, "refresh", workloads=[imported], current=INSTALLED, successor=successor))

    (window,) = result["windows"]
    assert window["observed_iops"] == 4000 and window["observed_read_latency_ms"] == 6.0
    assert result["observed"]["rows"][0]["observed_read_latency_ms"] == 6.0
    assert {c["figure"] for c in result["side_by_side"]} >= {"drives", "rack_units", "cost_usd"}


def test_a_successor_with_a_drive_count_is_422_at_its_drive_count(client: TestClient) -> None:
    response = post(
        client, "refresh", workloads=[workload()], current=INSTALLED, successor={**FAS3270, "drive_count": 48}
    )

    assert error_locs(response) == [["body", "successor", "drive_count"]]
