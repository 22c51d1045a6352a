"""Recommend: configurations evaluate() confirms, a stable ranking, the Pareto front, reasons in words."""

from __future__ import annotations

import gc
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import recommend as recommend_module
from models.base import InputError
from models.batch import RowCheck
from models.catalog import Catalog, load_calibration, load_catalog
from models.catalog.schemas import RaidOption
from models.configuration import HeadroomTargets
from models.evaluate import evaluate
from models.recommend import (
    OnePer,
    ParetoObjective,
    Recommendation,
    RecommendConstraints,
    catalog_families,
    pareto_front,
    rank_order,
    recommend,
)
from models.workload import Phase, Skew, Workload

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CALIBRATED = load_calibration(FIXTURES).parameters  # fixtures/calibration/engine.yaml
WAFL: dict[str, Any] = {"wafl_full_stripe_share": 0.802, "wafl_scatter": 0.412}
FEW = RecommendConstraints(array_ids=["emc-unity-400", "emc-vnx5300", "netapp-fas3270"])


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def oltp(iops: float = 12000, capacity_tb: float = 10) -> list[Workload]:
    return [
        Workload(
            name="oltp",
            capacity_tb=capacity_tb,
            working_set_gb=500,
            skew=Skew(zipf_alpha=0.8),
            phases=[
                Phase(name="day", window="day", iops=iops, read_pct=70, io_size_kib=8),
                Phase(
                    name="night", window="night", iops=iops / 6, read_pct=20, random_pct=10, io_size_kib=64
                ),
            ],
        )
    ]


def run(catalog: Catalog, workloads: list[Workload] | None = None, **kw) -> Recommendation:
    return recommend(
        workloads or oltp(), catalog, kw.pop("constraints", FEW), params=CALIBRATED, **WAFL, **kw
    )


def listed(rec: Recommendation) -> list[tuple]:
    return [(c.rank, c.configuration.name, c.drive_count, c.cost_usd) for c in rec.configurations]


# ---- confirmation


def test_every_returned_configuration_is_confirmed_by_evaluate(catalog: Catalog) -> None:
    workloads = oltp()
    rec = recommend(workloads, catalog, params=CALIBRATED, **WAFL, limit=8)

    assert rec.configurations and rec.pareto_front
    for item in [*rec.configurations, *rec.pareto_front]:
        result = evaluate(workloads, item.configuration, params=CALIBRATED)
        assert result.passed, item.configuration.name
        assert result.bill.cost_usd == item.cost_usd
        assert result.bill.drives == item.drive_count
        assert item.headline.passed


def test_a_workload_without_io_gets_configurations_sized_by_capacity(catalog: Catalog) -> None:
    # a phase with no IOPS and no MB/s: the batch's drive work is one 0 for every row (the API
    # answered 500 here); each configuration holds the 20 TB and evaluate() passes it
    workloads = [
        Workload(
            name="archive",
            capacity_tb=20,
            phases=[Phase(name="idle", window="day", iops=0, read_pct=0, io_size_kib=4)],
        )
    ]
    rec = run(catalog, workloads, limit=3)

    assert rec.configurations
    for item in rec.configurations:
        assert item.usable_tb >= 20
        assert evaluate(workloads, item.configuration, params=CALIBRATED).passed


def test_the_fewest_drives_are_minimal_one_group_fewer_fails(catalog: Catalog) -> None:
    workloads = oltp()
    rec = run(catalog, workloads, one_per=OnePer.FAMILY, limit=5)

    for item in rec.configurations:
        width = item.group_width
        if item.binding_constraint.startswith("none"):
            assert item.drive_count == width  # one group: the smallest the array allows
            continue
        smaller = item.configuration.pools[0].model_copy(update={"drive_count": item.drive_count - width})
        result = evaluate(
            workloads, item.configuration.model_copy(update={"pools": [smaller]}), params=CALIBRATED
        )
        assert not result.passed, item.configuration.name


