"""The plans (expand, quote-check, consolidate, refresh, replication) compute with the calibration margins as
/size does (models.margins): estimated parts at the pessimistic end of their class's band, the
answer's configurations as the user stated them, the margins named in the explanation (issue #30).

A made-up table gives HDD arrays a 90th-percentile error of 50%, so an estimated controller's CPU
costs are taken x (1 + 50 / 100) = 1.5: the controllers' utilization (CPU time per second over the
cores) is linear in those costs, so it is exactly 1.5 times the as-stated one at the same load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from models.catalog import Catalog, build_configuration, load_catalog
from models.configuration import Configuration
from models.margins import AS_STATED, Margining, margin_cost
from models.plan.consolidate import ConsolidateOptions, consolidate
from models.plan.expand import AddedGroup, Expansion, expand
from models.plan.quote import Quote, quote_check, quote_parts
from models.plan.refresh import refresh
from models.plan.replication import ReplicationPlan, replication
from models.provenance import (
    CalibrationMargin,
    ClassErrors,
    ErrorSummary,
    ModelErrorTable,
    SystemClass,
)
from models.results import EvaluationResult
from models.size import SizingResult
from models.tests.conftest import oltp

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HALF = ErrorSummary(rows=10, median_pct=20.0, p90_pct=50.0, max_pct=60.0)
TABLE = ModelErrorTable(
    generated_by="test",
    inputs_sha256="0" * 64,
    classes={
        SystemClass.HDD: ClassErrors(in_sample=HALF, cross_validated=HALF, out_of_sample=HALF, expected=HALF)
    },
    overall=HALF,
)
PESSIMISTIC = Margining(TABLE, CalibrationMargin.PESSIMISTIC)
STATED = Margining(TABLE, CalibrationMargin.AS_STATED)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def _fas3270(catalog: Catalog, count: int | None) -> Configuration:
    """A FAS3270 of ``count`` drives (None: the family); its controller is an estimate (no published
    per-I/O cost), so it takes the margin."""
    config = build_configuration(
        catalog.arrays["netapp-fas3270"],
        catalog.drives["hdd-10k-sas-600"],
        "raid-dp",
        drive_count=count or 48,
    )
    assert config.calibration is not None and config.calibration.controller.status == "estimate"
    if count is None:
        config = config.model_copy(
            update={"pools": [config.pools[0].model_copy(update={"drive_count": None})]}
        )
    return config


def _cost(stated: int | None, margined: int | None) -> str:
    """The start of :func:`models.margins.margin_cost`'s sentence for two feasible counts."""
    assert stated is not None and margined is not None
    return f"The margins cost {margined - stated:+d} drives ({stated} as stated, {margined} with them"


def _cpu(result: EvaluationResult) -> float:
    value = next(c.value for c in result.windows[0].checks if c.name == "controllers")
    assert value is not None
    return value


def _margin_parts(result: EvaluationResult) -> set[str]:
    assert result.calibration is not None and result.model_error is not None
    assert result.model_error.p90_pct == 50.0
    return {m.part for m in result.calibration.margins}


def test_an_expansion_computes_both_systems_at_the_margin_and_names_it(catalog):
    base = _fas3270(catalog, 48)
    load = [oltp(iops=3000)]

    margined = expand(load, base, Expansion(shelves=1), drives={}, margining=PESSIMISTIC)
    stated = expand(load, base, Expansion(shelves=1), drives={}, margining=STATED)

    # CPU costs x 1.5 at the same load: the controllers' utilization x 1.5, before and after
    assert _cpu(margined.before) == pytest.approx(1.5 * _cpu(stated.before), rel=1e-9)
    assert _cpu(margined.after) == pytest.approx(1.5 * _cpu(stated.after), rel=1e-9)
    assert "controller" in _margin_parts(margined.before) and "controller" in _margin_parts(margined.after)
    assert stated.before.calibration is not None and stated.before.calibration.margins == []
    # the answer's configuration is what is installed and added, as its records state it
    assert margined.configuration.controller == base.controller
    assert margined.configuration.pools[0].drive == base.pools[0].drive
    assert "Conservative by default: controller (estimate): CPU costs x 1.5" in margined.text
    assert "Conservative by default" not in stated.text


