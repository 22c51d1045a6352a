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


def test_the_scheme_list_says_the_engines_words_for_a_scheme_an_array_does_not_offer(
    client: TestClient,
) -> None:
    body = client.get("/api/v1/catalog/raid-schemes").json()
    assert body["hypothetical_label"] == "hypothetical: not offered by this array"


def test_an_array_comes_with_the_drives_it_supports(client: TestClient) -> None:
    response = client.get("/api/v1/catalog/arrays/netapp-fas3270")

    assert response.status_code == 200
    body = response.json()
    assert body["array"]["id"] == "netapp-fas3270"
    assert sorted(d["id"] for d in body["drives"]) == sorted(body["array"]["drives"])


def test_a_clustered_array_lists_its_node_counts_in_the_engines_words(client: TestClient) -> None:
    # FAS6240: 1 to 12 HA pairs of two controllers each (models.cluster.node_label)
    choices = client.get("/api/v1/catalog/arrays/netapp-fas6240").json()["node_choices"]

    assert [c["nodes"] for c in choices] == list(range(1, 13))
    assert choices[2] == {"nodes": 3, "label": "3 HA pairs (6 controllers)"}
    assert client.get("/api/v1/catalog/arrays/netapp-fas3270").json()["node_choices"] == []


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


# ---- catalog answers are serialized once and revalidated


def test_a_catalog_answer_carries_an_etag_and_a_client_holding_it_gets_304(client: TestClient) -> None:
    first = client.get("/api/v1/catalog/arrays")

    again = client.get("/api/v1/catalog/arrays", headers={"If-None-Match": first.headers["etag"]})

    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]


def test_a_stale_etag_gets_the_answer_again(client: TestClient) -> None:
    response = client.get("/api/v1/catalog/drives", headers={"If-None-Match": '"not-this-one"'})

    assert response.status_code == 200
    assert response.json()["drives"]


def test_a_gzipped_catalog_answer_holds_the_same_json_as_the_plain_one(client: TestClient) -> None:
    plain = client.get("/api/v1/catalog/arrays", headers={"Accept-Encoding": "identity"})
    gzipped = client.get("/api/v1/catalog/arrays", headers={"Accept-Encoding": "gzip"})

    assert "content-encoding" not in plain.headers
    assert gzipped.headers["content-encoding"] == "gzip"
    assert gzipped.headers["vary"] == "Accept-Encoding"
    # level 9 once: well under a sixth of the JSON (149 kB to 17 kB for the catalog of 2026-11)
    assert int(gzipped.headers["content-length"]) < len(plain.content) / 6
    assert gzipped.json() == plain.json()
    assert plain.headers["etag"] == gzipped.headers["etag"]


def test_each_array_detail_is_its_own_answer(client: TestClient) -> None:
    a = client.get("/api/v1/catalog/arrays/netapp-fas3270")
    b = client.get("/api/v1/catalog/arrays/netapp-fas3170")

    assert a.json()["array"]["id"] == "netapp-fas3270" and b.json()["array"]["id"] == "netapp-fas3170"
    assert a.headers["etag"] != b.headers["etag"]
