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
