"""Reliability suite: the API against a database that fails, printing what happened (no pass/fail
on timings).

    .venv/bin/python bench/reliability.py [--outage 20] [--writers 4]

uvicorn serves a fresh PostgreSQL schema (TEST_DATABASE_URL) through a TCP proxy
(``backend/tests/tcp_proxy.py``), while writer threads save reports, each with an
``Idempotency-Key`` and retried with the same key until acknowledged, and a reader asks
``/health`` in a loop. Scenarios, one after the other:

* ``blackhole``: the proxy silently drops every byte for ``--outage`` seconds;
* ``refuse``: the proxy refuses connections and cuts open ones for ``--outage`` seconds;
* ``kill -9``: the server is killed during the writes and started again.

Each prints: requests, 503s and other errors, the longest request, how soon health turned 503 and
its longest answer, and acknowledged writes against the reports stored (none may be missing, and
no key may be stored twice).
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.app.tables import Report  # noqa: E402
from backend.tests.tcp_proxy import TcpProxy, free_port  # noqa: E402
from bench.api_load import DEFAULT_SERVER, postgres_schema  # noqa: E402

BODY: dict[str, Any] = {
    "name": "reliability",
    "kind": "evaluate",
    "inputs": {
        "workloads": [
            {
                "name": "oltp",
                "capacity_tb": 2,
                "working_set_gb": 200,
                "skew": {"zipf_alpha": 0.8},
                "phases": [{"name": "day", "window": "day", "iops": 5000, "read_pct": 70, "io_size_kib": 8}],
            }
        ],
        "configuration": {"array_id": "netapp-fas3270", "raid_scheme": "raid-dp", "drive_count": 48},
    },
}
STATEMENT_TIMEOUT_MS = 2000


@dataclass
class Tally:
    requests: int = 0
    unavailable: int = 0  # 503
    other_errors: int = 0  # connection errors, timeouts, other statuses
    longest_s: float = 0.0
    acknowledged: dict[str, str] = field(default_factory=dict)  # idempotency key -> report id
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, seconds: float, status: int | None) -> None:
        with self.lock:
            self.requests += 1
            self.longest_s = max(self.longest_s, seconds)
            if status == 503:
                self.unavailable += 1
            elif status is None or status >= 400:
                self.other_errors += 1


@contextmanager
def server(database_url: str, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "FRONTEND_DIST": "/nonexistent",
        "PYTHONPATH": str(ROOT),
        "RATE_LIMITS_ENABLED": "false",
        "DB_STATEMENT_TIMEOUT_MS": str(STATEMENT_TIMEOUT_MS),
        "DB_POOL_TIMEOUT_S": "2",
        "HEALTH_PROBE_INTERVAL_S": "0.5",
    }
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "backend.app.main:app",
        "--port",
        str(port),
        "--log-level",
        "critical",
    ]
    # the server's own warnings (every 503 is logged) go nowhere: the figures are the output
    process = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.2)
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)


def writer(base: str, tally: Tally, stop: threading.Event) -> None:
    """Saves reports; each write is retried with its key until acknowledged (or the run ends)."""
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            key = str(uuid.uuid4())
            while not stop.is_set():
                started = time.monotonic()
                try:
                    answer = client.post("/api/v1/reports", json=BODY, headers={"Idempotency-Key": key})
                    status: int | None = answer.status_code
                except httpx.HTTPError:
                    status = None
                tally.count(time.monotonic() - started, status)
                if status == 201:
                    with tally.lock:
                        tally.acknowledged[key] = answer.json()["id"]
                    break
                time.sleep(0.2)


def health_watch(base: str, out: list[tuple[float, float, int | None]], stop: threading.Event) -> None:
    """(time, seconds the answer took, status) of a health request every 100 ms."""
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            started = time.monotonic()
            try:
                status: int | None = client.get("/api/v1/health").status_code
            except httpx.HTTPError:
                status = None
            out.append((started, time.monotonic() - started, status))
            time.sleep(0.1)


def stored_reports(url: str) -> tuple[int, set[str]]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            count = int(connection.execute(select(func.count()).select_from(Report)).scalar() or 0)
            ids = set(connection.execute(select(Report.id)).scalars())
            return count, ids
    finally:
        engine.dispose()


def print_figures(
    name: str, tally: Tally, health: list[tuple[float, float, int | None]], url: str, outage_at: float
) -> None:
    count, ids = stored_reports(url)
    missing = [key for key, report_id in tally.acknowledged.items() if report_id not in ids]
    turned = next((t - outage_at for t, _, status in health if t >= outage_at and status == 503), None)
    longest_health = max((took for _, took, _ in health), default=0.0)
    print(f"\n{name}")
    print(f"  write requests {tally.requests}, 503 {tally.unavailable}, other errors {tally.other_errors}")
    print(
        f"  longest write request {tally.longest_s:.2f} s (statement timeout {STATEMENT_TIMEOUT_MS / 1000:g} s)"
    )
    print(
        f"  health: {len(health)} answers, longest {longest_health * 1000:.0f} ms, "
        f"503 {sum(1 for _, _, s in health if s == 503)} times, "
        f"first 503 {turned:.2f} s after the outage began"
        if turned is not None
        else "  health never answered 503"
    )
    print(
        f"  acknowledged writes {len(tally.acknowledged)}, reports stored {count}, "
        f"acknowledged but missing {len(missing)}, stored more than once {count - len(ids)}"
    )
    print(f"  stored without an acknowledgement (a retry's answer lost): {count - len(tally.acknowledged)}")


def network_outage(kind: str, server_url: str, outage_s: float, writers: int) -> None:
    with postgres_schema(server_url) as url:
        target = make_url(url)
        proxy = TcpProxy((target.host or "127.0.0.1", target.port or 5432))
        proxy.start()
        via_proxy = target.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        port = free_port()
        tally, health, stop = Tally(), [], threading.Event()
        with server(via_proxy, port):
            base = f"http://127.0.0.1:{port}"
            threads = [threading.Thread(target=writer, args=(base, tally, stop)) for _ in range(writers)]
            threads.append(threading.Thread(target=health_watch, args=(base, health, stop)))
            for t in threads:
                t.start()
            time.sleep(3)
            outage_at = time.monotonic()
            if kind == "blackhole":
                proxy.blackhole()
            else:
                proxy.stop()
            time.sleep(outage_s)
            if kind == "blackhole":
                proxy.stop()
            proxy.start()
            time.sleep(5)
            stop.set()
            for t in threads:
                t.join()
        proxy.stop()
        print_figures(f"{kind}: {outage_s:g} s outage, {writers} writers", tally, health, url, outage_at)


def kill_during_writes(server_url: str, writers: int) -> None:
    with postgres_schema(server_url) as url:
        port = free_port()
        tally, health, stop = Tally(), [], threading.Event()
        base = f"http://127.0.0.1:{port}"
        threads = [threading.Thread(target=writer, args=(base, tally, stop)) for _ in range(writers)]
        with server(url, port) as process:
            for t in threads:
                t.start()
            time.sleep(3)
            killed_at = time.monotonic()
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        with server(url, port):
            restarted = time.monotonic() - killed_at
            time.sleep(3)
            stop.set()
            for t in threads:
                t.join()
        print_figures(
            f"kill -9 during writes ({writers} writers, back after {restarted:.1f} s)",
            tally,
            health,
            url,
            killed_at,
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--outage", type=float, default=20.0, help="seconds of each network outage")
    p.add_argument("--writers", type=int, default=4)
    p.add_argument("--only", choices=["blackhole", "refuse", "kill"], help="run one scenario")
    args = p.parse_args()
    server_url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER
    print(f"reliability suite (run {secrets.token_hex(3)})")
    if args.only in (None, "blackhole"):
        network_outage("blackhole", server_url, args.outage, args.writers)
    if args.only in (None, "refuse"):
        network_outage("refuse", server_url, args.outage, args.writers)
    if args.only in (None, "kill"):
        kill_during_writes(server_url, args.writers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
