"""Comparisons: headline figures side by side, deltas against the first, and figure changes."""

from __future__ import annotations

from typing import get_args, get_origin

import pytest
from pydantic import BaseModel

from models.base import InputError
from models.catalog.schemas import FlashCacheOption
from models.compare import PassChange, compare, delta, differences, figure_changes, figures, headline, matters
from models.configuration import (
    Architecture,
    Cluster,
    ReductionMode,
    TieringConfig,
    WalPlacement,
    WriteArchitecture,
)
from models.evaluate import evaluate
from models.field_labels import ITEMS, LABELS, NOT_A_DIFFERENCE, FieldLabel, change_words
from models.ports import PortGroup
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


def test_the_headline_shows_the_parity_drives_where_they_bind(hdd15k):
    # RAID-DP keeps two dedicated parity drives per group: every partial-stripe write lands on them
    res = evaluate([oltp(iops=3000, read_pct=30)], make_config(hdd15k, "raid-dp", 16, 32))
    w = res.windows[0]
    parity = w.pools[0].parity_utilization_pct
    assert parity is not None and parity.value is not None
    head = headline(res)
    assert head.windows[0].parity_busy_pct == parity.value
    assert figures(head)["business hours: parity_busy_pct"] == parity.value
    # RAID 10 has no parity drives: no figure, and no named figure for a report to diff
    mirrored = headline(evaluate([oltp(iops=3000, read_pct=30)], make_config(hdd15k, "raid10", 2, 32)))
    assert mirrored.windows[0].parity_busy_pct is None
    assert "business hours: parity_busy_pct" not in figures(mirrored)
    # against the mirror, the delta of a figure one side lacks is unknown
    assert delta(head, mirrored).windows[0].parity_busy_pct is None


def test_the_headline_gives_flash_wear_in_years_of_the_first_pool_to_wear_out(ssd):
    rated = ssd.model_copy(update={"endurance_dwpd": 1.0})  # 1 drive write per day over its warranty
    res = evaluate([oltp(iops=20000, read_pct=30)], make_config(rated, "raid5", 8, 16))
    pool = res.windows[0].pools[0]
    assert pool.endurance is not None
    assert headline(res).windows[0].years_to_wear_out == pool.endurance.years_to_wear_out.value


def test_a_difference_matters_only_past_the_step_a_person_acts_on():
    # 0.0007 ms between two latencies is no difference to anyone: 0.1 ms and 5% must both be passed
    assert not matters("ms", 2.0000, 2.0007)
    assert not matters("ms", 2.0, 2.09)  # under 0.1 ms
    assert not matters("ms", 10.0, 10.4)  # over 0.1 ms but under 5% of 10.4 (0.52 ms)
    assert matters("ms", 10.0, 10.6)
    # busy time: one percentage point
    assert not matters("%", 21.7, 22.5) and matters("%", 21.7, 23.0)
    # counts: any whole drive; money and capacity: 1% of the larger
    assert matters("", 240, 241)
    assert not matters("USD", 354_224, 356_000) and matters("USD", 354_224, 360_000)
    # a unit without a rule: any difference
    assert matters("widgets", 1.0, 1.001)


def test_a_comparison_states_its_rule_for_best(hdd15k):
    res = evaluate([oltp(iops=500)], make_config(hdd15k, "raid-dp", 16, 32))
    comparison = compare([res, res])
    assert comparison.best_rule.startswith("A value is marked best only where it beats another")
    assert {s.unit for s in comparison.significance} >= {"ms", "%", "", "USD"}


def test_differences_name_every_input_but_the_compared_ones(hdd15k):
    a = make_config(hdd15k, "raid-dp", 16, 32)
    b = make_config(hdd15k, "raid10", 2, 40, ctrl={"cores": 8}).model_copy(
        update={"cache": a.cache.model_copy(update={"flash_cache_gb": 512.0})}
    )
    got = differences(a, b, compared=frozenset({"pools.0.raid", "pools.0.drive_count"}))
    assert got == ["CPU cores per controller 4 -> 8", "flash cache 0 -> 512 GB"]
    assert differences(a, a) == []


def test_differences_are_said_in_words_with_units_never_field_names(hdd15k):
    a = make_config(hdd15k, "raid-dp", 16, 32, ctrl={"cpu_us_read_hit": 31.0, "max_iops": None})
    a = a.model_copy(update={"cache": a.cache.model_copy(update={"flash_cache_gb": 1024.0})})
    b = make_config(
        hdd15k,
        "raid-dp",
        16,
        48,
        ctrl={"cpu_us_read_hit": 10.0, "max_iops": 200_000.0, "count": 1, "ha_mode": "single"},
    )
    b = b.model_copy(update={"headroom": b.headroom.model_copy(update={"drive_max_pct": 80.0})})
    assert differences(a, b) == [
        "controllers 2 -> 1",
        "controller high availability active-active -> single",
        "controller CPU per read hit 31 -> 10 µs",  # the unit once when both sides are numbers
        "IOPS ceiling per controller no ceiling -> 200,000 IOPS",  # null in the label's words
        "drives 32 -> 48",
        "flash cache 1,024 -> 0 GB",
        "drive busy limit 70 -> 80%",
    ]


