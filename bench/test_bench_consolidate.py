"""Consolidation speed (reported, never asserted in the test suite).

Target (issue #39): 20 workloads on one timeline (business hours, nightly export, month-end)
placed onto candidate families of the catalog in under 10 s on this machine.
Run: ``.venv/bin/pytest -q bench/test_bench_consolidate.py --benchmark-only --benchmark-columns=min,median,max``.
"""

from pathlib import Path

import pytest

from models.catalog import load_catalog
from models.plan.consolidate import consolidate
from models.workload import Phase, Workload

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FAMILIES = [
    ("netapp-fas3270", None),
    ("netapp-fas8040", None),
    ("emc-vnx5300", None),
    ("dell-powerstore-3200t", None),
    ("pure-flasharray-x70", None),
]


def twenty() -> list[Workload]:
    out = []
    for i in range(20):
        scale = 1 + (i % 5)
        out.append(
            Workload(
                name=f"app{i:02d}",
                capacity_tb=1.0 + 0.5 * (i % 7),
                working_set_gb=50.0 * scale,
                skew={"zipf_alpha": 0.8},
                phases=[
                    Phase(name="day", window="business hours", iops=400 * scale, read_pct=70, io_size_kib=8),
                    Phase(
                        name="export", window="nightly export", iops=150 * scale, read_pct=90, io_size_kib=64
                    ),
                    Phase(name="close", window="month-end", iops=600 * scale, read_pct=60, io_size_kib=8),
                ],
            )
        )
    return out


@pytest.fixture(scope="module")
def families():
    catalog = load_catalog(FIXTURES)
    out = []
    for array_id, drive_id in FAMILIES:
        array = catalog.arrays[array_id]
        from models.catalog import build_configuration

        drive = catalog.drives[drive_id or array.default_drive]
        cfg = build_configuration(array, drive, array.default_raid)
        pool = cfg.pools[0].model_copy(update={"drive_count": None})
        out.append(cfg.model_copy(update={"pools": [pool]}))
    return out


def test_consolidate_20_workloads_onto_five_catalog_families(benchmark, families):
    res = benchmark.pedantic(consolidate, args=(twenty(), families), rounds=1, iterations=1)
    assert sum(len(p.workloads) for p in res.arrays) + len(res.unplaced) == 20
