"""Dump recommend() answers for many random workloads over the whole catalog, to compare two
checkouts byte for byte (as ``compare_searches.py`` does for the searches and what-ifs).

Each line is one call: the answer's JSON (its timing ``stats`` left out: they differ run to run)
and every leaf with its type and repr, or the error it raised. Calls: the calibrated parameters
and WAFL layout the API uses, with the model-error margins (the API's default) and without, and
with a read-latency target. Usage::

    git archive <commit> | tar -x -C /tmp/base
    python scripts/compare_recommend.py /tmp/base base.txt 12
    python scripts/compare_recommend.py . new.txt 12
    cmp base.txt new.txt
"""

import random
import sys

sys.path.insert(0, sys.argv[1])
from pathlib import Path  # noqa: E402

from compare_common import walk  # noqa: E402 (beside this script)

from bench.test_bench_cold import WINDOWS, random_workload  # noqa: E402
from models.catalog import load_calibration, load_catalog  # noqa: E402
from models.provenance import MODEL_ERROR_FILE, load_model_error_table  # noqa: E402
from models.recommend import RecommendConstraints, recommend  # noqa: E402

N = int(sys.argv[3]) if len(sys.argv) > 3 else 12
fixtures = Path(sys.argv[1]) / "fixtures"
catalog = load_catalog(fixtures)
calibration = load_calibration(fixtures)
_, share, scatter = calibration.wafl_layout(None)
table = load_model_error_table(fixtures / MODEL_ERROR_FILE)
rng = random.Random(3535)
with open(sys.argv[2], "w") as out:
    for k in range(N):
        windows = WINDOWS[: rng.choice([1, 2, 3])]
        wls = [random_workload(rng, f"w{i}", windows) for i in range(rng.choice([1, 1, 2]))]
        target = rng.choice([None, None, 10.0, 25.0])
        for margins in (table, None):
            try:
                res = recommend(
                    wls,
                    catalog,
                    RecommendConstraints(read_latency_target_ms=target),
                    params=calibration.parameters,
                    wafl_full_stripe_share=share,
                    wafl_scatter=scatter,
                    model_errors=margins,
                )
                line = (
                    res.model_dump_json(exclude={"stats"})
                    + "\t"
                    + walk(res.model_copy(update={"stats": None}))
                )
            except Exception as e:  # noqa: BLE001
                line = "ERR " + type(e).__name__ + " " + str(e)
            out.write(f"{k} margins={margins is not None}\t{line}\n")
print("cases", N, file=sys.stderr)
