"""Speed of the vectorized evaluation when workloads state data-reduction ratios (models.reduction).

Target: within 1.5x of the same evaluation without ratios (:mod:`bench.test_bench_recommend`'s
``test_batch_evaluation_of_every_catalog_candidate``): arrays that reduce inline price each I/O
size once more (compressed) and a metadata block, the rest stay on the plain path. Reported, never
asserted in the test suite. Run::

    .venv/bin/pytest -q bench/test_bench_reduction.py bench/test_bench_recommend.py --benchmark-only -s \
        -k "every_catalog_candidate" --benchmark-columns=min,median,max,rounds
"""

from __future__ import annotations

from bench.test_bench_recommend import CALIBRATED, WAFL, catalog, report, workloads
from models.batch import candidate_space, evaluate_batch
from models.recommend import catalog_families

__all__ = ["catalog"]


def test_batch_evaluation_of_every_catalog_candidate_with_reduction_ratios(benchmark, catalog):
    space = candidate_space(catalog_families(catalog, **WAFL))
    reduced = [w.model_copy(update={"dedupe_ratio": 3.0, "compression_ratio": 2.0}) for w in workloads()]
    result = benchmark.pedantic(
        evaluate_batch, args=(reduced, space), kwargs={"params": CALIBRATED}, rounds=5, warmup_rounds=1
    )
    report(benchmark, space.rows)
    assert result.passed.any()
