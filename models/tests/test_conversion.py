"""RAID conversion of benchmark results: back-end arithmetic, shortcuts, round trips."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.base import InputError
from models.conversion import convert_raid, per_io_cost
from models.raid import RaidLayout

RAID5 = RaidLayout(scheme="raid5", group_width=5)
RAID6 = RaidLayout(scheme="raid6", group_width=8)
RAID10 = RaidLayout(scheme="raid10", group_width=8)
RAIDZ2 = RaidLayout(scheme="raidz2", group_width=8)


def test_raid5_result_converted_to_raid10_by_hand():
    # BE = 10,000 x (0.7 + 0.3 x 4) = 19,000; F' = 19,000 / (0.7 + 0.3 x 2) = 14,615.4
    res = convert_raid(10_000, 70, RAID5, RAID10)
    assert res.backend_iops.value == pytest.approx(19_000)
    assert res.converted_iops.value == pytest.approx(19_000 / 1.3)
    assert res.ratio == pytest.approx(19 / 13)
    assert res.backend_iops.text == "BE = 10,000 x (0.7 x 1 + 0.3 x 4) = 19,000"
    assert res.write_cost_from.value == 4 and res.write_cost_to.value == 2


def test_shortcuts_are_shown_with_their_error():
    res = convert_raid(10_000, 70, RAID5, RAID10)
    by = {s.name: s for s in res.shortcuts}
    exact = 19_000 / 1.3
    # "RAID10 is twice RAID5" and "divide by the write penalty" both say 20,000: +36.8%
    assert by["RAID10 is twice RAID5"].iops == pytest.approx(20_000)
    assert by["divide by the write penalty"].iops == pytest.approx(20_000)
    assert by["divide by the write penalty"].error_pct == pytest.approx(100 * (20_000 - exact) / exact)
    assert by["RAID doesn't matter"].error_pct == pytest.approx(100 * (10_000 - exact) / exact)


def test_the_shortcuts_are_exact_only_at_their_extremes():
    writes = convert_raid(1_000, 0, RAID6, RAID10)  # all writes: 1,000 x 6 / 2
    assert writes.converted_iops.value == pytest.approx(3_000)
    assert next(s for s in writes.shortcuts if s.name.startswith("divide")).error_pct == pytest.approx(0)
    reads = convert_raid(1_000, 100, RAID6, RAID10)  # all reads: RAID does not matter
    assert reads.converted_iops.value == pytest.approx(1_000)
    assert next(s for s in reads.shortcuts if s.name == "RAID doesn't matter").error_pct == pytest.approx(0)


def test_twice_raid5_is_only_offered_between_raid5_and_mirrors():
    assert not any(
        s.name == "RAID10 is twice RAID5" for s in convert_raid(1_000, 50, RAID6, RAID10).shortcuts
    )
    back = next(
        s for s in convert_raid(1_000, 0, RAID10, RAID5).shortcuts if s.name == "RAID10 is twice RAID5"
    )
    assert back.iops == pytest.approx(500) and back.error_pct == pytest.approx(0)


def test_raidz_reads_fan_out_to_every_data_drive():
    # RAID-Z2 8 wide: a random read touches 6 data drives; a small write 1 + 2 sectors
    assert per_io_cost(100, 0, RAIDZ2) == pytest.approx(6)
    res = convert_raid(6_000, 100, RAID10, RAIDZ2)
    assert res.converted_iops.value == pytest.approx(1_000)


def test_read_hits_and_drive_counts_enter_the_back_end():
    # 50% hits: BE = 1,000 x (0.5 x 0.5 + 0.5 x 2) = 1,250; twice the drives; RAID6: 2,500 / (0.25 + 3)
    res = convert_raid(1_000, 50, RAID10, RAID6, read_hit_pct=50, from_drives=8, to_drives=16)
    assert res.backend_iops.value == pytest.approx(1_250)
    assert res.converted_iops.value == pytest.approx(2_500 / 3.25)


def test_wafl_full_stripe_share_sets_the_write_cost():
    # RAID-DP 14+2 writing stripes 80% free: k = 11.2 free blocks; reconstruct-write (d - k = 2.8
    # reads <= k + p = 13.2): per 4 KiB block 1 data write + 2/k parity writes + 2.8/k reads = 1.4286
    dp = RaidLayout(scheme="raid-dp", group_width=16, full_stripe_share=0.8)
    res = convert_raid(1_000, 0, RAID10, dp)
    assert res.write_cost_to.value == pytest.approx(1 + 2 / 11.2 + 2.8 / 11.2)
    assert "full-stripe share 0.8" in res.write_cost_to.text


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"read_pct": 120}, "read_pct"),
        ({"measured_iops": -1}, "measured_iops"),
        ({"read_hit_pct": 101}, "read_hit_pct"),
        ({"from_drives": 8}, "to_drives"),
        ({"read_pct": 100, "read_hit_pct": 100}, "read_hit_pct"),
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    args = {"measured_iops": 1_000, "read_pct": 70, "from_raid": RAID5, "to_raid": RAID10, **kwargs}
    with pytest.raises(InputError) as e:
        convert_raid(**args)
    assert e.value.field == field


layouts = st.sampled_from(
    [
        RAID5,
        RAID6,
        RAID10,
        RAIDZ2,
        RaidLayout(scheme="raid0", group_width=4),
        RaidLayout(scheme="raid-dp", group_width=16, full_stripe_share=0.6),
        RaidLayout(scheme="raid-tec", group_width=20),
        RaidLayout(scheme="erasure", group_width=6, ec_data=4, ec_parity=2, full_stripe_share=0.3),
        RaidLayout(scheme="replica", group_width=1, copies=3),
    ]
)


@given(
    f=st.floats(1.0, 1e7),
    read=st.floats(0.0, 100.0),
    hit=st.floats(0.0, 99.0),
    a=layouts,
    b=layouts,
    na=st.integers(1, 1000),
    nb=st.integers(1, 1000),
)
def test_converting_there_and_back_returns_the_measurement(f, read, hit, a, b, na, nb):
    there = convert_raid(f, read, a, b, read_hit_pct=hit, from_drives=na, to_drives=nb)
    back = convert_raid(
        there.converted_iops.value, read, b, a, read_hit_pct=hit, from_drives=nb, to_drives=na
    )
    assert back.converted_iops.value == pytest.approx(f, rel=1e-9)
    assert back.backend_iops.value == pytest.approx(there.backend_iops.value * nb / na, rel=1e-9)
