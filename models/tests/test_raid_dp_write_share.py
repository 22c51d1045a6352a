"""RAID-DP as the write share rises (issue 32 item 7): fewer drives for more writes is WAFL's physics.

WAFL coalesces random writes in NVRAM and writes them as chains of blocks along each data drive
(:func:`models.raid.write_plan`): a data drive spends far less on a random 8 KiB write than on a
random 8 KiB read (one positioning per chain of tens of blocks instead of one per read). The two
parity drives of each group carry every stripe's parity instead, so as writes replace reads the
data drives' load falls and the parity drives' rises: a read-heavy load can need more drives than
a write-heavy one of the same IOPS, and sizing moves from the data drives (read latency) to the
parity drives. These tests pin that down: each role's utilization moves one way only.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from models.evaluate import evaluate
from models.raid import RaidLayout, RaidScheme, write_plan
from models.size import size
from models.tests.conftest import make_config
from models.tests.test_streams import HDD
from models.workload import Phase, Workload


def utilizations(write_pct: float, count: int, capacity_tb: float) -> tuple[float, float]:
    """(data drives, parity drives) utilization [%] of 2,000 random 8 KiB IOPS on RAID-DP 14+2."""
    cfg = make_config(HDD, "raid-dp", 16, count, ctrl={"dram_cache_gb": 0})
    wl = Workload(
        name="w",
        capacity_tb=capacity_tb,
        phases=[Phase(name="p", window="w", iops=2000, read_pct=100 - write_pct, io_size_kib=8)],
    )
    checks = {c.name: c.value for c in evaluate([wl], cfg, cold_cache=False, explain=False).windows[0].checks}
    return float(checks["drives:aggr0"] or 0.0), float(checks["parity drives:aggr0"] or 0.0)


def test_a_wafl_write_costs_a_data_drive_less_than_a_random_read():
    # a random 8 KiB read is one positioning on a data drive; a write at a 30% fill is streamed in
    # chains of 214 KiB: 8 / 214 positionings of data drives (and some chain reads), far below 1
    plan = write_plan(RaidLayout(scheme=RaidScheme.RAID_DP, group_width=16), 8, fill=0.3, stripe_run_kib=256)
    positionings = (plan.data_stream_read_kib + plan.data_stream_write_kib) / plan.run_kib
    assert positionings < 0.1


@settings(max_examples=25, deadline=None)
@given(
    low=st.floats(0, 95),
    more=st.floats(1, 100),
    groups=st.integers(2, 6),
    capacity_tb=st.floats(0.5, 4.0),
)
def test_more_writes_load_the_parity_drives_more_and_the_data_drives_less(low, more, groups, capacity_tb):
    high = min(100.0, low + more)
    d_low, p_low = utilizations(low, 16 * groups, capacity_tb)
    d_high, p_high = utilizations(high, 16 * groups, capacity_tb)
    assert p_high >= p_low - 1e-9
    assert d_high <= d_low + 1e-9


def _needed(write_pct: float, iops: float, size_kib: float, width: int, capacity_tb: float) -> int:
    cfg = make_config(HDD, "raid-dp", width, None)
    wl = Workload(
        name="w",
        capacity_tb=capacity_tb,
        phases=[Phase(name="p", window="w", iops=iops, read_pct=100 - write_pct, io_size_kib=size_kib)],
    )
    count = size([wl], cfg).configuration.pools[0].drive_count
    assert count is not None
    return count


def test_drives_needed_fall_then_rise_with_the_write_share_on_generic_raid_dp():
    # 5,000 random 4 KiB IOPS on RAID-DP 14+2 (10 TB): the data drives' need falls as writes replace
    # reads, the parity drives' rises; the drives needed follow the larger of the two
    counts = [_needed(w, 5000, 4, 16, 10.0) for w in range(0, 101, 10)]
    low = counts.index(min(counts))
    assert counts[0] > min(counts) and counts[-1] > min(counts)
    assert all(a >= b for a, b in zip(counts[:low], counts[1 : low + 1], strict=True))
    assert all(a <= b for a, b in zip(counts[low:], counts[low + 1 :], strict=False))


@settings(max_examples=15, deadline=None)
@given(
    iops=st.floats(200, 8000),
    size_kib=st.sampled_from([4.0, 8.0, 32.0, 64.0]),
    width=st.integers(8, 20),
    capacity_tb=st.floats(0.5, 20.0),
)
def test_drives_needed_never_fall_again_once_more_writes_raised_them(iops, size_kib, width, capacity_tb):
    # each role's need moves one way with the write share (above), so the larger of the two, the
    # drives needed, is quasi-convex: once it has risen it never falls again
    counts = [_needed(w, iops, size_kib, width, capacity_tb) for w in range(0, 101, 10)]
    risen = False
    for a, b in zip(counts, counts[1:], strict=False):
        risen = risen or b > a
        assert not (risen and b < a), counts