@pytest.mark.parametrize("array_id", ["emc-vnx5300", "hp-3par-7400"])  # size(); node-aware bisection
def test_a_batch_count_evaluate_rejects_is_resized_by_the_scalar_path(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, array_id: str
) -> None:
    real = recommend_module.evaluate_batch

    def optimistic(*args, **kwargs):  # claims one group fewer than the truth passes
        batch = real(*args, **kwargs)
        first = batch.first_passing()
        starts = batch.space.starts[:-1]
        lower = first[(first > starts) & (first >= 0)] - 1
        batch.passed[lower] = True
        return batch

    monkeypatch.setattr(recommend_module, "evaluate_batch", optimistic)
    workloads = oltp()
    rec = run(catalog, workloads, constraints=RecommendConstraints(array_ids=[array_id], drive_kinds=["hdd"]))
    monkeypatch.undo()
    honest = run(
        catalog, workloads, constraints=RecommendConstraints(array_ids=[array_id], drive_kinds=["hdd"])
    )

    fallen = [c for c in rec.configurations if c.scalar_fallback]
    assert fallen and rec.stats.scalar_fallbacks >= len(fallen)
    truth = {c.configuration.name: c.drive_count for c in honest.configurations}
    for item in fallen:
        assert evaluate(workloads, item.configuration, params=CALIBRATED).passed
        if item.configuration.name in truth:
            assert item.drive_count == truth[item.configuration.name]


# ---- ranking


def test_ranking_is_by_cost_then_rack_units_then_latency(catalog: Catalog) -> None:
    rec = run(catalog, one_per=OnePer.FAMILY, limit=30)

    keys = [
        (c.cost_usd is None, c.cost_usd or 0, c.rack_units, c.read_latency_ms or math.inf)
        for c in rec.configurations
    ]
    for a, b in zip(keys, keys[1:], strict=False):  # evaluate()'s latency agrees with the batch's to ~1e-7
        assert a[:3] < b[:3] or (a[:3] == b[:3] and a[3] <= b[3] * (1 + 1e-6))
    assert [c.rank for c in rec.configurations] == list(range(1, len(rec.configurations) + 1))


def test_ranking_is_stable_whatever_the_catalog_order(catalog: Catalog) -> None:
    shuffled = catalog.model_copy(
        update={
            "arrays": dict(reversed(list(catalog.arrays.items()))),
            "drives": dict(reversed(list(catalog.drives.items()))),
        }
    )

    first = run(catalog, one_per=OnePer.FAMILY, limit=25)
    again = run(catalog, one_per=OnePer.FAMILY, limit=25)
    reordered = run(shuffled, one_per=OnePer.FAMILY, limit=25)

    assert listed(first) == listed(again) == listed(reordered)
    assert [c.configuration.name for c in first.pareto_front] == [
        c.configuration.name for c in reordered.pareto_front
    ]


def test_configurations_without_a_price_rank_after_every_priced_one(catalog: Catalog) -> None:
    cheap = "ssd-sas-pm1643-1920"  # the cheapest Unity 400 answer, without its price
    unpriced = catalog.model_copy(
        update={
            "drives": {**catalog.drives, cheap: catalog.drives[cheap].model_copy(update={"price_usd": None})}
        }
    )

    rec = run(unpriced, constraints=RecommendConstraints(array_ids=["emc-unity-400"]), limit=50)

    priced = [c.cost_usd is not None for c in rec.configurations]
    assert priced == sorted(priced, reverse=True)  # True ... True, False ... False
    assert any(c.drive_id == cheap and c.cost_usd is None for c in rec.configurations)
    assert rec.configurations[0].cost_usd is not None


def test_rank_order_breaks_ties_by_input_order_and_puts_nan_cost_last() -> None:
    cost = np.array([5.0, np.nan, 5.0, 3.0, 5.0])
    ru = np.array([2.0, 1.0, 2.0, 4.0, 1.0])
    latency = np.array([1.0, 0.1, 1.0, 9.0, 2.0])

    assert rank_order(cost, ru, latency).tolist() == [3, 4, 0, 2, 1]


