"""What the batch path answers: each row's verdict, and every figure of chosen rows."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from models.batch.arrays import BoolArray, FloatArray, IntArray
from models.batch.space import POOL, CandidateSpace
from models.checks import describe, within

if TYPE_CHECKING:
    from models.batch.model import BatchModel


@dataclass(frozen=True)
class RowCheck:
    """One check of one row, named as :func:`evaluate` names it (``window`` None for capacity)."""

    name: str
    window: str | None
    value: float  # inf when saturated
    limit: float
    unit: str

    @property
    def passed(self) -> bool:
        return within(self.value, self.limit)

    @property
    def ratio(self) -> float:
        return self.value / self.limit if self.limit > 0 else (0.0 if self.value <= 0 else math.inf)

    @property
    def words(self) -> str:
        """The check in one line, in its own unit (:func:`models.checks.describe`)."""
        return describe(self.name, self.value, self.limit, self.window)


@dataclass(frozen=True)
class RowDetail:
    """Every figure of some rows: arrays over those rows, ``[window, row]`` for per-window ones."""

    rows: IntArray
    windows: tuple[str, ...]
    drive_count: IntArray
    spares: IntArray
    shelves: IntArray
    rack_units: FloatArray
    power_w: FloatArray  # nan where the catalog has no figure
    cost_usd: FloatArray  # nan where the catalog has no price
    usable_tb: FloatArray
    fill_pct: FloatArray
    capacity_limit_pct: float
    drive_pct: FloatArray
    parity_pct: FloatArray  # dedicated parity drives; 0 where the layout has none
    drive_limit_pct: float
    controller_pct: FloatArray
    controller_limit_pct: FloatArray  # per row (HA pairs and single controllers differ)
    failover_pct: FloatArray  # nan where there is no failover check
    failover_limit_pct: float
    port_pct: FloatArray
    port_limit_pct: float
    read_latency_ms: FloatArray  # IOPS-weighted read latency of the window; inf when saturated
    targets: list[tuple[int, str, float]]  # (window index, "workload/phase", target [ms]) of targeted phases
    phase_latency_ms: FloatArray  # [target, row] read latency of each targeted phase; inf when saturated
    passed: BoolArray
    dedicated_parity: BoolArray  # rows whose layout has parity drives (RAID-DP/TEC)
    dwpd: FloatArray  # [window, row] drive writes per day the window needs (flash endurance)
    rated_dwpd: FloatArray  # per row: the drive's rated DWPD; nan where it has none (wear: no check)
    network_pct: FloatArray  # [window, row] cluster-network links busy; nan where not scale-out
    flash_pct: FloatArray  # [window, row] flash cache devices busy; nan without a flash cache

    def load_ratio(self, latency: bool = True, front_end: bool = True) -> FloatArray:
        """The busiest check of each row as a share of its limit (1 = at the limit; inf if saturated);
        without the read-latency targets when ``latency`` is False, without controllers and ports
        (capacity and drives only) when ``front_end`` is False."""

        def ratio(value: FloatArray, limit: FloatArray | float) -> FloatArray:
            lim = np.broadcast_to(np.asarray(limit, dtype=np.float64), value.shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.where(lim > 0, value / np.where(lim > 0, lim, 1.0), np.where(value > 0, np.inf, 0.0))
            return np.asarray(np.where(np.isnan(value), 0.0, r), dtype=np.float64)

        worst = ratio(self.fill_pct, self.capacity_limit_pct)
        for wi in range(len(self.windows)):
            worst = np.maximum(worst, ratio(self.drive_pct[wi], self.drive_limit_pct))
            worst = np.maximum(worst, ratio(self.parity_pct[wi], self.drive_limit_pct))
            if not front_end:
                continue
            worst = np.maximum(worst, ratio(self.controller_pct[wi], self.controller_limit_pct))
            worst = np.maximum(worst, ratio(self.failover_pct[wi], self.failover_limit_pct))
            worst = np.maximum(worst, ratio(self.port_pct[wi], self.port_limit_pct))
            worst = np.maximum(worst, ratio(self.network_pct[wi], self.port_limit_pct))
            worst = np.maximum(worst, ratio(self.flash_pct[wi], self.drive_limit_pct))
        if latency:
            for t, (_, _, target) in enumerate(self.targets):
                worst = np.maximum(worst, ratio(self.phase_latency_ms[t], target))
        return worst

    def checks(self, j: int) -> list[RowCheck]:
        """The checks of row ``j`` (an index into :attr:`rows`) in evaluate()'s order."""
        out = [RowCheck("capacity", None, float(min(self.fill_pct[j], 1e9)), self.capacity_limit_pct, "%")]
        for wi, window in enumerate(self.windows):
            out.append(
                RowCheck(f"drives:{POOL}", window, float(self.drive_pct[wi, j]), self.drive_limit_pct, "%")
            )
            if self.dedicated_parity[j]:
                out.append(
                    RowCheck(
                        f"parity drives:{POOL}",
                        window,
                        float(self.parity_pct[wi, j]),
                        self.drive_limit_pct,
                        "%",
                    )
                )
            out.append(
                RowCheck(
                    "controllers",
                    window,
                    float(self.controller_pct[wi, j]),
                    float(self.controller_limit_pct[j]),
                    "%",
                )
            )
            if not math.isnan(self.failover_pct[wi, j]):
                out.append(
                    RowCheck(
                        "controllers after failover",
                        window,
                        float(self.failover_pct[wi, j]),
                        self.failover_limit_pct,
                        "%",
                    )
                )
            out.append(RowCheck("ports", window, float(self.port_pct[wi, j]), self.port_limit_pct, "%"))
            if not math.isnan(self.flash_pct[wi, j]):
                out.append(
                    RowCheck("flash cache", window, float(self.flash_pct[wi, j]), self.drive_limit_pct, "%")
                )
            if not math.isnan(self.network_pct[wi, j]):
                out.append(
                    RowCheck(
                        "cluster network", window, float(self.network_pct[wi, j]), self.port_limit_pct, "%"
                    )
                )
            for t, (twi, name, target) in enumerate(self.targets):
                if twi == wi:
                    out.append(
                        RowCheck(
                            f"read latency:{name}", window, float(self.phase_latency_ms[t, j]), target, "ms"
                        )
                    )
        return out


