"""Server CPU per request, in process: the app called as ASGI (no sockets, no HTTP parser, no load
client), one request after another, CPU time (``time.process_time``, every thread) per request.

    .venv/bin/python bench/asgi_overhead.py [--requests 400] [--profile evaluate|health|reports|trivial]

It measures what ``bench/api_load.py`` cannot separate on a shared machine: the framework and
middleware cost of a request, without the load client's CPU and without the scheduling noise of
32 connections. Scenarios, each after a warm-up of 50 requests:

* ``trivial``: FastAPI's trivial endpoint (a bare ``FastAPI()`` app, ``async def`` returning a dict);
* ``health``: ``GET /api/v1/health`` through the whole middleware stack;
* ``evaluate``: ``POST /api/v1/evaluate`` with the OLTP template on a FAS3270 (the body
  ``api_load.py`` sends). The engine's CPU is measured inside those same requests (the thread CPU
  of ``sizing.service._evaluated``, what ``sizing.service.evaluate`` runs, wrapped for the run), and
  the difference is the overhead: routing, middleware, request validation, the lane's thread hop,
  serialization, and compression for a client that accepts gzip (``evaluate-identity``: one that
  does not, as ``wrk`` sends). Each is run again with the engine's answer precomputed ("engine
  free": ``_evaluated`` returns the result it computed last): all that request's CPU is then the
  overhead, a steadier figure than a difference of two noisy ones (the engine's own garbage
  collections, for one, fall in either part by chance);
* ``reports``: ``POST /api/v1/reports`` of that evaluation (the body ``api_load.py`` sends), saved
  in a fresh schema of the PostgreSQL server at TEST_DATABASE_URL (default
  ``postgresql+psycopg://postgres@127.0.0.1:5432/test``): the application's CPU for a save
  (PostgreSQL's own work is in its processes, not counted); ``engine`` is the evaluation saved.
  ``reports-new-inputs``: each save of other inputs (the 400 scaled bodies of ``api_load.py``), so
  no snapshot curves come from the curves cache (:mod:`backend.app.sizing.curves_cache`).

Every scenario runs ``--rounds`` times (3), interleaved, and the least CPU per request is kept:
the machine is shared, and what others run only ever adds to a figure.
``--profile NAME`` prints the 30 costliest functions (cProfile, own time) of that scenario.
A figure is CPU time on this machine; the uvicorn process adds its HTTP parsing (about 0.05 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fastapi import FastAPI  # noqa: E402

from bench.api_load import DEFAULT_SERVER, postgres_schema, scenarios  # noqa: E402

ASGIApp = Callable[..., Any]


ENGINE_S = [0.0]
"""Thread CPU seconds spent in ``sizing.service._evaluated`` since the last reset."""

ENGINE_FREE = [False]
"""While set, ``sizing.service._evaluated`` answers with the result it last computed, at no cost."""


def _engine_timed() -> None:
    from backend.app.sizing import service

    evaluated = service._evaluated
    last: list[Any] = []

    def timed(*args: Any, **kwargs: Any) -> Any:
        if ENGINE_FREE[0] and last:
            return last[0]
        started = time.thread_time()
        try:
            last[:] = [evaluated(*args, **kwargs)]
            return last[0]
        finally:
            ENGINE_S[0] += time.thread_time() - started

    service._evaluated = timed  # type: ignore[assignment]


async def call(
    app: ASGIApp, method: str, path: str, body: bytes = b"", encoding: bytes = b"gzip, deflate, br"
) -> tuple[int, bytes]:
    """One request to ``app``; its status and body."""
    headers = [(b"host", b"127.0.0.1"), (b"accept-encoding", encoding)]
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


def cpu_ms_per_request(
    app: ASGIApp,
    method: str,
    path: str,
    body: bytes | list[bytes],
    requests: int,
    profile: bool = False,
    encoding: bytes = b"gzip, deflate, br",
) -> tuple[float, float]:
    """CPU milliseconds per request (after 50 unmeasured), each answered 2xx, and the engine's part;
    a list of bodies is sent in turn, each once."""
    bodies = iter(body if isinstance(body, list) else [])
    single = body if isinstance(body, bytes) else None

    async def run(n: int) -> None:
        for _ in range(n):
            sent = single if single is not None else next(bodies)
            status, answer = await call(app, method, path, sent, encoding)
            if not 200 <= status < 300:
                raise RuntimeError(f"{method} {path}: {status} {answer[:300]!r}")

    async def measured() -> tuple[float, float]:
        await run(50)
        profiler = cProfile.Profile() if profile else None
        ENGINE_S[0] = 0.0
        started = time.process_time()
        if profiler is not None:
            profiler.enable()
        await run(requests)
        if profiler is not None:
            profiler.disable()
        elapsed = time.process_time() - started
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return elapsed * 1000 / requests, ENGINE_S[0] * 1000 / requests

    return asyncio.run(measured())


def trivial_app() -> FastAPI:
    app = FastAPI()

    @app.get("/trivial")
    async def trivial() -> dict[str, bool]:
        return {"ok": True}

    return app


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=400, help="measured requests per scenario")
    p.add_argument("--rounds", type=int, default=3, help="rounds of every scenario; the least CPU is kept")
    p.add_argument(
        "--profile",
        choices=[
            "trivial",
            "health",
            "evaluate",
            "evaluate-free",
            "evaluate-identity",
            "evaluate-identity-free",
            "reports",
        ],
    )
    args = p.parse_args()

    from backend.app.core.config import Settings
    from backend.app.main import create_app

    bodies = {s.key: s.body for s in scenarios()}
    distinct = next(s for s in scenarios() if s.key == "evaluate-distinct").bodies or []
    evaluate_body = bodies["evaluate"]
    body = json.dumps(evaluate_body).encode()
    report_body = json.dumps(bodies["reports"]).encode()
    server = os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER
    with tempfile.TemporaryDirectory() as folder, postgres_schema(server) as url:
        app = create_app(Settings(database_url=url, rate_limits_enabled=False, traces_dir=Path(folder)))

        _engine_timed()
        identity = b"identity"
        runs: dict[str, tuple[ASGIApp, str, str, bytes, bytes]] = {
            "trivial": (trivial_app(), "GET", "/trivial", b"", identity),
            "health": (app, "GET", "/api/v1/health", b"", identity),
            "evaluate": (app, "POST", "/api/v1/evaluate", body, b"gzip, deflate, br"),
            "evaluate-identity": (app, "POST", "/api/v1/evaluate", body, identity),
            "reports": (app, "POST", "/api/v1/reports", report_body, identity),
        }
        # each save of new inputs: the snapshot's curves computed, none found in the curves cache
        saved = bodies["reports"] or {}
        new_saves = [json.dumps({**saved, "inputs": b}).encode() for b in distinct]
        figures: dict[str, tuple[float, float]] = {}

        def keep(name: str, figure: tuple[float, float]) -> None:  # the least CPU of the rounds
            figures[name] = min(figures.get(name, figure), figure)

        for _ in range(args.rounds):  # rounds interleave the scenarios: load that varies hits all alike
            for name, (target, method, path, sent, encoding) in runs.items():
                n = args.requests if name != "reports" else max(50, args.requests // 4)
                keep(name, cpu_ms_per_request(target, method, path, sent, n, args.profile == name, encoding))
                if name.startswith("evaluate"):  # the same request with the engine's answer at no cost
                    ENGINE_FREE[0] = True
                    free = cpu_ms_per_request(
                        target, method, path, sent, n, args.profile == f"{name}-free", encoding
                    )
                    keep(f"{name}, engine free", free)
                    ENGINE_FREE[0] = False
        figures["reports-new-inputs"] = cpu_ms_per_request(
            app,
            "POST",
            "/api/v1/reports",
            new_saves,
            min(len(new_saves) - 50, max(50, args.requests // 4)),
            encoding=identity,
        )

    print(
        f"server CPU per request, in process ({args.requests} requests each, reports a quarter;"
        f" least of {args.rounds} rounds; ms)"
    )
    print(f"  {'scenario':<18} {'total':>7} {'engine':>7} {'other':>7}")
    for name, (total, engine) in figures.items():
        print(f"  {name:<18} {total:7.3f} {engine:7.3f} {total - engine:7.3f}")
    ratio = figures["health"][0] / figures["trivial"][0]
    print(f"health / trivial: {ratio:.2f}x; /evaluate overhead (other) as above")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
