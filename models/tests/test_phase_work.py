"""A phase's back-end work split by what its hit ratio moves (models.pool.phase_work) and the
window sums built from it (models.pool.pool_work)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import models.evaluate as evaluate_module
import models.pool as pool_module
from models.architecture import written_layout
from models.configuration import Architecture
from models.evaluate import evaluate
from models.pool import PoolPlans, PoolWork, phase_work, pool_work
from models.raid import RaidLayout, RaidScheme
from models.tests.conftest import make_config
from models.tests.test_reduction import LAYOUTS, LOG_INLINE, P, T, flat
from models.workload import IoSize, Phase, Replication, ReplicationMode, Workload

RAID10 = RaidLayout(scheme=RaidScheme.RAID10, group_width=2)


def one_phase(**fields: object) -> Workload:
    return Workload(name="w", capacity_tb=1.0, phases=[Phase(name="p", window="w", **fields)])


def plans_of(layout: RaidLayout, architecture: Architecture | None = None) -> PoolPlans:
    return PoolPlans(written_layout(layout, architecture), T, P, 0.5, architecture)


def test_hand_computed_split_and_sum_on_raid10():
    # 1,000 IOPS, 60% reads, all random, 8 KiB, on RAID10 (a read is one access, a write two):
    #   600 random reads/s, each one back-end I/O at a miss ratio of 1 -> per_miss 600 I/Os/s;
    #   400 writes/s x 2 = 800 back-end I/Os/s whatever the hit ratio; no sequential reads.
    # At a DRAM hit of 0.2 and a flash hit of 0.05 (miss 0.75): 450 read misses/s, 1,250 I/Os/s.
    wl = one_phase(iops=1000.0, read_pct=60.0, random_pct=100.0, io_size_kib=8.0)
    ph = wl.phases[0]
    plans = plans_of(RAID10)
    pk = phase_work(wl, ph, plans)
    assert pk is not None
    assert (pk.iops, pk.reads, pk.writes_be) == (1000.0, 600.0, 400.0)
    assert pk.random_reads == pytest.approx(600.0, rel=1e-15)
    assert pk.per_miss.backend_ios == pytest.approx(600.0, rel=1e-15)
    assert pk.streams.backend_ios == 0.0
    assert pk.writes.backend_ios == pytest.approx(800.0, rel=1e-15)
    # a random read's fixed service: overhead 0.5 ms + 8 KiB x 0.01 ms = 0.58 ms
    assert pk.miss_fixed_ms == pytest.approx(600.0 * 0.58, rel=1e-12)
    pw = pool_work([(wl, ph, 0.2, 0.05)], plans)
    assert pw.read_miss_rate == pytest.approx(450.0, rel=1e-12)
    assert pw.miss_fixed_ms == pytest.approx(450.0 * 0.58, rel=1e-12)
    assert pw.be_read_iops == pytest.approx(450.0, rel=1e-12)
    assert pw.be_write_iops == pytest.approx(800.0, rel=1e-12)
    assert pw.work.backend_ios == pytest.approx(1250.0, rel=1e-12)
    assert pw.fe_iops == 1000.0


def test_a_phase_without_io_has_no_split_and_adds_nothing():
    wl = one_phase(iops=0.0, read_pct=50.0, io_size_kib=8.0)
    plans = plans_of(RAID10)
    assert phase_work(wl, wl.phases[0], plans) is None
    assert flat(pool_work([(wl, wl.phases[0], 0.0, 0.0)], plans)) == flat(PoolWork())


def test_the_plans_keep_each_phases_split_for_the_very_same_objects():
    wl = one_phase(iops=500.0, read_pct=70.0, random_pct=80.0, io_size_kib=16.0)
    ph = wl.phases[0]
    plans = plans_of(RAID10)
    first = plans.phase(wl, ph)
    assert plans.phase(wl, ph) is first
    # an equal copy is another object: worked out again, to the same split
    twin = ph.model_copy()
    again = plans.phase(wl, twin)
    assert again is not first and again == first


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


def test_a_windows_cold_cache_case_reuses_the_split_of_its_warm_pass(monkeypatch):
    # the cold-cache case serves the same phase objects at other hit ratios: each phase is split
    # once per evaluation of a window, not once per pass
    calls: list[str] = []
    real = pool_module.phase_work

    def counted(wl, ph, plans):
        calls.append(ph.name)
        return real(wl, ph, plans)

    monkeypatch.setattr(pool_module, "phase_work", counted)
    from models.tests.conftest import hdd15k

    cfg = make_config(hdd15k.__wrapped__(), "raid-dp", 16, 48)  # type: ignore[attr-defined]
    wl = Workload(
        name="db",
        capacity_tb=2.0,
        working_set_pct=30.0,
        phases=[
            Phase(name="day", window="day", iops=3000.0, read_pct=70.0, io_size_kib=8.0),
            Phase(name="night", window="night", iops=1500.0, read_pct=20.0, io_size_kib=64.0),
        ],
    )
    evaluate_module.clear_kept()
    pool_module.clear_plans()
    result = evaluate([wl], cfg)
    assert all(w.cold_cache is not None for w in result.windows)
    assert sorted(calls) == ["day", "night"]
    # evaluated again, the same objects meet their kept splits
    evaluate([wl], cfg)
    assert sorted(calls) == ["day", "night"]


def test_the_plans_answer_the_command_queuing_parameters_of_the_drive_asked(hdd15k, ssd):
    # a 15K SAS/FC drive takes its class's defaults (gain 1, half-gain queue 8, 256 commands);
    # an SSD has no positioning to reorder: no gain, its class's queue limit
    plans = plans_of(RAID10)
    assert plans.ncq(hdd15k) == (1.0, 8.0, 256.0)
    assert plans.ncq(hdd15k) == (1.0, 8.0, 256.0)
    gain, half, _ = plans.ncq(ssd)
    assert (gain, half) == (0.0, 1.0)
    assert plans.ncq(hdd15k) == (1.0, 8.0, 256.0)  # asked for another drive again: its own answer


def test_the_plans_keep_a_bounded_number_of_phase_splits():
    # a Monte Carlo run meets a new phase object per sample: the kept splits stay bounded
    plans = plans_of(RAID10)
    for i in range(3 * pool_module._PHASES_KEPT):
        wl = one_phase(iops=100.0 + i, read_pct=50.0, io_size_kib=8.0)
        plans.phase(wl, wl.phases[0])
        assert len(plans.phase_memo) <= pool_module._PHASES_KEPT
