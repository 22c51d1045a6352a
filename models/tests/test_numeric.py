"""Plain-float fast paths give bit for bit what the numpy (batch) path gives."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from models.drives import DriveTimes
from models.numeric import every, is_scalar, maximum, minimum, some
from models.pool import PoolState, RoleWork, Work, miss_path, planned_span, pool_state, role_utilization

finite = st.floats(-1e12, 1e12, allow_nan=False)
anything = st.one_of(finite, st.just(math.nan), st.just(math.inf), st.just(-math.inf))


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_hand_written_cases() -> None:
    assert maximum(0.0, -3.5) == 0.0 and minimum(2.0, 7) == 2.0
    assert math.isnan(maximum(math.nan, 1.0)) and math.isnan(maximum(1.0, math.nan))
    assert math.isnan(minimum(math.nan, 1.0)) and math.isnan(minimum(1.0, math.nan))
    assert is_scalar(1.0, 2, np.float64(3.0)) and not is_scalar(1.0, np.array([1.0]))
    np.testing.assert_array_equal(maximum(np.array([1.0, 5.0]), 3.0), [3.0, 5.0])


@given(a=anything, b=anything)
def test_maximum_and_minimum_follow_numpy(a: float, b: float) -> None:
    assert same(maximum(a, b), float(np.maximum(a, b)))
    assert same(minimum(a, b), float(np.minimum(a, b)))


HDD = DriveTimes(0.2, 0.0, 0.0, 0.04, 0.04, 0.04, 0.04, 2.2, 3.3, 2.2, 3.8)


def test_every_and_some_on_lone_values_and_arrays() -> None:
    # lone values: their truth; 0 and 0.0 are false, NaN is true (as np.all(nan) is)
    assert every(2.0) and not every(0.0) and not every(0) and every(math.nan) and every(True)
    assert some(1) and not some(False) and not some(-0.0)
    assert not every(np.array([3.0, 0.0])) and every(np.array([3.0, 1e-300]))
    assert some(np.array([False, True])) and not some(np.array([0.0, 0.0]))


@given(anything)
def test_every_and_some_follow_numpy(a: float) -> None:
    assert every(a) == bool(np.all(a)) and some(a) == bool(np.any(a))
    assert every(a <= 0) == bool(np.all(np.less_equal(a, 0)))
    assert some(a < 1) == bool(np.any(np.less(a, 1)))


@given(
    footprint=st.floats(0.0, 1e6),
    usable=st.floats(0.0, 1e6),
    fill=st.floats(0.0, 1.0),
    fraction=st.floats(0.01, 1.0),
    scatter=st.floats(0.0, 1.0),
)
def test_planned_span_in_floats_equals_the_array_path(
    footprint: float, usable: float, fill: float, fraction: float, scatter: float
) -> None:
    scalar = planned_span(footprint, usable, fill, fraction, scatter)
    array = planned_span(np.array([footprint]), np.array([usable]), fill, fraction, np.array([scatter]))
    assert isinstance(scalar, float) and scalar == float(array[0])


@given(
    reads=st.floats(0.0, 1e5),
    writes=st.floats(0.0, 1e5),
    fixed=st.floats(0.0, 1e4),
    drives=st.integers(0, 500),
    parity=st.integers(0, 50),
    span=st.floats(0.0, 1.0),
    miss_rate=st.floats(0.0, 1e5),
)
def test_pool_state_and_miss_path_in_floats_equal_the_array_path(
    reads: float, writes: float, fixed: float, drives: int, parity: int, span: float, miss_rate: float
) -> None:
    role = RoleWork(fixed, fixed / 2, reads, writes, reads + writes, writes)
    work = Work(role, role, reads + writes, 8 * (reads + writes))
    role_a = RoleWork(*(np.array([x]) for x in role))
    arr = Work(role_a, role_a, np.array([reads + writes]), 0.0)
    st_f = pool_state(work, HDD, drives, parity, span, 1.0, 0.0, 1.0)
    st_a = pool_state(
        arr, HDD, np.array([drives]), np.array([parity]), np.array([span]), np.array([1.0]), 0.0, 1.0
    )
    for f, a in zip(st_f, st_a, strict=True):
        assert same(float(f), float(np.asarray(a).ravel()[0]))
    u_f = role_utilization(role, drives, st_f.p_read, st_f.p_write)
    assert same(float(u_f), float(st_f.u_data))
    fixed_ms = miss_rate * 0.5
    got_f = miss_path(work, miss_rate, fixed_ms, st_f, 1.0)
    state_a = PoolState(*(np.atleast_1d(np.asarray(x, dtype=float)) for x in st_a))
    got_a = miss_path(arr, np.array([miss_rate]), np.array([fixed_ms]), state_a, 1.0)
    for f, a in zip(got_f, got_a, strict=True):
        assert same(float(f), float(np.asarray(a).ravel()[0]))
