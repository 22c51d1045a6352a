"""Replication and DR (models.plan.replication): hand-computed WAN bandwidth, lag and sync latency."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.base import InputError
from models.plan.replication import (
    ReplicationPlan,
    async_bandwidth_mbit_s,
    async_lag_minutes,
    replication,
    sync_write_ms,
)
from models.tests.conftest import make_config
from models.workload import Phase, Workload


def _streaming(mb_s: float = 50.0, read_pct: float = 60.0) -> Workload:
    return Workload(
        name="db",
        capacity_tb=2.0,
        phases=[
            Phase(name="day", window="day", mb_per_s=mb_s, read_pct=read_pct, io_size_kib=64),
            Phase(name="night", window="night", mb_per_s=mb_s / 5, read_pct=read_pct, io_size_kib=64),
        ],
    )


def _async(**kw) -> ReplicationPlan:
    return ReplicationPlan(
        **{
            "mode": "async",
            "rpo_minutes": 15,
            "interval_minutes": 5,
            "window_hours": {"day": 10, "night": 8},
            **kw,
        }
    )


def test_async_wan_bandwidth_of_20_mb_s_changes_at_a_15_minute_rpo_is_200_mbit_s():
    # W = 50 MB/s x (1 - 60/100) = 20 MB/s; r = 20 x 100/100 / 1 = 20 MB/s
    # B = 20 x max(1, 5 / (15 - 5)) x 8 / 0.8 = 20 x 1 x 10 = 200 Mbit/s
    res = replication([_streaming()], _async())
    assert res.busiest_window == "day"
    assert res.windows[0].write_mb_s.value == pytest.approx(20.0)
    assert res.bandwidth_mbit_s.value == pytest.approx(200.0)
    # the night: 10 MB/s x 0.4 = 4 MB/s -> 40 Mbit/s
    assert res.windows[1].bandwidth_mbit_s.value == pytest.approx(40.0)
    # at the sized link the lag is T + T x r / b = 5 + 5 x 20 / 20 = 10 min, within 15
    assert res.lag_minutes is not None and res.lag_minutes.value == pytest.approx(10.0)
    assert all(c.passed for c in res.checks)


def test_async_rpo_close_to_the_interval_needs_the_interval_shipped_faster():
    # T / (R - T) = 5 / 2.5 = 2: B = 20 x 2 x 8 / 0.8 = 400 Mbit/s; lag = 5 + 5 x 20 / 40 = 7.5 = R
    assert async_bandwidth_mbit_s(20.0, 5.0, 7.5, 80.0) == pytest.approx(400.0)
    res = replication([_streaming()], _async(rpo_minutes=7.5))
    assert res.bandwidth_mbit_s.value == pytest.approx(400.0)
    assert res.lag_minutes is not None and res.lag_minutes.value == pytest.approx(7.5)


def test_async_lag_grows_through_the_window_when_the_link_is_too_slow():
    # b = 100 x 0.8 / 8 = 10 MB/s < r = 20: lag = 5 + 5 x 20/10 + 2 h x 60 x (1 - 10/20) = 5 + 10 + 60 = 75 min
    assert async_lag_minutes(20.0, 10.0, 5.0, 2.0) == pytest.approx(75.0)
    res = replication([_streaming()], _async(link_mbit_s=100, window_hours={"day": 2, "night": 8}))
    day = res.windows[0]
    assert day.lag_minutes is not None and day.lag_minutes.value == pytest.approx(75.0)
    assert day.meets_rpo is False
    assert not next(c for c in res.checks if c.name == "lag (day)").passed


def test_async_unique_share_and_compression_shrink_the_link_and_are_stated_as_optimisms():
    # r = 20 x 50/100 / 2 = 5 MB/s -> B = 5 x 8 / 0.8 = 50 Mbit/s
    res = replication([_streaming()], _async(unique_change_pct=50, wan_compression_ratio=2))
    assert res.bandwidth_mbit_s.value == pytest.approx(50.0)
    assert len(res.notes) == 2 and all(n.startswith("optimism stated") for n in res.notes)


def test_an_rpo_no_longer_than_the_interval_is_an_error_at_the_rpo():
    with pytest.raises(InputError) as exc:
        replication([_streaming()], _async(rpo_minutes=5))
    assert exc.value.field == "plan.rpo_minutes"


def test_async_needs_each_windows_duration():
    with pytest.raises(InputError) as exc:
        replication([_streaming()], _async(window_hours={"day": 10}))
    assert exc.value.field == "plan.window_hours.night"


def test_async_without_an_interval_is_invalid():
    with pytest.raises(ValidationError):
        ReplicationPlan(mode="async", rpo_minutes=15)


def test_sync_write_over_100_km_adds_two_round_trips_of_fibre():
    # 2 round trips x 2 x 100 km x 5 us/km = 2,000 us = 2 ms
    # 8 KiB x 8 / 1,000 Mbit/s = 65,536 bit / 1e9 bit/s = 0.065536 ms; remote ack 0.1 ms
    t = sync_write_ms(100.0, 8.0, 1000.0)
    assert t.value == pytest.approx(2.0 + 0.065536 + 0.1)


def test_sync_plan_adds_the_distance_to_the_primarys_write_latency(hdd15k):
    wl = Workload(
        name="oltp",
        capacity_tb=1.0,
        working_set_gb=100,
        phases=[Phase(name="day", window="day", iops=1000, read_pct=50, io_size_kib=8)],
    )
    # writes 1,000 x 0.5 x 8 KiB = 4.096 MB/s; B = 4.096 x 8 / 0.8 = 40.96 Mbit/s
    plan = ReplicationPlan(mode="sync", distance_km=50, link_mbit_s=1000)
    res = replication([wl], plan, primary=make_config(hdd15k, count=40))
    assert res.bandwidth_mbit_s.value == pytest.approx(40.96)
    # 2 x 2 x 50 x 5 us = 1 ms + 0.065536 + 0.1
    assert res.sync_write_ms is not None and res.sync_write_ms.value == pytest.approx(1.165536)
    base = res.primary.windows[0].write_latency_ms
    assert res.write_latency_ms["day"] == pytest.approx(base + 1.165536)
    assert res.checks[0].passed  # 40.96 of 1,000 Mbit/s


def test_dr_side_is_sized_for_a_failover_and_carries_the_replicated_writes(hdd15k):
    wl = Workload(
        name="oltp",
        capacity_tb=1.0,
        working_set_gb=100,
        phases=[Phase(name="day", window="day", iops=3000, read_pct=70, io_size_kib=8)],
    )
    plan = ReplicationPlan(mode="async", rpo_minutes=30, interval_minutes=10, window_hours={"day": 10})
    full = replication([wl], plan, dr_family=make_config(hdd15k, count=None))
    half = replication(
        [wl], plan.model_copy(update={"failover_load_pct": 50.0}), dr_family=make_config(hdd15k, count=None)
    )
    assert full.dr is not None and half.dr is not None
    assert full.dr.failover.feasible and full.dr.replicated_writes.passed
    # the replicated writes are write-only at 30 % of the load: the front end sees 900 IOPS
    assert full.dr.replicated_writes.windows[0].frontend_iops == pytest.approx(900.0)
    assert half.dr.failover.drive_count <= full.dr.failover.drive_count
