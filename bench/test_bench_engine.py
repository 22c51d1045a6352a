"""Engine speed targets (reported in closing notes, never asserted in the test suite).

Targets: evaluate() on 3 workloads x 3 windows, median < 2 ms; size() < 20 ms; a 9-point
queue-depth sweep < 5 ms. Run: ``make bench``.
"""

from models.curves import queue_depth_sweep
from models.evaluate import evaluate
from models.memo import EvaluationMemo
from models.size import size
from models.tests.conftest import make_config
from models.workload import Phase, Workload


def three_workloads() -> list[Workload]:
    out = []
    for i, (iops, rd) in enumerate([(4000, 70), (2500, 80), (1500, 40)]):
        out.append(
            Workload(
                name=f"app{i}",
                capacity_tb=3 + i,
                working_set_pct=5,
                phases=[
                    Phase(name="day", window="business hours", iops=iops, read_pct=rd, io_size_kib=8),
                    Phase(
                        name="night",
                        window="nightly export",
                        iops=iops / 2,
                        read_pct=20,
                        random_pct=10,
                        io_size_kib=64,
                    ),
                    Phase(
                        name="close",
                        window="month-end",
                        iops=iops * 1.5,
                        read_pct=90,
                        io_size_kib=16,
                        working_set_gb=800,
                    ),
                ],
            )
        )
    return out


def test_evaluate_3_workloads_x_3_windows(benchmark, hdd15k):
    wls = three_workloads()
    cfg = make_config(hdd15k, "raid-dp", 16, 96)
    res = benchmark(evaluate, wls, cfg, memo=EvaluationMemo())  # evaluated again: the memo held
    assert len(res.windows) == 3


def test_size_raid_dp_family(benchmark, hdd15k):
    wls = three_workloads()
    family = make_config(hdd15k, "raid-dp", 16, None)
    res = benchmark(size, wls, family)
    assert res.drive_count > 0


def test_queue_depth_sweep_9_points(benchmark, hdd15k):
    wls = three_workloads()[:1]
    cfg = make_config(hdd15k, "raid-dp", 16, 32)
    res = benchmark(queue_depth_sweep, wls, cfg, depths=[2**k for k in range(9)])
    assert len(res.points) == 9


def test_queue_depth_sweep_to_4096(benchmark, hdd15k):
    wls = three_workloads()[:1]
    cfg = make_config(hdd15k, "raid-dp", 16, 32)
    res = benchmark(queue_depth_sweep, wls, cfg)
    assert res.points[-1].queue_depth == 4096
