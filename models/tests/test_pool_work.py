"""A window's back-end work on one pool (models.pool.pool_work): hand-computed, affine in each
phase's miss ratio and additive over phases; the plans' command-queuing parameters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.pool import PoolWork, pool_work
from models.raid import RaidLayout, RaidScheme
from models.tests.test_reduction import LAYOUTS, LOG_INLINE, flat, plans_of, workload
from models.workload import IoSize, Phase, Replication, ReplicationMode, Workload

RAID10 = RaidLayout(scheme=RaidScheme.RAID10, group_width=2)


def test_hand_computed_window_work_on_raid10():
    # 1,000 IOPS, 60% reads, all random, 8 KiB, on RAID10 (a read is one access, a write two):
    #   600 random reads/s, each one back-end I/O when it misses; 400 writes/s x 2 = 800 back-end
    #   I/Os/s whatever the hit ratio; no sequential reads. At a DRAM hit of 0.2 and a flash hit of
    #   0.05 (miss 0.75): 450 read misses/s, 1,250 I/Os/s; a miss's fixed service is the overhead
    #   0.5 ms + 8 KiB x 0.01 ms = 0.58 ms.
    wl = workload(iops=1000.0, read_pct=60.0, random_pct=100.0, sizes=(8.0,))
    ph = wl.phases[0]
    plans = plans_of(RAID10)
    pw = pool_work([(wl, ph, 0.2, 0.05)], plans)
    assert pw.read_miss_rate == pytest.approx(450.0, rel=1e-12)
    assert pw.miss_fixed_ms == pytest.approx(450.0 * 0.58, rel=1e-12)
    assert pw.be_read_iops == pytest.approx(450.0, rel=1e-12)
    assert pw.be_write_iops == pytest.approx(800.0, rel=1e-12)
    assert pw.work.backend_ios == pytest.approx(1250.0, rel=1e-12)
    assert pw.fe_iops == 1000.0


def test_a_phase_without_io_adds_nothing():
    wl = workload(iops=0.0, read_pct=50.0)
    plans = plans_of(RAID10)
    assert flat(pool_work([(wl, wl.phases[0], 0.0, 0.0)], plans)) == flat(PoolWork())


phases = st.builds(
    lambda iops, read, rnd, over, sizes, streams: Phase(
        name="p",
        window="w",
        iops=iops,
        read_pct=read,
        random_pct=rnd,
        write_overwrite_pct=over,
        io_sizes=[IoSize(size_kib=s, pct=100.0 / len(sizes)) for s in sizes],
        sequential_streams=streams,
    ),
    st.floats(1.0, 1e5),
    st.floats(0.0, 100.0),
    st.floats(0.0, 100.0),
    st.floats(0.0, 90.0),
    st.lists(st.sampled_from([4.0, 8.0, 32.0, 64.0, 256.0]), min_size=1, max_size=3, unique=True),
    st.sampled_from([1, 4]),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(phases, min_size=1, max_size=3),
    st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=3, max_size=3),
    st.sampled_from(LAYOUTS),
    st.booleans(),
    st.sampled_from([1.0, 2.0]),
    st.sampled_from([1.0, 3.0]),
    st.booleans(),
)
def test_window_work_is_affine_in_each_miss_ratio_and_additive_over_phases(
    phs, hit_pairs, layout, reduced, compression, dedupe, replicated
):
    # Physics, not the code's order of sums: the drive work of a window is each phase's work at
    # no miss plus its miss ratio times the work its random reads add when all miss, and the
    # phases add up. Checked against pool_work evaluated at miss ratios 0 and 1 and per phase.
    arch = LOG_INLINE if reduced else None
    replication = (
        Replication(mode=ReplicationMode.SYNC, io_amplification=2.0) if replicated else Replication()
    )
    wl = Workload(
        name="w",
        capacity_tb=1.0,
        compression_ratio=compression,
        dedupe_ratio=dedupe,
        replication=replication,
        phases=[ph.model_copy(update={"name": f"p{i}"}) for i, ph in enumerate(phs)],
    )
    plans = plans_of(layout, arch)
    hits = [(min(d, 1.0 - f), f) for d, f in hit_pairs[: len(wl.phases)]]
    whole = flat(pool_work([(wl, ph, d, f) for ph, (d, f) in zip(wl.phases, hits, strict=True)], plans))
    expected = [0.0] * len(whole)
    for ph, (d, f) in zip(wl.phases, hits, strict=True):
        miss = max(0.0, 1.0 - d - f)
        none = flat(pool_work([(wl, ph, 1.0, 0.0)], plans))
        every = flat(pool_work([(wl, ph, 0.0, 0.0)], plans))
        expected = [e + a + miss * (b - a) for e, a, b in zip(expected, none, every, strict=True)]
    scale = max(abs(x) for x in expected) or 1.0
    assert all(abs(x - y) <= 1e-9 * scale for x, y in zip(whole, expected, strict=True))


def test_the_plans_answer_the_command_queuing_parameters_of_the_drive_asked(hdd15k, ssd):
    # a 15K SAS/FC drive takes its class's defaults (gain 1, half-gain queue 8, 256 commands);
    # an SSD has no positioning to reorder: no gain, its class's queue limit
    plans = plans_of(RAID10)
    assert plans.ncq(hdd15k) == (1.0, 8.0, 256.0)
    assert plans.ncq(hdd15k) == (1.0, 8.0, 256.0)
    gain, half, _ = plans.ncq(ssd)
    assert (gain, half) == (0.0, 1.0)
    assert plans.ncq(hdd15k) == (1.0, 8.0, 256.0)  # asked for another drive again: its own answer
