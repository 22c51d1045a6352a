"""Engine lanes: CPU-bound engine work runs in threads behind small per-worker limits.

The engine is pure Python, so threads of one worker never compute in parallel (the GIL); what
many engine threads do is contend with the event loop thread, which then reads requests and
writes answers late. Measured at 32 connections on 2 workers (bench/api_load.py), giving
/evaluate one thread instead of the shared threadpool of 40 cut its p99 from ~170-185 ms to
~50-130 ms and raised throughput by a third.

Two lanes, one thread each per worker: ``fast`` for the millisecond calls the UI makes on every
change (evaluate, curves), ``long`` for searches and sweeps (size, compare, what-if, recommend),
so an evaluate never queues behind a Monte Carlo run. Database-bound routes keep the threadpool,
and run their engine work in the lane's slot (:func:`lane_slot`): a lane computes one call at a
time in the whole worker, whichever thread it runs in. Saving reports from 32 connections, every
threadpool thread computing at once took 66-71 context switches per report (the GIL handed round
them all); with one computing at a time while the others wait for the slot or the database, 39-45.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

import anyio
import orjson
from fastapi.responses import Response
from pydantic import BaseModel

from models.memo import for_call

T = TypeVar("T")
Lane = Literal["fast", "long"]

LANE_THREADS: dict[Lane, int] = {"fast": 1, "long": 1}

ENGINE_LANE: dict[str, Lane] = {
    # keyed by the route's last path segment; the millisecond calls the UI makes on every change
    "evaluate": "fast",
    "curves": "fast",
    "observed": "fast",
    "timeline": "fast",
    # searches and sweeps
    "size": "long",
    "compare": "long",
    "raid-grid": "long",
    "recommend": "long",
    "growth": "long",
    "sensitivity": "long",
    "max-workload": "long",
    "ranges": "long",
    "confidence": "long",
    "degraded": "long",
    "raid-conversion": "long",
    "building-blocks": "long",
    "fit": "long",
    # the installed base (models.plan)
    "replication": "long",
    "expand": "long",
    "quote-check": "long",
    "consolidate": "long",
    "refresh": "long",
}
"""The lane each engine call computes in, read by its route (:func:`json_in_lane`) and by the saved
report of its kind (:func:`lane_slot`), so the two cannot disagree."""

SAVE_THREADS = 2
"""Report saves (``POST /reports``, recomputations) running at once per worker, each in a thread of
its own: one computes in its engine lane's slot while the other waits for PostgreSQL. As synchronous
routes they ran in the shared threadpool, up to 40 at once, every one of them contending for the GIL
while one computed: at 32 connections on 2 workers (bench/api_load.py, three interleaved runs)
27-29 context switches and 3.6-4.1 ms server CPU per report; with 2 threads, 13 and 2.8-3.3 ms, at
a throughput as high or higher (with 4: 16-20 and 3.0-3.5 ms)."""

Pool = Lane | Literal["save"]

# One limiter per lane and event loop: a limiter belongs to the loop it was first used on, and
# tests run one app under several loops (a server worker has one). Keyed by the loop object; the
# few loops a test session makes are dropped when there are more than _MAX_LOOPS.
_LIMITERS: dict[asyncio.AbstractEventLoop, dict[Pool, anyio.CapacityLimiter]] = {}
_MAX_LOOPS = 8

# The calls a lane computes at once in this process, whichever thread they run in.
_SLOTS: dict[Lane, threading.BoundedSemaphore] = {
    lane: threading.BoundedSemaphore(threads) for lane, threads in LANE_THREADS.items()
}


def _limiter(pool: Pool, threads: int) -> anyio.CapacityLimiter:
    loop = asyncio.get_running_loop()
    if loop not in _LIMITERS and len(_LIMITERS) >= _MAX_LOOPS:
        _LIMITERS.clear()
    limiters = _LIMITERS.setdefault(loop, {})
    if pool not in limiters:
        limiters[pool] = anyio.CapacityLimiter(threads)
    return limiters[pool]


@contextmanager
def lane_slot(lane: Lane) -> Iterator[None]:
    """Hold a slot of ``lane`` in this thread (waiting until one is free): engine work of a route
    that runs in the threadpool (database-bound) computes one call at a time with the lane's own."""
    with _SLOTS[lane]:
        yield


def _in_slot(lane: Lane, call: Callable[[], T]) -> T:
    # one engine memo per request (models.memo.for_call): its evaluations share it, no request another's
    with lane_slot(lane), for_call():
        return call()


def _with_memo(call: Callable[[], T]) -> T:
    with for_call():
        return call()


async def run_in_lane(lane: Lane, call: Callable[[], T]) -> T:
    """``call()`` in a worker thread of ``lane`` (waits for the lane's thread if it is busy, then for
    its slot if a threadpool route is computing in it)."""
    return await anyio.to_thread.run_sync(_in_slot, lane, call, limiter=_limiter(lane, LANE_THREADS[lane]))


async def run_saving(call: Callable[[], T]) -> T:
    """``call()`` (a report save: engine work in its lane's slot, then the database) in one of the
    :data:`SAVE_THREADS` threads saving in this worker (waits for one to be free)."""
    return await anyio.to_thread.run_sync(_with_memo, call, limiter=_limiter("save", SAVE_THREADS))


PLAIN_JSON: set[type[BaseModel]] = set()
"""Answer types whose JSON :func:`json_bytes` writes with orjson from the models' own fields
(registered by :func:`plain_json`): models with no aliases, field serializers or excluded fields,
whose JSON is their fields (and computed fields) in order. For an evaluation pydantic-core took
0.46 ms, orjson 0.29 ms, byte for byte the same (tests compare the two on every registered type)."""


def plain_json(*types: type[BaseModel]) -> None:
    """Register answer types for :data:`PLAIN_JSON` (only types whose tests compare both writers)."""
    PLAIN_JSON.update(types)


def _fields(value: Any) -> Any:
    if isinstance(value, BaseModel):
        computed = type(value).__pydantic_computed_fields__
        if not computed:
            return value.__dict__
        fields = dict(value.__dict__)
        for name in computed:
            fields[name] = getattr(value, name)
        return fields
    raise TypeError(f"not JSON: {type(value).__name__}")


def json_bytes(model: BaseModel) -> bytes:
    """``model.model_dump_json().encode()``, without the round trip through ``str``: pydantic-core
    writes UTF-8 bytes, which ``model_dump_json`` decodes and the response encodes again (a quarter
    of the serialization's instructions for an evaluation result, whose units are not ASCII).
    A :data:`PLAIN_JSON` type is written by orjson (the same bytes; pydantic-core writes any value
    orjson does not know)."""
    if type(model) in PLAIN_JSON:
        try:
            return orjson.dumps(model, default=_fields)
        except TypeError:
            pass
    return model.__pydantic_serializer__.to_json(model)


async def json_in_lane(lane: Lane, call: Callable[[], BaseModel]) -> Response:
    """``call()``'s model serialized once by pydantic-core, both in the lane's thread: the engine
    built and validated the result already, so FastAPI does not validate it again on the way out."""
    return await run_in_lane(lane, lambda: Response(json_bytes(call()), media_type="application/json"))
