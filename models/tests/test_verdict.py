"""The headline verdict over every case (models.verdict): failures, cold caches and growth decide it."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.base import InputError
from models.cases import HEALTHY_ONLY, Case, Relaxation
from models.evaluate import DegradedMode, evaluate
from models.size import size
from models.tests.conftest import make_config, oltp
from models.verdict import grown_workloads, horizon_months, judge, meets, plan
from models.workload import Phase, Workload


def reads_only(iops: float) -> Workload:
    """Random 8 KiB reads over a working set far larger than the controllers' 16 GB of DRAM."""
    return oltp(iops=iops, read_pct=100, ws_gb=2000, capacity_tb=2)


def test_a_raid5_3_plus_1_pool_57_pct_busy_meets_healthy_but_fails_with_a_drive_failed(hdd15k):
    # 16 x 300 GB 15K in RAID-5 groups of 4, 1,500 random reads: data drives U = 57.08% (< 70%).
    # A failed drive's reads are rebuilt from the 3 others: reads per read (1 - 1/4) + 3/4 = 1.5,
    # on 3 drives of 4: U_failed = 57.08% x 1.5 x 4/3 = 114.17% > 100%: the group cannot keep up.
    cfg = make_config(hdd15k, "raid5", 4, 16)
    wl = reads_only(1500)
    healthy = evaluate([wl], cfg)
    u = healthy.windows[0].pools[0].drive_utilization_pct.value
    assert healthy.passed and u == pytest.approx(57.08, abs=0.01)
    failed = evaluate([wl], cfg, degraded=DegradedMode.DRIVE_FAILED).windows[0].pools[0]
    assert failed.degraded_group_utilization_pct == pytest.approx(u * 1.5 * 4 / 3)
    # rebuilding adds the guaranteed 10 MB/s over the drive's 100 MB/s media rate: +10 points
    rebuilding = evaluate([wl], cfg, degraded=DegradedMode.REBUILDING).windows[0].pools[0]
    assert rebuilding.degraded_group_utilization_pct == pytest.approx(u * 2 + 10.0)

    verdict = judge([wl], cfg)
    assert not verdict.passed
    status = {(o.case, o.window): o.status for o in verdict.cases}
    assert status[(Case.HEALTHY, "business hours")] == "meets"
    assert status[(Case.DRIVE_FAILED, "business hours")] == "fails"
    assert status[(Case.REBUILDING, "business hours")] == "fails"
    assert verdict.headline.startswith("Does not meet every target: business hours fails with a drive failed")


def test_a_relaxed_case_is_named_in_the_headline_and_no_longer_decides(hdd15k):
    cfg = make_config(hdd15k, "raid5", 4, 16)
    relax = [Relaxation(case="drive-failed"), Relaxation(case="rebuilding", window="business hours")]
    verdict = judge([reads_only(1500)], cfg, relax)
    assert verdict.passed
    assert verdict.headline == (
        "Meets every target healthy, after a controller or node failover and with cold caches after a "
        "restart; not sized for a drive failure; a rebuild in business hours."
    )
    assert {o.status for o in verdict.cases if o.case in (Case.DRIVE_FAILED, Case.REBUILDING)} == {"relaxed"}


def test_size_adds_drives_until_the_failed_group_keeps_up(hdd15k):
    # healthy alone, 16 drives hold 1,500 reads at 57% (< 70%); with a drive failed the group needs
    # U x 2 <= 100%, and rebuilding U x 2 + 10 <= 100%: U <= 45%, so 16 x 57.08 / 45 = 20.3 -> 24
    family = make_config(hdd15k, "raid5", 4, None)
    wl = reads_only(1500)
    assert size([wl], family, relax=HEALTHY_ONLY).drive_count == 16
    out = size([wl], family)
    assert out.drive_count == 24
    assert out.result.passed and out.result.verdict is not None and out.result.verdict.passed
    assert "while a drive rebuilds" in out.binding_constraint
    assert "would pass its limit" in out.explanation and "while a drive rebuilds" in out.explanation
    relaxed = size([wl], family, relax=[Relaxation(case="drive-failed"), Relaxation(case="rebuilding")])
    assert relaxed.drive_count == 16
    assert relaxed.result.verdict is not None
    assert relaxed.result.verdict.headline.endswith("not sized for a drive failure; a rebuild.")


