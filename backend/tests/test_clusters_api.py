"""Clustered catalog references over HTTP: node counts, their limits as 422s, ports and sizing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from backend.tests.conftest import error_locs, workload

FAS6240 = {"array_id": "netapp-fas6240", "drive_id": "hdd-15k-sas-450", "raid_scheme": "raid-dp"}
SF9605 = {"array_id": "netapp-solidfire-sf9605", "drive_id": "ssd-sata-960"}


def evaluate(client: TestClient, configuration: dict[str, Any]) -> Any:
    return client.post("/api/v1/evaluate", json={"workloads": [workload()], "configuration": configuration})


def test_a_24_node_fas6240_cluster_evaluates_as_a_catalog_reference(client: TestClient) -> None:
    # 96 groups of 19 (17 data + 2 parity) = 1,824 drives, 1,632 of them data, on 12 HA pairs
    response = evaluate(client, {**FAS6240, "group_width": 19, "drive_count": 1824, "nodes": 12})

    assert response.status_code == 200, response.text
    result = response.json()
    assert result["configuration"].startswith("FAS6240 (HA pair), 12 HA pairs (24 controllers), 1824 x")
    assert result["bill"]["spares"] == 66  # ceil(1,824 / 28)


def test_a_node_count_outside_the_range_is_422_at_nodes_naming_the_range(client: TestClient) -> None:
    response = evaluate(client, {**FAS6240, "nodes": 13})

    assert error_locs(response) == [["body", "configuration", "nodes"]]
    assert "1 to 12 HA pairs" in response.json()["detail"][0]["msg"]


def test_drives_beyond_the_cluster_maximum_are_422_at_drive_count_naming_it(client: TestClient) -> None:
    response = evaluate(client, {**FAS6240, "drive_count": 17008})

    assert error_locs(response) == [["body", "configuration", "drive_count"]]
    assert "cluster maximum of 17280 drives" in response.json()["detail"][0]["msg"]


def test_a_node_count_on_an_array_that_does_not_cluster_is_422_at_nodes(client: TestClient) -> None:
    response = evaluate(client, {"array_id": "netapp-fas3070", "nodes": 2})

    assert error_locs(response) == [["body", "configuration", "nodes"]]


def test_named_and_default_port_options_scale_alike_with_the_nodes(client: TestClient) -> None:
    mb_s = []
    for extra in ({}, {"port_option": "10Gb iSCSI"}):
        response = evaluate(client, {**SF9605, "drive_count": 80, **extra})
        assert response.status_code == 200, response.text
        result = response.json()
        assert result["configuration"].startswith("SolidFire SF9605 cluster, 8 nodes, 80 x")
        mb_s.append(result["windows"][0]["port_utilization_pct"]["inputs"]["port_capacity_mb_s"])
    # 16 x 10GbE at 1,150 MB/s each, named or not
    assert mb_s == [16 * 1150, 16 * 1150]


def test_solidfire_bills_eight_nodes_for_eighty_drives(client: TestClient) -> None:
    response = evaluate(client, {**SF9605, "nodes": 8})

    assert response.status_code == 200, response.text
    bill = response.json()["bill"]
    # 8 nodes x 10 drives, no spares: 8U, 8 x 60,000 + 80 x 900 = 552,000 USD
    assert (bill["drives"], bill["spares"], bill["rack_units"]) == (80, 0, 8)
    assert bill["cost_usd"] == 552_000


def test_size_adds_ha_pairs_and_names_the_binding_change(client: TestClient) -> None:
    big = workload(capacity_tb=700)
    body = {
        "workloads": [big],
        "configuration": {"array_id": "netapp-fas8040", "drive_id": "hdd-10k-sas-900"},
    }

    response = client.post("/api/v1/size", json=body)

    assert response.status_code == 200, response.text
    result = response.json()
    attached = result["drive_count"] + result["result"]["bill"]["spares"]
    # the drives need more than one HA pair's 720 slots: the fewest pairs that attach them
    assert attached > 720
    assert result["nodes"] == -(-attached // 720)
    assert result["nodes_added"] == result["nodes"] - 1
    assert result["binding_constraint"].startswith("HA pair count (capacity")
    assert result["configuration"]["controller"]["count"] == 2 * result["nodes"]
