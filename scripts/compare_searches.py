"""Dump the outputs of the engine's searches and what-ifs for many random workloads, to compare two
checkouts (as ``compare_evaluate.py`` does for evaluate()).

Each line is one call: the result's JSON and every leaf with its type and repr, or the error it
raised. Calls: ``size`` (with flash-cache options, degraded), ``latency_vs_load``,
``saturation_scale``, ``sensitivity``, ``growth_projection``, ``max_workload``, ``ranges`` (ends
and a small Monte Carlo), on test configurations and catalog systems. Usage::

    git worktree add /tmp/base 0cd9568
    python scripts/compare_searches.py /tmp/base base.txt 40
    python scripts/compare_searches.py . new.txt 40
    cmp base.txt new.txt
"""

import random
import sys

sys.path.insert(0, sys.argv[1])
from pathlib import Path  # noqa: E402

from compare_common import walk  # noqa: E402 (beside this script)
from pydantic import BaseModel  # noqa: E402

from bench.test_bench_cold import WINDOWS, random_workload  # noqa: E402
from models.catalog import build_configuration, load_catalog  # noqa: E402
from models.curves import latency_vs_load, saturation_scale  # noqa: E402
from models.results import DegradedMode  # noqa: E402
from models.size import size  # noqa: E402
from models.tests.conftest import hdd15k, make_config, ssd  # noqa: E402
from models.tests.test_evaluate import tiered_config  # noqa: E402
from models.whatif import BandMethod, growth_projection, max_workload, ranges, sensitivity  # noqa: E402


def dump(out, name, fn):
    try:
        res = fn()
        line = res.model_dump_json() + "\t" + walk(res) if isinstance(res, BaseModel) else walk(res)
    except Exception as e:  # noqa: BLE001
        line = "ERR " + type(e).__name__ + " " + str(e)
    out.write(name + "\t" + line + "\n")


N = int(sys.argv[3]) if len(sys.argv) > 3 else 40
hdd, flash = hdd15k.__wrapped__(), ssd.__wrapped__()
fixed = [
    make_config(hdd, "raid-dp", 16, 96),
    make_config(hdd, "raid10", 2, 48),
    make_config(flash, "raid5", 8, 16),
    tiered_config(flash, hdd, 8, 48),
]
families = [
    make_config(hdd, "raid-dp", 16, None),
    make_config(hdd, "raid10", 2, None),
    make_config(flash, "raid6", 10, None),
]
catalog = load_catalog(Path(sys.argv[1]) / "fixtures")
for aid in sorted(catalog.arrays)[:6]:
    a = catalog.arrays[aid]
    fixed.append(build_configuration(a, catalog.drives_for(a)[0], a.raid[0].scheme))


def one_case(k: int, rng: random.Random, out) -> None:
    """Every search and what-if on the ``k``-th random workloads."""
    windows = WINDOWS[: rng.choice([1, 2, 3])]
    wls = [random_workload(rng, f"w{i}", windows) for i in range(rng.choice([1, 1, 2]))]
    grown = [w.model_copy(update={"growth_pct_per_year": 40.0, "horizon_years": 2.0}) for w in wls]
    cfg = fixed[k % len(fixed)]
    fam = families[k % len(families)]
    scale = rng.choice([0.5, 1.0, 3.0])
    loaded = [
        w.model_copy(update={"phases": [ph.model_copy(update={"iops": ph.iops * scale}) for ph in w.phases]})
        for w in wls
    ]
    mode = rng.choice([DegradedMode.NONE, DegradedMode.NONE, DegradedMode.DRIVE_FAILED])
    dump(out, "size", lambda: size(loaded, fam, degraded=mode))
    dump(out, "size-flash", lambda: size(loaded, fam, flash_cache_options_gb=[0.0, 400.0, 1600.0]))
    dump(out, "latency", lambda: latency_vs_load(wls, cfg, window=windows[0], points=6))
    dump(out, "saturation", lambda: saturation_scale(wls, cfg, windows[-1]))
    dump(out, "sensitivity", lambda: sensitivity(loaded, cfg))
    dump(out, "growth", lambda: growth_projection(grown, cfg, step_months=3))
    dump(out, "max_workload", lambda: max_workload(wls, cfg, degraded=mode))
    dump(out, "ranges", lambda: ranges(wls, cfg))
    if k % 5 == 0:
        dump(out, "ranges-mc", lambda: ranges(wls, cfg, method=BandMethod.MONTE_CARLO, samples=8, seed=k))


rng = random.Random(1818)
out = open(sys.argv[2], "w")  # noqa: SIM115 (written to the end of the script)
for k in range(N):
    one_case(k, rng, out)
print("cases", N, file=sys.stderr)
