"""What an evaluation memo keeps by value, and the memo in force (#29: explicit state).

A search or a sweep asks the same pure functions the same questions again and again: the Che
solve of one working set at one cache size, the hit ratios of one cache level, a mixture's latency
quantiles, the text of a number. Their answers are kept in the tables of a :class:`Kept` (the
base of :class:`models.memo.EvaluationMemo`) that a caller holds: :func:`models.size.size`,
:func:`models.verdict.verdict`, the what-ifs and :func:`models.recommend.recommend` hold one for
their whole call, :func:`models.evaluate.evaluate` one for its call unless it runs within theirs.
No table lives in a module: two requests never share answers, and a memo goes when its caller
drops it.

The caller puts its memo in force for the extent of a call (``with using(memo):``); the functions
deep in the physics find it with :func:`active` (a :class:`~contextvars.ContextVar`, so threads
and tasks each see their own) rather than taking it through every signature. Outside any memo
they compute their answer afresh: the same answer (the functions are pure), found again.

Keys are the exact arguments (as :func:`functools.lru_cache` keys them: equal values meet), and
each table is bounded (emptied when full).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from functools import wraps
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

FORMATTED_KEPT = 16384
"""Texts of numbers (:func:`models.explain.fmt`) one memo keeps: an evaluation formats about 300
figures, and more than half of them (limits, parameters, counts, figures of the same phase) were
formatted before."""

QUANTILES_KEPT = 4096
"""Mixtures whose latency quantiles (:func:`models.tail_latency.quantiles_or_none`) one memo keeps."""


class Kept:
    """Answers of pure functions by their exact arguments: one table per function
    (:func:`kept_by_value`), the texts of numbers and the latency quantiles of mixtures."""

    __slots__ = ("_tables", "formatted", "quantiles")

    def __init__(self) -> None:
        self._tables: dict[Callable[..., Any], dict[Any, Any]] = {}
        self.formatted: dict[float, str] = {}
        self.quantiles: dict[bytes, tuple[float | None, ...]] = {}

    def table(self, fn: Callable[..., Any]) -> dict[Any, Any]:
        """The answers of ``fn`` this memo keeps (created on first use)."""
        got = self._tables.get(fn)
        if got is None:
            got = self._tables[fn] = {}
        return got

    def clear(self) -> None:
        """Forget every answer kept."""
        self._tables.clear()
        self.formatted.clear()
        self.quantiles.clear()


_ACTIVE: ContextVar[Kept | None] = ContextVar("evaluation_memo", default=None)


def active() -> Kept | None:
    """The memo in force (:class:`using`), or None."""
    return _ACTIVE.get()


class using:  # noqa: N801 (used as a function: ``with using(memo):``)
    """Put ``memo`` in force within this block (the one before it again after)."""

    __slots__ = ("_memo", "_token")

    def __init__(self, memo: Kept) -> None:
        self._memo = memo

    def __enter__(self) -> None:
        self._token: Token[Kept | None] = _ACTIVE.set(self._memo)

    def __exit__(self, *exc: object) -> None:
        _ACTIVE.reset(self._token)


_KWARGS = object()
"""Separates positional from keyword arguments in a key (as ``functools.lru_cache`` does)."""


def kept_by_value(kept: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: the answers of a pure function of hashable arguments, kept in the memo in force
    (at most ``kept`` of them per memo); computed afresh outside any memo. ``__wrapped__`` is the
    function itself."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @wraps(fn)
        def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
            memo = _ACTIVE.get()
            if memo is None:
                return fn(*args, **kwargs)
            table = memo.table(remembered)
            key = (*args, _KWARGS, *kwargs.items()) if kwargs else args
            got = table.get(key, _KWARGS)
            if got is _KWARGS:
                if len(table) >= kept:
                    table.clear()
                got = table[key] = fn(*args, **kwargs)
            return got  # type: ignore[no-any-return]

        return remembered

    return decorate
