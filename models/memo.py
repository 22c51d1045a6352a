"""What evaluations keep for the very same objects evaluated again, owned by an object the caller
holds (#29): :class:`EvaluationMemo`.

A search or a sweep evaluates the same configuration, or configurations sharing their pools'
layout, drive and parameters, many times; what depends on those objects alone is worked out once
per memo: each configuration's pool capacities and bill of materials (:meth:`EvaluationMemo.parts`)
and each pool's priced access plans (:meth:`EvaluationMemo.plans`). Entries are keyed by the
objects' identity and hold the objects (so no identity is reused while an entry lives), and by the
fills' exact bits: only the very same inputs meet, and the figures are those of a fresh
evaluation. Each table is bounded (emptied when full: bounded memory for a long-running server fed
arbitrary inputs).

A caller holds one and passes it to :func:`models.evaluate.evaluate` (``memo=``), as
:func:`models.size.size` and :func:`models.recommend.recommend` do for their searches; an
evaluation given none uses :func:`shared_memo`, the process's own.
"""

from __future__ import annotations

from models.bill import bill_of_materials
from models.capacity import PoolCapacity, pool_capacity
from models.configuration import Architecture, Configuration, DrivePool
from models.parameters import EngineParameters
from models.pool_plans import PoolPlans, pool_plans
from models.results import BillOfMaterials

PARTS_KEPT = 64
"""Configurations whose parts one memo keeps."""

PLANS_KEPT = 64
"""Pools whose priced plans one memo keeps."""

_PlansKey = tuple[int, int, int, int, str, str]


class EvaluationMemo:
    """Configuration parts and priced plans kept for the very same objects evaluated again."""

    __slots__ = ("_parts", "_plans", "parts_kept", "plans_kept")

    def __init__(self, parts_kept: int = PARTS_KEPT, plans_kept: int = PLANS_KEPT) -> None:
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
        self._parts.clear()
        self._plans.clear()


_SHARED = EvaluationMemo()


def shared_memo() -> EvaluationMemo:
    """The memo of evaluations given none (the process's own)."""
    return _SHARED
