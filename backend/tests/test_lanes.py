"""Engine lanes: one call at a time per lane in a worker, whether it runs in the lane's own thread
(``run_in_lane``) or in a threadpool thread holding the lane's slot (``lane_slot``)."""

from __future__ import annotations

import threading
from typing import Any

import anyio

from backend.app.catalog.service import CatalogStore
from backend.app.core.lanes import (
    PLAIN_JSON,
    SAVE_THREADS,
    json_bytes,
    lane_slot,
    plain_json,
    run_in_lane,
    run_saving,
)
from backend.app.engine.context import SizingContext
from backend.app.sizing import service
from backend.app.sizing.schemas import EvaluateRequest
from backend.tests.conftest import FAS3270, REPO_ROOT, phase, workload
from models.catalog import load_calibration


def test_a_lane_call_waits_while_a_threadpool_route_computes_in_the_lanes_slot() -> None:
    events: list[str] = []
    holding = threading.Event()
    release = threading.Event()

    def threadpool_route() -> None:
        with lane_slot("fast"):
            holding.set()
            release.wait(5)
            events.append("route done")

    route = threading.Thread(target=threadpool_route)
    route.start()
    assert holding.wait(5)

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(run_in_lane, "fast", lambda: events.append("lane call"))
            tasks.start_soon(run_in_lane, "long", lambda: events.append("long lane call"))
            await anyio.sleep(0.2)
            events.append("released")
            release.set()

    anyio.run(main)
    route.join(5)

    # the long lane has a slot of its own; the fast lane's call ran only after the route let go
    assert events == ["long lane call", "released", "route done", "lane call"]


def test_report_saves_run_at_most_save_threads_at_once() -> None:
    running = 0
    most = 0
    lock = threading.Lock()
    release = threading.Event()

    def save() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(5)
        with lock:
            running -= 1

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            for _ in range(SAVE_THREADS + 3):
                tasks.start_soon(run_saving, save)
            await anyio.sleep(0.2)
            assert most == SAVE_THREADS  # the others wait for a saving thread
            release.set()

    anyio.run(main)
    assert running == 0 and most == SAVE_THREADS


class _NoCustomHardware:
    def get(self, record_id: str) -> None:
        return None


def test_json_bytes_are_the_models_json_encoded() -> None:
    ctx = SizingContext(
        CatalogStore(REPO_ROOT / "fixtures"), load_calibration(REPO_ROOT / "fixtures"), _NoCustomHardware()
    )
    body = EvaluateRequest.model_validate(
        {
            "workloads": [workload(), workload("mail", capacity_tb=5)],
            "configuration": {**FAS3270, "drive_count": 48},
        }
    )
    result = service.evaluate(body, ctx)
    text = result.model_dump_json()

    assert not text.isascii()  # units such as "m²": the bytes are UTF-8, not escapes
    assert json_bytes(result) == text.encode("utf-8")
    assert json_bytes(body) == body.model_dump_json().encode("utf-8")


def test_every_report_kind_and_engine_route_has_one_lane() -> None:
    from typing import get_args

    from backend.app.core.lanes import ENGINE_LANE
    from backend.app.main import app
    from backend.app.reports.schemas import ReportKind

    paths = app.openapi()["paths"]
    post_segments = {path.rsplit("/", 1)[-1] for path, ops in paths.items() if "post" in ops}
    # each lane is named after a route that exists, and each kind of saved report computes in its
    # route's lane (the same table entry)
    assert set(ENGINE_LANE) <= post_segments
    assert set(get_args(ReportKind)) <= set(ENGINE_LANE)
    assert {k: ENGINE_LANE[k] for k in get_args(ReportKind)} == {
        "evaluate": "fast",
        "curves": "fast",
        "size": "long",
        "compare": "long",
        "recommend": "long",
        "raid-grid": "long",
        "growth": "long",
        "sensitivity": "long",
        "ranges": "long",
        "degraded": "long",
        "building-blocks": "long",
        "replication": "long",
        "expand": "long",
        "quote-check": "long",
        "consolidate": "long",
        "refresh": "long",
    }


def _sizing_answers() -> list[Any]:
    """Real answers of every type registered for orjson: evaluations (healthy, degraded, two
    workloads), with and without curves, sizings (feasible and not), curves."""
    from backend.app.sizing.schemas import CurvesRequest, SizeRequest

    ctx = SizingContext(
        CatalogStore(REPO_ROOT / "fixtures"), load_calibration(REPO_ROOT / "fixtures"), _NoCustomHardware()
    )
    two = [workload(), workload("mail", capacity_tb=5, phases=[phase(iops=900, window="nights")])]
    evaluations = [
        EvaluateRequest.model_validate({"workloads": two, "configuration": {**FAS3270, "drive_count": 48}}),
        EvaluateRequest.model_validate(
            {
                "workloads": [workload()],
                "configuration": {**FAS3270, "drive_count": 24},
                "degraded": "controller-failed",
                "calibration_margin": "as_stated",
            }
        ),
    ]
    sizings = [
        SizeRequest.model_validate({"workloads": [workload()], "configuration": FAS3270}),
        # far over what any FAS3270 carries: not feasible, no curves
        SizeRequest.model_validate(
            {"workloads": [workload(phases=[phase(iops=5_000_000)])], "configuration": FAS3270}
        ),
    ]
    answers: list[Any] = []
    for body in evaluations:
        answers += [service.evaluate_answer(body, ctx, False), service.evaluate_answer(body, ctx, True)]
    for sizing in sizings:
        answers += [service.size_answer(sizing, ctx, False), service.size_answer(sizing, ctx, True)]
    answers.append(
        service.curves(
            CurvesRequest.model_validate({"workloads": two, "configuration": {**FAS3270, "drive_count": 48}}),
            ctx,
        )
    )
    return answers


def test_answers_written_by_orjson_are_byte_for_byte_pydantics_json() -> None:
    answers = _sizing_answers()

    assert {type(a) for a in answers} == PLAIN_JSON  # every registered type is compared here
    for answer in answers:
        assert json_bytes(answer) == answer.__pydantic_serializer__.to_json(answer), type(answer).__name__


def test_a_value_orjson_cannot_write_falls_back_to_pydantic() -> None:
    from pydantic import BaseModel

    class Odd(BaseModel):
        tags: set[str]

    odd = Odd(tags={"a"})
    plain_json(Odd)
    try:
        assert json_bytes(odd) == b'{"tags":["a"]}'
    finally:
        PLAIN_JSON.discard(Odd)
