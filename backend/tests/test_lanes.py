"""Engine lanes: one call at a time per lane in a worker, whether it runs in the lane's own thread
(``run_in_lane``) or in a threadpool thread holding the lane's slot (``lane_slot``)."""

from __future__ import annotations

import threading

import anyio

from backend.app.core.lanes import lane_slot, run_in_lane


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
