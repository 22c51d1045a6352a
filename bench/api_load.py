"""API load benchmark: requests per second and latency percentiles at 32 connections.

    .venv/bin/python bench/api_load.py [--duration 10] [--connections 32] [--workers 2] [--only health,evaluate]
                                       [--json OUT]

Starts uvicorn on 127.0.0.1 (a free port) against a fresh schema in the PostgreSQL server at
TEST_DATABASE_URL (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``), migrated with
Alembic and dropped afterwards, then loads, one after the other:

* ``GET /api/v1/health``            (answered from memory: the database is probed by a thread)
* ``POST /api/v1/evaluate``         (the OLTP template on a FAS3270 catalog reference: engine only;
                                     once with one body, once rotating through 400 distinct bodies)
* ``POST /api/v1/reports``          (the same evaluation, recomputed and committed to PostgreSQL)

Beside req/s and latency, each scenario reports the server's CPU per request: user + system CPU of
every uvicorn process (``/proc/<pid>/stat``) over the measured run, divided by the requests served.
It is steadier than req/s on a shared machine. For the evaluate scenarios the engine's own CPU per
call is measured in this process (``sizing.service.evaluate`` on the same bodies, each validated
afresh as a request is, after a warm-up over every body), and the difference is the framework's
overhead: HTTP, middleware, validation, threads and serialization.

The load client is ``wrk`` when installed (``apt-get install wrk``; its own threads, C), else an
asyncio httpx client in this process. Both share the machine with the server, so the figures are
a floor for the server alone. Each scenario has a warm-up (not counted) before the measured run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.app.tables import Report  # noqa: E402

DEFAULT_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@dataclass
class Scenario:
    name: str
    method: str
    path: str
    bodies: list[dict[str, Any]] | None = None  # sent in turn, one per request

    @property
    def body(self) -> dict[str, Any] | None:
        return self.bodies[0] if self.bodies else None

    @property
    def key(self) -> str:
        """``health``, ``evaluate``, ``evaluate-distinct`` or ``reports`` (for ``--only``)."""
        name = self.path.rsplit("/", 1)[-1]
        return f"{name}-distinct" if self.bodies and len(self.bodies) > 1 else name


@dataclass
class Figures:
    scenario: str
    client: str
    connections: int
    seconds: float
    requests: int
    errors: int
    requests_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    server_cpu_ms_per_request: float | None = None  # CPU of every uvicorn process / requests
    engine_cpu_ms_per_call: float | None = None  # the engine alone, in this process (evaluate only)


DISTINCT_WORKLOADS = 400


def _scaled(workload: dict[str, Any], factor: float) -> dict[str, Any]:
    phases = [
        {**ph, "iops": round(ph["iops"] * factor, 1)} if ph.get("iops") else ph for ph in workload["phases"]
    ]
    return {**workload, "phases": phases}


def scenarios() -> list[Scenario]:
    """The OLTP template (6 phases in 3 windows) on a FAS3270; the rotating variant scales its IOPS
    (0.5x-1.5x) and drive count (96-208) per request, so the engine's memoized cache hit ratios and
    built configurations are not reused from one request to the next."""
    template = yaml.safe_load((ROOT / "fixtures" / "templates" / "oltp-database.yaml").read_text())
    evaluate = {
        "workloads": [template["workload"]],
        "configuration": {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp", "drive_count": 208},
    }
    distinct = [
        {
            "workloads": [_scaled(template["workload"], 0.5 + i / DISTINCT_WORKLOADS)],
            "configuration": {**evaluate["configuration"], "drive_count": 96 + 8 * (i % 15)},
        }
        for i in range(DISTINCT_WORKLOADS)
    ]
    return [
        Scenario("GET /health", "GET", "/api/v1/health"),
        Scenario("POST /evaluate", "POST", "/api/v1/evaluate", [evaluate]),
        Scenario(f"POST /evaluate ({DISTINCT_WORKLOADS} bodies)", "POST", "/api/v1/evaluate", distinct),
        Scenario(
            "POST /reports (PostgreSQL)",
            "POST",
            "/api/v1/reports",
            [{"name": "bench", "kind": "evaluate", "inputs": evaluate}],
        ),
    ]


# ---- database and server ------------------------------------------------------------------------


@contextmanager
def postgres_schema(server_url: str) -> Iterator[str]:
    """A fresh migrated schema; yields its URL (search_path in the options), drops it afterwards."""
    schema = f"bench_{secrets.token_hex(4)}"
    admin = create_engine(server_url, poolclass=NullPool)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = (
        make_url(server_url)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )
    try:
        config = Config(str(ROOT / "alembic.ini"))
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
        config.attributes["configure_logger"] = False
        command.upgrade(config, "head")
        yield url
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(database_url: str, workers: int) -> Iterator[tuple[str, int]]:
    """uvicorn in a session of its own; yields (base URL, process group id)."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "FRONTEND_DIST": str(Path(tempfile.gettempdir()) / "no-ui"),
        "PYTHONPATH": str(ROOT),
        "RATE_LIMITS_ENABLED": "false",  # the load test measures the server, not the per-client limits
    }
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "backend.app.main:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-access-log",
        "--log-level",
        "warning",
        "--no-server-header",
    ]
    process = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.2)
        yield base, process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def group_cpu_s(pgid: int) -> float:
    """User + system CPU seconds of every live process in process group ``pgid`` (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the command: state ppid pgrp ... utime(11) stime(12)
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


# ---- load clients -------------------------------------------------------------------------------

_WRK_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def _wrk_ms(value: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value)
    if not match:
        raise ValueError(f"unexpected wrk latency {value!r}")
    return float(match.group(1)) * _WRK_UNITS[match.group(2)]


def run_wrk(base: str, scenario: Scenario, connections: int, seconds: float) -> Figures:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "request.lua"
        lua = [f"wrk.method = {json.dumps(scenario.method)}"]
        if scenario.bodies:
            bodies = Path(folder) / "bodies.jsonl"  # one JSON body per line
            bodies.write_text("".join(json.dumps(b) + "\n" for b in scenario.bodies))
            lua += [
                'wrk.headers["Content-Type"] = "application/json"',
                "local bodies = {}",
                f"for line in io.lines({json.dumps(str(bodies))}) do bodies[#bodies + 1] = line end",
                "local i = 0",
                "request = function()",
                "  i = i % #bodies + 1",
                "  return wrk.format(nil, nil, nil, bodies[i])",
                "end",
            ]
        script.write_text("\n".join(lua) + "\n")
        out = subprocess.run(
            [
                "wrk",
                "--threads",
                str(min(2, connections)),
                "--connections",
                str(connections),
                "--duration",
                f"{max(1, round(seconds))}s",
                "--timeout",
                "30s",
                "--latency",
                "--script",
                str(script),
                base + scenario.path,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    percentiles = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)\s*$", out, re.M))
    if len(percentiles) != 3:
        raise RuntimeError(f"unexpected wrk output:\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    errors += sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    return Figures(
        scenario=scenario.name,
        client="wrk",
        connections=connections,
        seconds=seconds,
        requests=requests,
        errors=errors,
        requests_per_s=float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        p50_ms=_wrk_ms(percentiles["50"]),
        p90_ms=_wrk_ms(percentiles["90"]),
        p99_ms=_wrk_ms(percentiles["99"]),
    )


async def _httpx_load(
    base: str, scenario: Scenario, connections: int, seconds: float
) -> tuple[list[float], int]:
    latencies: list[float] = []
    errors = 0
    bodies = [json.dumps(b).encode() for b in scenario.bodies] if scenario.bodies else [None]
    headers = {"Content-Type": "application/json"} if scenario.bodies else {}
    sent = 0
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        deadline = time.perf_counter() + seconds

        async def worker() -> None:
            nonlocal errors, sent
            while time.perf_counter() < deadline:
                body = bodies[sent % len(bodies)]
                sent += 1
                start = time.perf_counter()
                response = await client.request(scenario.method, scenario.path, content=body, headers=headers)
                latencies.append((time.perf_counter() - start) * 1000)
                if response.status_code >= 300:
                    errors += 1

        await asyncio.gather(*(worker() for _ in range(connections)))
    return latencies, errors


def run_httpx(base: str, scenario: Scenario, connections: int, seconds: float) -> Figures:
    started = time.perf_counter()
    latencies, errors = asyncio.run(_httpx_load(base, scenario, connections, seconds))
    elapsed = time.perf_counter() - started
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return Figures(
        scenario=scenario.name,
        client="httpx (asyncio)",
        connections=connections,
        seconds=round(elapsed, 2),
        requests=len(latencies),
        errors=errors,
        requests_per_s=len(latencies) / elapsed,
        p50_ms=q[49],
        p90_ms=q[89],
        p99_ms=q[98],
    )


def engine_cpu_ms(bodies: list[dict[str, Any]], calls: int = 600) -> float:
    """CPU milliseconds per call of the engine's evaluate as ``/evaluate`` runs it
    (``sizing.service.evaluate``, catalog references resolved, no custom hardware), on ``bodies`` in
    turn, each validated afresh as a request is (validation not counted), after one call per body."""
    from backend.app.catalog.service import CatalogStore
    from backend.app.engine.context import SizingContext
    from backend.app.sizing import service
    from backend.app.sizing.schemas import EvaluateRequest
    from models.catalog import load_calibration

    class NoCustomHardware:
        def get(self, record_id: str) -> None:
            return None

    catalog = CatalogStore(ROOT / "fixtures")
    calibration = load_calibration(ROOT / "fixtures")
    texts = [json.dumps(b) for b in bodies]

    def call(body: str) -> float:
        request = EvaluateRequest.model_validate_json(body)
        ctx = SizingContext(catalog, calibration, NoCustomHardware())
        started = time.process_time()
        service.evaluate(request, ctx)
        return time.process_time() - started

    for body in texts:
        call(body)
    return sum(call(texts[i % len(texts)]) for i in range(calls)) * 1000 / calls


def report_rows(database_url: str) -> int:
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(Report)).scalar() or 0)
    finally:
        engine.dispose()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=10.0, help="measured seconds per scenario")
    p.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds before each scenario")
    p.add_argument("--connections", type=int, default=32)
    p.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="uvicorn worker processes (default: one per CPU)",
    )
    p.add_argument("--client", choices=["auto", "wrk", "httpx"], default="auto")
    p.add_argument(
        "--only",
        help="comma-separated scenarios to run: health, evaluate, evaluate-distinct, reports (default: all)",
    )
    p.add_argument("--json", type=Path, help="also write the figures here")
    args = p.parse_args()

    use_wrk = args.client == "wrk" or (args.client == "auto" and shutil.which("wrk") is not None)
    run = run_wrk if use_wrk else run_httpx
    server_url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER
    chosen = [s for s in scenarios() if not args.only or s.key in args.only.split(",")]
    if not chosen:
        p.error(f"--only {args.only!r} names no scenario of: {', '.join(s.key for s in scenarios())}")
    results: list[Figures] = []
    with postgres_schema(server_url) as database_url, server(database_url, args.workers) as (base, pgid):
        for scenario in chosen:
            probe = httpx.request(scenario.method, base + scenario.path, json=scenario.body, timeout=30)
            if probe.status_code >= 300:
                raise RuntimeError(f"{scenario.name}: {probe.status_code} {probe.text[:300]}")
            run(base, scenario, args.connections, args.warmup)
            cpu = group_cpu_s(pgid)
            figures = run(base, scenario, args.connections, args.duration)
            if figures.requests:
                figures.server_cpu_ms_per_request = (group_cpu_s(pgid) - cpu) * 1000 / figures.requests
            results.append(figures)
        saved = report_rows(database_url)
    for scenario, figures in zip(chosen, results, strict=True):  # server stopped: the CPUs are free
        if scenario.key.startswith("evaluate") and scenario.bodies:
            figures.engine_cpu_ms_per_call = engine_cpu_ms(scenario.bodies)

    print(
        f"\nAPI load: {args.connections} connections, {args.duration:g} s per scenario, "
        f"uvicorn x{args.workers} on {os.cpu_count()} CPUs, client {results[0].client}\n"
    )
    header = (
        f"{'scenario':<30}{'req/s':>8}{'p50 ms':>8}{'p90 ms':>8}{'p99 ms':>8}{'requests':>9}{'errors':>7}"
        f"{'server CPU ms/req':>19}{'engine ms':>11}{'overhead ms':>13}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        cpu = f"{r.server_cpu_ms_per_request:.2f}" if r.server_cpu_ms_per_request is not None else "-"
        engine = f"{r.engine_cpu_ms_per_call:.2f}" if r.engine_cpu_ms_per_call is not None else "-"
        overhead = (
            f"{r.server_cpu_ms_per_request - r.engine_cpu_ms_per_call:.2f}"
            if r.server_cpu_ms_per_request is not None and r.engine_cpu_ms_per_call is not None
            else "-"
        )
        print(
            f"{r.scenario:<30}{r.requests_per_s:>8.1f}{r.p50_ms:>8.1f}{r.p90_ms:>8.1f}{r.p99_ms:>8.1f}"
            f"{r.requests:>9}{r.errors:>7}{cpu:>19}{engine:>11}{overhead:>13}"
        )
    health = next((r for r in results if r.scenario == "GET /health"), None)
    print(
        "\ntargets (issue #18, server CPU per request): health < 1 ms, evaluate <= 1.3 x health, "
        "reports < 3 ms and >= 400/s"
    )
    for r in results:
        cpu_ms = r.server_cpu_ms_per_request
        if r is health and cpu_ms is not None:
            print(f"  {r.scenario}: {cpu_ms:.2f} ms")
        if r.scenario.startswith("POST /evaluate") and cpu_ms is not None:
            health_ms = health.server_cpu_ms_per_request if health else None
            ratio = f"{cpu_ms / health_ms:.1f} x health, " if health_ms else ""
            print(f"  {r.scenario}: {ratio}{cpu_ms:.2f} ms; p99 {r.p99_ms:.0f} ms")
        if r.scenario.startswith("POST /reports") and cpu_ms is not None:
            print(f"  {r.scenario}: {cpu_ms:.2f} ms, {r.requests_per_s:.0f} req/s")
    print(f"\nreports rows committed in PostgreSQL: {saved}")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n")
    return 0 if all(r.errors == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
