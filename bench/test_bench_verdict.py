"""Sizing with every failure case (models.verdict): speed target (reported, never asserted).

Target (#33): ``size()`` of the OLTP template on a FAS8040 (900 GB 10K drives, RAID-DP, 1,024 GB
Flash Cache), judging every case (healthy, a drive failed, rebuilding, failover, cold caches, at
the 36-month horizon), median < 50 ms. The healthy-only sizing of the same family is measured
beside it for the cost of the cases. The configuration is built as the API builds it (catalog and
calibration through :class:`backend.app.engine.context.SizingContext`). Run::

    .venv/bin/pytest -q bench/test_bench_verdict.py --benchmark-only -s \
        --benchmark-columns=min,median,max,rounds
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.conftest import fas8040_oltp_family
from models.cases import HEALTHY_ONLY
from models.configuration import Configuration
from models.parameters import EngineParameters
from models.size import size
from models.workload import Workload

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def fas8040_oltp() -> tuple[list[Workload], Configuration, EngineParameters]:
    workloads, family, calibration = fas8040_oltp_family()
    return workloads, family, calibration.parameters


def test_size_oltp_fas8040_with_every_failure_case(benchmark, fas8040_oltp) -> None:
    workloads, family, params = fas8040_oltp
    res = benchmark(size, workloads, family, params=params)
    assert res.feasible and res.result.verdict is not None and res.result.verdict.passed
    print(f"\nevery case: {res.drive_count} drives, {res.evaluations} evaluations")


def test_size_oltp_fas8040_healthy_only(benchmark, fas8040_oltp) -> None:
    workloads, family, params = fas8040_oltp
    res = benchmark(size, workloads, family, params=params, relax=HEALTHY_ONLY)
    assert res.feasible
    print(f"\nhealthy only: {res.drive_count} drives, {res.evaluations} evaluations")
