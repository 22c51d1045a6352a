"""A set of rows with their window-independent figures, worked out once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from models.batch.arrays import IntArray
from models.batch.plans import _gather


class _Rows:
    """A set of rows (and their segments) with their window-independent figures, each worked out
    on first use and kept: drive counts, data and parity drives, span, and the per-segment drive
    times and constants gathered onto the rows.

    The verdict runs a chunk's rows through every window; without this memo each window
    recomputed the same counts and span and re-gathered the same segment figures, a large share
    of the batch path's CPU time. A figure is elementwise, so the figures of a subset (the rows
    still passing, :meth:`subset`) are the subset of the figures.
    """

    __slots__ = ("rows", "seg", "_memo")

    def __init__(self, rows: IntArray, seg: IntArray, memo: dict[str, Any] | None = None) -> None:
        self.rows = rows
        self.seg = seg
        self._memo: dict[str, Any] = {} if memo is None else memo

    def get(self, name: str, make: Callable[[], Any]) -> Any:
        """The figure ``name``, from ``make()`` the first time it is asked for."""
        value = self._memo.get(name)
        if value is None:
            value = self._memo[name] = make()
        return value

    def gathered(self, name: str, table: Any) -> Any:
        """``table`` (an array over segments, or one number) at these rows' segments, kept under ``name``."""
        return self.get(name, lambda: _gather(table, self.seg))

    def subset(self, ix: IntArray) -> _Rows:
        """The rows at positions ``ix``, with the figures worked out so far (arrays, numbers or
        tuples of them) taken at ``ix``."""

        def take(value: Any) -> Any:
            return tuple(_gather(x, ix) for x in value) if isinstance(value, tuple) else _gather(value, ix)

        return _Rows(self.rows[ix], self.seg[ix], {k: take(v) for k, v in self._memo.items()})
