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

Keys are the exact arguments (:func:`functools.lru_cache` keys them: equal values meet), and
each table is bounded (the function's least recently used answers forgotten first; the texts and
quantiles emptied when full).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from functools import lru_cache, wraps
from typing import Any, Literal, ParamSpec, TypeVar

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
        self._tables: dict[Callable[..., Any], Callable[..., Any]] = {}
        self.formatted: dict[float, str] = {}
        self.quantiles: dict[bytes, tuple[float | None, ...]] = {}

    def answers(self, fn: Callable[..., Any]) -> int:
        """How many answers of ``fn`` (a :func:`kept_by_value` function) this memo keeps."""
        cached = self._tables.get(fn)
        return 0 if cached is None else cached.cache_info().currsize  # type: ignore[attr-defined]

    def clear(self) -> None:
        """Forget every answer kept."""
        self._tables.clear()
        self.formatted.clear()
        self.quantiles.clear()


_ACTIVE: ContextVar[Kept | None] = ContextVar("evaluation_memo", default=None)

TEXTS: ContextVar[dict[float, str] | Literal[False] | None] = ContextVar("texts", default=None)
"""What :func:`models.explain.fmt` reads, in one look-up per figure: the texts of the memo in force
(:attr:`Kept.formatted`), None without a memo, False within :class:`models.explain.figures_only`
(no text at all)."""


def active() -> Kept | None:
    """The memo in force (:class:`using`), or None."""
    return _ACTIVE.get()


class using:  # noqa: N801 (used as a function: ``with using(memo):``)
    """Put ``memo`` in force within this block (the one before it again after)."""

    __slots__ = ("_memo", "_texts", "_token")

    def __init__(self, memo: Kept) -> None:
        self._memo = memo

    def __enter__(self) -> None:
        self._token: Token[Kept | None] = _ACTIVE.set(self._memo)
        # within a figures-only block, texts stay off
        self._texts = None if TEXTS.get() is False else TEXTS.set(self._memo.formatted)

    def __exit__(self, *exc: object) -> None:
        if self._texts is not None:
            TEXTS.reset(self._texts)
        _ACTIVE.reset(self._token)


def kept_by_value(kept: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: the answers of a pure function of hashable arguments, kept in the memo in force
    (at most ``kept`` of them per memo, least recently used forgotten first: a
    :func:`functools.lru_cache` of the function that the memo holds); computed afresh outside any
    memo. ``__wrapped__`` is the function itself."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @wraps(fn)
        def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
            memo = _ACTIVE.get()
            if memo is None:
                return fn(*args, **kwargs)
            cached = memo._tables.get(remembered)
            if cached is None:
                cached = memo._tables[remembered] = lru_cache(maxsize=kept)(fn)
            return cached(*args, **kwargs)  # type: ignore[arg-type,no-any-return]

        return remembered

    return decorate