def test_one_per_array_keeps_the_best_of_each_array(catalog: Catalog) -> None:
    rec = run(catalog, one_per=OnePer.ARRAY, limit=10)

    arrays = [c.array_id for c in rec.configurations]
    assert len(arrays) == len(set(arrays))


# ---- the Pareto front


def test_pareto_front_of_a_hand_made_set() -> None:
    # (cost, latency): 0 cheapest; 1 and 3 trade cost for latency; 2 is beaten by 1; 4 duplicates 1;
    # 5 is beaten by everyone; 6 has the best latency
    points = [(1, 5), (2, 3), (3, 4), (4, 1), (2, 3), (5, 5), (6, 0.5)]

    assert np.flatnonzero(pareto_front(points)).tolist() == [0, 1, 3, 6]


def test_pareto_front_in_three_objectives() -> None:
    points = [(1, 1, 9), (1, 1, 9), (2, 2, 2), (3, 3, 3), (9, 0, 9), (1, 2, 9)]

    assert np.flatnonzero(pareto_front(points)).tolist() == [0, 2, 4]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(*(st.integers(0, 6) for _ in range(3))), min_size=1, max_size=400))
def test_pareto_front_matches_brute_force(points: list[tuple[int, int, int]]) -> None:
    v = np.asarray(points, dtype=float)
    front = pareto_front(v)

    for i, p in enumerate(v):
        dominated = any(np.all(q <= p) and np.any(q < p) for q in v)
        duplicate_before = any(np.array_equal(v[j], p) for j in range(i))
        assert front[i] == (not dominated and not duplicate_before)


def test_no_configuration_on_the_returned_front_is_dominated(catalog: Catalog) -> None:
    rec = run(catalog, pareto=[ParetoObjective.COST, ParetoObjective.READ_LATENCY, ParetoObjective.HEADROOM])

    front = [
        (c.cost_usd or math.inf, c.read_latency_ms or math.inf, -c.headroom_pct) for c in rec.pareto_front
    ]
    for a in front:
        assert not any(all(y <= x + 1e-9 for x, y in zip(a, b, strict=True)) and b != a for b in front)
    assert all(c.on_pareto_front for c in rec.pareto_front)


# ---- windows, filters and reasons


def test_a_max_cost_below_every_feasible_configuration_gives_an_empty_list_and_the_reason(
    catalog: Catalog,
) -> None:
    rec = run(catalog, constraints=FEW.model_copy(update={"max_cost_usd": 1000}))

    assert rec.configurations == [] and rec.pareto_front == []
    [reason] = rec.reasons
    assert reason.startswith("max_cost_usd $1,000 is below every configuration that meets the workload")


def test_a_rack_unit_window_keeps_only_configurations_inside_it(catalog: Catalog) -> None:
    free = run(catalog, one_per=OnePer.FAMILY, limit=50)
    cap = sorted({c.rack_units for c in free.configurations})[0]

    rec = run(
        catalog, constraints=FEW.model_copy(update={"max_rack_units": cap}), one_per=OnePer.FAMILY, limit=50
    )

    assert rec.configurations and all(c.rack_units <= cap for c in rec.configurations)
    too_small = run(catalog, constraints=FEW.model_copy(update={"max_rack_units": 0.5}))
    assert too_small.configurations == [] and "max_rack_units" in too_small.reasons[0]


def test_filters_restrict_vendor_drive_kind_and_scheme(catalog: Catalog) -> None:
    rec = run(
        catalog,
        constraints=RecommendConstraints(
            vendors=["emc"], drive_kinds=["hdd"], raid_schemes=["raid6", "raid10"]
        ),
        one_per=OnePer.FAMILY,
        limit=20,
    )

    assert rec.configurations
    for c in rec.configurations:
        assert c.vendor == "EMC" and c.drive_kind == "hdd" and c.raid_scheme in ("raid6", "raid10")


