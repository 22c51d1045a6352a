"""One figure everywhere: the same inputs give the same capacity, write penalty and utilization in
every view that shows them (Size, the RAID grid, a comparison, building blocks, a saved report).

Regression for issue 17 item 4: building blocks said 88% usable where Size said 71%, and the
RAID-DP hint and the RAID conversion used another write cost than sizing.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.conftest import phase, workload

FAS = {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp", "drive_id": "hdd-10k-sas-600"}
WORKLOADS = [workload(phases=[phase(iops=8000, read_pct=60)])]


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code in (200, 201), response.text
    return response.json()


def pool_figures(result: dict[str, Any]) -> tuple[float, float, float, float]:
    pool = result["windows"][0]["pools"][0]
    return (
        result["capacity"]["usable_raw_pct"],
        pool["write_penalty"]["value"],
        pool["drive_utilization_pct"]["value"],
        pool["per_drive_iops"]["value"],
    )


def test_size_grid_compare_evaluate_and_report_agree_on_every_figure(client: TestClient) -> None:
    sized = post(client, "size", {"workloads": WORKLOADS, "configuration": FAS})
    figures = pool_figures(sized["result"])

    evaluated = post(client, "evaluate", {"workloads": WORKLOADS, "configuration": sized["configuration"]})
    compared = post(
        client,
        "compare",
        {"workloads": WORKLOADS, "configurations": [sized["configuration"], {**FAS, "drive_count": 48}]},
    )
    grid = post(client, "raid-grid", {"workloads": WORKLOADS, "configuration": FAS})
    report = post(
        client,
        "reports",
        {"name": "one figure", "kind": "size", "inputs": {"workloads": WORKLOADS, "configuration": FAS}},
    )
    saved = client.get(f"/api/v1/reports/{report['id']}").json()

    assert pool_figures(evaluated) == figures
    assert pool_figures(compared["items"][0]["result"]) == figures
    assert pool_figures(saved["result"]["result"]) == figures
    row = next(r for r in grid["rows"] if r["scheme"] == "raid-dp")
    assert row["drives"] == sized["result"]["bill"]["drives"]
    assert (row["usable_raw_pct"]["value"], row["write_penalty"]["value"]) == figures[:2]


def test_a_building_block_of_the_same_drives_reports_the_same_usable_share(client: TestClient) -> None:
    evaluated = post(
        client, "evaluate", {"workloads": WORKLOADS, "configuration": {**FAS, "drive_count": 48}}
    )
    spares = evaluated["bill"]["spares"]
    blocks = post(
        client,
        "whatif/building-blocks",
        {"target": {"usable_pb": 1}, "catalog": {**FAS, "drives": 48 + spares}},
    )

    assert blocks["derived"]["block"]["usable_fraction"] * 100 == pytest.approx(
        evaluated["capacity"]["usable_raw_pct"], rel=1e-12
    )


def test_the_raid_conversion_uses_the_write_cost_sizing_used(client: TestClient) -> None:
    # every write random, none absorbed: sizing's penalty is the layout's cost for the window's writes
    all_writes = [workload(phases=[phase(iops=8000, read_pct=0)])]
    sized = post(client, "size", {"workloads": all_writes, "configuration": FAS})
    penalty = sized["result"]["windows"][0]["pools"][0]["write_penalty"]
    layout = sized["configuration"]["pools"][0]["raid"]
    conversion = post(
        client,
        "whatif/raid-conversion",
        {
            "measured_iops": 10000,
            "read_pct": 0,
            "from_raid": layout,
            "to_raid": {"scheme": "raid10", "group_width": 8},
            "size_kib": 8,  # the phase's writes
            "fill_pct": 100 * penalty["inputs"]["fill"],  # the fill sizing took the cost at
        },
    )

    assert conversion["write_cost_from"]["value"] == pytest.approx(penalty["value"], rel=1e-12)
