"""Cold reads on copy-on-write layouts (issue 32, point 8): a cold miss also reads the indirect
block that points to its data, once per indirect block over the cold pass."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.cow_metadata import cold_metadata_reads, indirect_span_kib
from models.evaluate import evaluate
from models.raid import RaidLayout, RaidScheme
from models.tests.conftest import make_config, oltp
from models.workload import Skew

WAFL = RaidLayout(scheme=RaidScheme.RAID_DP, group_width=16)
RAIDZ2 = RaidLayout(scheme=RaidScheme.RAIDZ2, group_width=8, record_kib=16)


def test_one_indirect_block_addresses_1024_blocks():
    # WAFL: 1,024 pointers x 4 KiB = 4,096 KiB; ZFS: 1,024 x the 16 KiB record = 16,384 KiB
    assert indirect_span_kib(WAFL) == 4096.0
    assert indirect_span_kib(RAIDZ2) == 16384.0
    assert indirect_span_kib(RaidLayout(scheme=RaidScheme.RAID6, group_width=8)) is None


def test_wafl_8k_cold_misses_read_an_indirect_block_per_512_misses():
    # 8 KiB reads, cold hit 20%: m = 8 / (0.8 x 4,096) = 0.00244140625
    assert cold_metadata_reads(WAFL, 8.0, 0.2) == pytest.approx(8 / (0.8 * 4096), rel=1e-12)
    # a ZFS 16 KiB record read at a 0% cold hit: 16 / 16,384 = 1 / 1,024
    assert cold_metadata_reads(RAIDZ2, 16.0, 0.0) == pytest.approx(1 / 1024, rel=1e-12)
    # in-place RAID keeps its block map in the controller
    assert cold_metadata_reads(RaidLayout(scheme=RaidScheme.RAID5, group_width=5), 8.0, 0.2) == 0.0


def test_the_cold_wafl_window_takes_its_metadata_reads_off_the_cold_hit_ratio(hdd15k):
    wl = oltp(iops=1500, read_pct=80, ws_gb=200, skew=Skew(zipf_alpha=0.9))
    window = evaluate([wl], make_config(hdd15k, "raid-dp", 20, 40)).windows[0]
    cold = window.cold_cache
    assert cold is not None
    ph = cold.phases[0]
    first_pass = (window.phases[0].cold_hit_pct.value or 0.0) / 100
    m = 8 / ((1 - first_pass) * 4096)
    assert ph.metadata_reads_per_miss == pytest.approx(m, rel=1e-9)
    # hit' = 1 - (1 - h_cold)(1 + m)
    assert ph.hit_pct == pytest.approx(100 * (1 - (1 - first_pass) * (1 + m)), rel=1e-9)
    assert "Copy-on-write metadata" in cold.verdict


@settings(max_examples=50, deadline=None)
@given(st.floats(0.5, 1024.0), st.floats(0.0, 0.999), st.floats(0.0, 0.999))
def test_metadata_reads_never_exceed_one_per_miss_and_grow_as_the_cold_hit_falls(size, h1, h2):
    lo, hi = sorted((h1, h2))
    for layout in (WAFL, RAIDZ2):
        m_lo, m_hi = cold_metadata_reads(layout, size, lo), cold_metadata_reads(layout, size, hi)
        assert 0.0 <= m_lo <= 1.0
        # more cold hits leave fewer misses to share the same indirect blocks: more per miss
        assert m_hi >= m_lo
