import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from models.raid import (
    RaidLayout,
    capacity_efficiency,
    degraded_read_cost,
    full_stripe_write_cost,
    partial_stripe_write_cost,
    raidz_record,
    random_read_cost,
    read_plan,
    small_write_cost,
    stream_read_plan,
    stream_run_kib,
    wafl_stripe_share,
    write_plan,
)

FULL = 1.0  # a pool at its fill target of 100%


def layout(scheme, width, **kw):
    return RaidLayout(scheme=scheme, group_width=width, **kw)


def test_raid10_small_write_costs_two_backend_ios():
    assert small_write_cost(layout("raid10", 8), fill=FULL) == 2


def test_raid5_small_write_costs_four_backend_ios():
    # RMW = 2 (1 + 1) = 4; RCW = (4 - 1) + (1 + 1) = 5 -> 4
    assert small_write_cost(layout("raid5", 5), fill=FULL) == 4


def test_raid6_small_write_costs_six_backend_ios():
    # RMW = 2 (1 + 2) = 6; RCW = (6 - 1) + 3 = 8 -> 6
    assert small_write_cost(layout("raid6", 8), fill=FULL) == 6


def test_narrow_raid5_prefers_reconstruct_write():
    # 2 data + 1 parity: RMW = 4, RCW = (2 - 1) + 2 = 3
    assert partial_stripe_write_cost(2, 1, 1) == 3
    assert small_write_cost(layout("raid5", 3), fill=FULL) == 3


def test_a_1mib_random_write_on_raid6_pays_full_stripes_not_six_times():
    # RAID6 8 wide, 64 KiB unit: a stripe holds 6 x 64 = 384 KiB. 1,024 KiB covers 1024 / 384 - 1
    # = 1.667 whole stripes (640 KiB data + 640 x 2/6 = 213.3 KiB parity, streamed) and one partial
    # stripe of 384 KiB = all 6 units (b = min(6, 1 + 380 / 64)): RCW 0 reads + 6 + 2 writes = 8
    # < RMW 2 (6 + 2) = 16. Back-end I/Os in 1 MiB units: 8 + 853.3 / 1024 = 8.833
    plan = write_plan(layout("raid6", 8), 1024, fill=FULL, stripe_run_kib=256)
    assert plan.data_reads == 0 and plan.data_writes == 8
    assert plan.data_stream_write_kib == pytest.approx(640 + 640 / 3)
    assert plan.backend_ios == pytest.approx(8 + (640 + 640 / 3) / 1024)
    # the same bytes as 256 random 4 KiB writes would cost 256 x 6 = 1,536 I/Os


def test_a_16mib_read_spreads_over_the_stripe_units_it_touches():
    # 16,384 KiB over 64 KiB units spans 43 stripes of a 6 + 2 group: with rotating parity it
    # reaches all 8 drives, each passing 16,384 / 6 = 2,730.67 KiB (its data and the parity between)
    plan = read_plan(layout("raid6", 8), 16384)
    assert plan.data_reads == 8 and plan.access_kib == pytest.approx(16384 / 6)
    # 320 KiB (5 units) stays within one stripe's 6 data columns: 1 + 316 / 64 = 5.94 accesses
    plan = read_plan(layout("raid6", 8), 320)
    assert plan.data_reads == pytest.approx(1 + 316 / 64) and plan.access_kib == pytest.approx(
        320 / (1 + 316 / 64)
    )
    # 384 KiB (a whole stripe's data, misaligned): 1 + 380 / 64 = 6.94 units > 6 columns: every drive
    assert read_plan(layout("raid6", 8), 384).data_reads == 8
    # an 8 KiB read crosses a unit boundary 1 time in 16: 1 + (8 - 4) / 64 = 1.0625 accesses
    assert random_read_cost(layout("raid6", 8), 8) == pytest.approx(1.0625)


def test_raidz2_small_records_pay_parity_and_padding():
    # 8 KiB record, 4 KiB sectors, RAID-Z2 6 wide: 2 data sectors in 2 columns, 1 row with 2 parity
    # sectors: 4, padded to a multiple of p + 1 = 3: 6 sectors allocated -> 2 / 6 = 33% efficiency
    rec = raidz_record(layout("raidz2", 6, record_kib=8))
    assert (rec.data_sectors, rec.columns, rec.allocated_sectors) == (2, 2, 6)
    assert capacity_efficiency(layout("raidz2", 6, record_kib=8)) == pytest.approx(1 / 3)
    # a 128 KiB record: 32 sectors over 4 data columns, 8 rows x 2 parity = 48, a multiple of 3
    assert capacity_efficiency(layout("raidz2", 6)) == pytest.approx(32 / 48)


def test_raidz_reads_fan_out_over_the_columns_a_record_spans():
    # 128 KiB records over 6 data columns: a 4 KiB read reads the whole record, 6 accesses
    assert random_read_cost(layout("raidz2", 8), 4) == 6
    # an 8 KiB volblocksize spans 2 columns: 2 accesses
    assert random_read_cost(layout("raidz2", 8, record_kib=8), 4) == 2


