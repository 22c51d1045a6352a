"""Curves computed once per process for the same inputs (backend/app/sizing/curves_cache.py)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from backend.app.catalog.service import CatalogStore
from backend.app.engine.context import SizingContext
from backend.app.engine.inputs import CatalogReference
from backend.app.sizing.curves_cache import CURVES, CurvesCache
from backend.app.sizing.schemas import CurvesResult
from backend.tests.conftest import FAS3270, REPO_ROOT, phase, workload
from models.catalog import load_calibration
from models.configuration import Configuration
from models.workload import Workload

CALIBRATION = load_calibration(REPO_ROOT / "fixtures")


class NoHardware:
    def get(self, record_id: str) -> None:
        return None


def _inputs(iops: float = 5000, drives: int = 48) -> tuple[list[Workload], Configuration]:
    """A workload of ``iops`` and a FAS3270 of ``drives`` drives, resolved from the catalog."""
    w = Workload.model_validate(workload(phases=[phase(iops=iops)]))
    ctx = SizingContext(CatalogStore(REPO_ROOT / "fixtures"), CALIBRATION, NoHardware())
    reference = CatalogReference.model_validate({**FAS3270, "drive_count": drives})
    return [w], ctx.configuration(reference, ("body", "configuration"))


def _curves(window: str = "business hours") -> CurvesResult:
    """A stand-in answer: the cache never looks inside it."""
    return CurvesResult(window=window, latency_vs_load=None, queue_depth=None, hit_ratio=None, notes=[])


class Counted:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> CurvesResult:
        self.calls += 1
        return _curves()


ENGINE: tuple[Any, Any] = (object(), object())


def test_the_same_inputs_are_computed_once_and_the_answer_reused() -> None:
    cache, compute = CurvesCache(), Counted()
    workloads, config = _inputs()

    first = cache.get(workloads, config, "business hours", ["latency_vs_load"], ENGINE, compute)
    # equal inputs, not the same objects
    again = cache.get(*_inputs(), "business hours", ["latency_vs_load"], ENGINE, compute)

    assert compute.calls == 1 and again is first
    assert (cache.hits, cache.misses) == (1, 1)


def test_other_workloads_configuration_window_or_curves_are_computed_anew() -> None:
    cache, compute = CurvesCache(), Counted()
    workloads, config = _inputs()
    cache.get(workloads, config, "business hours", ["latency_vs_load"], ENGINE, compute)

    cache.get(*_inputs(iops=5001), "business hours", ["latency_vs_load"], ENGINE, compute)
    cache.get(*_inputs(drives=64), "business hours", ["latency_vs_load"], ENGINE, compute)
    cache.get(workloads, config, "nights", ["latency_vs_load"], ENGINE, compute)
    cache.get(workloads, config, "business hours", ["latency_vs_load", "hit_ratio"], ENGINE, compute)

    assert compute.calls == 5


def test_the_curves_asked_for_are_the_same_key_in_any_order() -> None:
    cache, compute = CurvesCache(), Counted()
    workloads, config = _inputs()
    cache.get(workloads, config, "business hours", ["hit_ratio", "latency_vs_load"], ENGINE, compute)
    cache.get(workloads, config, "business hours", ["latency_vs_load", "hit_ratio"], ENGINE, compute)

    assert compute.calls == 1


def test_other_engine_parameters_or_model_errors_never_get_an_entry_computed_with_others() -> None:
    cache, compute = CurvesCache(), Counted()
    workloads, config = _inputs()
    params, errors = object(), object()
    cache.get(workloads, config, "business hours", ["latency_vs_load"], (params, errors), compute)

    cache.get(workloads, config, "business hours", ["latency_vs_load"], (object(), errors), compute)
    cache.get(workloads, config, "business hours", ["latency_vs_load"], (params, object()), compute)

    assert compute.calls == 3


def test_the_least_recently_used_entry_leaves_first() -> None:
    cache, compute = CurvesCache(kept=2), Counted()
    a, b, c = _inputs(iops=1000), _inputs(iops=2000), _inputs(iops=3000)
    for inputs in (a, b, a, c):  # a used again after b: b is the oldest when c comes
        cache.get(*inputs, "business hours", ["hit_ratio"], ENGINE, compute)
    assert compute.calls == 3

    cache.get(*a, "business hours", ["hit_ratio"], ENGINE, compute)
    assert compute.calls == 3
    cache.get(*b, "business hours", ["hit_ratio"], ENGINE, compute)
    assert compute.calls == 4


def test_a_report_saved_twice_computes_its_snapshot_curves_once(client: TestClient) -> None:
    inputs = {"workloads": [workload(phases=[phase(iops=4321)])], "configuration": FAS3270}
    body = {"name": "twice", "kind": "evaluate", "inputs": inputs}
    first = client.post("/api/v1/reports", json=body)
    misses = CURVES.misses

    again = client.post("/api/v1/reports", json=body)

    assert first.status_code == again.status_code == 201
    assert CURVES.misses == misses  # the second save found them
    one, two = (client.get(f"/api/v1/reports/{r.json()['id']}").json() for r in (first, again))
    assert one["curves"]["latency_vs_load"]["points"]  # drawn by the proposal
    assert one["curves"] == two["curves"]