@pytest.mark.parametrize(
    ("constraints", "field"),
    [
        (RecommendConstraints(vendors=["Acme"]), "constraints.vendors.0"),
        (RecommendConstraints(array_ids=["netapp-fas2050", "nope"]), "constraints.array_ids.1"),
        (RecommendConstraints(drive_ids=["nope"]), "constraints.drive_ids.0"),
    ],
)
def test_unknown_ids_name_the_list_item(
    catalog: Catalog, constraints: RecommendConstraints, field: str
) -> None:
    with pytest.raises(InputError) as err:
        recommend(oltp(), catalog, constraints)

    assert err.value.field == field


def test_filters_matching_nothing_say_so(catalog: Catalog) -> None:
    rec = run(catalog, constraints=RecommendConstraints(array_ids=["netapp-fas2050"], drive_kinds=["nvme"]))

    assert rec.configurations == []
    assert rec.reasons == [
        "no catalog configuration matches the filters (vendors, arrays, drives, RAID schemes)"
    ]


def test_an_array_that_cannot_carry_the_load_names_its_binding_constraint(catalog: Catalog) -> None:
    rec = run(catalog, oltp(iops=200_000), constraints=RecommendConstraints(array_ids=["netapp-fas2050"]))

    [array] = rec.infeasible
    assert array.array_id == "netapp-fas2050" and array.families > 0
    assert array.binding_constraint.startswith("controllers")
    assert any("after failover" in r for r in array.reasons)
    assert rec.configurations == [] and rec.reasons


def test_checks_in_words() -> None:
    assert RowCheck("controllers after failover", "day", 143.0, 100.0, "%").words == (
        "controllers at 143% after failover (limit 100%) in day"
    )
    assert (
        RowCheck("drives:pool", "night", 74.25, 70.0, "%").words == "drives 74.2% busy (limit 70%) in night"
    )
    assert RowCheck("capacity", None, 150.0, 100.0, "%").words == "capacity 150% full (limit 100%)"
    assert RowCheck("read latency:oltp/day", "day", math.inf, 10.0, "ms").words == (
        "oltp/day read latency saturated (target 10 ms) in day"
    )


def test_a_read_latency_target_is_met_by_every_configuration(catalog: Catalog) -> None:
    rec = run(catalog, constraints=FEW.model_copy(update={"read_latency_target_ms": 3.0}), limit=10)

    assert rec.configurations
    assert all(c.read_latency_ms is not None and c.read_latency_ms <= 3.0 + 1e-9 for c in rec.configurations)


def test_headroom_overrides_reach_every_configuration(catalog: Catalog) -> None:
    tight = HeadroomTargets(drive_max_pct=35)
    loose = run(
        catalog, one_per=OnePer.FAMILY, constraints=RecommendConstraints(array_ids=["emc-vnx5300"]), limit=3
    )
    strict = run(
        catalog,
        one_per=OnePer.FAMILY,
        constraints=RecommendConstraints(array_ids=["emc-vnx5300"], headroom=tight),
        limit=3,
    )

    assert all(c.configuration.headroom == tight for c in strict.configurations)
    assert (strict.configurations[0].cost_usd or 0) >= (loose.configurations[0].cost_usd or 0)


def test_custom_builds_are_left_out_unless_asked_for(catalog: Catalog) -> None:
    rec = run(catalog, constraints=RecommendConstraints(array_ids=["generic"], drive_ids=["hdd-10k-sas-600"]))

    assert rec.configurations and {c.array_id for c in rec.configurations} == {"generic"}
    default = run(
        catalog, constraints=RecommendConstraints(drive_ids=["hdd-10k-sas-600"]), one_per=OnePer.ARRAY
    )
    assert "generic" not in {c.array_id for c in default.configurations}


# ---- the first-passing search changes nothing


def _without_stats(rec: Recommendation) -> dict:
    out = rec.model_dump(mode="json")
    out.pop("stats")
    return out


