"""Number formatting in explanations: hand-written cases and Python's format mini-language as the reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import explain
from models.explain import _formatted, fmt, number
from models.kept import Kept, using


def test_hand_written_cases() -> None:
    assert fmt(None) == "∞"
    assert fmt(0.0) == "0"
    assert fmt(12.3456) == "12.3"
    assert fmt(0.000123456) == "0.000123"
    assert fmt(150.0) == "150"
    assert fmt(123.45) == "123.5"  # 123.45 is 123.4500000000000028... in binary
    assert fmt(99.96) == "100"
    assert fmt(1234.5) == "1,234"  # round half to even
    assert fmt(2_500_000) == "2,500,000"
    assert fmt(-7) == "-7"
    assert fmt(math.inf) == "inf"
    assert fmt(0.123456, 2) == "0.12"


@given(
    x=st.floats(allow_nan=False, allow_infinity=False, min_value=-1e7, max_value=1e7),
    digits=st.integers(1, 6),
)
def test_follows_the_format_mini_language(x: float, digits: int) -> None:
    if abs(x) >= 1000:
        expected = format(x, ",.0f")
    elif abs(x) >= 100:
        expected = format(x, ".1f").rstrip("0").rstrip(".")
    elif x == 0:
        expected = "0"
    else:
        expected = format(x, f".{digits}g")
    assert fmt(x, digits) == expected
    assert fmt(np.float64(x), digits) == expected


@given(
    x=st.none() | st.floats(allow_nan=False) | st.integers(-(10**9), 10**9),
    digits=st.integers(1, 6),
)
def test_fmt_is_number_outside_a_figures_only_pass(x: float | None, digits: int) -> None:
    # fmt carries its own copy of number's body (speed): the two answer alike
    assert fmt(x, digits) == number(x, digits)
    if x is not None:
        assert fmt(np.float64(x), digits) == number(np.float64(x), digits)


@given(x=st.floats(), digits=st.integers(1, 6))
def test_remembered_texts_are_the_texts(x: float, digits: int) -> None:
    # fmt remembers the texts of floats at 3 digits: asked again (or for an equal float: -0.0
    # after 0.0, another NaN) it answers what number does
    with using(Kept()):
        for y in (x, -x, x + 0.0, float(str(x))):
            assert fmt(y, digits) == number(y, digits)
            assert fmt(y) == number(y) == _formatted(y, 3)
            assert fmt(y) == number(y) == _formatted(y, 3)


def test_remembered_texts_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explain, "FORMATTED_KEPT", 4)
    memo = Kept()
    with using(memo):
        for i in range(10):
            assert fmt(1000.0 + i) == number(1000.0 + i)
            assert len(memo.formatted) <= 4
        assert fmt(0.0) == fmt(-0.0) == "0"
        assert fmt(math.nan) == fmt(-math.nan) == "nan"
        assert memo.formatted
    memo.clear()
    assert not memo.formatted