def test_an_added_group_of_estimated_drives_makes_the_drives_part_an_estimate(catalog):
    base = _fas3270(catalog, 48)
    ssd_id = next(d for d in catalog.arrays["netapp-fas3270"].drives if catalog.drives[d].kind != "hdd")
    added = catalog.drives[ssd_id].model_copy(update={"calibration": None})  # a record stating none

    res = expand(
        [oltp(iops=3000)],
        base,
        Expansion(groups=[AddedGroup(drive_id=ssd_id, count=8)]),
        drives={ssd_id: added},
        margining=PESSIMISTIC,
    )

    assert res.configuration.calibration is not None
    assert res.configuration.calibration.drives.status == "estimate (user)"


def test_a_quote_is_checked_and_sized_at_the_margin_and_its_sizing_reads_as_stated(catalog):
    array = catalog.arrays["netapp-fas3270"]
    quote = Quote(model="FAS3270", array_id=array.id, drive_id="hdd-10k-sas-600", drive_count=50)
    parts = quote_parts(quote, array, catalog.drives["hdd-10k-sas-600"])
    config = _fas3270(catalog, parts.drive_count)
    load = [oltp(iops=6000)]

    margined = quote_check(load, config, quote, parts, margining=PESSIMISTIC)
    stated = quote_check(load, config, quote, parts, margining=STATED)

    assert _cpu(margined.evaluation) == pytest.approx(1.5 * _cpu(stated.evaluation), rel=1e-9)
    assert "controller" in _margin_parts(margined.evaluation)
    assert "controller" in _margin_parts(margined.sizing.result)
    # drives seeking 1.5 x as long take more of them: 96 against 80 as stated (groups of 16)
    assert margined.sizing.drive_count > stated.sizing.drive_count
    assert margined.sizing.configuration.controller == config.controller
    assert margined.configuration == config
    assert (
        "Conservative by default" in margined.text
        and "Conservative by default" in margined.sizing.explanation
    )
    assert "Conservative by default" not in stated.text
    # what the margins cost, stated in the sizing, its calibration and the check's text
    cost = _cost(stated.sizing.drive_count, margined.sizing.drive_count)
    assert margined.sizing.result.calibration is not None
    assert margined.sizing.result.calibration.margin_cost.startswith(cost)
    assert cost in margined.sizing.explanation and f"Sizing: {cost}" in margined.text
    assert (
        stated.sizing.result.calibration is not None and stated.sizing.result.calibration.margin_cost is None
    )


def test_a_consolidation_sizes_each_new_array_at_the_margin_and_returns_it_as_stated(catalog):
    family = _fas3270(catalog, None)
    load = [oltp(name="a", iops=4000), oltp(name="b", iops=2000)]

    margined = consolidate(load, [family], margining=PESSIMISTIC)
    stated = consolidate(load, [family], margining=STATED)

    drives = [sum(p.drives for p in c.arrays) for c in (margined, stated)]
    assert drives[0] > drives[1]
    for placement in margined.arrays:
        assert placement.configuration.controller == family.controller
        assert placement.configuration.pools[0].drive == family.pools[0].drive
        assert "controller" in _margin_parts(placement.result)
    assert "Conservative by default: controller (estimate)" in margined.text
    assert "Conservative by default" not in stated.text
    # each new array says what the margins cost it; both answers put the two workloads on one array
    assert [p.workloads for p in margined.arrays] == [p.workloads for p in stated.arrays] == [["a", "b"]]
    m, st = margined.arrays[0], stated.arrays[0]
    cost = _cost(st.configuration.pools[0].drive_count, m.configuration.pools[0].drive_count)
    assert m.result.calibration is not None and m.result.calibration.margin_cost.startswith(cost)
    assert f"{m.name}: {cost}" in margined.text
    assert st.result.calibration is not None and st.result.calibration.margin_cost is None


def test_a_fixed_array_is_judged_at_the_margin(catalog):
    owned = _fas3270(catalog, 48)
    load = [oltp(iops=3000)]

    only = ConsolidateOptions(fixed_only=True)
    margined = consolidate(load, [], fixed=[owned], options=only, margining=PESSIMISTIC)
    stated = consolidate(load, [], fixed=[owned], options=only, margining=STATED)

    assert _cpu(margined.arrays[0].result) == pytest.approx(1.5 * _cpu(stated.arrays[0].result), rel=1e-9)
    assert margined.arrays[0].configuration == owned


