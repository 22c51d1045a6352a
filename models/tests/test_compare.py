"""Comparisons: headline figures side by side, deltas against the first, and figure changes."""

from __future__ import annotations

import pytest

from models.base import InputError
from models.compare import PassChange, compare, delta, figure_changes, figures, headline
from models.evaluate import evaluate
from models.tests.conftest import make_config, oltp


def test_the_headline_takes_drives_capacity_cost_and_window_figures_from_the_evaluation(hdd15k):
    result = evaluate([oltp()], make_config(hdd15k, "raid-dp", 16, 32))

    h = headline(result)

    assert h.drives == result.bill.drives == 32
    assert h.drives_total == result.bill.drives + result.bill.spares
    assert h.usable_tb == result.capacity.usable_tb
    assert h.cost_usd == result.bill.cost_usd
    (window,) = h.windows
    assert window.read_latency_ms == result.windows[0].read_latency_ms
    assert window.controller_busy_pct == result.windows[0].controller_utilization_pct.value
    assert window.drive_busy_pct == result.windows[0].pools[0].drive_utilization_pct.value


def test_the_first_configuration_is_the_base_and_its_delta_is_zero(hdd15k):
    results = [
        evaluate([oltp()], make_config(hdd15k, "raid-dp", 16, n, name=f"{n} drives")) for n in (32, 48)
    ]

    comparison = compare(results)

    assert comparison.base == "32 drives"
    base = comparison.columns[0].delta
    assert (base.drives_total, base.usable_tb, base.cost_usd, base.passed) == (0, 0.0, 0.0, PassChange.SAME)
    assert all(w.read_latency_ms == 0.0 for w in base.windows)


def test_sixteen_more_drives_show_as_plus_sixteen_and_lower_drive_busy(hdd15k):
    # 32 -> 48 drives in RAID-DP 16; spares max(1, ceil(n / 30)) are 2 for both, so 16 more to buy
    small, large = (evaluate([oltp()], make_config(hdd15k, "raid-dp", 16, n)) for n in (32, 48))

    d = delta(headline(small), headline(large))

    assert large.bill.spares == small.bill.spares == 2
    assert d.drives_total == 16
    assert d.usable_tb == pytest.approx(large.capacity.usable_tb - small.capacity.usable_tb)
    assert d.usable_tb > 0
    (window,) = d.windows
    assert window.drive_busy_pct is not None and window.drive_busy_pct < 0
    assert window.controller_busy_pct == pytest.approx(0.0)  # the same load on the same controllers


def test_a_configuration_that_passes_where_the_base_fails_now_passes(hdd15k):
    heavy = oltp(iops=6000, target=20)
    failing, passing = (evaluate([heavy], make_config(hdd15k, "raid10", 2, n)) for n in (4, 128))
    assert not failing.passed and passing.passed

    assert delta(headline(failing), headline(passing)).passed is PassChange.NOW_PASSES
    assert delta(headline(passing), headline(failing)).passed is PassChange.NOW_FAILS


def test_a_saturated_latency_makes_its_delta_unknown_not_a_number(hdd15k):
    saturated = evaluate([oltp(iops=50000)], make_config(hdd15k, "raid10", 2, 4))
    fine = evaluate([oltp()], make_config(hdd15k, "raid10", 2, 64))
    assert saturated.windows[0].read_latency_ms is None

    d = delta(headline(fine), headline(saturated))

    assert d.windows[0].read_latency_ms is None


def test_a_cost_unknown_on_either_side_gives_no_cost_delta(hdd15k):
    priced = headline(evaluate([oltp()], make_config(hdd15k, "raid-dp", 16, 32)))
    unpriced_drive = hdd15k.model_copy(update={"price_usd": None})
    unpriced = headline(evaluate([oltp()], make_config(unpriced_drive, "raid-dp", 16, 32)))

    assert unpriced.cost_usd is None
    assert delta(priced, unpriced).cost_usd is None


def test_nothing_to_compare_is_an_input_error():
    with pytest.raises(InputError) as exc:
        compare([])
    assert exc.value.field == "configurations"


def test_figures_name_every_window_figure(hdd15k):
    h = headline(evaluate([oltp()], make_config(hdd15k, "raid-dp", 16, 32)))

    named = figures(h, prefix="[1] ")

    assert named["[1] drives_total"] == h.drives_total
    assert named["[1] business hours: read_latency_ms"] == h.windows[0].read_latency_ms
    assert named["[1] passed"] is h.passed


def test_figure_changes_list_every_figure_with_its_delta():
    before = {"drives": 24, "latency": 4.0, "passed": True, "gone": 1.0}
    after = {"drives": 24, "latency": 5.5, "passed": False, "new": "x"}

    changes = {c.figure: c for c in figure_changes(before, after)}

    assert list(changes) == ["drives", "latency", "passed", "gone", "new"]
    assert not changes["drives"].changed and changes["drives"].delta == 0
    assert changes["latency"].changed and changes["latency"].delta == pytest.approx(1.5)
    assert changes["passed"].changed and changes["passed"].delta is None  # booleans have no delta
    assert changes["gone"].changed and changes["gone"].after is None
    assert changes["new"].changed and changes["new"].before is None


def test_round_off_from_a_recomputation_is_not_a_change():
    changes = figure_changes({"x": 0.1 + 0.2}, {"x": 0.3})

    assert not changes[0].changed


def test_the_headline_names_its_bottleneck_in_words(hdd15k):
    # 5,000 IOPS, 30% writes, on 16 drives in RAID-DP: its two dedicated parity drives take every
    # write's parity updates and are the busiest part; one pool, so it goes unnamed
    res = evaluate([oltp(iops=5000)], make_config(hdd15k, "raid-dp", 16, 16))
    assert res.bottleneck == "parity drives:aggr0 (business hours)"
    assert headline(res).bottleneck_words == "the parity drives (business hours)"
    # in RAID 10 every drive serves data: the drives
    mirrored = evaluate([oltp(iops=5000)], make_config(hdd15k, "raid10", 2, 16))
    assert mirrored.bottleneck == "drives:aggr0 (business hours)"
    assert headline(mirrored).bottleneck_words == "the drives (business hours)"
    # a stated read-latency target the drives cannot meet: the phase's latency, in words
    tight = evaluate([oltp(iops=500, target=1.0)], make_config(hdd15k, "raid-dp", 16, 48))
    assert tight.bottleneck == "read latency:oltp/day (business hours)"
    assert headline(tight).bottleneck_words == "the read latency of oltp, day (business hours)"
