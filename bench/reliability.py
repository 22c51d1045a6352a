"""Reliability suite: the API against a database that fails, printing what happened (no pass/fail
on timings).

    .venv/bin/python bench/reliability.py [--outage 20] [--writers 4]

uvicorn serves a fresh PostgreSQL schema (TEST_DATABASE_URL) through a TCP proxy
(``backend/tests/tcp_proxy.py``), while writer threads save reports, each with an
``Idempotency-Key`` and retried with the same key until acknowledged, and a reader asks
``/health`` in a loop. Scenarios, one after the other:

* ``blackhole``: the proxy silently drops every byte for ``--outage`` seconds;
* ``refuse``: the proxy refuses connections and cuts open ones for ``--outage`` seconds;
* ``kill -9``: the server is killed during the writes and started again;
* ``inputs`` (issue #34): ``source_url`` of every protocol family and chained URLs (status, the
  slowest answer, the server's memory before and after), ten trace uploads holding a NUL byte in a
  row through a one-slot queue (how each job ended, whether the queue is free after), an
  Idempotency-Key replayed by a second client (two clients behind a trusted proxy: whether it got
  the first one's owner token), and a 962-byte deeply nested body on every JSON operation.

After a blackhole, the sessions the server holds in ``pg_stat_activity`` (and how many are idle in
a transaction) are printed.

Each prints: requests, 503s and other errors, the longest request, how soon health turned 503 and
its longest answer, and acknowledged writes against the reports stored (none may be missing, and
no key may be stored twice).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
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
from backend.tests.tcp_proxy import TcpProxy, free_port, sessions_held  # noqa: E402
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
def server(database_url: str, port: int, **settings: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "FRONTEND_DIST": "/nonexistent",
        "PYTHONPATH": str(ROOT),
        "RATE_LIMITS_ENABLED": "false",
        "DB_STATEMENT_TIMEOUT_MS": str(STATEMENT_TIMEOUT_MS),
        "DB_POOL_TIMEOUT_S": "2",
        "HEALTH_PROBE_INTERVAL_S": "0.5",
        **settings,
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
        "--no-proxy-headers",
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
        application = f"sizer-reliability-{secrets.token_hex(3)}"
        via_proxy = (
            target.set(host="127.0.0.1", port=proxy.port)
            .update_query_dict({"application_name": application})
            .render_as_string(hide_password=False)
        )
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
            held, idle = sessions_held(url, application)
        proxy.stop()
        print_figures(f"{kind}: {outage_s:g} s outage, {writers} writers", tally, health, url, outage_at)
        print(
            f"  sessions held after recovery {held} (pool 20 + overflow 10 + probe 1 at most), idle in a transaction {idle}"
        )


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` [MiB] (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def trace_with_nul(lines: int = 2000) -> bytes:
    """An MSR trace of ``lines`` requests whose line 1,500 holds a NUL byte."""
    rows = [
        f"{128166372000000000 + i * 10000},usr,0,Read,{(i * 4096) % 10_000_000},4096,100"
        for i in range(lines)
    ]
    rows[1499] = rows[1499][:5] + "\x00" + rows[1499][5:]
    return ("\n".join(rows) + "\n").encode()


REFUSED_URLS = [
    "zip://x::file:///dev/zero",
    "simplecache::file:///dev/zero",
    "ftp://127.0.0.1:21/trace.csv",
    "http://127.0.0.1:9/trace.csv",
    "https://example.com/trace.csv",
    "github://owner:repo@main/trace.csv",
    "gist://0123456789abcdef/trace.csv",
    "memory://trace.csv",
    "file:///etc/passwd",
    "file:///dev/zero",
]


def hostile_inputs(server_url: str) -> None:
    with postgres_schema(server_url) as url:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        traces = ROOT / "var" / f"reliability-traces-{secrets.token_hex(3)}"
        settings = {"TRACES_DIR": str(traces), "TRACE_QUEUE_MAX": "1", "TRUSTED_PROXIES": "127.0.0.1"}
        try:
            with server(url, port, **settings) as process, httpx.Client(base_url=base, timeout=30) as client:
                print("\ninputs: source_url of every protocol family, chained URLs")
                before = rss_mib(process.pid)
                took, codes = [], []
                for source in REFUSED_URLS:
                    started = time.monotonic()
                    answer = client.post("/api/v1/traces", params={"source_url": source})
                    took.append(time.monotonic() - started)
                    loc = answer.json()["detail"][0]["loc"] if answer.status_code == 422 else None
                    codes.append(
                        f"{answer.status_code}{'@source_url' if loc == ['query', 'source_url'] else ''}"
                    )
                print(f"  {len(REFUSED_URLS)} URLs: {sorted(set(codes))}, slowest {max(took) * 1000:.0f} ms")
                print(f"  server memory {before:.0f} MiB before, {rss_mib(process.pid):.0f} MiB after")

                print("inputs: ten trace uploads holding a NUL byte, in a row, through a one-slot queue")
                ended = []
                for _ in range(10):
                    created = client.post("/api/v1/traces", content=trace_with_nul())
                    if created.status_code != 202:
                        ended.append(f"upload {created.status_code}")
                        continue
                    job = f"/api/v1/traces/{created.json()['id']}"
                    started = time.monotonic()
                    while (body := client.get(job).json())["status"] in ("queued", "running"):
                        if time.monotonic() - started > 60:
                            break
                        time.sleep(0.05)
                    ended.append(f"{body['status']} in {time.monotonic() - started:.2f} s")
                after = client.post("/api/v1/traces", content=trace_with_nul().replace(b"\x00", b""))
                print(f"  jobs: {ended}")
                print(f"  error: {body.get('error')!r}")
                print(f"  an upload after them: {after.status_code}")

                print(
                    "inputs: an Idempotency-Key replayed by a second client (two clients behind a trusted proxy)"
                )
                key = {"Idempotency-Key": str(uuid.uuid4())}
                first = client.post(
                    "/api/v1/reports", json=BODY, headers={**key, "X-Forwarded-For": "192.0.2.1"}
                )
                again = client.post(
                    "/api/v1/reports", json=BODY, headers={**key, "X-Forwarded-For": "192.0.2.1"}
                )
                other = client.post(
                    "/api/v1/reports", json=BODY, headers={**key, "X-Forwarded-For": "192.0.2.2"}
                )
                print(
                    f"  first {first.status_code}, its own retry {again.status_code} "
                    f"(replayed {again.headers.get('idempotent-replayed') == 'true'}), "
                    f"second client {other.status_code} (replayed {other.headers.get('idempotent-replayed') == 'true'}, "
                    f"same record {other.json().get('id') == first.json().get('id')}, "
                    f"got the first owner token {other.json().get('owner_token') == first.json().get('owner_token')})"
                )
                owner = {"X-Owner-Token": other.json().get("owner_token", ""), "X-Forwarded-For": "192.0.2.2"}
                stolen = client.delete(f"/api/v1/reports/{first.json()['id']}", headers=owner)
                print(
                    f"  second client deleting the first one's report with its own token: {stolen.status_code}"
                )

                print("inputs: a 962-byte deeply nested body on every JSON operation")
                nested = b"[" * 481 + b"]" * 481
                answers = []
                for path, operations in client.get("/openapi.json").json()["paths"].items():
                    for method, operation in operations.items():
                        if "application/json" in operation.get("requestBody", {}).get("content", {}):
                            target = path.replace("{", "").replace("}", "")
                            started = time.monotonic()
                            answer = client.request(
                                method, target, content=nested, headers={"Content-Type": "application/json"}
                            )
                            answers.append(
                                (answer.status_code, len(answer.content), time.monotonic() - started)
                            )
                statuses = sorted({a[0] for a in answers})
                print(
                    f"  {len(answers)} operations: statuses {statuses}, 5xx {sum(a[0] >= 500 for a in answers)}, "
                    f"largest answer {max(a[1] for a in answers)} bytes, slowest {max(a[2] for a in answers) * 1000:.0f} ms"
                )
        finally:
            shutil.rmtree(traces, ignore_errors=True)


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
    p.add_argument("--only", choices=["blackhole", "refuse", "kill", "inputs"], help="run one scenario")
    args = p.parse_args()
    server_url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_SERVER
    print(f"reliability suite (run {secrets.token_hex(3)})")
    if args.only in (None, "blackhole"):
        network_outage("blackhole", server_url, args.outage, args.writers)
    if args.only in (None, "refuse"):
        network_outage("refuse", server_url, args.outage, args.writers)
    if args.only in (None, "kill"):
        kill_during_writes(server_url, args.writers)
    if args.only in (None, "inputs"):
        hostile_inputs(server_url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
