"""What an evaluation returns: per-window loads, latencies and checks, the bill, the verdict.

Every figure a user sees is an :class:`~models.explain.Explained` (value, unit, formula, the
formula with its inputs filled in) or a plain number derived from one. :func:`check` states one
constraint against its limit; :func:`worst_window` picks the window nearest (or furthest past) a
limit.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import NamedTuple

from pydantic import Field, computed_field

from models.base import Output, validator_of
from models.capacity import CapacityResult
from models.cases import Verdict
from models.checks import TOLERANCE, check_words, within
from models.explain import Explained, number
from models.provenance import ModelError, ResultCalibration


class DegradedMode(StrEnum):
    NONE = "none"
    DRIVE_FAILED = "drive-failed"
    REBUILDING = "rebuilding"
    CONTROLLER_FAILED = "controller-failed"


class Check(Output):
    """One constraint: value against limit, with the margin (limit - value, in the value's unit)."""

    name: str
    value: float | None
    limit: float
    unit: str
    margin: float | None
    passed: bool
    text: str


class FailureResult(Output):
    """One drive failed in one RAID group of a pool, at a window's load."""

    failed_group_utilization_pct: float = Field(description="the degraded group's drives busy [%]")
    rebuild_group_utilization_pct: float = Field(
        description="the same while rebuilding at the minimum rate [%]"
    )
    rebuild_hours: Explained
    unrecoverable_read_pct: Explained = Field(
        description="chance the rebuild meets an unrecoverable read error with no redundancy left [%]"
    )
    further_failure_pct: Explained | None = Field(
        default=None,
        description="chance another drive holding the failed one's stripes or copies fails before the rebuild "
        "ends [%]",
    )

    @property
    def survives(self) -> bool:
        """The degraded group keeps up with its load while it rebuilds."""
        return self.rebuild_group_utilization_pct < 100.0


class EnduranceResult(Output):
    """Flash wear of a pool's busiest drive role at a window's write rate, sustained all day."""

    drive_writes_per_day: Explained = Field(description="full drive writes per day the load needs [DWPD]")
    rated_dwpd: float = Field(description="the drive's rated drive writes per day over its warranty")
    years_to_wear_out: Explained = Field(description="years until the rated writes are used up [years]")


class PoolLoad(Output):
    """Back-end load of one pool in one window."""

    pool: str
    frontend_iops: float
    backend_iops: Explained
    backend_read_iops: float
    backend_write_iops: float
    drive_busy_ms_per_s: float
    drive_utilization_pct: Explained
    mean_read_service_ms: float
    read_miss_latency_ms: Explained
    span_pct: float = Field(description="share of the drives' surface the data spans [%]")
    queue_per_drive: float
    parity_utilization_pct: Explained | None = Field(
        default=None, description="dedicated parity drives busy (RAID-DP/RAID-TEC) [%]"
    )
    backend_mb_per_s: float = Field(default=0.0, description="bytes moved to and from the drives [MB/s]")
    destage_capacity_x: float | None = Field(
        default=None,
        description="how many times this window's write rate the drives could destage beside its reads "
        "(None without writes)",
    )
    degraded_group_utilization_pct: float | None = None
    rebuild_hours: Explained | None = None
    failure: FailureResult | None = Field(
        default=None, description="one drive failed in one group at this window's load (None: no redundancy)"
    )
    endurance: EnduranceResult | None = Field(
        default=None, description="flash wear at this window's write rate (None: no endurance rating)"
    )
    per_drive_iops: Explained | None = Field(default=None, description="back-end IOPS per drive")
    write_penalty: Explained | None = Field(
        default=None, description="back-end writes per front-end write in the window"
    )


class PhaseResult(Output):
    """One workload phase inside a window: its caches and latencies."""

    workload: str
    phase: str
    pool: str
    iops: float
    mb_per_s: float
    read_pct: float
    working_set_gb: float
    cache_gb: float = Field(description="DRAM cache share this workload gets in the window [GB]")
    dram_hit_pct: Explained
    flash_hit_pct: Explained
    working_set_in_cache_pct: float
    cold_hit_pct: Explained = Field(description="hit ratio over the first pass after a cold start (warm-up)")
    read_latency_ms: Explained
    read_p95_latency_ms: Explained | None = Field(
        default=None,
        description="95th percentile of read latency [ms] (None: no reads; value None: saturated)",
    )
    read_p99_latency_ms: Explained | None = Field(
        default=None,
        description="99th percentile of read latency [ms] (None: no reads; value None: saturated)",
    )
    write_latency_ms: Explained
    avg_latency_ms: float | None
    read_latency_target_ms: float | None
    passed: bool


class TierLoad(Output):
    """One tier of an autotiered pool set in one window."""

    pool: str
    capacity_gb: float = Field(description="usable capacity of the tier [GB]")
    data_gb: float = Field(description="data placed on the tier, hottest chunks first [GB]")
    io_share_pct: float = Field(description="share of the tiered I/O the tier serves [%]")


class TieringResult(Output):
    """How an autotiered pool set splits the I/O (b-model chunk locality, or a measured fraction)."""

    chunk_mb: float
    needed_fast_fraction_pct: Explained
    tiers: list[TierLoad]
    metadata_ram_gb: Explained
    migration_mb_s: Explained
    spill: list[str]


class ColdPhase(Output):
    """One phase of a window while the caches refill."""

    workload: str
    phase: str
    hit_pct: float = Field(description="read-hit ratio over the first pass of the working set [%]")
    warm_hit_pct: float = Field(description="the steady-state (warm) read-hit ratio [%]")
    read_latency_ms: float | None = Field(
        description="mean read latency with cold caches [ms]; None: saturated"
    )
    read_p99_latency_ms: float | None = Field(
        default=None, description="p99 read latency with cold caches [ms]"
    )
    metadata_reads_per_miss: float = Field(
        default=0.0,
        description="indirect-block reads per cold read miss over the pass on a copy-on-write layout "
        "(WAFL, ZFS; models.cow_metadata), taken off hit_pct; 0 where blocks are updated in place",
    )


class ColdCacheResult(Output):
    """A window right after a restart or a failover, while the caches refill: every phase reads at
    its first-pass (cold) hit ratio until it has read its working set once."""

    phases: list[ColdPhase]
    drive_utilization_pct: dict[str, float | None] = Field(description="each pool's drives busy [%]")
    controller_utilization_pct: float | None
    read_latency_ms: float | None
    read_p95_latency_ms: float | None = None
    read_p99_latency_ms: float | None = None
    bottleneck: str
    passed: bool = Field(description="every check met with cold caches (the warm verdict decides sizing)")
    verdict: str


class WindowResult(Output):
    """Everything about one window: load, utilization of each component, latency, checks."""

    window: str
    frontend_iops: float
    frontend_mb_s: float
    read_pct: float
    pools: list[PoolLoad]
    phases: list[PhaseResult]
    controller_utilization_pct: Explained
    failover_utilization_pct: Explained | None
    port_utilization_pct: Explained
    cluster_network_utilization_pct: Explained | None = Field(
        default=None, description="each scale-out node's cluster-network link busy [%] (None: not scale-out)"
    )
    read_latency_ms: float | None
    read_p95_latency_ms: float | None = Field(
        default=None, description="95th percentile of every read of the window [ms]; None when saturated"
    )
    read_p99_latency_ms: float | None = Field(
        default=None, description="99th percentile of every read of the window [ms]; None when saturated"
    )
    write_latency_ms: float | None
    avg_latency_ms: float | None
    checks: list[Check]
    bottleneck: str
    passed: bool
    verdict: str
    tiering: TieringResult | None = None
    backend_bus_utilization_pct: Explained | None = Field(
        default=None, description="controllers' back-end buses busy, where the controller states one [%]"
    )
    flash_cache_utilization_pct: Explained | None = Field(
        default=None,
        description="the flash cache's devices busy with the reads it serves [%]; null without a flash cache",
    )
    write_burst_s: Explained | None = Field(
        default=None,
        description="how long the NVRAM absorbs a burst of twice this window's writes before back-pressure "
        "(value null: for as long as the burst lasts, the drives destage twice the writes)",
    )
    failure_verdict: str | None = Field(
        default=None, description="whether every pool keeps up with a drive failed and while it rebuilds"
    )
    cold_cache: ColdCacheResult | None = Field(
        default=None,
        description="the window while the caches refill after a restart or failover (None: same as warm, "
        "or not asked for)",
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="formula and inputs of the window's totals, by field name (models.results.window_explained)"
    )
    @property
    def explain(self) -> WindowExplained:
        """The window's totals explained (:func:`window_explained`), worked out when read."""
        return window_explained(self)


class WindowExplained(Output):
    """A window's totals, each with its formula and inputs (:attr:`WindowResult.explain`)."""

    frontend_iops: Explained
    frontend_mb_s: Explained
    read_latency_ms: Explained
    write_latency_ms: Explained


def window_explained(w: WindowResult) -> WindowExplained:
    """Formula and inputs of a window's totals, from its phases: front-end IOPS and MB/s (sums over
    the phases) and the read and write latency (IOPS-weighted means,
    :func:`models.latency.window_latencies_of`; unbounded when a phase that reads, or writes, is
    saturated)."""
    named = [(f"{ph.workload}/{ph.phase}", ph) for ph in w.phases]
    out: dict[str, Explained] = {
        "frontend_iops": _EXPLAINED(
            {
                "value": w.frontend_iops,
                "unit": "IOPS",
                "formula": "IOPS = sum of the phases running in the window",
                "text": f"IOPS = {' + '.join(f'{number(ph.iops)} ({n})' for n, ph in named) or '0'} = "
                f"{number(w.frontend_iops)}",
                "inputs": {n: ph.iops for n, ph in named},
            }
        ),
        "frontend_mb_s": _EXPLAINED(
            {
                "value": w.frontend_mb_s,
                "unit": "MB/s",
                "formula": "MB/s = sum over phases of IOPS x mean I/O size",
                "text": f"MB/s = {' + '.join(f'{number(ph.mb_per_s)} ({n})' for n, ph in named) or '0'} = "
                f"{number(w.frontend_mb_s)}",
                "inputs": {n: ph.mb_per_s for n, ph in named},
            }
        ),
    }
    for kind, value in (("read", w.read_latency_ms), ("write", w.write_latency_ms)):
        per = [
            (n, ph.read_latency_ms.value if kind == "read" else ph.write_latency_ms.value)
            for n, ph in named
            if (ph.read_pct > 0 if kind == "read" else ph.read_pct < 100)
        ]
        terms = ", ".join(f"{number(ms)} ms ({n})" for n, ms in per)
        out[f"{kind}_latency_ms"] = _EXPLAINED(
            {
                "value": value,
                "unit": "ms",
                "formula": f"R_{kind} = sum(phase {kind}s x phase R_{kind}) / sum(phase {kind}s)",
                "text": f"R_{kind} is unbounded: a phase's {kind}s saturate a resource"
                if value is None
                else f"R_{kind} = IOPS-weighted mean of {terms or f'no {kind}s'} = {number(value)} ms",
                "inputs": dict(per),
            }
        )
    return _WINDOW_EXPLAINED(out)


_WINDOW_EXPLAINED = validator_of(WindowExplained)
_EXPLAINED = validator_of(Explained)


class BillOfMaterials(Output):
    """Drives, shelves, rack units, power and list cost (None where the catalog has no figure)."""

    drives: int
    spares: int
    shelves: int
    rack_units: float
    power_w: float | None
    cost_usd: float | None
    flash_cache_gb: float
    explain: dict[str, Explained] = Field(
        default_factory=dict, description="formula and inputs of each figure, keyed by field name"
    )


class EvaluationResult(Output):
    engine_version: str
    configuration: str
    degraded: DegradedMode
    windows: list[WindowResult]
    capacity: CapacityResult
    bill: BillOfMaterials
    checks: list[Check]
    passed: bool = Field(
        description="every check met; with a verdict, also every case it judges that was not relaxed"
    )
    bottleneck: str
    warnings: list[str]
    calibration: ResultCalibration | None = Field(
        default=None, description="per part (drives, controller, cache, ports): status and source keys"
    )
    model_error: ModelError | None = Field(
        default=None, description="how far off predictions of this class of system have been (make validate)"
    )
    verdict: Verdict | None = Field(
        default=None,
        description="the design judged in every case (healthy, a drive failed, rebuilding, failover, cold "
        "caches, at the growth horizon) with what was relaxed (models.verdict); null: one mode only",
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="the bottleneck in words (models.checks.check_words), e.g. 'the drives (month-end batch)'"
    )
    @property
    def bottleneck_words(self) -> str:
        """:attr:`bottleneck` as a person reads it: ``drives:pool (month-end batch)`` -> ``the drives
        (month-end batch)``."""
        worst = worst_window(self.windows)
        if self.bottleneck == "capacity" or worst is None:
            return "the capacity"
        return f"{check_words(worst.bottleneck, len(self.capacity.pools))} ({worst.window})"


class Limit(NamedTuple):
    """A check's arguments (:func:`check`) before its :class:`Check` is built: a figures-only pass
    (the cold-cache case of a window) keeps only the verdicts, and the texts of failing checks."""

    name: str
    value: float | None
    limit: float
    unit: str
    what: str

    @property
    def passed(self) -> bool:
        """:attr:`Check.passed` of :func:`check`: :func:`models.checks.within` (saturated fails)."""
        return within(self.value, self.limit)

    @property
    def load(self) -> float:
        """Value over limit, as windows rank their checks (:attr:`Check.value` / :attr:`Check.limit`;
        saturated: inf; no limit: 0)."""
        v = self.value
        if v is None or not math.isfinite(v):
            return math.inf
        return v / self.limit if self.limit else 0.0

    def check(self) -> Check:
        return check(*self)


def check(name: str, value: float | None, limit: float, unit: str, what: str) -> Check:
    """``value`` against ``limit`` (``None`` or non-finite: saturated, failed), with the margin."""
    if value is None or not math.isfinite(value):
        return _CHECK(
            {
                "name": name,
                "value": None,
                "limit": limit,
                "unit": unit,
                "margin": None,
                "passed": False,
                "text": f"{what} is saturated (limit {number(limit)} {unit})",
            }
        )
    margin = limit - value
    ok = within(value, limit)
    verb = "within" if ok else "over"
    shown, shown_limit = number(value), number(limit)
    if shown == shown_limit and abs(margin) > TOLERANCE:
        shown = _apart(value, limit)
    return _CHECK(
        {
            "name": name,
            "value": value,
            "limit": limit,
            "unit": unit,
            "margin": margin,
            "passed": ok,
            "text": f"{what} {shown} {unit}, {verb} the limit of {shown_limit} {unit}",
        }
    )


def _apart(value: float, limit: float) -> str:
    """``value`` with as many significant digits as it takes to read apart from ``limit`` (up to
    12): a check's text never says "10 ms, over the limit of 10 ms"."""
    for digits in range(4, 13):
        text = format(value, f",.{digits}g")
        if text != format(limit, f",.{digits}g"):
            return text
    return format(value, ",.12g")


def worst_window(windows: list[WindowResult]) -> WindowResult | None:
    """The window whose checks come nearest (or furthest past) their limits; saturated first."""

    def score(w: WindowResult) -> float:
        worst = 0.0
        for c in w.checks:
            if c.value is None:
                return float("inf")
            if c.limit > 0:
                worst = max(worst, c.value / c.limit)
        return worst

    return max(windows, key=score) if windows else None


_CHECK = validator_of(Check)
