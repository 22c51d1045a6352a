"""Property tests through HTTP: schema-valid requests that reach the engine, extreme values included.

Schemathesis's generated bodies rarely pass the engine's cross-field rules (an I/O size in every
phase, distinct names), so they stop at 422. These strategies build requests the engine accepts,
with every number drawn across its whole allowed range (1e-3 to 1e12 IOPS, 1 to 2,000 drives, any
catalog array and scheme), and check that the answer is a 200 whose body parses as the documented
schema, or a 422 that names a field: never a 5xx. The database plays no part, so one SQLite app
serves the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from backend.app.sizing.schemas import CompareResult, CurvesResult
from backend.tests.property_helpers import CATALOG, bounded, sqlite_client, wide
from models.evaluate import EvaluationResult
from models.size import SizingResult

WINDOWS = ["business hours", "nightly", "month-end"]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from sqlite_client(tmp_path_factory, "properties")


@st.composite
def phases(draw: st.DrawFn, name: str) -> dict[str, Any]:
    phase: dict[str, Any] = {
        "name": name,
        "window": draw(st.sampled_from(WINDOWS)),
        "read_pct": draw(st.floats(0, 100)),
        "random_pct": draw(st.floats(0, 100)),
        "write_overwrite_pct": draw(st.floats(0, 100)),
    }
    if draw(st.booleans()):
        phase["iops"] = draw(wide(0, 1e12))
    else:
        phase["mb_per_s"] = draw(wide(1e-3, 1e9))
    if draw(st.booleans()):
        phase["io_size_kib"] = draw(st.sampled_from([0.5, 4, 8, 64, 256, 1024, 16384]))
    else:
        phase["io_sizes"] = [{"size_kib": 4, "pct": 60}, {"size_kib": 64, "pct": 40}]
    if draw(st.booleans()):
        phase["read_latency_target_ms"] = draw(wide(1e-3, 1e4))
    return phase


@st.composite
def workloads(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for i in range(draw(st.integers(1, 3))):
        workload: dict[str, Any] = {
            "name": f"w{i}",
            "capacity_tb": draw(wide(1e-3, 1e9)),
            "growth_pct_per_year": draw(st.floats(0, 1000)),
            "horizon_years": draw(st.floats(0, 20)),
            "dedupe_ratio": draw(st.floats(1, 100)),
            "compression_ratio": draw(st.floats(1, 100)),
            "skew": draw(
                st.sampled_from(
                    [
                        {},
                        {"zipf_alpha": 0.0},
                        {"zipf_alpha": 1.2},
                        {"zipf_alpha": 3.0},
                        {"io_pct": 90, "data_pct": 10},
                    ]
                )
            ),
            "replication": draw(
                st.sampled_from([{}, {"mode": "sync", "io_amplification": 3, "sync_latency_ms": 2}])
            ),
            "snapshot_reserve_pct": draw(st.floats(0, 99)),
            "phases": [draw(phases(f"p{j}")) for j in range(draw(st.integers(1, 3)))],
        }
        if draw(st.booleans()):
            workload["working_set_gb"] = draw(wide(1e-3, 1e12))
        out.append(workload)
    return out


@st.composite
def references(draw: st.DrawFn, count: bool = True) -> dict[str, Any]:
    array = draw(st.sampled_from(sorted(CATALOG.arrays.values(), key=lambda a: a.id)))
    option = draw(st.sampled_from(array.raid))
    reference: dict[str, Any] = {"array_id": array.id, "raid_scheme": option.scheme.value}
    if array.drives:
        reference["drive_id"] = draw(st.sampled_from(array.drives))
    if draw(st.booleans()):
        reference["group_width"] = draw(st.integers(option.min_width, option.max_width))
    if count and draw(st.booleans()):
        reference["drive_count"] = draw(st.integers(1, 2000))
    sizes: list[float] = [s for fc in array.flash_cache for s in fc.sizes_gb]
    if len(sizes) > 0 and draw(st.booleans()):
        reference["flash_cache_gb"] = draw(st.sampled_from(sizes))
    reference["layout"] = draw(st.sampled_from([None, "fresh", "moderate", "aged"]))
    return reference


def answered(response: Any, schema: Any) -> None:
    """200 with a body of the documented schema, or a 422 naming a field; never anything else."""
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            schema.model_validate(response.json())
    else:
        for error in response.json()["detail"]:
            assert error["loc"][0] == "body" and error["msg"]


@given(body=st.fixed_dictionaries({"workloads": workloads(), "configuration": references()}))
@bounded(60)
def test_evaluate_answers_every_valid_request(api: TestClient, body: dict) -> None:
    answered(api.post("/api/v1/evaluate", json=body), EvaluationResult)


@given(body=st.fixed_dictionaries({"workloads": workloads(), "configuration": references(count=False)}))
@bounded(25)
def test_size_answers_every_valid_request(api: TestClient, body: dict) -> None:
    answered(api.post("/api/v1/size", json=body), SizingResult)


@given(body=st.fixed_dictionaries({"workloads": workloads(), "configuration": references()}))
@bounded(15)
def test_curves_answer_every_valid_request(api: TestClient, body: dict) -> None:
    answered(api.post("/api/v1/curves", json=body), CurvesResult)


@given(
    body=st.fixed_dictionaries(
        {"workloads": workloads(), "configurations": st.lists(references(), min_size=2, max_size=3)}
    )
)
@bounded(10)
def test_compare_answers_every_valid_request(api: TestClient, body: dict) -> None:
    answered(api.post("/api/v1/compare", json=body), CompareResult)
