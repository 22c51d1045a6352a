"""What evaluations keep for the very same objects evaluated again, owned by an object the caller
holds (#29): :class:`EvaluationMemo`, whose base (:class:`models.kept.Kept`) keeps the answers of
pure functions by value (Che solves, hit ratios, latency quantiles, texts of numbers).

A search or a sweep evaluates the same configuration, or configurations sharing their pools'
layout, drive and parameters, many times; what depends on those objects alone is worked out once
per memo: each configuration's pool capacities and bill of materials (:meth:`EvaluationMemo.parts`)
and each pool's priced access plans (:meth:`EvaluationMemo.plans`). Entries are keyed by the
objects' identity and hold the objects (so no identity is reused while an entry lives), and by the
fills' exact bits: only the very same inputs meet, and the figures are those of a fresh
evaluation. Each table is bounded (emptied when full: bounded memory for a long-running server fed
arbitrary inputs).

A caller holds one and passes it to :func:`models.evaluate.evaluate` (``memo=``), or puts it in
force for a whole search (:func:`for_call`), as :func:`models.size.size`, the verdict, the what-ifs
and :func:`models.recommend.recommend` do; an evaluation given none runs in the memo in force, else
in one of its own. No memo is the process's.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from functools import wraps
from typing import ParamSpec, TypeVar

from models.bill import bill_of_materials
from models.capacity import PoolCapacity, pool_capacity
from models.configuration import Architecture, Configuration, DrivePool
from models.kept import Kept, active, using
from models.parameters import EngineParameters
from models.pool_plans import PoolPlans, pool_plans
from models.results import BillOfMaterials

P = ParamSpec("P")
R = TypeVar("R")

PARTS_KEPT = 64
"""Configurations whose parts one memo keeps."""

PLANS_KEPT = 64
"""Pools whose priced plans one memo keeps."""

_PlansKey = tuple[int, int, int, int, str, str]


class EvaluationMemo(Kept):
    """Configuration parts and priced plans kept for the very same objects evaluated again, and
    (:class:`models.kept.Kept`) the answers of pure functions by value."""

    __slots__ = ("_parts", "_plans", "parts_kept", "plans_kept")

    def __init__(self, parts_kept: int = PARTS_KEPT, plans_kept: int = PLANS_KEPT) -> None:
        super().__init__()
        self.parts_kept = parts_kept
        self.plans_kept = plans_kept
        self._parts: dict[int, tuple[Configuration, list[PoolCapacity], BillOfMaterials]] = {}
        self._plans: dict[_PlansKey, tuple[PoolPlans, tuple[object, ...]]] = {}

    def parts(self, cfg: Configuration, counts: dict[str, int]) -> tuple[list[PoolCapacity], BillOfMaterials]:
        """Each pool's capacity and the bill of materials of ``cfg`` (``counts``: its drive counts,
        :func:`models.evaluate.pool_drive_counts`), kept for the very same (frozen) configuration
        object. The results share these immutable parts."""
        got = self._parts.get(id(cfg))
        if got is None or got[0] is not cfg:
            pcaps = [pool_capacity(pool, counts[pool.name], cfg.capacity) for pool in cfg.pools]
            got = (cfg, pcaps, bill_of_materials(cfg, counts, pcaps))
            if len(self._parts) >= self.parts_kept:
                self._parts.clear()
            self._parts[id(cfg)] = got
        return got[1], got[2]

    def plans(
        self,
        pool: DrivePool,
        p: EngineParameters,
        planned_fill: float,
        aggregate_fill: float | None = None,
        architecture: Architecture | None = None,
    ) -> PoolPlans:
        """:func:`models.pool_plans.pool_plans`, kept for the same layout, drive, parameters and
        architecture objects at the same fills (a configuration evaluated again: sweeps,
        searches, the windows of a batch)."""
        fill = planned_fill if aggregate_fill is None else aggregate_fill
        key = (
            id(pool.raid),
            id(pool.drive),
            id(p),
            id(architecture),
            float(planned_fill).hex(),
            float(fill).hex(),
        )
        got = self._plans.get(key)
        if got is None:
            plans = pool_plans(pool, p, planned_fill, aggregate_fill, architecture)
            if len(self._plans) >= self.plans_kept:
                self._plans.clear()
            got = self._plans[key] = (plans, (pool.raid, pool.drive, p, architecture))
        return got[0]

    def kept(self) -> tuple[int, int]:
        """(configurations, pools) kept now."""
        return len(self._parts), len(self._plans)

    def clear(self) -> None:
        """Forget everything kept."""
        super().clear()
        self._parts.clear()
        self._plans.clear()


def current_memo() -> EvaluationMemo | None:
    """The evaluation memo in force (:func:`for_call`), or None."""
    memo = active()
    return memo if isinstance(memo, EvaluationMemo) else None


def for_call(memo: EvaluationMemo | None = None) -> using | nullcontext[None]:
    """A block in which ``memo`` is in force; without one, the memo already in force, else a new
    one for the block (a search's or a what-if's: every evaluation within it shares it)::

        with for_call(memo):
            ...  # evaluate(), size(), ... find it
    """
    if memo is None:
        if current_memo() is not None:
            return nullcontext()
        memo = EvaluationMemo()
    elif active() is memo:
        return nullcontext()
    return using(memo)


def holds_memo(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorator of a search or a what-if: the call runs with one memo (:func:`for_call`), which
    every evaluation within it shares, and which goes with the call."""

    @wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        with for_call():
            return fn(*args, **kwargs)

    return call
