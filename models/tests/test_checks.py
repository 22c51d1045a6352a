"""The checks table (models.checks): one pass rule, and every check worded in its own unit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.batch import RowCheck
from models.checks import (
    CHECKS,
    TOLERANCE,
    check_words,
    describe,
    kind_of,
    located_words,
    within,
    within_array,
)
from models.results import Limit, check


def test_a_figure_at_its_limit_passes_and_one_a_rounding_step_past_it_too() -> None:
    # 0.1 + 0.2 = 0.30000000000000004 > 0.3 in floating point: computed in another order, the
    # same figure must pass as it does by hand
    assert within(0.1 + 0.2, 0.3)
    assert within(70.0 + TOLERANCE / 2, 70.0)
    assert not within(70.0 + 1e-6, 70.0)
    assert not within(None, 70.0)  # saturated
    assert not within(math.inf, 70.0)


def test_the_array_rule_agrees_with_the_scalar_rule_and_fails_nan() -> None:
    values = np.array([69.0, 70.0, 70.0 + TOLERANCE / 2, 70.1, math.inf, math.nan])

    assert within_array(values, 70.0).tolist() == [True, True, True, False, False, False]
    assert [within(float(v), 70.0) for v in values] == [True, True, True, False, False, False]


def test_an_evaluation_check_and_a_batch_row_check_share_the_rule() -> None:
    for value in (79.9, 80.0, 80.0 + TOLERANCE / 2, 80.01):
        assert (
            Limit("drives:p", value, 80.0, "%", "drives busy").passed
            == check("drives:p", value, 80.0, "%", "drives busy").passed
            == RowCheck("drives:p", "day", value, 80.0, "%").passed
            == within(value, 80.0)
        )


def test_a_parity_drive_load_reads_as_a_load_in_percent_not_a_latency() -> None:
    # the recommendation said "parity drives read latency 70.3 ms (target 70 ms)" for a parity
    # load of 70.3 % against the drive limit of 70 %
    assert describe("parity drives:pool", 70.3, 70.0, "day") == "parity drives 70.3% busy (limit 70%) in day"


@pytest.mark.parametrize(
    ("name", "value", "limit", "words"),
    [
        ("cluster network", 82.5, 70.0, "cluster network links 82.5% busy (limit 70%)"),
        ("back-end bus", 90.0, 70.0, "back-end bus to the drives 90% busy (limit 70%)"),
        ("ports", 55.0, 70.0, "front-end ports 55% busy (limit 70%)"),
        ("controllers", 81.0, 80.0, "controllers 81% busy (limit 80%)"),
        ("controllers (one failed)", 120.0, 100.0, "controllers (one failed) 120% busy (limit 100%)"),
        ("drives:aggr0:degraded group", 101.0, 100.0, "degraded RAID group 101% busy (limit 100%)"),
        ("read latency:oltp/day", 12.5, 10.0, "oltp/day read latency 12.5 ms (target 10 ms)"),
        ("read latency:oltp/day", math.inf, 10.0, "oltp/day read latency saturated (target 10 ms)"),
    ],
)
def test_each_check_reads_in_its_own_unit(name: str, value: float, limit: float, words: str) -> None:
    assert describe(name, value, limit) == words


def test_every_check_evaluate_names_has_a_row_and_a_unit() -> None:
    for name, unit in [
        ("capacity", "%"),
        ("drives:p", "%"),
        ("drives:p:degraded group", "%"),
        ("parity drives:p", "%"),
        ("flash cache", "%"),
        ("controllers", "%"),
        ("controllers (one failed)", "%"),
        ("controllers after failover", "%"),
        ("ports", "%"),
        ("cluster network", "%"),
        ("back-end bus", "%"),
        ("read latency:w/p", "ms"),
    ]:
        kind, _ = kind_of(name)
        assert kind is not None and kind.unit == unit, name
    assert len(CHECKS) == 12
    # flash wear is a lifetime budget (years to wear-out), never a check
    assert kind_of("endurance:p")[0] is None


def test_names_read_as_words() -> None:
    assert (
        check_words("drives:fast:degraded group", pools=2) == "the drives of fast (one RAID group degraded)"
    )
    assert check_words("controllers (one failed)") == "the controllers (one failed)"
    assert check_words("none") == "nothing"


def test_a_binding_check_reads_with_the_window_it_binds_in() -> None:
    # the analyses' "window: check" (models.whatif.core.outcome), in words (issue 29: no UI twin)
    assert located_words("month-end batch: drives:pool") == "the drives in month-end batch"
    assert located_words("business hours: read latency:OLTP database/online") == (
        "the read latency of OLTP database, online in business hours"
    )
    assert located_words("drives:fast", pools=2) == check_words("drives:fast", 2)  # a bare check name
    assert located_words("none") == "nothing"