def test_the_horizon_grows_load_as_the_growth_analysis_does():
    # 20%/year over 3 years: month 36, f = 1.2^3 = 1.728 on IOPS, MB/s, working set and capacity
    wl = Workload(
        name="db",
        capacity_tb=10,
        growth_pct_per_year=20,
        horizon_years=3,
        working_set_gb=500,
        phases=[
            Phase(name="day", window="day", iops=10000, read_pct=70, io_size_kib=8),
            Phase(name="scan", window="night", mb_per_s=200, read_pct=100, random_pct=0, io_size_kib=256),
        ],
    )
    assert horizon_months([wl]) == 36
    (grown,) = grown_workloads([wl], 36)
    assert grown.phases[0].iops == pytest.approx(17280.0)
    assert grown.phases[1].mb_per_s == pytest.approx(345.6)
    assert grown.working_set_gb == pytest.approx(864.0)
    assert grown.capacity_tb == pytest.approx(17.28)
    p = plan([wl])
    assert [label for label, _ in p.loads] == ["at month 36"]  # growth >= 0: today's load is no worse
    assert [label for label, _ in plan([wl], [Relaxation(case="horizon")]).loads] == ["today"]


def test_no_stated_horizon_judges_todays_load_and_says_so(hdd15k):
    verdict = judge([oltp(iops=500)], make_config(hdd15k, "raid-dp", 16, 32))
    assert verdict.horizon_months is None
    assert any("no workload states a growth horizon" in n for n in verdict.notes)


def test_a_relaxation_naming_an_unknown_window_is_an_input_error():
    with pytest.raises(InputError) as e:
        plan([oltp()], [Relaxation(case="rebuilding"), Relaxation(case="cold-cache", window="weekend")])
    assert e.value.field == "relax.1.window"


def test_a_single_controller_has_no_failover_case(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 32, ctrl={"count": 1, "ha_mode": "single"})
    verdict = judge([oltp(iops=500)], cfg)
    assert {o.status for o in verdict.cases if o.case is Case.FAILOVER} == {"not applicable"}
    assert any(n.startswith("a controller or node failover does not apply") for n in verdict.notes)


def test_the_rebuild_time_of_every_window_sentence_is_the_slowest_windows(hdd15k):
    wl = Workload(
        name="two",
        capacity_tb=2,
        working_set_gb=200,
        phases=[
            Phase(name="light", window="a", iops=200, read_pct=70, io_size_kib=8),
            # heavy enough (74% busy with a drive failed) that the idle share, not the priority, binds
            Phase(name="heavy", window="b", iops=3500, read_pct=70, io_size_kib=8),
        ],
    )
    res = evaluate([wl], make_config(hdd15k, "raid-dp", 16, 48))
    hours = [w.pools[0].failure.rebuild_hours.value for w in res.windows]  # type: ignore[union-attr]
    assert hours[1] > hours[0]
    slowest = (
        f"the rebuild takes {res.windows[1].failure_verdict.split('rebuild takes ')[1].split(' h')[0]} h"  # type: ignore[union-attr]
    )
    for w in res.windows:
        assert w.failure_verdict is not None and slowest in w.failure_verdict
        assert "(at b's load, the slowest)" in w.failure_verdict


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(iops=st.floats(100, 4000), read_pct=st.floats(0, 100), groups=st.integers(2, 12))
def test_rebuilding_is_never_lighter_than_a_drive_failed(hdd15k, iops, read_pct, groups):
    # the dominance the sizing probe relies on: U_rebuild = U_failed + r_min / media >= U_failed
    cfg = make_config(hdd15k, "raid6", 8, 8 * groups)
    wl = oltp(iops=iops, read_pct=read_pct)
    failed = evaluate([wl], cfg, degraded=DegradedMode.DRIVE_FAILED, explain=False)
    rebuilding = evaluate([wl], cfg, degraded=DegradedMode.REBUILDING, explain=False)
    u_f = failed.windows[0].pools[0].degraded_group_utilization_pct
    u_r = rebuilding.windows[0].pools[0].degraded_group_utilization_pct
    assert u_f is not None and u_r is not None and u_r >= u_f
    if rebuilding.passed:
        assert failed.passed
    # and the probe agrees with the full verdict
    assert meets([wl], cfg, plan([wl]))[0] == judge([wl], cfg).passed


def test_with_every_case_relaxed_the_verdict_is_the_healthy_evaluation(hdd15k):
    cfg = make_config(hdd15k, "raid5", 4, 16)
    for iops in (500, 1500, 2500):
        wl = reads_only(iops)
        assert judge([wl], cfg, HEALTHY_ONLY).passed == evaluate([wl], cfg).passed
