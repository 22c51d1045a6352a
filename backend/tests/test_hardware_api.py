"""``/hardware``: custom drives, controllers and arrays, validated by the engine's own models."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import error_locs, workload

SSD = {
    "name": "Lab NVMe 3.84 TB",
    "kind": "nvme",
    "capacity_gb": 3840,
    "media_rate_mb_s": 3000,
    "read_iops_4k": 600000,
    "write_iops_4k": 90000,
    "read_latency_us": 90,
    "write_latency_us": 30,
}
HDD = {
    "name": "Lab 10K",
    "kind": "hdd",
    "capacity_gb": 1200,
    "rpm": 10000,
    "avg_read_seek_ms": 4.2,
    "avg_write_seek_ms": 4.6,
    "media_rate_mb_s": 150,
}
CONTROLLER = {"model": "Turbo controller", "count": 2, "cores": 16, "dram_cache_gb": 64}


def create(client: TestClient, kind: str, spec: dict[str, Any], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/hardware", json={"kind": kind, "spec": spec, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def owner(record: dict[str, Any]) -> dict[str, str]:
    """The headers that prove ownership of ``record`` (as created)."""
    return {"X-Owner-Token": record["owner_token"]}


def without_token(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "owner_token"}


def custom_array(client: TestClient, drive_ids: list[str]) -> dict[str, Any]:
    """A custom array copied from the catalog's FAS3270, supporting ``drive_ids``."""
    spec = client.get("/api/v1/catalog/arrays/netapp-fas3270").json()["array"]
    spec = {**spec, "id": None, "model": "My FAS", "drives": drive_ids, "default_drive": drive_ids[0]}
    return create(client, "array", spec)


def test_a_custom_drive_gets_the_record_id_as_its_drive_id(client: TestClient) -> None:
    record = create(client, "drive", {**SSD, "id": "whatever-i-sent"})

    assert record["kind"] == "drive"
    assert record["name"] == SSD["name"]
    assert record["spec"]["id"] == record["id"]
    assert client.get(f"/api/v1/hardware/{record['id']}").json() == without_token(record)


def test_records_are_listed_and_filtered_by_kind(client: TestClient) -> None:
    drive = create(client, "drive", HDD)
    controller = create(client, "controller", CONTROLLER, name="Turbo")

    everything = client.get("/api/v1/hardware").json()["hardware"]
    controllers = client.get("/api/v1/hardware", params={"kind": "controller"}).json()["hardware"]

    assert [r["id"] for r in everything] == [drive["id"], controller["id"]]
    assert [r["name"] for r in controllers] == ["Turbo"]


def test_impossible_values_are_422_with_the_field_path(client: TestClient) -> None:
    response = client.post("/api/v1/hardware", json={"kind": "drive", "spec": {**HDD, "rpm": 100}})

    assert error_locs(response) == [["body", "spec", "rpm"]]


