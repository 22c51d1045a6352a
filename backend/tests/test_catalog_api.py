"""``/catalog``: the built-in records, each list stamped with the catalog version."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import error_locs


@pytest.mark.parametrize(
    ("path", "key", "some_id_field", "some_id"),
    [
        ("drives", "drives", "id", "hdd-10k-sas-600"),
        ("arrays", "arrays", "id", "netapp-fas3270"),
        ("raid-schemes", "raid_schemes", "scheme", "raid-dp"),
        ("ports", "ports", "type", "8gfc"),
        ("workload-templates", "templates", "id", "oltp-database"),
    ],
)
def test_each_catalog_list_carries_the_catalog_version(
    client: TestClient, path: str, key: str, some_id_field: str, some_id: str
) -> None:
    version = client.get("/api/v1/health").json()["catalog_version"]

    response = client.get(f"/api/v1/catalog/{path}")

    assert response.status_code == 200
    body = response.json()
    assert body["catalog_version"] == version
    assert some_id in [record[some_id_field] for record in body[key]]


def test_an_array_comes_with_the_drives_it_supports(client: TestClient) -> None:
    response = client.get("/api/v1/catalog/arrays/netapp-fas3270")

    assert response.status_code == 200
    body = response.json()
    assert body["array"]["id"] == "netapp-fas3270"
    assert sorted(d["id"] for d in body["drives"]) == sorted(body["array"]["drives"])


def test_an_array_lists_the_group_widths_it_builds_per_scheme(client: TestClient) -> None:
    widths = client.get("/api/v1/catalog/arrays/generic").json()["group_widths"]

    assert widths["raid10"] == list(range(2, 65, 2))  # 2-64, mirrors pair up: even widths only
    assert widths["raid5"] == list(range(3, 33))
    assert widths["raid1"] == [2]


def test_an_unknown_array_is_404(client: TestClient) -> None:
    response = client.get("/api/v1/catalog/arrays/no-such-array")

    assert response.status_code == 404
    assert "no-such-array" in response.json()["detail"]


def test_an_overlong_array_id_is_422(client: TestClient) -> None:
    assert error_locs(client.get("/api/v1/catalog/arrays/" + "x" * 81)) == [["path", "array_id"]]
