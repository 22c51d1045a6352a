"""Refresh (models.plan.refresh): measured, modelled today and the successor side by side."""

from __future__ import annotations

import pytest

from models.plan.refresh import observed_window, refresh
from models.tests.conftest import make_config
from models.workload import ObservedLoad, Phase, Workload


def _observed(name: str, iops: float, read_ms: float) -> Workload:
    seen = ObservedLoad(source="iostat, host a", iops=iops, read_pct=70, read_latency_ms=read_ms)
    return Workload(
        name=name,
        capacity_tb=1.0,
        working_set_gb=50,
        phases=[Phase(name="day", window="day", iops=iops * 1.2, read_pct=70, io_size_kib=8, observed=seen)],
    )


def test_the_windows_observed_latency_is_weighted_by_observed_iops():
    # (1,000 x 2 ms + 3,000 x 4 ms) / 4,000 = 14,000 / 4,000 = 3.5 ms
    iops, latency = observed_window([_observed("a", 1000, 2.0), _observed("b", 3000, 4.0)], "day")
    assert iops == 4000
    assert latency == pytest.approx(3.5)


def test_a_refresh_sets_today_and_the_successor_side_by_side(hdd15k, ssd):
    workloads = [_observed("a", 1000, 2.0), _observed("b", 3000, 4.0)]
    current = make_config(hdd15k, scheme="raid-dp", width=16, count=64, name="today")
    successor = make_config(ssd, scheme="raid-dp", width=16, count=None, name="next")

    res = refresh(workloads, current, successor)

    assert res.observed is not None and len(res.observed.rows) == 2
    (window,) = res.windows
    assert window.observed_iops == 4000 and window.observed_read_latency_ms == pytest.approx(3.5)
    assert window.current_read_latency_ms == res.current.windows[0].read_latency_ms
    assert res.successor.feasible and window.successor_passed
    drives = next(c for c in res.side_by_side if c.figure == "drives")
    assert drives.before == 64 + res.current.bill.spares
    assert drives.after == res.successor.result.bill.drives + res.successor.result.bill.spares
    assert drives.delta == drives.after - drives.before
