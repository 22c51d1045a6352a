"""Rebuild time by drive class, scheme, sparing style, rebuild priority and load (models.rebuild),
and the risks over the rebuild window, through the engine (models.pool.failure_result)."""

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.configuration import Architecture, WriteArchitecture
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.parameters import EngineParameters
from models.rebuild import (
    Sparing,
    further_failure_probability,
    rebuild_hours,
    rebuild_share,
)
from models.results import DegradedMode
from models.tests.conftest import make_config, oltp

NVME_7680 = DriveSpec(
    id="nvme-7680",
    name="7.68 TB NVMe",
    kind="nvme",
    capacity_gb=7680,
    media_rate_mb_s=3500,
    seq_write_mb_s=3500,
    read_iops_4k=800000,
    write_iops_4k=100000,
    read_latency_us=90,
    write_latency_us=30,
)
NLSAS_18000 = DriveSpec(
    id="nlsas-18000",
    name="18 TB NL-SAS",
    kind="hdd",
    capacity_gb=18000,
    rpm=7200,
    interface="NL-SAS",
    avg_read_seek_ms=8.0,
    avg_write_seek_ms=8.5,
    track_to_track_ms=0.6,
    media_rate_mb_s=216,
    overhead_ms=0.2,
)


def _hours(**kw: Any) -> float:
    args: dict[str, Any] = {
        "sparing": Sparing.DEDICATED,
        "drives_read": 1,
        "pool_drives": 2,
        "priority": 0.3,
        "foreground_utilization": 0.0,
        "min_rate_mb_s": 10.0,
        **kw,
    }
    c, r, w = args.pop("capacity_gb", 7680), args.pop("read_mb_s", 3500), args.pop("write_mb_s", 3500)
    return float(rebuild_hours(c, r, w, **args))


def test_a_mirror_copy_to_a_dedicated_spare_runs_at_the_priority_share_of_the_slower_rate():
    # 7,680 GB = 7,680,000 MB at min(3,500, 3,500) x 0.3 = 1,050 MB/s: 7,314 s = 2.03 h
    assert _hours() == pytest.approx(7_680_000 / 1050 / 3600)
    # a spare writing at 1,000 MB/s bounds it: 7,680,000 / 300 / 3600 = 7.11 h
    assert _hours(write_mb_s=1000) == pytest.approx(7_680_000 / 300 / 3600)


def test_the_rebuild_gets_only_the_idle_share_and_at_least_the_guaranteed_rate():
    # 60% busy: share min(0.3, 0.4) = 0.3 (unchanged); 80% busy: 0.2 -> 7,680,000 / 700 / 3600 = 3.05 h
    assert _hours(foreground_utilization=0.6) == pytest.approx(_hours())
    assert _hours(foreground_utilization=0.8) == pytest.approx(7_680_000 / 700 / 3600)
    # saturated: the guaranteed 10 MB/s, 7,680,000 / 10 / 3600 = 213.3 h
    assert _hours(foreground_utilization=1.2) == pytest.approx(7_680_000 / 10 / 3600)


def test_distributed_sparing_spreads_the_reads_and_writes_over_the_survivors():
    # RAID6 8+2 in a 60-drive pool of 18 TB at 216 MB/s: (8 x 18,000,000 / 216 + 18,000,000 / 216) / 59
    # = 750,000 s / 59 = 12,711.9 s at full rate; at 30%: 42,373 s = 11.77 h
    t = _hours(
        capacity_gb=18000,
        read_mb_s=216,
        write_mb_s=216,
        sparing=Sparing.DISTRIBUTED,
        drives_read=8,
        pool_drives=60,
    )
    assert t == pytest.approx(750_000 / 59 / 0.3 / 3600)
    # the same onto a dedicated spare: 18,000,000 / (216 x 0.3) = 77.16 h, 6.6x longer
    dedicated = _hours(capacity_gb=18000, read_mb_s=216, write_mb_s=216, drives_read=8)
    assert dedicated == pytest.approx(18_000_000 / 64.8 / 3600)
    assert dedicated / t == pytest.approx(59 / 9)


def test_a_further_failure_over_the_rebuild_window():
    # 9 survivors at 2%/yr for 100 h: 1 - exp(-9 x 0.02 x 100 / 8,766) = 0.2053%
    assert float(further_failure_probability(9, 0.02, 100)) == pytest.approx(-math.expm1(-18 / 8766))


def test_a_7_68_tb_nvme_raid10_rebuilds_at_light_load_within_hours():
    res = evaluate([oltp(iops=2000, capacity_tb=5)], make_config(NVME_7680, "raid10", 2, 12))
    f = res.windows[0].pools[0].failure
    assert f is not None
    # nearly idle drives: 7,680,000 MB / (3,500 x 0.3) MB/s = 2.03 h
    assert f.rebuild_hours.value == pytest.approx(7_680_000 / 1050 / 3600, rel=1e-3)
    assert "dedicated spare" in f.rebuild_hours.text
    assert f.further_failure_pct is not None
    # one mirror partner at 2%/yr over 2.03 h
    assert f.further_failure_pct.value == pytest.approx(100 * -math.expm1(-0.02 * 2.0317 / 8766), rel=1e-3)


