"""The pool model: span, parity drives, command queuing at a stated concurrency, failure."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.drives import unrecoverable_read_probability
from models.evaluate import DegradedMode, evaluate
from models.parameters import EngineParameters
from models.pool import planned_span
from models.size import size
from models.tests.conftest import make_config, oltp
from models.workload import Phase, Workload


def writes_only(iops: float = 2000, size: float = 4, **kw) -> Workload:
    return Workload(
        name="w",
        capacity_tb=1.0,
        working_set_gb=100,
        phases=[Phase(name="p", window="w", iops=iops, read_pct=0, io_size_kib=size, **kw)],
    )


def test_planned_span_is_the_larger_of_the_data_and_the_planned_fill_within_the_stroke_used():
    # 200 GB held of 1,000 GB usable, planned 50% full, full stroke, no scatter: 0.5
    assert planned_span(200, 1000, 0.5, 1.0, 0.0) == pytest.approx(0.5)
    # 800 GB held: 0.8; short-stroked to 25% of each drive: 0.2; scatter 0.5: 0.2 + 0.5 x 0.8 = 0.6
    assert planned_span(800, 1000, 0.5, 1.0, 0.0) == pytest.approx(0.8)
    assert planned_span(800, 1000, 0.5, 0.25, 0.0) == pytest.approx(0.2)
    assert planned_span(800, 1000, 0.5, 0.25, 0.5) == pytest.approx(0.6)


def test_raid_dp_parity_drives_carry_every_stripe_update(hdd15k):
    # 2,000 random 4 KiB writes/s, RAID-DP 16 wide x 3 groups at the default (full) planned fill:
    # k / d = 0.02^0.5 = 0.1414 (clamped at 98% full), k = 14 x 0.1414 = 1.980 free blocks per stripe;
    # read-modify-write (k + p = 3.98 < d - k = 12.02): per block, each of the 2 parity drives of
    # its group reads and writes 1 / k blocks, a data drive reads and writes 1 block: parity drives
    # are d / k = 7.07 times as loaded per drive as a data drive's share
    res = evaluate([writes_only()], make_config(hdd15k, "raid-dp", 16, 48))
    pool = res.windows[0].pools[0]
    assert pool.parity_utilization_pct is not None
    assert pool.parity_utilization_pct.value > pool.drive_utilization_pct.value
    assert any(c.name == "parity drives:aggr0" for c in res.windows[0].checks)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.floats(100, 20000),
    st.floats(0, 90),
    st.sampled_from([4, 8, 32, 64]),
    st.sampled_from(["raid-dp", "raid-tec"]),
    st.floats(1, 100),
    st.integers(1, 6),
)
def test_the_parity_drive_of_raid_dp_is_never_less_busy_than_a_data_drive_under_random_writes(
    hdd15k, iops, read_pct, size, scheme, fill_pct, groups
):
    wl = oltp(iops=iops, read_pct=0, ws_gb=50, capacity_tb=0.5)
    wl = wl.model_copy(update={"phases": [wl.phases[0].model_copy(update={"io_size_kib": size})]})
    cfg = make_config(hdd15k, scheme, 16, 16 * groups)
    cfg = cfg.model_copy(update={"pools": [cfg.pools[0].model_copy(update={"planned_fill_pct": fill_pct})]})
    pool = evaluate([wl], cfg).windows[0].pools[0]
    data = pool.drive_utilization_pct.value or 0.0
    parity = pool.parity_utilization_pct.value if pool.parity_utilization_pct else 0.0
    assert parity >= data * (1 - 1e-9)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.floats(0.1, 5), st.integers(1, 12), st.integers(1, 12), st.floats(1, 100))
def test_adding_drives_for_a_fixed_data_set_never_shortens_the_span_below_the_planned_fill(
    hdd15k, capacity_tb, a, b, fill_pct
):
    lo, hi = sorted((a, b))
    wl = oltp(capacity_tb=capacity_tb, ws_gb=10)
    spans = []
    for groups in (lo, hi):
        cfg = make_config(hdd15k, "raid6", 8, 8 * groups)
        cfg = cfg.model_copy(
            update={"pools": [cfg.pools[0].model_copy(update={"planned_fill_pct": fill_pct})]}
        )
        res = evaluate([wl], cfg)
        usable_gb = res.capacity.pools[0].usable_tb.value * 1000
        span = res.windows[0].pools[0].span_pct
        assert span >= 100 * min(1.0, max(fill_pct / 100, capacity_tb * 1000 / usable_gb)) * (1 - 1e-9)
        spans.append(span)
    # more drives never widen the span the same data occupies (and never shrink it below the fill)
    assert spans[1] <= spans[0] + 1e-9


def test_a_stated_concurrency_is_the_only_way_to_command_queuing_credit(hdd15k):
    wl = oltp(iops=3000, read_pct=100)
    cfg = make_config(hdd15k, "raid10", 2, 24)
    plain = evaluate([wl], cfg).windows[0].pools[0]
    deep = wl.model_copy(update={"phases": [wl.phases[0].model_copy(update={"concurrency": 256})]})
    queued = evaluate([deep], cfg).windows[0].pools[0]
    assert plain.queue_per_drive == 1.0 and "none stated" in plain.drive_utilization_pct.text
    assert queued.queue_per_drive > 1.0
    assert queued.drive_utilization_pct.value < plain.drive_utilization_pct.value


def test_a_sata_drive_gains_nothing_past_its_32_command_queue(hdd15k):
    sata = hdd15k.model_copy(update={"interface": "SATA", "rpm": 7200})
    wl = oltp(iops=800, read_pct=100)
    res = []
    for depth in (512, 100_000):
        deep = wl.model_copy(update={"phases": [wl.phases[0].model_copy(update={"concurrency": depth})]})
        res.append(evaluate([deep], make_config(sata, "raid10", 2, 8)).windows[0].pools[0])
    assert res[0].queue_per_drive <= 32 and res[0].drive_utilization_pct.value == pytest.approx(
        res[1].drive_utilization_pct.value
    )


def test_rebuild_time_and_unrecoverable_read_risk_of_raid5_on_large_nl_sas(hdd15k):
    # RAID5 8 wide of 4 TB 7.2K NL-SAS (10^15 bits per error): a rebuild reads 7 x 4,000 GB =
    # 28,000 GB = 2.24e14 bits -> P(URE) = 1 - exp(-0.224) = 20.07%
    nl = hdd15k.model_copy(
        update={
            "capacity_gb": 4000,
            "right_sized_gib": None,
            "rpm": 7200,
            "interface": "NL-SAS",
            "avg_read_seek_ms": 8.2,
            "avg_write_seek_ms": 8.6,
        }
    )
    assert unrecoverable_read_probability(nl, 28000) == pytest.approx(-math.expm1(-0.224))
    res = evaluate([oltp(iops=500)], make_config(nl, "raid5", 8, 16))
    failure = res.windows[0].pools[0].failure
    assert failure is not None
    assert failure.unrecoverable_read_pct.value == pytest.approx(100 * -math.expm1(-0.224))
    # rebuilt onto a dedicated spare at the 100 MB/s sequential rate x the rebuild's share
    # min(30% priority, 1 - U_failed), at least 10 MB/s: 4,000,000 MB / rate
    share = min(0.3, 1 - failure.failed_group_utilization_pct / 100)
    rate = max(10.0, 100.0 * share)
    assert failure.rebuild_hours.value == pytest.approx(4000 * 1000 / rate / 3600)
    assert any("unrecoverable" in w for w in res.warnings)
    # RAID6 keeps redundancy during a one-drive rebuild
    r6 = evaluate([oltp(iops=500)], make_config(nl, "raid6", 8, 16)).windows[0].pools[0].failure
    assert r6 is not None and r6.unrecoverable_read_pct.value == 0.0


def test_a_degraded_group_is_evaluated_on_its_own(hdd15k):
    # 3 groups; one degraded. The pool's miss latency mixes 2/3 healthy and 1/3 degraded
    # responses; once the degraded group saturates, reads that meet it have no finite latency
    cfg = make_config(hdd15k, "raid5", 8, 24)
    light = evaluate([oltp(iops=600)], cfg, degraded=DegradedMode.DRIVE_FAILED)
    heavy = evaluate([oltp(iops=1400)], cfg, degraded=DegradedMode.DRIVE_FAILED)
    normal = evaluate([oltp(iops=1400)], cfg)
    assert light.windows[0].read_latency_ms is not None
    assert heavy.windows[0].pools[0].degraded_group_utilization_pct > 100
    assert normal.windows[0].read_latency_ms is not None
    assert heavy.windows[0].read_latency_ms is None and not heavy.passed


def test_short_stroking_trades_capacity_for_seek_time(hdd15k):
    wl = oltp(iops=1500, read_pct=100, capacity_tb=0.5)
    full = make_config(hdd15k, "raid10", 2, 16)
    short = full.model_copy(
        update={"pools": [full.pools[0].model_copy(update={"drive_fraction_used": 0.25})]}
    )
    a, b = evaluate([wl], full), evaluate([wl], short)
    assert b.capacity.pools[0].usable_tb.value == pytest.approx(0.25 * a.capacity.pools[0].usable_tb.value)
    assert b.windows[0].pools[0].span_pct == pytest.approx(25.0)
    assert (
        b.windows[0].pools[0].drive_utilization_pct.value < a.windows[0].pools[0].drive_utilization_pct.value
    )
    assert "short-stroked" in b.capacity.pools[0].after_raid_tb.text


def test_engine_parameters_without_command_queuing_gain_keep_one_command(hdd15k):
    cq = EngineParameters().command_queuing
    off = EngineParameters(
        command_queuing=cq.model_copy(update={"sas_fc": cq.sas_fc.model_copy(update={"gain_max": 0.0})})
    )
    wl = oltp(iops=3000, read_pct=100)
    deep = wl.model_copy(update={"phases": [wl.phases[0].model_copy(update={"concurrency": 256})]})
    pool = evaluate([deep], make_config(hdd15k, "raid10", 2, 24), params=off).windows[0].pools[0]
    assert pool.queue_per_drive == 1.0


def test_controller_cpu_counts_the_back_end_ios_the_layout_issues(hdd15k):
    # 2,000 random 4 KiB writes, no reads: RAID6 issues 6 back-end I/Os per write, RAID10 2. At
    # 5 us per back-end I/O the RAID6 controllers spend (12,000 - 4,000) x 5 us = 40 ms/s more CPU:
    # over 2 controllers x 4 cores that is 0.5 percentage points more utilization
    wl = writes_only(2000)
    r6 = evaluate([wl], make_config(hdd15k, "raid6", 8, 160)).windows[0]
    r10 = evaluate([wl], make_config(hdd15k, "raid10", 2, 160)).windows[0]
    assert r6.pools[0].backend_iops.value == pytest.approx(12000)
    assert r10.pools[0].backend_iops.value == pytest.approx(4000)
    delta = r6.controller_utilization_pct.value - r10.controller_utilization_pct.value
    assert delta == pytest.approx(100 * 8000 * 5e-6 / (4 * 2))
    assert "back-end I/Os x c_BE" in r6.controller_utilization_pct.text


def test_size_names_each_stated_optimism_and_the_drives_it_saves(hdd15k):
    # a stated queue of 256 and short-stroking to half of each drive both shorten service: sizing
    # without each needs more drives, and the explanation says how many
    wl = oltp(iops=4000, read_pct=90, capacity_tb=0.5)
    deep = wl.model_copy(update={"phases": [wl.phases[0].model_copy(update={"concurrency": 256})]})
    family = make_config(hdd15k, "raid10", 2, None)
    family = family.model_copy(
        update={"pools": [family.pools[0].model_copy(update={"drive_fraction_used": 0.5})]}
    )
    out = size([deep], family)
    plain = size([wl], make_config(hdd15k, "raid10", 2, None))
    assert out.feasible and plain.feasible
    effects = {
        o.effect.split(" ")[2] if o.effect.startswith("a stated") else o.effect.split(" ")[0]: o
        for o in out.optimisms
    }
    assert set(effects) == {"queue", "short-stroking"}
    for o in out.optimisms:
        assert o.drives_without is not None and o.drives_without == out.drive_count + o.drives_saved
        assert o.drives_saved > 0
    assert out.drive_count < plain.drive_count
    assert "Stated optimisms:" in out.explanation
    for o in out.optimisms:  # each named with what it saves and the count without it
        assert f"{o.effect}: saves {o.drives_saved} drives ({o.drives_without} without it)" in out.explanation
    assert plain.optimisms == []


def test_nvram_absorbs_a_write_burst_for_the_time_its_free_space_lasts(hdd15k):
    # 1,000 random 8 KiB writes/s on RAID10 (no reads): the drives destage x times that rate;
    # 512 MB NVRAM x 2 controllers, mirrored: 512 MB usable = 500,000 KiB. A burst of twice the
    # writes fills it at (2 - x) x 8,000 KiB/s
    res = evaluate([writes_only(1000, size=8)], make_config(hdd15k, "raid10", 2, 20)).windows[0]
    x = res.pools[0].destage_capacity_x
    assert x is not None and 1 < x < 2
    # data drives: writes only, U_w = U / 100, so x = 1 / U_w
    assert x == pytest.approx(100 / res.pools[0].drive_utilization_pct.value)
    assert res.write_burst_s is not None
    assert res.write_burst_s.value == pytest.approx(512e6 / 1024 / ((2 - x) * 8000))


def test_a_stated_back_end_bus_is_checked_against_the_port_headroom(hdd15k):
    # 400 MB/s of 64 KiB sequential reads over 2 controllers with 200 MB/s of back-end bus each:
    # RAID10 reads move the data once (plus nothing skipped): 400 / (200 x 2) = 100% > 70%
    wl = Workload(
        name="s",
        capacity_tb=1,
        phases=[Phase(name="p", window="w", mb_per_s=400, read_pct=100, random_pct=0, io_size_kib=64)],
    )
    cfg = make_config(hdd15k, "raid10", 2, 48, ctrl={"backend_mb_s": 200})
    w = evaluate([wl], cfg).windows[0]
    assert w.backend_bus_utilization_pct is not None
    assert w.backend_bus_utilization_pct.value == pytest.approx(100 * 400 / 400, rel=1e-3)
    assert any(c.name == "back-end bus" and not c.passed for c in w.checks)


def test_priced_plans_are_kept_for_the_very_same_inputs_only(hdd15k):
    from models.memo import PLANS_KEPT, EvaluationMemo

    cfg = make_config(hdd15k, "raid-dp", 16, 48)
    pl, p = cfg.pools[0], EngineParameters()
    memo = EvaluationMemo()
    kept = memo.plans(pl, p, 0.8, 0.7)
    assert memo.plans(pl, p, 0.8, 0.7) is kept
    assert memo.plans(pl, p, 0.8) is not kept  # another fill
    twin = make_config(hdd15k.model_copy(), "raid-dp", 16, 48).pools[0]
    assert memo.plans(twin, p, 0.8, 0.7) is not kept  # equal, not the same objects
    assert EvaluationMemo().plans(pl, p, 0.8, 0.7) is not kept  # another holder's memo
    for i in range(PLANS_KEPT + 1):  # bounded: emptied when full
        memo.plans(pl, p, 0.5 + i / 1000)
    assert memo.kept()[1] <= PLANS_KEPT
    memo.clear()
    assert memo.kept() == (0, 0)


def test_an_evaluation_keeps_its_parts_in_the_memo_it_is_given(hdd15k):
    from models.memo import EvaluationMemo, for_call

    cfg = make_config(hdd15k, "raid-dp", 16, 48)
    memo = EvaluationMemo()
    first = evaluate([oltp(iops=2000)], cfg, memo=memo)
    assert memo.kept() == (1, 1)
    again = evaluate([oltp(iops=2000)], cfg, memo=memo)
    assert again.bill is first.bill  # the same kept parts
    alone = evaluate([oltp(iops=2000)], cfg)  # a memo of its own, gone with the call: the same figures
    assert alone == first and alone.bill is not first.bill
    with for_call(memo):  # the memo in force: evaluations given none use it
        assert evaluate([oltp(iops=2000)], cfg).bill is first.bill


@pytest.mark.parametrize("degraded", list(DegradedMode))
def test_an_evaluation_is_the_same_with_its_plans_kept_or_priced_afresh(hdd15k, degraded):
    from models.memo import EvaluationMemo

    cfg = make_config(hdd15k, "raid-dp", 16, 48)
    workloads = [[oltp(iops=500 * k, read_pct=10 * k, target=5.0)] for k in range(1, 10)]
    memo = EvaluationMemo()
    kept = [evaluate(w, cfg, degraded=degraded, memo=memo) for w in workloads]
    fresh = []
    for w in workloads:
        fresh.append(evaluate(w, cfg, degraded=degraded, memo=EvaluationMemo()))
    assert kept == fresh
    assert [r.model_dump_json() for r in kept] == [r.model_dump_json() for r in fresh]


def test_an_optimism_that_saves_nothing_says_so():
    from models.size import Optimism, _optimism_words

    none = Optimism(effect="overwrites absorbed in the write cache", drives_saved=0, drives_without=288)
    assert _optimism_words(none) == "overwrites absorbed in the write cache: saves no drive"
    one = Optimism(
        effect="single sequential streams (no seek between readaheads)", drives_saved=1, drives_without=97
    )
    assert (
        _optimism_words(one)
        == "single sequential streams (no seek between readaheads): saves 1 drive (97 without it)"
    )
