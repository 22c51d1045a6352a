"""Cold evaluate() speed (issue #18): distinct workloads, nothing memoized.

Every workload differs (IOPS, read and random share, I/O size, working set, skew), so the memoized
hit-ratio solves in :mod:`models.cache_share` never repeat, and each timed call evaluates with a
memo of its own (:class:`models.memo.EvaluationMemo`: nothing kept from the call before). Targets (reported, never asserted): median of one evaluation of a 3-window
workload < 1.2 ms cold; 100 workloads x 9 windows in one evaluation < 100 ms. Run::

    .venv/bin/pytest -q bench/test_bench_cold.py --benchmark-only \
        --benchmark-columns=min,median,max,rounds
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from models.configuration import Configuration
from models.evaluate import evaluate
from models.memo import EvaluationMemo
from models.tests.conftest import make_config
from models.workload import Phase, Skew, Workload

WINDOWS = [
    "business hours",
    "nightly export",
    "month-end",
    "backup",
    "batch",
    "reporting",
    "etl",
    "close",
    "idle",
]


def _skew(rng: random.Random) -> Skew:
    kind = rng.random()
    if kind < 0.6:
        return Skew(zipf_alpha=round(rng.uniform(0.5, 1.3), 4))
    if kind < 0.9:
        data = round(rng.uniform(5, 40), 3)
        return Skew(io_pct=round(rng.uniform(max(data, 50), 95), 3), data_pct=data)
    return Skew()


def random_workload(rng: random.Random, name: str, windows: list[str]) -> Workload:
    """One workload with a phase in each of ``windows``, every figure drawn at random."""
    iops = rng.uniform(500, 20_000)
    return Workload(
        name=name,
        capacity_tb=round(rng.uniform(0.5, 10), 3),
        working_set_pct=round(rng.uniform(2, 30), 3),
        skew=_skew(rng),
        phases=[
            Phase(
                name=f"p{i}",
                window=window,
                iops=round(iops * rng.uniform(0.3, 1.5), 1),
                read_pct=round(rng.uniform(10, 95), 2),
                random_pct=round(rng.uniform(20, 100), 2),
                io_size_kib=rng.choice([4, 8, 16, 32, 64]),
                working_set_gb=round(rng.uniform(20, 400), 2) if rng.random() < 0.3 else None,
            )
            for i, window in enumerate(windows)
        ],
    )


def cold_cases(n: int = 200, seed: int = 18) -> list[list[Workload]]:
    """``n`` single-workload evaluations over three windows, no two alike."""
    rng = random.Random(seed)
    return [[random_workload(rng, "app", WINDOWS[:3])] for _ in range(n)]


def hundred_by_nine(seed: int = 1800) -> list[Workload]:
    rng = random.Random(seed)
    return [random_workload(rng, f"app{i}", WINDOWS) for i in range(100)]


@pytest.fixture
def config(hdd15k) -> Configuration:
    return make_config(hdd15k, "raid-dp", 16, 96)


def test_evaluate_cold_distinct_workloads(benchmark, config):
    """One timed round per distinct workload, each with a memo of its own."""
    cases = cold_cases()
    it: Iterator[list[Workload]] = iter(cases)

    def setup():
        return (next(it), config), {}

    benchmark.pedantic(evaluate, setup=setup, rounds=len(cases), iterations=1)


def test_evaluate_warm_distinct_workloads(benchmark, config):
    """The same evaluations with the memoized hit ratios already solved (a sweep revisiting them)."""
    cases = cold_cases()
    memo = EvaluationMemo()  # the sweep's, held across its evaluations
    for wls in cases:
        evaluate(wls, config, memo=memo)
    it = iter(cases)
    benchmark.pedantic(lambda: evaluate(next(it), config, memo=memo), rounds=len(cases), iterations=1)


def test_evaluate_cold_100_workloads_x_9_windows(benchmark, config):
    wls = hundred_by_nine()
    res = benchmark.pedantic(evaluate, args=(wls, config), rounds=5, warmup_rounds=1)
    assert len(res.windows) == 9
