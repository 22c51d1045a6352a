"""Dual-actuator hard disks (issue 32 item 2): k actuators are k positioning units per drive, each
serving its share of the LBAs at ``media rate / k``; utilization divides by drives x units."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.drives import DriveSpec, drive_times, positioning_units
from models.evaluate import evaluate
from models.raid import RaidLayout, RaidScheme
from models.tests.test_streams import HDD, _config
from models.workload import Phase, Workload


def drive_pct(drive: DriveSpec, *, iops: float, read_pct: float, size_kib: float) -> float:
    layout = RaidLayout(scheme=RaidScheme.RAID10, group_width=12)
    cfg = _config(layout, 12, None)
    cfg = cfg.model_copy(update={"pools": [cfg.pools[0].model_copy(update={"drive": drive})]})
    wl = Workload(
        name="w",
        capacity_tb=1.0,
        phases=[Phase(name="p", window="w", iops=iops, read_pct=read_pct, io_size_kib=size_kib)],
    )
    checks = evaluate([wl], cfg, cold_cache=False, explain=False).windows[0].checks
    value = next(c.value for c in checks if c.name.startswith("drives:"))
    assert value is not None
    return value


def test_a_dual_actuator_drive_is_two_units_at_half_the_media_rate_each():
    dual = HDD.model_copy(update={"actuators": 2})
    assert positioning_units(dual) == 2
    # 160 MB/s combined: each actuator moves a KiB in 1.024 / 80 = 0.0128 ms
    assert drive_times(dual).random_read_ms_per_kib == pytest.approx(1.024 / 80)
    assert drive_times(dual).read_pos_a == drive_times(HDD).read_pos_a  # each still seeks and rotates


def test_hand_computed_utilization_of_dual_actuator_drives():
    # 1,000 random 8 KiB reads/s on 12 drives (RAID10, reads from either copy), no cache:
    #   one actuator: U1 = 1,000 x (0.2 + 8 x 1.024 / 160 + P) / 1,000 / 12, so P = 12 U1 - 0.2512 ms
    #   two:          U2 = 1,000 x (0.2 + 8 x 1.024 / 80 + P) / 1,000 / 24 (24 units, half the rate each)
    u1 = drive_pct(HDD, iops=1000, read_pct=100, size_kib=8) / 100
    p = 12 * u1 - 0.2 - 8 * 1.024 / 160
    u2 = drive_pct(HDD.model_copy(update={"actuators": 2}), iops=1000, read_pct=100, size_kib=8) / 100
    assert u2 == pytest.approx((0.2 + 8 * 1.024 / 80 + p) / 24, rel=1e-9)
    assert u2 < 0.6 * u1  # positioning dominates a small random read: nearly half the load


def test_an_ssd_has_no_actuators():
    with pytest.raises(ValidationError, match="actuators: only a hard disk has actuators"):
        DriveSpec(
            id="s",
            name="s",
            kind="ssd",
            capacity_gb=960,
            media_rate_mb_s=500,
            read_iops_4k=90000,
            write_iops_4k=30000,
            actuators=2,
        )


@settings(max_examples=25, deadline=None)
@given(
    iops=st.floats(50, 3000),
    read_pct=st.floats(0, 100),
    size=st.sampled_from([4.0, 8.0, 64.0, 256.0, 1024.0]),
)
def test_a_second_actuator_never_loads_the_drives_more(iops, read_pct, size):
    one = drive_pct(HDD, iops=iops, read_pct=read_pct, size_kib=size)
    two = drive_pct(HDD.model_copy(update={"actuators": 2}), iops=iops, read_pct=read_pct, size_kib=size)
    assert two <= one * (1 + 1e-9)
