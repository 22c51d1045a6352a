"""Recommend speed targets (reported in closing notes, never asserted in the test suite).

Targets (#18): >= 10 M candidates per second on the batch path, custom builds included. Each
benchmark's ``extra_info`` (``--benchmark-json``) and printed line give the candidates in the space
(``candidates``, ``candidates_per_second``) and the rows actually evaluated by the drive model
(``candidates_evaluated``, ``evaluated_per_second``): ``recommend()`` evaluates each family only up
to its first passing drive count, so the two differ there.

Target (#35): the full catalog <= 0.5 s on the server: :func:`test_recommend_service_full_catalog`
times what the ``/recommend`` route does in its lane (the engine with the API's default margins,
prices, each answer's assessment, the JSON), as CPU time of this process with
``--benchmark-timer=time.process_time`` (the default timer is wall clock, which on the shared
2-core machine counts the other processes' time too). Run::

    .venv/bin/pytest -q bench/test_bench_recommend.py --benchmark-only -s \
        --benchmark-timer=time.process_time --benchmark-columns=min,median,max,rounds
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backend.app.core.collector import collector_paused
from models.batch import candidate_space, evaluate_batch
from models.catalog import Catalog, load_calibration, load_catalog
from models.provenance import MODEL_ERROR_FILE, load_model_error_table
from models.recommend import Recommendation, RecommendConstraints, catalog_families, recommend
from models.workload import IoSize, Phase, Skew, Workload

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# the calibration the API uses, read by the engine's loader from its fixture
_CALIBRATION = load_calibration(FIXTURES)
CALIBRATED = _CALIBRATION.parameters
# as the API does: a named default layout age when the calibration has one, else the fill model
_AGE, _SHARE, _SCATTER = _CALIBRATION.wafl_layout(None)
WAFL = {"wafl_full_stripe_share": _SHARE, "wafl_scatter": _SCATTER}
# and, as the API's default (calibration_margin: pessimistic), estimated parts at their class's margins
MARGINS = {"model_errors": load_model_error_table(FIXTURES / MODEL_ERROR_FILE)}


def paused_recommend(*args: Any, **kwargs: Any) -> Recommendation:
    """recommend() as the API runs it: with the cyclic collector paused by the caller
    (:func:`backend.app.core.collector.collector_paused`)."""
    return collector_paused(lambda: recommend(*args, **kwargs))


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def workloads() -> list[Workload]:
    """Two workloads over two windows, a read-latency target on the busy one."""
    return [
        Workload(
            name="oltp",
            capacity_tb=10,
            working_set_gb=500,
            skew=Skew(zipf_alpha=0.8),
            phases=[
                Phase(
                    name="day",
                    window="day",
                    iops=20000,
                    read_pct=70,
                    io_size_kib=8,
                    read_latency_target_ms=15,
                ),
                Phase(
                    name="batch",
                    window="night",
                    iops=3000,
                    read_pct=20,
                    random_pct=10,
                    io_sizes=[IoSize(size_kib=64, pct=50), IoSize(size_kib=256, pct=50)],
                ),
            ],
        ),
        Workload(
            name="mail",
            capacity_tb=5,
            working_set_pct=10,
            skew=Skew(io_pct=80, data_pct=20),
            phases=[
                Phase(
                    name="day", window="day", iops=5000, read_pct=60, io_size_kib=32, write_overwrite_pct=20
                )
            ],
        ),
    ]


def report(benchmark, candidates: int, evaluated: int) -> None:
    """``candidates``: rows in the candidate space; ``evaluated``: rows whose drive model ran (the
    rest failed capacity or a drive-independent check, or, in recommend, come after their family's
    first passing row and were never evaluated). Per second on both bases, over the median time."""
    median = benchmark.stats.stats.median
    benchmark.extra_info["candidates"] = candidates
    benchmark.extra_info["candidates_per_second"] = round(candidates / median)
    benchmark.extra_info["candidates_evaluated"] = evaluated
    benchmark.extra_info["evaluated_per_second"] = round(evaluated / median)
    print(
        f"\n{benchmark.name}: {candidates:,} candidates in the space, {evaluated:,} evaluated, "
        f"median {median:.3f} s: {candidates / median:,.0f} candidates/s, {evaluated / median:,.0f} evaluated/s"
    )


def test_batch_evaluation_of_every_catalog_candidate(benchmark, catalog):
    space = candidate_space(catalog_families(catalog, **WAFL))
    result = benchmark.pedantic(
        evaluate_batch, args=(workloads(), space), kwargs={"params": CALIBRATED}, rounds=5, warmup_rounds=1
    )
    report(benchmark, space.rows, result.modelled_rows)
    assert result.passed.any()


def test_batch_evaluation_without_pruning(benchmark, catalog):
    """Every row through the drive model (no row skipped for failing capacity or the controllers)."""
    space = candidate_space(catalog_families(catalog, **WAFL))
    result = benchmark.pedantic(
        evaluate_batch,
        args=(workloads(), space),
        kwargs={"params": CALIBRATED, "prune": False},
        rounds=5,
        warmup_rounds=1,
    )
    report(benchmark, space.rows, result.modelled_rows)
    assert result.modelled_rows == space.rows


def test_recommend_full_catalog(benchmark, catalog):
    result = benchmark.pedantic(
        paused_recommend,
        args=(workloads(), catalog),
        kwargs={"params": CALIBRATED, **WAFL, **MARGINS},
        rounds=5,
        warmup_rounds=1,
    )
    report(benchmark, result.stats.candidates, result.stats.modelled_candidates)
    assert result.configurations


def test_recommend_full_catalog_with_custom_builds(benchmark, catalog):
    """The generic custom-build array adds every drive x 13 schemes x every width: ~11 million candidates."""
    constraints = RecommendConstraints(include_custom_builds=True)
    result = benchmark.pedantic(
        paused_recommend,
        args=(workloads(), catalog, constraints),
        kwargs={"params": CALIBRATED, **WAFL, **MARGINS},
        rounds=2,
        warmup_rounds=0,
    )
    report(benchmark, result.stats.candidates, result.stats.modelled_candidates)
    assert result.configurations


def test_recommend_service_full_catalog(benchmark):
    """The ``/recommend`` route's work for the workloads above, default request (margins on)."""
    from backend.app.catalog.service import CatalogStore
    from backend.app.core.lanes import json_bytes
    from backend.app.engine.context import SizingContext
    from backend.app.recommend import service
    from backend.app.recommend.schemas import RecommendRequest

    ctx = SizingContext(CatalogStore(FIXTURES), _CALIBRATION, None, model_errors=MARGINS["model_errors"])
    ctx.catalog.get()  # loaded once per process, as the server keeps it
    body = RecommendRequest(workloads=workloads())
    answer = benchmark.pedantic(lambda: json_bytes(service.recommend(body, ctx)), rounds=5, warmup_rounds=1)
    print(f"\n/recommend full catalog: {len(answer):,} bytes of JSON")
