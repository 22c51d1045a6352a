"""Consolidation (models.plan.consolidate): a two-array placement solved by hand; every placement fits."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.base import InputError
from models.configuration import Packaging
from models.evaluate import evaluate
from models.plan.consolidate import ConsolidateOptions, consolidate
from models.tests.conftest import make_config
from models.workload import Phase, Workload


def _quiet(name: str, tb: float, iops: float = 10.0, window: str = "day") -> Workload:
    return Workload(
        name=name,
        capacity_tb=tb,
        working_set_gb=10,
        phases=[Phase(name="p", window=window, iops=iops, read_pct=70, io_size_kib=8)],
    )


def _family(drive, **kw):
    # RAID 10 pairs of 300 GB 15K (272,000 MiB right-sized = 0.285212672 TB a pair), at most 24 drives
    # with spares, controllers 10,000 USD, drives 500 USD each
    pk = Packaging(max_drives=24, controller_price_usd=10000.0, **kw)
    return make_config(drive, scheme="raid10", width=2, count=None, packaging=pk)


def test_three_workloads_on_two_arrays_solved_by_hand(hdd15k):
    # pairs = ceil(TB / 0.285212672): 2 TB -> 8 pairs, 16 drives + 1 spare = 17; 1 TB -> 4 pairs, 9;
    # 3 TB (A + C) -> 11 pairs, 22 + 1 = 23 <= 24; 4 TB (A + B) -> 15 pairs, 30 + 1 > 24: cannot fit.
    # Two arrays: {A, C} 10,000 + 23 x 500 = 21,500 and {B} 10,000 + 17 x 500 = 18,500 = 40,000 USD;
    # three arrays: 30,000 + (17 + 17 + 9) x 500 = 51,500. The optimum is two arrays, C beside A or B.
    a, b, c = _quiet("A", 2.0), _quiet("B", 2.0), _quiet("C", 1.0)
    res = consolidate([a, b, c], [_family(hdd15k)])

    assert res.total_cost_usd == pytest.approx(40000.0)
    assert len(res.arrays) == 2 and res.unplaced == []
    sets = sorted(sorted(p.workloads) for p in res.arrays)
    assert sets in (sorted([["A", "C"], ["B"]]), sorted([["A"], ["B", "C"]]))
    assert sorted(p.drives for p in res.arrays) == [17, 23]


def test_a_fixed_array_takes_what_fits_at_no_cost(hdd15k):
    owned = make_config(hdd15k, scheme="raid10", width=2, count=22, name="owned")  # 11 pairs: 3.14 TB
    res = consolidate([_quiet("A", 2.0), _quiet("B", 2.0)], [_family(hdd15k)], fixed=[owned])

    fixed = next(p for p in res.arrays if p.fixed)
    assert fixed.workloads in (["A"], ["B"]) and fixed.cost_usd == 0.0
    assert res.total_cost_usd == pytest.approx(18500.0)  # the other on one new array: 10,000 + 17 x 500


def test_fixed_only_leaves_what_does_not_fit_unplaced(hdd15k):
    owned = make_config(hdd15k, scheme="raid10", width=2, count=22, name="owned")
    res = consolidate(
        [_quiet("A", 2.0), _quiet("B", 2.0)], [], fixed=[owned], options=ConsolidateOptions(fixed_only=True)
    )

    assert len(res.arrays) == 1 and len(res.unplaced) == 1
    assert res.total_cost_usd == 0.0


def test_a_candidate_with_a_drive_count_is_an_error_at_that_candidate(hdd15k):
    with pytest.raises(InputError) as exc:
        consolidate([_quiet("A", 1.0)], [make_config(hdd15k, count=20)])
    assert exc.value.field == "candidates.0"


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(
    loads=st.lists(
        st.tuples(
            st.floats(0.2, 2.5),
            st.integers(0, 1500),
            st.sampled_from(["day", "night", "month-end"]),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_every_placement_fits_every_window_and_the_capacity(hdd15k, loads):
    drive = hdd15k
    workloads = [_quiet(f"w{i}", tb, iops, window) for i, (tb, iops, window) in enumerate(loads)]
    families = [_family(drive), make_config(drive, scheme="raid6", width=8, count=None)]
    res = consolidate(workloads, families)

    placed = [n for p in res.arrays for n in p.workloads]
    assert sorted(placed + [u.workload for u in res.unplaced]) == sorted(w.name for w in workloads)
    for p in res.arrays:
        again = evaluate([w for w in workloads if w.name in p.workloads], p.configuration)
        assert again.passed and again.capacity.passed
        assert all(w.passed for w in again.windows)


def test_failure_cases_asked_for_hold_on_every_placement(hdd15k):
    from models.results import DegradedMode

    busy = [_quiet("A", 1.0, iops=1500), _quiet("B", 1.0, iops=1200)]
    cases = [DegradedMode.REBUILDING, DegradedMode.CONTROLLER_FAILED]
    res = consolidate(
        busy,
        [make_config(hdd15k, scheme="raid6", width=8, count=None)],
        options=ConsolidateOptions(failure_cases=cases),
    )
    plain = consolidate(busy, [make_config(hdd15k, scheme="raid6", width=8, count=None)])

    assert res.unplaced == []
    for p in res.arrays:
        placed = [w for w in busy if w.name in p.workloads]
        for mode in cases:
            assert evaluate(placed, p.configuration, degraded=mode).passed
    # here the rebuild needs more drives than normal operation: 58 against 50
    assert sum(p.drives for p in res.arrays) > sum(p.drives for p in plain.arrays)