def test_a_part_one_side_lacks_is_said_once_and_pools_by_name_when_several(hdd15k):
    a = make_config(hdd15k, "raid-dp", 16, 32)
    two = a.model_copy(
        update={"pools": [*a.pools, a.pools[0].model_copy(update={"name": "fast", "drive_count": 8})]}
    )
    b = two.model_copy(update={"pools": [two.pools[0], two.pools[1].model_copy(update={"drive_count": 12})]})
    assert differences(two, b) == ["pool fast drives 8 -> 12"]
    assert differences(a, two) == ["pool fast none -> stated"]
    no_tiering = two.model_copy(update={"tiering": None})
    tiered = two.model_copy(update={"tiering": TieringConfig(tiers=["fast", "aggr0"], chunk_mb=1024.0)})
    assert differences(no_tiering, tiered) == ["automated tiering none -> stated"]
    # a part one side lacks is said once, not with each item inside it (the cluster's ports per node)
    clustered = two.model_copy(
        update={
            "cluster": Cluster(
                nodes=2,
                max_nodes=12,
                ports_per_node=[PortGroup(type="10gbe", count=2), PortGroup(type="16gfc", count=2)],
            )
        }
    )
    assert differences(clustered, two) == ["scale-out cluster stated -> none"]


def test_every_input_of_a_configuration_has_words():
    """A new field of the configuration tree needs its label (models.field_labels.LABELS)."""
    for owner, fields in LABELS.items():
        missing = set(owner.model_fields) - set(fields) - NOT_A_DIFFERENCE
        assert not missing, f"{owner.__name__}: no words for {sorted(missing)}"
        assert set(fields) <= set(owner.model_fields), owner.__name__
        for name, field in owner.model_fields.items():  # a list of parts names its items (ITEMS)
            ann = field.annotation
            holds_parts = get_origin(ann) is list and any(issubclass(t, BaseModel) for t in get_args(ann))
            assert holds_parts == ((owner, name) in ITEMS), f"{owner.__name__}.{name}"


def test_a_changed_input_reads_with_its_unit():
    label = FieldLabel("drive busy limit", "%")
    assert change_words(label, 70, 80) == "drive busy limit 70 -> 80%"
    assert change_words(FieldLabel("distributed RAID"), False, True) == "distributed RAID no -> yes"
    assert change_words(FieldLabel("drive power", "W", "not stated"), None, 8.5, "mixed-in") == (
        "mixed-in drive power not stated -> 8.5 W"
    )


def test_the_nearest_flash_cache_size_a_product_sells():
    fixed = FlashCacheOption(name="f", kind="flash-cache", sizes_gb=[256, 512, 1024], source="test")
    assert fixed.nearest(512) == 512
    assert fixed.nearest(600) == 512  # 88 GB away, against 424
    assert fixed.nearest(768) == 1024  # a tie: the larger, never less cache when it can be helped
    assert fixed.nearest(4096) == 1024
    anything = FlashCacheOption(
        name="a", kind="flash-cache", sizes_gb=[200, 16000], any_size=True, source="t"
    )
    assert anything.nearest(1024) == 1024


@pytest.mark.parametrize(
    ("scheme", "width", "tolerated"), [("raid5", 8, 1), ("raid-dp", 16, 2), ("raid10", 8, 1), ("raid0", 4, 0)]
)
def test_the_headline_says_how_many_drive_failures_a_group_survives(hdd15k, scheme, width, tolerated):
    # one parity drive: 1; RAID-DP's two: 2; a mirror pair: 1; striping alone: none
    head = headline(evaluate([oltp(iops=500)], make_config(hdd15k, scheme, width, width * 2)))
    assert head.failures_tolerated == tolerated


def test_a_setting_whose_value_alone_says_little_is_said_in_words(hdd15k):
    # write_architecture is an input of the architecture; its values read as what they mean
    label = LABELS[Architecture]["write_architecture"]
    assert change_words(label, WriteArchitecture.WRITE_ANYWHERE, WriteArchitecture.IN_PLACE_RAID) == (
        f"{label.words} write anywhere (WAFL, ZFS) -> in place (small writes read-modify-write)"
    )
    wal = LABELS[Architecture]["wal"]
    assert change_words(wal, WalPlacement.DATA_DRIVE, WalPlacement.FLASH).endswith(
        "the data drive -> a flash device per node"
    )
    # any other setting: its value with spaces
    dedupe = LABELS[Architecture]["dedupe"]
    assert change_words(dedupe, ReductionMode.NONE, ReductionMode.POST_PROCESS).endswith(
        "none -> post process"
    )