def test_a_refresh_judges_today_and_sizes_the_successor_at_the_margin(catalog):
    current = _fas3270(catalog, 48)
    successor = _fas3270(catalog, None)
    load = [oltp(iops=6000)]

    margined = refresh(load, current, successor, margining=PESSIMISTIC)
    stated = refresh(load, current, successor, margining=STATED)

    assert _cpu(margined.current) == pytest.approx(1.5 * _cpu(stated.current), rel=1e-9)
    assert margined.successor.drive_count > stated.successor.drive_count
    assert margined.successor.configuration.controller == successor.controller
    assert "controller" in _margin_parts(margined.successor.result)
    assert "Conservative by default" in margined.text
    assert "Conservative by default" not in stated.text
    cost = _cost(stated.successor.drive_count, margined.successor.drive_count)
    assert f"{margined.successor.configuration.name}: {cost}" in margined.text
    assert "The margins cost" not in stated.text


def test_a_dr_array_is_sized_for_the_failover_at_the_margin_and_says_what_it_costs(catalog):
    family = _fas3270(catalog, None)
    load = [oltp(iops=6000)]
    plan = ReplicationPlan(
        mode="async", rpo_minutes=30, interval_minutes=10, window_hours={"business hours": 10}
    )

    margined = replication(load, plan, dr_family=family, margining=PESSIMISTIC)
    stated = replication(load, plan, dr_family=family, margining=STATED)

    assert margined.dr is not None and stated.dr is not None
    m, st = margined.dr.failover, stated.dr.failover
    assert m.drive_count > st.drive_count and m.configuration.controller == family.controller
    cost = _cost(st.drive_count, m.drive_count)
    assert m.result.calibration is not None and m.result.calibration.margin_cost.startswith(cost)
    assert cost in margined.dr.text and "The margins cost" not in stated.dr.text


def test_an_engine_call_without_a_margining_computes_as_stated(catalog):
    base = _fas3270(catalog, 48)
    load = [oltp(iops=3000)]

    default = expand(load, base, Expansion(shelves=1), drives={})
    stated = expand(load, base, Expansion(shelves=1), drives={}, margining=AS_STATED)

    assert _cpu(default.before) == _cpu(stated.before)
    assert default.before.model_error is not None and default.before.model_error.p90_pct is None


# ---- what the margins cost (models.margins.margin_cost), the counts made up -------------------------


def _sizing(feasible: bool, drives: int, nodes: int | None = None) -> SizingResult:
    # only the fields margin_cost reads
    fields: dict[str, Any] = {"feasible": feasible, "drive_count": drives, "nodes": nodes}
    return SizingResult.model_construct(**fields)


def test_the_margins_cost_the_drives_they_add():
    # 96 drives with the margins against 80 as stated: 96 - 80 = +16
    assert margin_cost(_sizing(True, 80), _sizing(True, 96)) == (
        "The margins cost +16 drives (80 as stated, 96 with them; calibration_margin: as_stated sizes without them)."
    )


def test_the_margins_cost_of_a_cluster_names_the_nodes_they_add():
    # 6 nodes of 6 drives with the margins against 4 of 6 as stated: 36 - 24 = +12 drives, 6 - 4 = +2 nodes
    assert margin_cost(_sizing(True, 24, 4), _sizing(True, 36, 6)).startswith(
        "The margins cost +12 drives, +2 nodes (24 as stated, 36 with them;"
    )
    # the same nodes: no node figure
    assert "nodes" not in margin_cost(_sizing(True, 24, 4), _sizing(True, 30, 4))


def test_margins_no_count_meets_say_so_beside_the_count_as_stated():
    assert margin_cost(_sizing(True, 80), _sizing(False, 960)) == (
        "With the margins no configuration of this family meets the load (as stated: 80 drives)."
    )
    assert margin_cost(_sizing(False, 960), _sizing(False, 960)) == (
        "With the margins no configuration of this family meets the load; as stated neither."
    )