@pytest.mark.parametrize(
    "workloads",
    [
        oltp(),
        oltp(iops=60000, capacity_tb=40),
        [w.model_copy(update={"name": "small"}) for w in oltp(iops=800, capacity_tb=2)],
    ],
    ids=["oltp", "heavy", "light"],
)
def test_recommend_is_the_same_as_with_every_row_evaluated(
    catalog: Catalog, workloads: list[Workload], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference: recommend with the batch evaluating every row (the path before the search)."""
    constraints = RecommendConstraints(
        array_ids=["ceph-nvme-reference", "netapp-fas2620", "emc-vnx5300", "netapp-solidfire-sf9605"]
    )
    fast = run(catalog, workloads, constraints=constraints)
    every = recommend_module.evaluate_batch

    def evaluate_every_row(*args: Any, **kw: Any) -> Any:
        kw["first_only"] = False
        return every(*args, **kw)

    monkeypatch.setattr(recommend_module, "evaluate_batch", evaluate_every_row)
    reference = run(catalog, workloads, constraints=constraints)

    assert _without_stats(fast) == _without_stats(reference)
    assert fast.configurations  # something to compare
    assert fast.stats.modelled_candidates < reference.stats.modelled_candidates


def test_recommend_leaves_the_garbage_collector_alone(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine holds no process-wide switch: the collector is as the caller left it, during
    and after (the API pauses it around the call: backend.app.core.collector)."""
    seen: list[bool] = []
    batch = recommend_module.evaluate_batch

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return batch(*args, **kwargs)

    monkeypatch.setattr(recommend_module, "evaluate_batch", watched)
    assert gc.isenabled()
    recommend(oltp(), catalog, RecommendConstraints(array_ids=["netapp-fas2620"]), params=CALIBRATED)
    assert gc.isenabled() and seen and all(seen)


# ---- only what a vendor builds


def test_netapp_raid_dp_is_proposed_only_in_the_group_sizes_netapp_recommends(catalog: Catalog) -> None:
    # NetApp recommends RAID groups of 12-20 hard disks and 20-28 SSDs ([netapp-sysmgr-raid-groups]):
    # a RAID-DP group of 4 (half of it parity) is allowed by ONTAP but no NetApp design proposes it,
    # nor a RAID-TEC group of 5
    fas = catalog_families(
        catalog, RecommendConstraints(array_ids=["netapp-fas8040"], raid_schemes=["raid-dp"])
    )
    assert {f.layout.group_width for f in fas} == set(range(12, 21))
    aff = catalog_families(
        catalog, RecommendConstraints(array_ids=["netapp-aff-a400"], raid_schemes=["raid-dp"])
    )
    assert {f.layout.group_width for f in aff} == set(range(20, 29))
    # an entry system whose default group is 10 drives states no range: every width ONTAP allows
    entry = catalog_families(
        catalog, RecommendConstraints(array_ids=["netapp-fas2620"], raid_schemes=["raid-dp"])
    )
    assert min(f.layout.group_width for f in entry) == 3
    rec = run(catalog, constraints=RecommendConstraints(array_ids=["netapp-fas8040"]))
    assert rec.configurations and all(12 <= c.group_width <= 20 for c in rec.configurations)
    # the failures-tolerated column and the layout as a person names it: RAID-DP and RAID-TEC keep
    # 2 and 3 parity drives per group
    for c in rec.configurations:
        assert c.layout == f"{c.raid_scheme.value} {c.group_width}"
        assert c.failures_tolerated == {"raid-dp": 2, "raid-tec": 3}[c.raid_scheme.value]
        assert c.headline.failures_tolerated == c.failures_tolerated


def test_a_recommended_range_must_hold_the_default_width() -> None:
    with pytest.raises(ValueError, match="must hold default_width 16"):
        RaidOption(
            scheme="raid-dp",
            default_width=16,
            min_width=3,
            max_width=28,
            recommended_min_width=18,
            recommended_max_width=20,
        )
    with pytest.raises(ValueError, match="come together"):
        RaidOption(scheme="raid-dp", default_width=16, min_width=3, max_width=28, recommended_min_width=12)
