"""A scheme comparison on a peer array changes only what it compares (issue #33: "Compare NetApp
RAID-DP with RAID 10" moved RAID 10 to the generic array and dropped the 1,024 GB flash cache)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from backend.tests.test_verdict_api import FAS8040_OLTP, oltp_template


def test_raid_dp_against_raid_10_keeps_the_flash_cache_ports_and_headroom_and_lists_the_rest(
    client: TestClient,
) -> None:
    body = {
        "workloads": [oltp_template()],
        "base": FAS8040_OLTP,
        "schemes": ["raid-dp", "raid10"],
        "unsupported": "peer",
        "peer_array_id": "generic",
    }
    response = client.post("/api/v1/compare", json=body)
    assert response.status_code == 200, response.text[:500]
    dp, r10 = response.json()["items"]
    assert dp["configuration"]["cache"]["flash_cache_gb"] == 1024
    assert r10["configuration"]["cache"]["flash_cache_gb"] == 1024  # kept, not dropped
    assert r10["configuration"]["ports"] == dp["configuration"]["ports"]
    assert r10["configuration"]["headroom"] == dp["configuration"]["headroom"]
    assert r10["configuration"]["pools"][0]["drive"]["id"] == "hdd-10k-sas-900"
    note = r10["note"]
    assert note.startswith(
        "The FAS8040 does not offer RAID 10: this column puts the same drives (900 GB 10K SAS 2.5in), headroom, "
        "flash cache, ports in the Generic dual-controller array, which does. Every other difference: "
    )
    assert "controller: model FAS8040 controller -> Generic controller, cores 8 -> 16" in note
    assert "cache: flash_hit_ms 0.5 -> 0.3, dedupe_aware True -> False" in note
    # both columns sized for every case: each verdict judged and met
    assert dp["result"]["verdict"]["passed"] and r10["result"]["verdict"]["passed"]
    rule = response.json()["comparison"]["best_rule"]
    assert rule.startswith("A value is marked best only where it beats another")