def test_an_18_tb_nl_sas_raid6_rebuilds_at_light_load_within_days():
    res = evaluate([oltp(iops=100, capacity_tb=20)], make_config(NLSAS_18000, "raid6", 10, 20))
    f = res.windows[0].pools[0].failure
    assert f is not None
    u = f.failed_group_utilization_pct / 100
    assert u < 0.7
    # 18,000,000 MB / (216 x min(0.3, 1 - U)) MB/s
    assert f.rebuild_hours.value == pytest.approx(18_000_000 / (216 * min(0.3, 1 - u)) / 3600)
    assert 24 <= f.rebuild_hours.value <= 7 * 24


def test_scale_out_and_log_structured_arrays_rebuild_over_every_drive_by_default():
    cfg = make_config(NLSAS_18000, "raid6", 10, 20)
    dedicated = evaluate([oltp(iops=100, capacity_tb=20)], cfg).windows[0].pools[0].failure
    logged = cfg.model_copy(
        update={"architecture": Architecture(write_architecture=WriteArchitecture.LOG_STRUCTURED)}
    )
    spread = evaluate([oltp(iops=100, capacity_tb=20)], logged).windows[0].pools[0].failure
    assert dedicated is not None and spread is not None
    assert "spread over the pool" in spread.rebuild_hours.text
    assert spread.rebuild_hours.value < dedicated.rebuild_hours.value


def test_a_stated_rebuild_rate_replaces_the_drives_rates():
    # 60 MB/s stated, near-idle: 7,680,000 / (60 x (1 - U)) / 3600
    p = EngineParameters(rebuild_rate_mb_s=60.0)
    f = evaluate([oltp(iops=2000, capacity_tb=5)], make_config(NVME_7680, "raid10", 2, 12), params=p).windows[
        0
    ]
    fr = f.pools[0].failure
    assert fr is not None
    u = fr.failed_group_utilization_pct / 100
    assert fr.rebuild_hours.value == pytest.approx(7_680_000 / (60 * (1 - u)) / 3600)


rates = st.floats(min_value=50.0, max_value=15000.0)
loads = st.floats(min_value=0.0, max_value=1.5)


@given(rates, rates, st.floats(min_value=1.01, max_value=10.0), loads, st.sampled_from(list(Sparing)))
def test_rebuild_is_faster_on_faster_drives(read, write, factor, u, sparing):
    slow = _hours(read_mb_s=read, write_mb_s=write, foreground_utilization=u, sparing=sparing, pool_drives=24)
    fast = _hours(
        read_mb_s=read * factor,
        write_mb_s=write * factor,
        foreground_utilization=u,
        sparing=sparing,
        pool_drives=24,
    )
    assert fast <= slow


@given(rates, rates, loads, loads, st.sampled_from(list(Sparing)), st.integers(1, 16))
def test_rebuild_is_slower_under_more_load(read, write, u1, u2, sparing, k):
    lo, hi = sorted((u1, u2))
    kw = {"read_mb_s": read, "write_mb_s": write, "sparing": sparing, "drives_read": k, "pool_drives": 40}
    assert _hours(foreground_utilization=lo, **kw) <= _hours(foreground_utilization=hi, **kw)
    assert 0.0 <= float(rebuild_share(0.3, hi)) <= float(rebuild_share(0.3, lo)) <= 0.3


@settings(max_examples=15, deadline=None)
@given(st.floats(min_value=60.0, max_value=200.0), st.floats(min_value=1.2, max_value=4.0))
def test_through_the_engine_faster_drives_rebuild_sooner_and_load_slows_them(media, factor):
    slow_drive = NLSAS_18000.model_copy(update={"media_rate_mb_s": media})
    fast_drive = NLSAS_18000.model_copy(update={"media_rate_mb_s": media * factor})

    def hours(drive: DriveSpec, iops: float) -> float:
        res = evaluate(
            [oltp(iops=iops, capacity_tb=20)],
            make_config(drive, "raid6", 10, 20),
            degraded=DegradedMode.REBUILDING,
        )
        f = res.windows[0].pools[0].failure
        assert f is not None and f.rebuild_hours.value is not None
        return f.rebuild_hours.value

    assert hours(fast_drive, 100) <= hours(slow_drive, 100)
    assert hours(slow_drive, 100) <= hours(slow_drive, 400)


def test_a_distributed_rebuild_over_90_drives_of_8_plus_2_is_89_over_9_times_faster():
    # dedicated: C / r; distributed: (8 C / r + C / r) / 89 = 9 C / (89 r): ratio 89 / 9 = 9.89, the
    # OpenZFS dRAID guide's N / (D + P) = 9 for the same pool (fixtures/validation/rebuild_times.yaml)
    kw = {"capacity_gb": 16000, "read_mb_s": 209, "write_mb_s": 209, "drives_read": 8, "pool_drives": 90}
    assert _hours(**kw) / _hours(sparing=Sparing.DISTRIBUTED, **kw) == pytest.approx(89 / 9)
