"""The README's engine speed table is made by ``scripts/bench_figures.py`` from a benchmark run:
CPU-timed, in milliseconds, and naming only benchmarks that exist."""

from __future__ import annotations

import re
import sys

from backend.tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import bench_figures  # noqa: E402

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _bench(fullname: str, median_s: float, min_s: float, max_s: float, rounds: int) -> dict[str, object]:
    return {
        "fullname": fullname,
        "name": fullname.split("::")[1],
        "options": {"timer": "time.process_time"},
        "stats": {"median": median_s, "min": min_s, "max": max_s, "rounds": rounds},
    }


def test_a_run_becomes_rows_in_milliseconds_sorted_by_module_and_name() -> None:
    report = {
        "commit_info": {"id": "0123456789abcdef"},
        "datetime": "2026-11-28T07:00:00.000000+00:00",
        "benchmarks": [
            _bench("bench/test_bench_recommend.py::test_recommend_full_catalog", 0.5123, 0.4987, 0.61, 5),
            _bench("bench/test_bench_engine.py::test_size_raid_dp_family", 0.0123, 0.01186, 0.0201, 80),
            _bench(
                "bench/test_bench_engine.py::test_evaluate_3_workloads_x_3_windows",
                0.000981,
                0.00095,
                0.0021,
                900,
            ),
        ],
    }

    lines = bench_figures.render(report, "0.8-1.2").splitlines()

    assert lines[0] == bench_figures.BEGIN and lines[-1] == bench_figures.END
    assert lines[1] == (
        "CPU time per call (timer `time.process_time`), commit 0123456, 2026-11-28, load average 0.8-1.2 while measured:"
    )
    # 0.000981 s = 0.981 ms; 0.0123 s = 12.3 ms; 0.5123 s = 512 ms (three significant figures)
    assert lines[5:8] == [
        "| `test_bench_engine::test_evaluate_3_workloads_x_3_windows` | 0.981 | 0.95 | 2.1 | 900 |",
        "| `test_bench_engine::test_size_raid_dp_family` | 12.3 | 11.9 | 20.1 | 80 |",
        "| `test_bench_recommend::test_recommend_full_catalog` | 512 | 499 | 610 | 5 |",
    ]


def test_the_readme_table_names_only_benchmarks_that_exist() -> None:
    table = bench_figures.section(README)
    for module, name in re.findall(r"^\| `(\w+)::(\w+)` \|", table, re.MULTILINE):
        source = (REPO_ROOT / "bench" / f"{module}.py").read_text(encoding="utf-8")
        assert re.search(rf"^def {name}\(", source, re.MULTILINE), (
            f"{module}::{name} is in the README, not in bench/"
        )


def test_make_bench_times_cpu_not_wall_clock() -> None:
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    bench_recipe = makefile.split("\nbench: install\n", 1)[1].split("\n\n", 1)[0]
    assert "--benchmark-timer=time.process_time" in bench_recipe
    assert bench_figures.TIMER == "time.process_time"
