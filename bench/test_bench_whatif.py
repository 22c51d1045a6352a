"""What-if speed (reported in closing notes, never asserted in the test suite).

Targets on 3 workloads x 3 windows (``test_bench_engine.three_workloads``, RAID-DP 96 x 15K):
growth over 36 months < 0.5 s; tornado < 0.3 s; max workload < 0.3 s; ranges at the ends < 0.5 s;
a 64-sample Monte Carlo < 1 s; degraded side by side < 50 ms; conversion and building blocks < 1 ms.
Run: ``.venv/bin/pytest -q bench/test_bench_whatif.py --benchmark-only --benchmark-columns=min,median,max``.
"""

from pathlib import Path

import pytest

from bench.test_bench_engine import three_workloads
from models.blocks import BlockTarget, block_from_array, size_blocks
from models.catalog import load_catalog
from models.conversion import convert_raid
from models.raid import RaidLayout
from models.tests.conftest import make_config
from models.whatif import BandMethod, degraded_modes, growth_projection, max_workload, ranges, sensitivity

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def growing():
    return [
        w.model_copy(update={"growth_pct_per_year": 30.0, "horizon_years": 3.0}) for w in three_workloads()
    ]


@pytest.fixture
def cfg(hdd15k):
    return make_config(hdd15k, "raid-dp", 16, 96)


def test_growth_projection_36_months(benchmark, growing, cfg):
    res = benchmark(growth_projection, growing, cfg)
    assert len(res.points) == 37


def test_sensitivity_tornado(benchmark, cfg):
    res = benchmark(sensitivity, three_workloads(), cfg)
    assert len(res.bars) == 8


def test_max_workload_3_windows(benchmark, cfg):
    res = benchmark(max_workload, three_workloads(), cfg)
    assert len(res.windows) == 3


def test_ranges_at_the_ends_with_capability(benchmark, cfg):
    res = benchmark(ranges, three_workloads(), cfg)
    assert res.capability_scale is not None


def test_ranges_monte_carlo_64(benchmark, cfg):
    res = benchmark(
        ranges, three_workloads(), cfg, method=BandMethod.MONTE_CARLO, samples=64, capability=False
    )
    assert res.samples == 64


def test_degraded_modes_side_by_side(benchmark, cfg):
    res = benchmark(degraded_modes, three_workloads(), cfg)
    assert len(res.modes) == 4


def test_raid_conversion(benchmark):
    a, b = RaidLayout(scheme="raid5", group_width=5), RaidLayout(scheme="raid10", group_width=8)
    res = benchmark(convert_raid, 10_000, 70, a, b)
    assert res.converted_iops.value > 0


def test_building_blocks_one_tb_per_s(benchmark):
    cat = load_catalog(FIXTURES)
    block = block_from_array(cat.arrays["netapp-e5400"], cat.drives["hdd-7k2-nlsas-3000"]).block
    res = benchmark(size_blocks, block, BlockTarget(read_gb_s=1000))
    assert res.blocks == 264
