import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from models.base import InputError
from models.raid import (
    RaidLayout,
    capacity_efficiency,
    degraded_read_cost,
    full_stripe_write_cost,
    partial_stripe_write_cost,
    random_read_fanout,
    rebuild_hours,
    seek_span,
    small_write_cost,
    write_cost_split,
)


def layout(scheme, width, **kw):
    return RaidLayout(scheme=scheme, group_width=width, **kw)


def test_raid10_small_write_costs_two_backend_ios():
    assert small_write_cost(layout("raid10", 8)) == 2


def test_raid5_small_write_costs_four_backend_ios():
    # RMW = 2 (1 + 1) = 4; RCW = (4 - 1) + (1 + 1) = 5 -> 4
    assert small_write_cost(layout("raid5", 5)) == 4


def test_raid6_small_write_costs_six_backend_ios():
    # RMW = 2 (1 + 2) = 6; RCW = (6 - 1) + 3 = 8 -> 6
    assert small_write_cost(layout("raid6", 8)) == 6


def test_narrow_raid5_prefers_reconstruct_write():
    # 2 data + 1 parity: RMW = 4, RCW = (2 - 1) + 2 = 3
    assert partial_stripe_write_cost(2, 1, 1) == 3
    assert small_write_cost(layout("raid5", 3)) == 3


def test_full_stripe_write_costs_data_plus_parity_over_data():
    assert full_stripe_write_cost(18, 2) == pytest.approx(20 / 18)


def test_raid_dp_write_cost_blends_full_and_partial_stripes():
    # f = 0.8 of writes as full stripes of 18 + 2: 0.8 * 20/18 + 0.2 * 6 = 0.8889 + 1.2 = 2.0889
    lay = layout("raid-dp", 20, full_stripe_share=0.8)
    assert small_write_cost(lay) == pytest.approx(0.8 * 20 / 18 + 0.2 * 6)
    stripe, rnd = write_cost_split(lay)
    assert stripe + rnd == pytest.approx(small_write_cost(lay))


def test_raidz_never_reads_to_write_and_fans_reads_out_over_the_vdev():
    lay = layout("raidz2", 8)
    stripe, rnd = write_cost_split(lay)
    assert rnd == 0 and stripe == 3  # one data sector + two parity sectors
    assert random_read_fanout(lay) == 6  # a random read touches every data disk


def test_capacity_efficiency_by_scheme():
    assert capacity_efficiency(layout("raid10", 8)) == 0.5
    assert capacity_efficiency(layout("raid6", 10)) == pytest.approx(0.8)
    assert capacity_efficiency(layout("raid-dp", 16)) == pytest.approx(14 / 16)
    assert capacity_efficiency(
        RaidLayout(scheme="erasure", group_width=6, ec_data=4, ec_parity=2)
    ) == pytest.approx(4 / 6)
    assert capacity_efficiency(RaidLayout(scheme="replica", group_width=1, copies=2)) == 0.5


def test_degraded_group_rebuilds_reads_from_the_survivors():
    # width 8 RAID6 (6 data): (1 - 1/8) + (1/8) * 6 = 0.875 + 0.75 = 1.625 reads per read
    assert degraded_read_cost(layout("raid6", 8)) == pytest.approx(1.625)
    assert degraded_read_cost(layout("raid10", 8)) == 1.0


def test_rebuild_slows_with_load():
    # 600 GB at 60 MB/s idle: 600,000 / 60 / 3600 = 2.78 h; at 50% busy twice that
    assert rebuild_hours(600, 60, 0.0) == pytest.approx(2.7778, rel=1e-4)
    assert rebuild_hours(600, 60, 0.5) == pytest.approx(2 * 2.7778, rel=1e-4)
    with pytest.raises(InputError):
        rebuild_hours(600, 60, 1.0)


def test_seek_span_grows_with_scatter():
    assert seek_span(0.02, 0.0) == pytest.approx(0.02)
    assert seek_span(0.02, 0.5) == pytest.approx(0.02 + 0.5 * 0.98)


def test_a_raid6_group_under_four_drives_is_rejected():
    with pytest.raises(ValidationError) as e:
        layout("raid6", 3)
    assert "raid6 group width must be between 4" in str(e.value)


@given(
    st.sampled_from(["raid5", "raid6", "raid-dp", "raid-tec", "raid10", "raidz1", "raidz2"]),
    st.integers(4, 16),
    st.floats(0, 1),
)
def test_write_cost_is_at_least_one_and_split_adds_up(scheme, width, share):
    if scheme == "raid10" and width % 2:
        width += 1
    lay = layout(scheme, width, full_stripe_share=share)
    stripe, rnd = write_cost_split(lay)
    assert small_write_cost(lay) >= 1
    assert stripe + rnd == pytest.approx(small_write_cost(lay))
