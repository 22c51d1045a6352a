"""The one bisection the fewest-drives searches share (models.fewest)."""

import numpy as np

from models.fewest import fewest_passing, first_passing_rows


def test_the_least_passing_count_and_the_midpoints_asked() -> None:
    asked: list[int] = []

    def passes(n: int) -> bool:
        asked.append(n)
        return n >= 37

    # (0, 100]: 50 passes, 25 fails, 37 passes, 31 fails, 34 fails, 35 fails, 36 fails -> 37
    assert fewest_passing(0, 100, passes) == 37
    assert asked == [50, 25, 37, 31, 34, 35, 36]


def test_an_interval_of_one_asks_nothing() -> None:
    assert fewest_passing(4, 5, lambda n: False) == 5


def test_first_passing_rows_of_many_intervals() -> None:
    # intervals [0, 10), [10, 20), [20, 25): rows pass from 3, from 20 (none of the second), from 24
    threshold = np.array([3, 20, 24])
    lo = np.array([0, 10, 20], dtype=np.int64)
    hi = np.array([10, 20, 25], dtype=np.int64)
    got = first_passing_rows(lo, hi, np.arange(3), lambda rows, k: rows >= threshold[k])
    assert got.tolist() == [3, 20, 24]