def test_a_hard_disk_without_seek_times_is_422(client: TestClient) -> None:
    spec = {k: v for k, v in HDD.items() if k != "avg_read_seek_ms"}

    response = client.post("/api/v1/hardware", json={"kind": "drive", "spec": spec})

    assert error_locs(response) == [["body", "spec", "avg_read_seek_ms"]]
    assert "avg_read_seek_ms is required" in response.json()["detail"][0]["msg"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rpm": None}, "rpm"),  # "rpm is required for a hard disk"
        ({"track_to_track_ms": 9.0}, "track_to_track_ms"),  # "... must be below avg_read_seek_ms"
        ({"kind": "ssd"}, "read_iops_4k"),  # "read_iops_4k is required for an SSD/NVMe drive"
    ],
)
def test_a_cross_field_check_is_422_at_the_field_it_names(
    client: TestClient, change: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/hardware", json={"kind": "drive", "spec": {**HDD, **change}})

    assert error_locs(response) == [["body", "spec", field]]
    assert response.json()["detail"][0]["msg"].removeprefix("Value error, ").startswith(field)


def test_an_unknown_kind_is_422_at_kind(client: TestClient) -> None:
    response = client.post("/api/v1/hardware", json={"kind": "toaster", "spec": {}})

    assert error_locs(response) == [["body", "kind"]]


def test_a_custom_array_must_name_drives_that_exist(client: TestClient) -> None:
    spec = client.get("/api/v1/catalog/arrays/netapp-fas3270").json()["array"]
    spec = {**spec, "drives": ["hdd-10k-sas-600", "no-such-drive"]}

    response = client.post("/api/v1/hardware", json={"kind": "array", "spec": spec})

    assert error_locs(response) == [["body", "spec", "drives", 1]]


def test_a_custom_array_record_lists_the_group_widths_it_builds(client: TestClient) -> None:
    array = custom_array(client, ["hdd-10k-sas-600"])

    assert array["group_widths"] == {"raid-dp": list(range(3, 29))}  # the FAS3270's RAID-DP range


def test_replace_changes_the_spec_but_not_the_kind(client: TestClient) -> None:
    drive = create(client, "drive", HDD)

    replaced = client.put(
        f"/api/v1/hardware/{drive['id']}",
        json={"kind": "drive", "spec": {**HDD, "rpm": 15000}},
        headers=owner(drive),
    )
    wrong_kind = client.put(
        f"/api/v1/hardware/{drive['id']}",
        json={"kind": "controller", "spec": CONTROLLER},
        headers=owner(drive),
    )

    assert replaced.status_code == 200
    assert replaced.json()["spec"]["rpm"] == 15000
    assert replaced.json()["id"] == drive["id"]
    assert error_locs(wrong_kind) == [["body", "kind"]]


def test_delete_removes_the_record_and_unknown_ids_are_404(client: TestClient) -> None:
    drive = create(client, "drive", HDD)

    url = f"/api/v1/hardware/{drive['id']}"

    assert client.delete(url, headers=owner(drive)).status_code == 204
    assert client.get(url).status_code == 404
    assert client.delete(url, headers=owner(drive)).status_code == 404
    assert client.put(url, json={"kind": "drive", "spec": HDD}, headers=owner(drive)).status_code == 404


def test_custom_drive_controller_and_array_are_usable_in_a_catalog_reference(client: TestClient) -> None:
    drive = create(client, "drive", SSD)
    controller = create(client, "controller", CONTROLLER)
    array = custom_array(client, [drive["id"]])
    reference = {
        "array_id": array["id"],
        "drive_id": drive["id"],
        "controller_id": controller["id"],
        "drive_count": 16,
    }

    response = client.post("/api/v1/evaluate", json={"workloads": [workload()], "configuration": reference})

    assert response.status_code == 200, response.text
    assert response.json()["configuration"].startswith("My FAS, 16 x Lab NVMe")


def test_a_custom_drive_goes_in_the_any_drive_generic_array(client: TestClient) -> None:
    drive = create(client, "drive", HDD)
    reference = {"array_id": "generic", "drive_id": drive["id"], "raid_scheme": "raid6"}

    response = client.post("/api/v1/size", json={"workloads": [workload()], "configuration": reference})

    assert response.status_code == 200, response.text
    assert response.json()["configuration"]["pools"][0]["drive"]["id"] == drive["id"]


def test_a_controller_record_is_not_a_drive(client: TestClient) -> None:
    controller = create(client, "controller", CONTROLLER)
    reference = {"array_id": "generic", "drive_id": controller["id"]}

    response = client.post("/api/v1/evaluate", json={"workloads": [workload()], "configuration": reference})

    assert error_locs(response) == [["body", "configuration", "drive_id"]]


def test_a_nul_character_in_a_name_is_refused_alike_on_every_database(client: TestClient) -> None:
    response = client.post(
        "/api/v1/hardware", json={"kind": "controller", "name": "a\x00b", "spec": CONTROLLER}
    )

    assert error_locs(response) == [["body", "name"]]
    assert client.get("/api/v1/hardware/a%00b").status_code == 404


def test_an_edited_custom_drive_changes_the_next_evaluation(client: TestClient) -> None:
    """Configurations built from catalog records alone are remembered between requests; one that
    uses custom hardware must be rebuilt, so an edit shows in the very next evaluation."""
    drive = create(client, "drive", HDD)
    body = {
        "workloads": [workload()],
        "configuration": {
            "array_id": "generic",
            "drive_id": drive["id"],
            "raid_scheme": "raid10",
            "drive_count": 24,
        },
    }
    before = client.post("/api/v1/evaluate", json=body)
    client.put(
        f"/api/v1/hardware/{drive['id']}",
        json={"kind": "drive", "spec": {**HDD, "rpm": 15000}},
        headers=owner(drive),
    )
    after = client.post("/api/v1/evaluate", json=body)

    assert before.status_code == after.status_code == 200
    busy = [r.json()["windows"][0]["pools"][0]["drive_utilization_pct"]["value"] for r in (before, after)]
    # 10K -> 15K rpm: rotational latency 3.0 -> 2.0 ms per random I/O, so the same load is less busy
    assert busy[1] < busy[0]


def test_a_catalog_configuration_is_built_once_per_loaded_catalog(client: TestClient) -> None:
    body = {
        "workloads": [workload()],
        "configuration": {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp", "drive_count": 48},
    }
    first = client.post("/api/v1/evaluate", json=body).json()
    derived = client.app.state.catalog.derived  # type: ignore[attr-defined]
    entries = len(derived)
    second = client.post("/api/v1/evaluate", json=body).json()

    assert entries >= 1
    assert len(derived) == entries
    assert first == second


# ---- owners ----------------------------------------------------------------------------------


def test_edits_and_deletes_without_the_owner_token_are_403_and_reads_stay_open(client: TestClient) -> None:
    drive = create(client, "drive", HDD)
    url = f"/api/v1/hardware/{drive['id']}"
    edit = {"kind": "drive", "spec": {**HDD, "rpm": 15000}}

    refused = [
        client.put(url, json=edit),
        client.put(url, json=edit, headers={"X-Owner-Token": "not-the-token"}),
        client.delete(url),
        client.delete(url, headers={"X-Owner-Token": "not-the-token"}),
    ]

    assert [r.status_code for r in refused] == [403, 403, 403, 403]
    assert "owner token" in refused[0].json()["detail"]
    assert client.get(url).json()["spec"]["rpm"] == 10000  # unchanged, and readable by anyone
    assert "owner_token" not in client.get(url).json()


def test_a_record_saved_before_owners_existed_can_be_read_but_not_changed(client: TestClient) -> None:
    from sqlalchemy import update

    from backend.app.tables import CustomHardware

    drive = create(client, "drive", HDD)
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        session.execute(update(CustomHardware).values(owner_token_hash=None))
        session.commit()

    deleted = client.delete(f"/api/v1/hardware/{drive['id']}", headers=owner(drive))

    assert deleted.status_code == 403
    assert "before records had owners" in deleted.json()["detail"]
    assert client.get(f"/api/v1/hardware/{drive['id']}").status_code == 200


def test_a_drive_a_custom_array_uses_cannot_be_deleted_and_the_409_names_the_array(
    client: TestClient,
) -> None:
    drive = create(client, "drive", SSD)
    array = custom_array(client, [drive["id"]])

    refused = client.delete(f"/api/v1/hardware/{drive['id']}", headers=owner(drive))
    array_gone = client.delete(f"/api/v1/hardware/{array['id']}", headers=owner(array))
    drive_gone = client.delete(f"/api/v1/hardware/{drive['id']}", headers=owner(drive))

    assert refused.status_code == 409
    assert "'My FAS'" in refused.json()["detail"] and array["id"] in refused.json()["detail"]
    assert (array_gone.status_code, drive_gone.status_code) == (204, 204)


# ---- idempotent creates ------------------------------------------------------------------------

KEY = "7f1c2a9e-0b5d-4f7e-9a51-3c2d1e0f9b8a"


def test_a_create_retried_with_the_same_idempotency_key_stores_one_record(client: TestClient) -> None:
    body = {"kind": "drive", "spec": HDD}
    first = client.post("/api/v1/hardware", json=body, headers={"Idempotency-Key": KEY})
    retry = client.post("/api/v1/hardware", json=body, headers={"Idempotency-Key": KEY})
    other = client.post("/api/v1/hardware", json=body, headers={"Idempotency-Key": KEY + "-2"})

    assert first.status_code == retry.status_code == other.status_code == 201
    assert retry.json() == first.json()  # the same record and the same owner token
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert other.json()["id"] != first.json()["id"]
    assert len(client.get("/api/v1/hardware").json()["hardware"]) == 2
    # the replayed token works: it is the record's owner token
    assert (
        client.delete(f"/api/v1/hardware/{first.json()['id']}", headers=owner(retry.json())).status_code
        == 204
    )


def test_the_same_idempotency_key_with_another_body_is_409(client: TestClient) -> None:
    client.post("/api/v1/hardware", json={"kind": "drive", "spec": HDD}, headers={"Idempotency-Key": KEY})

    reused = client.post(
        "/api/v1/hardware", json={"kind": "controller", "spec": CONTROLLER}, headers={"Idempotency-Key": KEY}
    )

    assert reused.status_code == 409
    assert "Idempotency-Key" in reused.json()["detail"]
    assert [r["kind"] for r in client.get("/api/v1/hardware").json()["hardware"]] == ["drive"]


@pytest.mark.parametrize("key", ["short", "x" * 201, "has spaces in it, 16+ chars"])
def test_an_idempotency_key_that_is_too_short_long_or_odd_is_422_at_the_header(
    client: TestClient, key: str
) -> None:
    response = client.post(
        "/api/v1/hardware", json={"kind": "drive", "spec": HDD}, headers={"Idempotency-Key": key}
    )

    assert error_locs(response) == [["header", "Idempotency-Key"]]


def test_a_custom_record_without_a_source_is_a_user_estimate_and_one_with_keys_keeps_its_status(
    client: TestClient,
) -> None:
    # issue #30: without a source (nothing stated, or an estimate naming no key) a custom part is
    # "estimate (user)", its note kept; a datasheet figure with its key stays a datasheet figure
    guessed = create(client, "drive", {**SSD, "calibration": {"status": "estimate", "note": "from memory"}})
    cited = create(
        client,
        "drive",
        {**SSD, "name": "Cited NVMe", "calibration": {"status": "datasheet", "sources": ["micron-9200-ds"]}},
    )
    controller = create(client, "controller", CONTROLLER)

    def parts(drive_id: str) -> dict[str, Any]:
        reference = {
            "array_id": "generic",
            "drive_id": drive_id,
            "controller_id": controller["id"],
            "drive_count": 16,
        }
        response = client.post(
            "/api/v1/evaluate", json={"workloads": [workload()], "configuration": reference}
        )
        assert response.status_code == 200, response.text
        return response.json()["calibration"]["parts"]

    mine = parts(guessed["id"])
    assert (mine["drives"]["status"], mine["drives"]["note"]) == ("estimate (user)", "from memory")
    assert mine["controller"]["status"] == "estimate (user)"  # the custom controller states none
    assert parts(cited["id"])["drives"] == {
        "status": "datasheet",
        "sources": ["micron-9200-ds"],
        "note": None,
        "figures": {},
    }


@pytest.mark.parametrize(("field", "ghz"), [("core_ghz", 0.4), ("core_ghz", 6.5), ("costs_core_ghz", 0.0)])
def test_a_core_clock_outside_half_to_six_ghz_is_422_naming_the_field(
    client: TestClient, field: str, ghz: float
) -> None:
    response = client.post(
        "/api/v1/hardware", json={"kind": "controller", "spec": {**CONTROLLER, field: ghz}}
    )

    assert error_locs(response) == [["body", "spec", field]]
