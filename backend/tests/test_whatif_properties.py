"""Property tests of ``/whatif/...`` through HTTP: engine-valid requests with extreme values.

Every answer is a 200 whose body parses as the documented engine model, or a 422 naming a body
field: never a 5xx. Numbers span their whole allowed range (1e-3 to 1e12 IOPS, capacities from
1 GB to 1 EB, any catalog array and scheme). The database plays no part: one SQLite app serves
the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from backend.app.whatif.schemas import BuildingBlocksResult
from backend.tests.property_helpers import CATALOG, bounded, sqlite_client, wide
from models.conversion import RaidConversion
from models.whatif import (
    DegradedComparison,
    GrowthProjection,
    MaxWorkloadResult,
    RangesResult,
    SensitivityResult,
)

WINDOWS = ["day", "night"]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from sqlite_client(tmp_path_factory, "whatif-properties")


@st.composite
def workloads(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for i in range(draw(st.integers(1, 2))):
        phases = []
        for j in range(draw(st.integers(1, 2))):
            phase: dict[str, Any] = {
                "name": f"p{j}",
                "window": draw(st.sampled_from(WINDOWS)),
                "iops": draw(wide(1e-3, 1e12)),
                "read_pct": draw(st.integers(0, 100)),
                "random_pct": draw(st.integers(0, 100)),
                "io_size_kib": draw(st.sampled_from([0.5, 4, 8, 64, 1024])),
            }
            if draw(st.booleans()):
                phase["read_latency_target_ms"] = draw(wide(1e-3, 1e4))
            phases.append(phase)
        workload: dict[str, Any] = {
            "name": f"w{i}",
            "capacity_tb": draw(wide(1e-3, 1e6)),
            "growth_pct_per_year": draw(st.floats(0, 1000)),
            "horizon_years": draw(st.sampled_from([0, 0.5, 2])),
            "skew": draw(
                st.sampled_from(
                    [{}, {"zipf_alpha": 1.2}, {"zipf_alpha": 3.0}, {"io_pct": 90, "data_pct": 10}]
                )
            ),
            "phases": phases,
        }
        if draw(st.booleans()):
            workload["working_set_gb"] = draw(wide(1e-3, 1e9))
        out.append(workload)
    return out


@st.composite
def references(draw: st.DrawFn) -> dict[str, Any]:
    array = draw(st.sampled_from(sorted(CATALOG.arrays.values(), key=lambda a: a.id)))
    option = draw(st.sampled_from(array.raid))
    reference: dict[str, Any] = {"array_id": array.id, "raid_scheme": option.scheme.value}
    if array.drives:
        reference["drive_id"] = draw(st.sampled_from(array.drives))
    if draw(st.booleans()):
        reference["drive_count"] = draw(st.integers(1, 2000))
    return reference


def answered(response: Any, schema: type[BaseModel]) -> None:
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        schema.model_validate(response.json())
    else:
        for error in response.json()["detail"]:
            assert error["loc"][0] == "body" and error["msg"]


BODIES = st.fixed_dictionaries({"workloads": workloads(), "configuration": references()})


@given(body=BODIES, months=st.sampled_from([None, 0, 7, 24]))
@bounded(10)
def test_growth_answers_every_valid_request(api: TestClient, body: dict, months: int | None) -> None:
    answered(api.post("/api/v1/whatif/growth", json={**body, "months": months}), GrowthProjection)


@given(body=BODIES)
@bounded(10)
def test_sensitivity_answers_every_valid_request(api: TestClient, body: dict) -> None:
    answered(api.post("/api/v1/whatif/sensitivity", json=body), SensitivityResult)


@given(body=BODIES, degraded=st.sampled_from(["none", "rebuilding", "controller-failed"]))
@bounded(10)
def test_max_workload_answers_every_valid_request(api: TestClient, body: dict, degraded: str) -> None:
    answered(api.post("/api/v1/whatif/max-workload", json={**body, "degraded": degraded}), MaxWorkloadResult)


@given(body=BODIES, method=st.sampled_from(["ends", "monte-carlo"]))
@bounded(8)
def test_ranges_answer_every_valid_request(api: TestClient, body: dict, method: str) -> None:
    request = {**body, "method": method, "samples": 8}
    answered(api.post("/api/v1/whatif/ranges", json=request), RangesResult)


@given(body=BODIES)
@bounded(10)
def test_degraded_answers_every_valid_request(api: TestClient, body: dict) -> None:
    answered(api.post("/api/v1/whatif/degraded", json=body), DegradedComparison)


SCHEMES = st.sampled_from(
    [
        {"scheme": "raid5", "group_width": 5},
        {"scheme": "raid10", "group_width": 8},
        {"scheme": "raidz3", "group_width": 11},
        {"scheme": "erasure", "group_width": 6, "ec_data": 4, "ec_parity": 2},
        {"scheme": "replica", "group_width": 1, "copies": 3},
    ]
)


@given(
    iops=wide(0, 1e9),
    read=st.floats(0, 100),
    hit=st.floats(0, 100),
    a=SCHEMES,
    b=SCHEMES,
    drives=st.one_of(st.none(), st.tuples(st.integers(1, 100000), st.integers(1, 100000))),
)
@bounded(40)
def test_raid_conversion_answers_every_valid_request(api: TestClient, iops, read, hit, a, b, drives) -> None:
    body = {"measured_iops": iops, "read_pct": read, "read_hit_pct": hit, "from_raid": a, "to_raid": b}
    if drives is not None:
        body.update(from_drives=drives[0], to_drives=drives[1])
    answered(api.post("/api/v1/whatif/raid-conversion", json=body), RaidConversion)


@given(
    array=st.sampled_from(sorted(CATALOG.arrays)),
    target=st.fixed_dictionaries(
        {}, optional={"read_gb_s": wide(0, 1e6), "iops": wide(0, 1e12), "usable_pb": wide(0, 1e4)}
    ),
    efficiency=st.floats(0.01, 1.0),
)
@bounded(30)
def test_building_blocks_answer_every_valid_request(
    api: TestClient, array: str, target: dict, efficiency
) -> None:
    body = {"target": target, "catalog": {"array_id": array}, "scaling_efficiency": efficiency}
    answered(api.post("/api/v1/whatif/building-blocks", json=body), BuildingBlocksResult)
