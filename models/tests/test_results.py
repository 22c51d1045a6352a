"""Checks: a :class:`~models.results.Limit` answers as the :class:`~models.results.Check` it builds."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from models.results import Limit, check

VALUES = (
    st.none() | st.floats(allow_nan=True) | st.sampled_from([0.0, 80.0, 80.0 + 1e-9, 80.0 + 2e-9, math.inf])
)
LIMITS = st.floats(min_value=0.0, max_value=1e6) | st.sampled_from([0.0, 80.0, 100.0])


@given(value=VALUES, limit=LIMITS)
def test_a_limit_passes_and_ranks_as_its_check(value: float | None, limit: float) -> None:
    lim = Limit("drives:aggr0", value, limit, "%", "drives busy")
    built = check(*lim)
    assert lim.check() == built
    assert lim.passed == built.passed
    # the window verdict's ranking key (evaluate._verdict) on the built check
    key = float("inf") if built.value is None else built.value / built.limit if built.limit else 0.0
    assert lim.load == key


def test_a_check_near_its_limit_shows_the_digits_that_tell_them_apart():
    # at three significant digits 10.003 ms reads "10", as its limit does: more digits say why it fails
    assert (
        check("r", 10.003, 10.0, "ms", "read latency").text
        == "read latency 10.003 ms, over the limit of 10 ms"
    )
    assert (
        check("r", 9.9996, 10.0, "ms", "read latency").text
        == "read latency 9.9996 ms, within the limit of 10 ms"
    )
    assert (
        check("l", 1000.4, 1000.0, "IOPS", "load").text == "load 1,000.4 IOPS, over the limit of 1,000 IOPS"
    )
    # apart at three digits, or equal: as always
    assert check("d", 69.3, 70.0, "%", "drives busy").text == "drives busy 69.3 %, within the limit of 70 %"
    assert check("d", 70.0, 70.0, "%", "drives busy").text == "drives busy 70 %, within the limit of 70 %"
