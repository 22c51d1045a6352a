"""Only what can be built, through the API: an erasure code wider than the hosts is a 422."""

from __future__ import annotations

from fastapi.testclient import TestClient

from backend.tests.conftest import workload


def test_an_erasure_code_wider_than_the_nodes_is_a_422_naming_hosts(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configuration": {
            "array_id": "ceph-nvme-reference",
            "raid_scheme": "erasure",
            "group_width": 7,
            "drive_count": 40,
            "nodes": 4,
        },
    }
    response = client.post("/api/v1/evaluate", json=body)
    assert response.status_code == 422, response.text[:300]
    detail = response.json()["detail"]
    assert any(
        "erasure 5+2 places one piece per host: it needs at least 7 hosts, the configuration has 4"
        in d["msg"]
        for d in detail
    )


def test_left_to_choose_the_nodes_a_catalog_reference_gets_the_hosts_its_layout_needs(
    client: TestClient,
) -> None:
    body = {
        "workloads": [workload()],
        "configuration": {"array_id": "ceph-nvme-reference", "raid_scheme": "erasure", "group_width": 6},
    }
    response = client.post("/api/v1/evaluate", json=body)
    assert response.status_code == 200, response.text[:300]
    answer = response.json()
    assert "erasure 4+2" in answer["configuration"]
    assert any(w.startswith("erasure 4+2 on 6 hosts") for w in answer["warnings"])


def test_vsan_4_plus_1_on_four_hosts_and_a_dre_pool_below_its_fewest_drives_are_422s_naming_the_field(
    client: TestClient,
) -> None:
    vsan = {
        "workloads": [workload()],
        "configuration": {
            "array_id": "vsan-esa-reference",
            "raid_scheme": "erasure",
            "group_width": 5,
            "drive_count": 20,
            "nodes": 4,
        },
    }
    response = client.post("/api/v1/evaluate", json=vsan)
    assert response.status_code == 422, response.text[:300]
    detail = response.json()["detail"]
    assert any(
        d["loc"] == ["body", "configuration", "group_width"]
        and "erasure 4+1 is built on at least 6 hosts (the vendor's minimum), the configuration has 4"
        in d["msg"]
        for d in detail
    ), detail
    # PowerStore DRE double parity: 4+2 stripes need 6 drives and a drive's worth of spare (7 in all)
    reference = {
        "array_id": "dell-powerstore-3200t",
        "raid_scheme": "raid5",
        "group_width": 9,
        "drive_count": 11,
    }
    dre = {
        "workloads": [workload()],
        "configuration": {
            "array_id": "dell-powerstore-3200t",
            "raid_scheme": "raid6",
            "group_width": 6,
            "drive_count": 5,
        },
    }
    response = client.post("/api/v1/evaluate", json=dre)
    assert response.status_code == 422, response.text[:300]
    assert any(
        d["loc"] == ["body", "configuration", "drive_count"]
        and "at least 6 drives (7 with spares)" in d["msg"]
        for d in response.json()["detail"]
    ), response.text[:300]
    # a DRE pool of eleven drives (not a multiple of 9) is built and evaluated
    ok = {"workloads": [workload()], "configuration": reference}
    assert client.post("/api/v1/evaluate", json=ok).status_code == 200
