"""Host statistics import speed (reported, never asserted). Run: ``make bench`` or
``.venv/bin/pytest -q bench/test_bench_hoststats.py --benchmark-only -s``.

Target: a 24-hour, 1-minute performance-monitor CSV of 50 physical disks (13 counters each,
with their volumes' free space, processor and memory counters: 1,441 rows x 753 columns, about
13 MB with decimal commas) reads into workloads in under 2 s, end to end (the API adds the
upload and the JSON answer). The CPU time of the process is printed beside the wall clock (the
machine may be busy with other work).
"""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from models.importers import import_host_stats
from models.importers.synthetic import write_esxtop, write_iostat, write_perfmon

DAY = datetime(2024, 1, 15)


@pytest.fixture(scope="module")
def perfmon_50_disks() -> list[str]:
    return list(write_perfmon(50, DAY, 60, 24 * 60, decimal=",", date_order="dmy"))


def _report(name: str, lines: list[str], seconds: float, cpu: float) -> None:
    size_mb = sum(len(x) for x in lines) / 1e6
    print(f"\n{name}: {len(lines):,} lines, {size_mb:.1f} MB in {seconds:.3f} s wall, {cpu:.3f} s CPU")


def test_bench_perfmon_24h_1min_50_disks(benchmark, perfmon_50_disks: list[str]) -> None:  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = import_host_stats(perfmon_50_disks)
    _report(
        "perfmon 24 h x 1 min x 50 disks",
        perfmon_50_disks,
        time.perf_counter() - wall,
        time.process_time() - cpu,
    )
    assert len([d for d in result.devices if d.selected]) == 50
    benchmark.pedantic(import_host_stats, args=(perfmon_50_disks,), rounds=3, iterations=1)


def test_bench_iostat_24h_1min_20_disks(benchmark) -> None:  # type: ignore[no-untyped-def]
    lines = list(write_iostat([f"sd{chr(97 + i)}" for i in range(20)], DAY, 60, 24 * 60))
    wall, cpu = time.perf_counter(), time.process_time()
    import_host_stats(lines)
    _report(
        "iostat -x -t 24 h x 1 min x 20 disks", lines, time.perf_counter() - wall, time.process_time() - cpu
    )
    benchmark.pedantic(import_host_stats, args=(lines,), rounds=3, iterations=1)


def test_bench_esxtop_6h_5s_8_devices(benchmark) -> None:  # type: ignore[no-untyped-def]
    lines = list(write_esxtop(8, DAY, 5, 6 * 720, cpus=64, vms=10))
    wall, cpu = time.perf_counter(), time.process_time()
    import_host_stats(lines)
    _report(
        "esxtop 6 h x 5 s, 8 devices, 10 VMs", lines, time.perf_counter() - wall, time.process_time() - cpu
    )
    benchmark.pedantic(import_host_stats, args=(lines,), rounds=3, iterations=1)


def test_bench_perfmon_50_disks_through_the_api(benchmark, perfmon_50_disks: list[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The same file uploaded to ``POST /api/v1/import/host-stats`` (detection, spooling,
    decoding, the JSON answer)."""
    from fastapi.testclient import TestClient

    from backend.app.core.config import Settings
    from backend.app.main import create_app

    body = "".join(perfmon_50_disks).encode("cp1252")
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'bench.db'}", frontend_dist=tmp_path))
    with TestClient(app) as client:

        def upload() -> None:
            response = client.post("/api/v1/import/host-stats", content=body)
            assert response.status_code == 200, response.text

        wall, cpu = time.perf_counter(), time.process_time()
        upload()
        _report(
            "perfmon 50 disks via the API",
            perfmon_50_disks,
            time.perf_counter() - wall,
            time.process_time() - cpu,
        )
        benchmark.pedantic(upload, rounds=3, iterations=1)