def test_raidz_partial_record_writes_read_then_rewrite_the_record():
    # 4 KiB into a 16 KiB record, RAID-Z1 5 wide, 4 KiB sectors: 4 sectors in 4 columns (1 row,
    # 1 parity) = 5 sectors, padded to a multiple of 2 = 6 -> read 4 columns, write 24 KiB
    plan = write_plan(layout("raidz1", 5, record_kib=16), 4, fill=FULL, stripe_run_kib=256)
    assert plan.data_reads == 4
    assert plan.data_stream_write_kib == pytest.approx(24)
    # a whole-record write reads nothing
    assert write_plan(layout("raidz1", 5, record_kib=16), 16, fill=FULL, stripe_run_kib=256).data_reads == 0


def test_rotating_parity_is_skipped_not_free_on_sequential_reads():
    # RAID5 4 + 1: each drive passes 5/4 KiB of surface per KiB of data; RAID10 passes 1
    assert stream_read_plan(layout("raid5", 5), 1024).data_stream_read_kib == pytest.approx(5 / 4)
    assert stream_read_plan(layout("raid10", 8), 1024).data_stream_read_kib == 1.0
    # a 1 MiB readahead on 4 data columns of 64 KiB: 256 KiB per drive per positioning
    assert stream_run_kib(layout("raid5", 5), 1024) == 256


def test_full_stripe_write_costs_data_plus_parity_over_data():
    assert full_stripe_write_cost(18, 2) == pytest.approx(20 / 18)


def test_wafl_writes_fill_the_free_blocks_of_each_stripe():
    # RAID-DP 18 + 2 at 80% fill, fragmentation 0.5: k / d = 0.2^0.5 = 0.4472, k = 8.05 free blocks
    # per stripe; reconstruct-write (d - k = 9.95 reads) costs more than read-modify-write
    # (k + p = 10.05)? 9.95 <= 10.05, so reconstruct: per 4 KiB block written, 1 data write,
    # 2 / k parity writes and (d - k) / k reads, all streamed in chains of 256 x k / d KiB
    lay = layout("raid-dp", 20)
    k = 18 * 0.2**0.5
    assert wafl_stripe_share(lay, 0.8) == pytest.approx(k / 18)
    plan = write_plan(lay, 4, fill=0.8, stripe_run_kib=256)
    assert plan.data_stream_write_kib == 4
    assert plan.parity_stream_write_kib == pytest.approx(2 * 4 / k)
    assert plan.data_stream_read_kib == pytest.approx((18 - k) * 4 / k)
    assert plan.run_kib == pytest.approx(256 * k / 18)
    assert plan.backend_ios == pytest.approx(1 + 2 / k + (18 - k) / k)


def test_an_emptier_aggregate_makes_wafl_writes_cheaper():
    lay = layout("raid-dp", 16)
    assert small_write_cost(lay, fill=0.3) < small_write_cost(lay, fill=0.6) < small_write_cost(lay, fill=0.9)
    # nearly empty: whole stripes, (d + p) / d
    assert small_write_cost(lay, fill=0.0) == pytest.approx(16 / 14)


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


def test_a_raid6_group_under_four_drives_is_rejected():
    with pytest.raises(ValidationError) as e:
        layout("raid6", 3)
    assert "raid6 group width must be between 4" in str(e.value)


@given(
    st.sampled_from(["raid5", "raid6", "raid-dp", "raid-tec", "raid10", "raidz1", "raidz2"]),
    st.integers(4, 16),
    st.floats(0, 1),
    st.sampled_from([0.5, 4, 8, 64, 256, 1024]),
)
def test_write_cost_is_at_least_one_backend_io(scheme, width, fill, size):
    if scheme == "raid10" and width % 2:
        width += 1
    assert small_write_cost(layout(scheme, width), size, fill=fill) >= 1 - 1e-12


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("record_kib", 12, "power of two"),
        ("record_kib", 2, "at least the sector"),
        ("stripe_unit_kib", 48, "power of two"),
        ("stripe_unit_kib", 16384, "larger than"),
    ],
)
def test_bad_record_and_stripe_unit_sizes_are_rejected_naming_the_field(field, value, message):
    with pytest.raises(ValidationError) as e:
        layout("raidz2" if field == "record_kib" else "raid6", 8, **{field: value})
    assert field in str(e.value) and message in str(e.value)


def test_a_stream_request_is_the_prefetch_or_the_io_whichever_is_larger():
    # 1 MiB prefetch: 64 KiB reads are fetched 1,024 KiB at a time; 4 MiB reads move whole (4,096 KiB)
    from models.raid import stream_segment_kib

    assert stream_segment_kib(1024.0, 64.0) == 1024.0
    assert stream_segment_kib(1024.0, 4096.0) == 4096.0
