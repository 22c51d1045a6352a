"""A flash read cache serves no more than its devices can (models.cache.flash_cache_utilization),
and its device load is a checked resource of every window (models.evaluate)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.cache import flash_cache_devices, flash_cache_utilization, flash_hit_service_ms
from models.configuration import CacheConfig
from models.evaluate import evaluate
from models.tests.conftest import make_config, oltp
from models.tests.test_rebuild import NLSAS_18000


def test_a_flash_cache_is_built_of_whole_devices():
    # 3,200 GB of 1,024 GB modules: ceil(3.125) = 4; none without a flash cache
    assert flash_cache_devices(3200, 1024) == 4
    assert flash_cache_devices(2048, 1024) == 2
    assert flash_cache_devices(0, 1024) == 0


def test_an_8k_hit_costs_the_4k_rating_or_the_transfer_whichever_is_longer():
    # 50,000 4K reads/s: 0.02 ms; 8 KiB at 500 MB/s: 8,192 B / 500e6 B/s = 0.016384 ms -> 0.02 ms
    assert flash_hit_service_ms(8, 50_000, 500) == pytest.approx(0.02)
    # 64 KiB: 65,536 / 500e6 s = 0.131072 ms (the bandwidth binds)
    assert flash_hit_service_ms(64, 50_000, 500) == pytest.approx(0.131072)


def test_3_2_tb_of_flash_cache_no_longer_serves_a_million_8k_reads():
    # 4 devices x 50,000 reads/s at 0.02 ms each: 200,000 hits/s saturate them; 140,000 at the
    # 70% drive headroom
    assert flash_cache_utilization([(200_000, 8)], 4, 50_000, 500) == pytest.approx(1.0)
    assert flash_cache_utilization([(1_340_000, 8)], 4, 50_000, 500) == pytest.approx(6.7)


def test_the_flash_cache_load_is_a_window_check_with_its_formula(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 96).model_copy(
        update={"cache": CacheConfig(flash_cache_gb=3200)}
    )
    res = evaluate([oltp(iops=100_000, read_pct=100, ws_gb=500, capacity_tb=5)], cfg)
    w = res.windows[0]
    fc = w.flash_cache_utilization_pct
    assert fc is not None
    hits = fc.inputs["flash_hits_per_s"]
    # every hit 8 KiB at 0.02 ms on 4 devices: U = hits x 0.02 / (1000 x 4)
    assert fc.value == pytest.approx(100 * hits * 0.02 / 4000)
    chk = next(c for c in w.checks if c.name == "flash cache")
    assert chk.limit == 70 and chk.value == pytest.approx(fc.value)
    heavy = evaluate([oltp(iops=400_000, read_pct=100, ws_gb=500, capacity_tb=5)], cfg).windows[0]
    assert not next(c for c in heavy.checks if c.name == "flash cache").passed


def test_no_flash_cache_no_flash_check(hdd15k):
    w = evaluate([oltp()], make_config(hdd15k, "raid-dp", 16, 32)).windows[0]
    assert w.flash_cache_utilization_pct is None
    assert not any(c.name == "flash cache" for c in w.checks)


@given(
    st.lists(st.tuples(st.floats(0, 1e7), st.floats(0.5, 1024)), min_size=1, max_size=5),
    st.integers(1, 16),
    st.floats(1e3, 2e6),
    st.floats(50, 2e4),
)
def test_a_cache_never_serves_more_than_its_devices_can(hits, devices, iops, mb_s):
    u = flash_cache_utilization(hits, devices, iops, mb_s)
    # within the limit, the reads served per second are at most the devices' 4K ratings, and the
    # bytes at most their bandwidth
    if u <= 1.0:
        assert sum(n for n, _ in hits) <= devices * iops * (1 + 1e-9)
        assert sum(n * kib * 1024 / 1e6 for n, kib in hits) <= devices * mb_s * (1 + 1e-9)


@settings(max_examples=15, deadline=None)
@given(st.floats(1_000, 2_000_000))
def test_a_window_that_passes_never_has_its_flash_cache_past_its_devices(iops):
    cfg = make_config(NLSAS_18000, "raid-dp", 16, 96).model_copy(
        update={"cache": CacheConfig(flash_cache_gb=3200)}
    )
    w = evaluate([oltp(iops=iops, read_pct=100, ws_gb=500, capacity_tb=5)], cfg).windows[0]
    fc = w.flash_cache_utilization_pct
    assert fc is not None and fc.value is not None
    if w.passed:
        assert fc.value <= 70 + 1e-9
        assert fc.inputs["flash_hits_per_s"] <= 4 * 50_000
