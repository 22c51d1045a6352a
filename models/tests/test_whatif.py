"""What-if: growth projection, tornado, maximum workload, ranges and degraded modes side by side."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.base import InputError
from models.configuration import Configuration, DrivePool
from models.controller import ControllerSpec
from models.evaluate import DegradedMode, evaluate
from models.ports import PortGroup
from models.raid import RaidLayout
from models.tests.conftest import make_config, oltp
from models.whatif import (
    BandMethod,
    Range,
    SensitivitySteps,
    Uncertainty,
    cache_for_hit_ratio,
    degraded_modes,
    growth_projection,
    max_workload,
    outcome,
    ranges,
    sensitivity,
    window_hit_ratio,
)
from models.workload import Phase, Skew, Workload

CHEAP_CPU = {
    "cpu_us_read_hit": 1.0,
    "cpu_us_read_miss": 1.0,
    "cpu_us_write": 1.0,
    "cpu_us_per_kib": 0.0,
    "cpu_us_per_backend_io": 0.1,
}
POINT = Range(low=0.0, expected=0.0, high=0.0)
ONE = Range(low=1.0, expected=1.0, high=1.0)


def config(
    drive, scheme="raid10", width=2, count=8, *, dram_gb=0.0, ctrl=None, ports=64, **kw
) -> Configuration:
    """Two controllers with cheap CPU (the drives bind), plenty of 10GbE ports."""
    return Configuration(
        name=f"{scheme}-{count}",
        controller=ControllerSpec(
            **{"model": "t", "count": 2, "cores": 4, "dram_cache_gb": dram_gb, **CHEAP_CPU, **(ctrl or {})}
        ),
        ports=[PortGroup(type="10gbe", count=ports)],
        pools=[
            DrivePool(
                name="p", drive=drive, drive_count=count, raid=RaidLayout(scheme=scheme, group_width=width)
            )
        ],
        **kw,
    )


def reader(
    iops=1000.0, ws_gb=100.0, alpha=None, target=None, growth=0.0, years=0.0, read_pct=100.0, cap_tb=1.0
):
    return Workload(
        name="app",
        capacity_tb=cap_tb,
        working_set_gb=ws_gb,
        growth_pct_per_year=growth,
        horizon_years=years,
        skew=Skew(zipf_alpha=alpha),
        phases=[
            Phase(
                name="day",
                window="day",
                iops=iops,
                read_pct=read_pct,
                io_size_kib=4,
                read_latency_target_ms=target,
            )
        ],
    )


def no_uncertainty(**ranges_) -> Uncertainty:
    """Every range a point except those given."""
    base = {
        "skew_alpha_delta": POINT,
        "hot_data_factor": ONE,
        "working_set_factor": ONE,
        "full_stripe_share_delta": POINT,
        "cache_factor": ONE,
        "locality_b_delta": POINT,
        "scaling_efficiency": ONE,
    }
    return Uncertainty(**{**base, **ranges_})


# ---- outcome ------------------------------------------------------------------------------------


def test_headroom_used_is_the_binding_check_over_its_limit(hdd15k):
    res = evaluate([oltp()], make_config(hdd15k, "raid10", 2, 96))
    out = outcome(res)
    drives = next(c for c in res.windows[0].checks if c.name == "drives:aggr0")
    # drives bind: headroom used = U_drives / 70%
    assert out.binding == "business hours: drives:aggr0"
    assert out.headroom_used_pct == pytest.approx(100 * drives.value / 70.0)
    assert out.windows[0].max_utilization_pct == pytest.approx(drives.value)


# ---- growth -------------------------------------------------------------------------------------


def test_growth_factor_compounds_monthly(hdd15k):
    # 20%/year: month 6 = 1.2^0.5 = 1.0954, month 12 = 1.2, month 24 = 1.44
    proj = growth_projection(
        [oltp(growth_pct_per_year=20, horizon_years=2)], make_config(hdd15k, "raid-dp", 16, 96)
    )
    f = {p.month: p.factors["oltp"] for p in proj.points}
    assert proj.months == 24 and len(proj.points) == 25
    assert f[6] == pytest.approx(1.2**0.5)
    assert f[12] == pytest.approx(1.2)
    assert f[24] == pytest.approx(1.44)
    assert proj.points[12].capacity_needed_tb == pytest.approx(2.0 * 1.2)


def test_capacity_breaks_in_the_first_month_the_need_exceeds_usable(hdd15k):
    # 2 TB doubling every year: need(m) = 2 x 2^(m/12) > U  <=>  m > 12 log2(U / 2)
    cfg = make_config(hdd15k, "raid-dp", 16, 32)
    usable = evaluate([oltp()], cfg).capacity.usable_tb
    proj = growth_projection([oltp(iops=100, growth_pct_per_year=100, horizon_years=5)], cfg)
    assert proj.capacity_break_month == math.floor(12 * math.log2(usable / 2.0)) + 1


def test_without_a_horizon_the_projection_runs_36_months_and_says_so(hdd15k):
    proj = growth_projection([oltp(growth_pct_per_year=10)], make_config(hdd15k, "raid-dp", 16, 48))
    assert proj.months == 36
    assert any("36 months" in n for n in proj.notes)


def test_growth_break_matches_the_maximum_load_scale(hdd15k):
    # With a fixed working set, month m is the base load times f(m), so the window breaks in the
    # first month f(m) exceeds the largest scale the window sustains.
    wl = oltp(iops=3000, growth_pct_per_year=50, horizon_years=4, target=15)
    cfg = make_config(hdd15k, "raid-dp", 16, 32)
    proj = growth_projection([wl], cfg, grow_working_set=False)
    scale = max_workload([wl], cfg).max_scale
    m = proj.windows[0].break_month
    assert m is not None and m > 0
    assert 1.5 ** ((m - 1) / 12) <= scale * 1.001
    assert 1.5 ** (m / 12) >= scale * 0.999
    assert proj.first_break_month == min(m, proj.capacity_break_month or m)


def test_a_window_that_never_breaks_has_no_break_month(hdd15k):
    proj = growth_projection([oltp(iops=200, horizon_years=1)], make_config(hdd15k, "raid-dp", 16, 96))
    assert proj.windows[0].break_month is None
    assert proj.first_break_month is None
    assert "Meets every target" in proj.text


def test_growth_steps_and_bounds_are_checked(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 48)
    with pytest.raises(InputError) as e:
        growth_projection([oltp()], cfg, step_months=0)
    assert e.value.field == "step_months"
    with pytest.raises(InputError) as e:
        growth_projection([oltp()], cfg, months=241)
    assert e.value.field == "months"
    proj = growth_projection([oltp(horizon_years=1)], cfg, step_months=5)
    assert [p.month for p in proj.points] == [0, 5, 10, 12]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=st.floats(0.0, 150.0), more=st.floats(0.0, 150.0), ws=st.floats(20.0, 400.0))
def test_more_growth_never_breaks_later(hdd15k, g, more, ws):
    cfg = make_config(hdd15k, "raid-dp", 16, 32)

    def first_break(rate):
        wl = oltp(iops=2500, ws_gb=ws, growth_pct_per_year=rate, horizon_years=3, target=12)
        proj = growth_projection([wl], cfg)
        b = proj.windows[0]
        return tuple(
            math.inf if x is None else x
            for x in (b.break_month, b.latency_break_month, b.headroom_break_month, proj.capacity_break_month)
        )

    slow, fast = first_break(g), first_break(g + more)
    assert all(f <= s for f, s in zip(fast, slow, strict=True)), (slow, fast)


# ---- sensitivity --------------------------------------------------------------------------------


def test_iops_step_moves_a_linear_ssd_back_end_by_exactly_the_step(ssd):
    # SSD busy time is linear in load (no command-queuing effect): +/-10% IOPS -> +/-10% headroom used
    cfg = config(ssd, count=4)
    res = sensitivity([reader(iops=400_000)], cfg)
    bar = next(b for b in res.bars if b.input == "iops")
    base = res.base.headroom_used_pct
    assert res.base.binding == "day: drives:p"
    assert bar.high.headroom_used_pct == pytest.approx(1.1 * base)
    assert bar.low.headroom_used_pct == pytest.approx(0.9 * base)
    assert bar.swing_pts == pytest.approx(0.2 * base)


def test_bars_are_ranked_by_swing_and_inapplicable_inputs_come_last(hdd15k):
    # RAID10 has no full-stripe share: layout aging cannot matter
    res = sensitivity([reader(iops=800, alpha=0.8)], config(hdd15k, count=8, dram_gb=4))
    applicable = [b for b in res.bars if b.applicable]
    swings = [b.swing_pts for b in applicable]
    assert swings == sorted(swings, reverse=True)
    aging = next(b for b in res.bars if b.input == "layout_aging")
    assert not aging.applicable and aging.swing_pts == 0
    assert res.bars[-1].applicable is False
    assert [b.rank for b in res.bars] == list(range(1, len(res.bars) + 1))
    assert res.most_influential == res.bars[0].input


def half_full(cfg):
    """The pool planned at 50% full: a write-anywhere layout finds free stripes."""
    return cfg.model_copy(update={"pools": [cfg.pools[0].model_copy(update={"planned_fill_pct": 50.0})]})


def test_layout_aging_matters_for_raid_dp_writes(hdd15k):
    res = sensitivity([oltp(read_pct=30)], half_full(make_config(hdd15k, "raid-dp", 16, 96)))
    aging = next(b for b in res.bars if b.input == "layout_aging")
    # fewer full stripes (older layout) cost more back-end I/O
    assert aging.applicable
    assert aging.low.headroom_used_pct > res.base.headroom_used_pct > aging.high.headroom_used_pct


def test_drive_count_moves_in_whole_raid_groups(hdd15k):
    res = sensitivity(
        [oltp()], make_config(hdd15k, "raid-dp", 16, 48), steps=SensitivitySteps(drive_count_pct=10)
    )
    bar = next(b for b in res.bars if b.input == "drive_count")
    # 3 groups of 16: 10% rounds to 0 groups, so one group: 32 and 64 drives
    assert "48 -> 32" in bar.low_setting and "48 -> 64" in bar.high_setting
    assert bar.low.headroom_used_pct > res.base.headroom_used_pct > bar.high.headroom_used_pct


def test_cache_for_hit_ratio_gives_that_hit_ratio(hdd15k):
    wl = [reader(iops=500, ws_gb=200, alpha=0.9)]
    cfg = config(hdd15k, count=8, dram_gb=4)
    gb = cache_for_hit_ratio(wl, cfg, "day", 60.0)
    total = gb / 2  # DRAM per controller, two serving
    changed = cfg.model_copy(
        update={"controller": cfg.controller.model_copy(update={"dram_cache_gb": total})}
    )
    assert 100 * window_hit_ratio(wl, evaluate(wl, changed), "day") == pytest.approx(60.0, abs=0.05)
    assert cache_for_hit_ratio(wl, cfg, "day", 100.0) == pytest.approx(200.0)  # the whole working set
    assert cache_for_hit_ratio(wl, cfg, "day", 0.0) == 0.0


def test_hit_ratio_bar_moves_the_hit_ratio_by_the_step(hdd15k):
    res = sensitivity([reader(iops=500, ws_gb=200, alpha=0.9)], config(hdd15k, count=8, dram_gb=4))
    bar = next(b for b in res.bars if b.input == "hit_ratio")
    assert bar.applicable
    # more hits, fewer drive reads
    assert bar.high.headroom_used_pct < res.base.headroom_used_pct < bar.low.headroom_used_pct


def test_a_write_only_workload_has_no_hit_ratio_to_move(hdd15k):
    res = sensitivity([reader(iops=300, read_pct=0)], config(hdd15k, count=8, dram_gb=4))
    bar = next(b for b in res.bars if b.input == "hit_ratio")
    assert not bar.applicable


# ---- maximum workload ---------------------------------------------------------------------------


def test_max_workload_of_a_controller_bound_system_is_the_iops_ceiling(ssd):
    # 2 controllers x 10,000 IOPS ceiling, active-active limit 50% each: 10,000 IOPS; base 2,000 -> x5
    cfg = config(ssd, count=8, ctrl={"max_iops": 10_000})
    res = max_workload([reader(iops=2000)], cfg)
    w = res.windows[0]
    assert w.max_scale == pytest.approx(5.0, rel=2e-4)
    assert w.max_iops == pytest.approx(10_000, rel=2e-4)
    assert w.binding.startswith("controllers")
    assert w.headroom_pct == pytest.approx(400.0, rel=1e-3)


def test_a_latency_target_can_bind_before_any_headroom_limit(hdd15k):
    # 100 GB short-stroked on 16 drives: ~3.1 ms unloaded, ~7 ms at 70% busy; a 5 ms target binds first
    res = max_workload([reader(iops=200, target=5.0)], config(hdd15k, count=16))
    w = res.windows[0]
    assert w.binding == "read latency:app/day"
    at = evaluate([reader(iops=200 * w.max_scale, target=5.0)], config(hdd15k, count=16))
    assert at.windows[0].pools[0].drive_utilization_pct.value < 70


def test_an_idle_window_has_no_maximum(hdd15k):
    wl = oltp()
    idle = wl.model_copy(
        update={
            "phases": [*wl.phases, Phase(name="idle", window="night", iops=0, read_pct=50, io_size_kib=8)]
        }
    )
    res = max_workload([idle], make_config(hdd15k, "raid-dp", 16, 48))
    night = next(w for w in res.windows if w.window == "night")
    assert night.max_scale is None
    assert res.max_scale == next(w for w in res.windows if w.window == "business hours").max_scale


def test_every_window_keeps_its_own_mix(hdd15k):
    wl = oltp()
    two = wl.model_copy(
        update={
            "phases": [*wl.phases, Phase(name="n", window="night", iops=4000, read_pct=10, io_size_kib=64)]
        }
    )
    res = max_workload([two], make_config(hdd15k, "raid-dp", 16, 48))
    scales = {w.window: w.max_scale for w in res.windows}
    assert res.max_scale == min(scales.values())
    assert res.binding_window == min(scales, key=scales.get)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    iops=st.floats(200.0, 20000.0),
    read_pct=st.integers(0, 100),
    groups=st.integers(1, 6),
    target=st.one_of(st.none(), st.floats(4.0, 40.0)),
)
def test_max_workload_meets_every_target_and_one_percent_more_does_not(
    hdd15k, iops, read_pct, groups, target
):
    cfg = make_config(hdd15k, "raid-dp", 16, 16 * groups)
    wl = [oltp(iops=iops, read_pct=read_pct, target=target)]
    res = max_workload(wl, cfg)
    s = res.max_scale
    assert s is not None
    if s > 0:
        assert evaluate(wl, cfg, load_scale=s).windows[0].passed
    assert not evaluate(wl, cfg, load_scale=max(s * 1.01, 1e-6)).windows[0].passed


# ---- ranges -------------------------------------------------------------------------------------


def test_skew_alone_moves_capability_several_fold(hdd15k):
    # 200 GB hot set, 16 GB of DRAM: uniform access hits 8%, Zipf 1.2 most reads; the drives carry
    # only the misses, so the load the drives sustain scales with 1 / miss ratio.
    wl = [reader(iops=500, ws_gb=200, alpha=0.6)]
    cfg = config(hdd15k, count=8, dram_gb=8)
    res = ranges(
        wl, cfg, uncertainty=no_uncertainty(skew_alpha_delta=Range(low=-0.6, expected=0.0, high=0.6))
    )
    cap = res.capability_scale
    assert cap is not None and cap.low is not None and cap.high is not None
    assert cap.high / cap.low >= 3.0
    assert cap.low <= cap.expected <= cap.high
    assert res.most_influential == "skew_alpha_delta"
    assert res.ranking[0].swing_pts > 0
    assert all(not b.applicable for b in res.ranking[1:])


def test_ends_band_brackets_the_expected_value(hdd15k):
    res = ranges(
        [oltp(skew=Skew(zipf_alpha=0.8))], half_full(make_config(hdd15k, "raid-dp", 16, 96)), capability=False
    )
    assert res.method is BandMethod.ENDS and res.samples == 3
    for band in (res.headroom_used_pct, res.read_latency_ms, res.windows[0].headroom_used_pct):
        assert band.low <= band.expected <= band.high
    assert res.pessimistic.headroom_used_pct == res.headroom_used_pct.high
    assert res.optimistic.headroom_used_pct == res.headroom_used_pct.low
    assert res.capability_scale is None
    # the defaults: skew, working set, layout aging (RAID-DP) and cache apply; no tiering, no scale-out
    applicable = {b.input for b in res.ranking if b.applicable}
    assert applicable == {"skew_alpha_delta", "working_set_factor", "full_stripe_share_delta", "cache_factor"}


def test_monte_carlo_is_seeded_and_stays_inside_the_ends(hdd15k):
    wl = [oltp(skew=Skew(zipf_alpha=0.8))]
    cfg = half_full(make_config(hdd15k, "raid-dp", 16, 96))
    a = ranges(wl, cfg, method=BandMethod.MONTE_CARLO, samples=24, seed=7, capability=False)
    b = ranges(wl, cfg, method=BandMethod.MONTE_CARLO, samples=24, seed=7, capability=False)
    ends = ranges(wl, cfg, capability=False)
    assert a.headroom_used_pct == b.headroom_used_pct and a.samples == 24 and a.seed == 7
    assert 0.0 <= a.pass_probability <= 1.0
    # every input is monotone, so every sample lies between the optimistic and pessimistic ends
    assert ends.headroom_used_pct.low - 1e-9 <= a.headroom_used_pct.low
    assert a.headroom_used_pct.high <= ends.headroom_used_pct.high + 1e-9


def test_scaling_efficiency_only_touches_scale_out_nodes(ssd):
    wl = [reader(iops=20_000)]
    eff = no_uncertainty(scaling_efficiency=Range(low=0.5, expected=1.0, high=1.0))
    pair = ranges(wl, config(ssd, count=8, ctrl={"max_iops": 10_000}), uncertainty=eff)
    assert not next(b for b in pair.ranking if b.input == "scaling_efficiency").applicable
    nodes = config(ssd, count=8, ctrl={"max_iops": 10_000, "count": 4, "ha_mode": "scale-out"})
    res = ranges(wl, nodes, uncertainty=eff)
    # 4 nodes x 10,000 IOPS at 70%: 28,000 IOPS = x1.4; at 50% efficiency x0.7
    assert res.capability_scale.high == pytest.approx(1.4, rel=2e-3)
    assert res.capability_scale.low == pytest.approx(0.7, rel=2e-3)


def test_a_range_out_of_order_is_rejected():
    with pytest.raises(ValidationError):
        Range(low=1.0, expected=0.5, high=2.0)
    with pytest.raises(ValidationError, match="working_set_factor"):
        Uncertainty(working_set_factor=Range(low=0.0, expected=1.0, high=2.0))


# ---- degraded modes -----------------------------------------------------------------------------


def test_all_degraded_modes_side_by_side_with_rebuild_exposure(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 48)
    res = degraded_modes([oltp()], cfg)
    assert [m.mode for m in res.modes] == list(DegradedMode)
    assert all(m.available for m in res.modes)
    rebuilding = next(m for m in res.modes if m.mode is DegradedMode.REBUILDING)
    (exp,) = rebuilding.rebuild
    hours = exp.rebuild_hours.value
    direct = evaluate([oltp()], cfg, degraded=DegradedMode.REBUILDING).windows[0].pools[0].rebuild_hours.value
    assert hours == pytest.approx(direct)
    # RAID-DP 16: 15 surviving drives at 2%/year: P = 1 - exp(-15 x 0.02 x h / 8766)
    assert exp.further_failure_pct.value == pytest.approx(100 * (1 - math.exp(-15 * 0.02 * hours / 8766)))
    assert exp.failures_tolerated_during_rebuild == 1
    assert exp.unreadable_sector_pct is None


def test_raid5_rebuild_reports_the_unreadable_sector_risk(hdd15k):
    cfg = make_config(hdd15k, "raid5", 8, 48)
    res = degraded_modes([oltp()], cfg, ure_per_bit=1e-15)
    exp = next(m for m in res.modes if m.mode is DegradedMode.REBUILDING).rebuild[0]
    # 7 survivors x 300 GB x 8e9 bits x 1e-15 stated = 0.0168 expected errors
    assert exp.failures_tolerated_during_rebuild == 0
    assert exp.unreadable_sector_pct.value == pytest.approx(100 * (1 - math.exp(-7 * 300 * 8e9 * 1e-15)))
    assert "loses data" in exp.text
    # unstated: the drive's own rating, one per 10^16 bits for a 15K drive, as the per-window verdict
    modes = degraded_modes([oltp()], cfg).modes
    plain = next(m for m in modes if m.mode is DegradedMode.REBUILDING).rebuild[0]
    assert plain.unreadable_sector_pct.value == pytest.approx(100 * (1 - math.exp(-7 * 300 * 8e9 * 1e-16)))


def test_a_single_controller_cannot_lose_one(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 48, ctrl={"count": 1, "ha_mode": "single"})
    res = degraded_modes([oltp()], cfg)
    down = next(m for m in res.modes if m.mode is DegradedMode.CONTROLLER_FAILED)
    assert not down.available and down.result is None
    assert "single controller" in down.note


def test_the_degraded_summary_speaks_words_and_marks_a_met_latency_as_met(hdd15k):
    # 16 x 15K in RAID-5 3+1, 1,900 random reads: the drives are 1,900 / 1,500 x 57.08% = 72.3% busy
    # (72.3 / 70 = 103.3% of the limit: the window fails) while its reads take far less than the 200 ms target
    cfg = make_config(hdd15k, "raid5", 4, 16)
    wl = oltp(iops=1900, read_pct=100, ws_gb=2000, capacity_tb=2, target=200)
    res = degraded_modes([wl], cfg)
    normal = next(m for m in res.modes if m.mode is DegradedMode.NONE).outcome
    assert normal is not None and not normal.passed
    (w,) = normal.windows
    assert not w.passed and w.read_latency_met is True
    # with a drive failed the group is 144.6% busy: saturated, its reads miss the target
    failed = next(m for m in res.modes if m.mode is DegradedMode.DRIVE_FAILED).outcome
    assert failed is not None and failed.windows[0].read_latency_met is False
    assert res.text.startswith(
        "Normal operation: fails; nearest its limit: the drives in business hours at 103.3% of its limit; "
        "with a drive failed: fails; nearest its limit: the read latency of oltp, day in business hours, "
        "saturated (it cannot keep up); while a drive rebuilds: fails;"
    )
    assert "The rebuild takes 8.33 h; a further failure among 3 drive(s) in that time" in res.text
    assert "Worst: with a drive failed." in res.text or "Worst: while a drive rebuilds." in res.text
    for internal in ("inf", "drives:", "drive-failed", "controller-failed", "aggr0"):
        assert internal not in res.text
    # no phase states a target: no mark
    plain = degraded_modes([oltp(iops=1900, read_pct=100, ws_gb=2000, capacity_tb=2)], cfg)
    assert plain.modes[0].outcome is not None and plain.modes[0].outcome.windows[0].read_latency_met is None


def test_a_windows_max_iops_carries_its_product_in_words():
    from models.whatif.capability import WindowCapability

    def capability(scale: float | None, max_iops: float | None) -> WindowCapability:
        return WindowCapability(
            window="day",
            base_iops=20_000.0,
            max_scale=scale,
            max_iops=max_iops,
            max_mb_s=None,
            headroom_pct=None,
            binding="drives:aggr0",
            binding_words="the drives",
            binding_text="drives of aggr0 busy",
            evaluations=14,
        )

    # 20,000 IOPS today x 1.25 = 25,000
    ex = capability(1.25, 25_000.0).max_iops_explained
    assert (ex.value, ex.unit, ex.text) == (25_000.0, "IOPS", "max IOPS = 20,000 x 1.25 = 25,000")
    assert ex.inputs == {"IOPS today": 20_000.0, "max scale": 1.25, "evaluations": 14}
    assert capability(None, None).max_iops_explained.text == "idle window: nothing to scale"
