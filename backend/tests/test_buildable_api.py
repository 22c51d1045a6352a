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