@dataclass(frozen=True)
class BatchEvaluation:
    """Verdict of every row; :meth:`detail` gives every figure of chosen rows.

    With ``first_only`` (:func:`evaluate_batch`), ``passed`` holds only each family's first passing
    row: the rows after it were not evaluated.
    """

    space: CandidateSpace
    passed: BoolArray
    modelled_rows: int  # rows whose drive model ran (the others failed capacity or a front-end check)
    model: BatchModel
    first_only: bool = False

    @property
    def capacity_passed(self) -> BoolArray:
        """Whether each row holds the workloads within the capacity headroom."""
        sp = self.space
        return self.model._capacity_ok(np.arange(sp.rows, dtype=np.int64), sp.family)

    def detail(self, rows: npt.ArrayLike) -> RowDetail:
        return self.model.detail(np.asarray(rows, dtype=np.int64))

    def first_passing(self) -> IntArray:
        """Per family, the first (fewest drives) row that passes; -1 where none does."""
        sp = self.space
        n = sp.rows
        if n == 0:
            return np.full(len(sp.families), -1, dtype=np.int64)
        # the passing rows in order; each family's first is the first at or after its start
        idx = np.flatnonzero(self.passed)
        at = np.searchsorted(idx, sp.starts[:-1])
        first = idx[np.minimum(at, max(idx.size - 1, 0))] if idx.size else np.full(at.size, n)
        return np.where((at < idx.size) & (first < sp.starts[1:]), first, -1).astype(np.int64)
