"""The fewest that pass: the one bisection the searches for the fewest drives (or nodes) share (#29).

Every check the engine makes is monotone in the drive count of a pool (whole groups of one layout)
and in a cluster's node count: once a count passes, every larger one does. So between a count
known to fail (or below the range) and one known to pass, the least passing count is found in
O(log n) trials, each the middle of the interval left::

    while hi - lo > 1:  mid = (lo + hi) // 2;  (hi, lo) = (mid, lo) if passes(mid) else (hi, mid)

:func:`fewest_passing` runs it on one interval (:func:`models.size.size` over groups and over
nodes, :mod:`models.recommend`'s scale-out families), :func:`first_passing_rows` on many intervals
at once with numpy (the batch path's first rows within capacity and with enough drives,
:mod:`models.batch.search`). The trials are the same whichever caller asks: the callers' counts
of evaluations are those of one algorithm.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def fewest_passing(lo: int, hi: int, passes: Callable[[int], bool]) -> int:
    """The least count in ``(lo, hi]`` that ``passes``, given that ``hi`` passes and ``lo`` does not
    (or lies below the range); ``passes`` monotone. Asks ``passes`` at the midpoints only."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if passes(mid):
            hi = mid
        else:
            lo = mid
    return hi


def first_passing_rows(
    lo: IntArray, hi: IntArray, live: IntArray, passes: Callable[[IntArray, IntArray], BoolArray]
) -> IntArray:
    """For each interval ``k`` of ``live``, the first row in ``[lo[k], hi[k])`` that passes
    (``hi[k]`` where none does); ``passes(rows, live)`` answers for one row of each live interval
    and is monotone along an interval. ``lo`` and ``hi`` are updated in place; returns ``lo``."""
    while live.size:
        mid = (lo[live] + hi[live]) // 2
        ok = passes(mid, live)
        hi[live] = np.where(ok, mid, hi[live])
        lo[live] = np.where(ok, lo[live], mid + 1)
        live = live[lo[live] < hi[live]]
    return lo
