"""Workloads and their phases (I/O windows).

A workload is one application's demand: capacity, growth, data reduction, working set and access
skew, replication, and a list of phases. Each phase runs in a named ``window``; phases of different
workloads that share a window run at the same time and add up ("business hours", "nightly
export", "month-end"). Sizing evaluates every window, never the average.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Self

from pydantic import ConfigDict, Field, model_validator

from models.base import ABSENT, GIVEN, Frozen, NonNegFloat, Pct, PositiveFloat, Ratio


class IoSize(Frozen):
    """One entry of an I/O-size mix: ``pct`` of the phase's I/Os are ``size_kib`` [KiB] each."""

    size_kib: float = Field(gt=0.0, le=16384.0, description="I/O size [KiB]")
    pct: Pct


class ReplicationMode(StrEnum):
    NONE = "none"
    ASYNC = "async"
    SYNC = "sync"
    CDP = "cdp"


class Replication(Frozen):
    """Replication or continuous data protection: extra back-end I/O and capacity.

    ``io_amplification`` multiplies writes reaching the back end (journal, copy-on-write); some
    CDP appliances add up to 3x. ``capacity_amplification`` multiplies stored capacity.
    """

    mode: ReplicationMode = ReplicationMode.NONE
    io_amplification: float = Field(default=1.0, ge=1.0, le=3.0)
    capacity_amplification: float = Field(default=1.0, ge=1.0, le=3.0)
    sync_latency_ms: NonNegFloat = Field(default=0.0, description="added to writes when mode is sync [ms]")


class Skew(Frozen):
    """Access skew over the working set.

    Either a Zipf exponent (``zipf_alpha``; popularity of the i-th block proportional to
    i^-alpha) or a rule "``io_pct`` % of the I/O goes to ``data_pct`` % of the data"; neither
    means uniform access. The schema states both halves of the rule or neither, and not with
    ``zipf_alpha``; that ``io_pct`` is at least ``data_pct`` it cannot (a 422 at the skew).
    """

    model_config = ConfigDict(
        json_schema_extra={  # io_pct given: data_pct too and no zipf_alpha; else no data_pct
            "if": {"required": ["io_pct"], "properties": {"io_pct": GIVEN}},
            "then": {"required": ["data_pct"], "properties": {"data_pct": GIVEN, "zipf_alpha": ABSENT}},
            "else": {"properties": {"data_pct": ABSENT}},
        }
    )

    zipf_alpha: float | None = Field(default=None, ge=0.0, le=3.0)
    io_pct: float | None = Field(default=None, gt=0.0, lt=100.0)
    data_pct: float | None = Field(default=None, gt=0.0, lt=100.0)

    @model_validator(mode="after")
    def _check(self) -> Self:
        rule = (self.io_pct is not None, self.data_pct is not None)
        if rule[0] != rule[1]:
            raise ValueError("give both io_pct and data_pct (x% of I/O goes to y% of the data)")
        if rule[0] and self.zipf_alpha is not None:
            raise ValueError("give either zipf_alpha or io_pct/data_pct, not both")
        if rule[0] and self.io_pct is not None and self.data_pct is not None and self.io_pct < self.data_pct:
            raise ValueError("io_pct must be >= data_pct: the hot data gets at least its share of I/O")
        return self

    @property
    def uniform(self) -> bool:
        return self.zipf_alpha in (None, 0.0) and self.io_pct is None


class ObservedLoad(Frozen):
    """What a host measured while a phase ran: evidence beside the model, never an input to sizing.

    Host statistics (iostat, sar, perfmon, esxtop) give the load a window really carried on the
    system the statistics came from, and the latency and queue the host saw there. ``iops`` and
    ``read_pct`` are the window's mean (the phase's own rate may be a higher percentile);
    latencies are I/O-weighted means [ms] as the host measured them (they include the host's own
    queueing and the fabric); ``queue_length`` is the time-averaged number of outstanding I/Os,
    summed over the devices (Little's law: queues of parallel devices add).
    """

    source: str = Field(min_length=1, max_length=300, description="where and when it was measured")
    iops: NonNegFloat = Field(description="mean I/Os per second over the window")
    read_pct: Pct
    read_latency_ms: NonNegFloat | None = None
    write_latency_ms: NonNegFloat | None = None
    queue_length: NonNegFloat | None = Field(default=None, description="mean outstanding I/Os")
    utilization_pct: Pct | None = Field(default=None, description="busiest device's mean busy time [%]")
    intervals: int = Field(default=1, ge=1, description="sampling intervals the figures average")


class Phase(Frozen):
    """One I/O phase of a workload, in a named window.

    The I/O-size mix is a list of (size, % of I/Os) pairs summing to 100; ``io_size_kib`` is the
    single-size shorthand. A streaming phase may give ``mb_per_s`` instead of ``iops``. Exactly one
    of ``io_sizes`` (a non-empty mix) and ``io_size_kib`` is given: the schema says so (``if``/``then``);
    that the mix's percentages sum to 100 it cannot (a 422 at the phase).
    """

    model_config = ConfigDict(
        json_schema_extra={  # io_size_kib given: no mix; else a mix of at least one size
            "if": {"required": ["io_size_kib"], "properties": {"io_size_kib": GIVEN}},
            "then": {"properties": {"io_sizes": {"maxItems": 0}}},
            "else": {"required": ["io_sizes"], "properties": {"io_sizes": {"minItems": 1}}},
        }
    )

    name: str = Field(min_length=1, max_length=80)
    window: str = Field(min_length=1, max_length=80, description="phases sharing a window run together")
    iops: NonNegFloat = Field(default=0.0, description="front-end I/Os per second")
    mb_per_s: NonNegFloat | None = Field(default=None, description="front-end MB/s for streaming phases")
    read_pct: Pct
    random_pct: Pct = 100.0
    io_sizes: list[IoSize] = Field(default_factory=list, max_length=64)
    io_size_kib: float | None = Field(
        default=None, gt=0.0, le=16384.0, description="single-size shorthand [KiB]"
    )
    read_latency_target_ms: PositiveFloat | None = None
    working_set_gb: PositiveFloat | None = Field(
        default=None, description="this phase's working set [GB]; overrides the workload's"
    )
    write_overwrite_pct: Pct = Field(
        default=0.0, description="share of writes that overwrite data still in the write cache (absorbed)"
    )
    concurrency: float | None = Field(
        default=None,
        gt=0.0,
        le=1e6,
        description="outstanding I/Os the hosts keep (queue depth summed over hosts and LUNs); None = unknown: "
        "no command-queuing credit at the drives",
    )
    sequential_streams: int | None = Field(
        default=None,
        ge=1,
        le=100000,
        description="concurrent sequential streams; 1 = a single stream the drives read without seeking; "
        "2 or more = interleaved streams, each paying one positioning per readahead request on every drive "
        "and keeping that request queued at the drives; None = unknown: interleaved, no queuing credit",
    )
    readahead_kib: float | None = Field(
        default=None,
        ge=4.0,
        le=65536.0,
        description="KiB each sequential stream keeps requested ahead of itself at the host (e.g. a "
        "file system's or client's readahead); None = the array's prefetch alone",
    )
    observed: ObservedLoad | None = Field(
        default=None, description="what the host measured in this window (evidence; sizing ignores it)"
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.io_sizes and self.io_size_kib is not None:
            raise ValueError("give io_sizes or io_size_kib, not both")
        if not self.io_sizes and self.io_size_kib is None:
            raise ValueError("give an I/O size: io_sizes (mix) or io_size_kib")
        if self.io_sizes:
            total = sum(s.pct for s in self.io_sizes)
            if not math.isclose(total, 100.0, abs_tol=0.01):
                raise ValueError(f"io_sizes percentages must sum to 100, got {total:g}")
        if self.iops == 0 and self.mb_per_s:
            pass  # IOPS derived from MB/s
        return self

    @property
    def size_mix(self) -> list[tuple[float, float]]:
        """[(size_kib, fraction of I/Os)] with fractions summing to 1."""
        if self.io_sizes:
            return [(s.size_kib, s.pct / 100.0) for s in self.io_sizes if s.pct > 0]
        assert self.io_size_kib is not None
        return [(self.io_size_kib, 1.0)]

    @property
    def mean_size_kib(self) -> float:
        """I/O-weighted mean size [KiB]: ``sum(size_i * frac_i)``."""
        if not self.io_sizes and self.io_size_kib is not None:
            # one size: the sum below of the one term size x 1.0, without building the mix
            return 0.0 + self.io_size_kib * 1.0
        return sum(size * frac for size, frac in self.size_mix)

    @property
    def effective_iops(self) -> float:
        """Front-end IOPS; for a streaming phase given in MB/s: ``MB/s * 10^6 / (mean size * 1024)``."""
        if self.iops > 0 or not self.mb_per_s:
            return self.iops
        return self.mb_per_s * 1e6 / (self.mean_size_kib * 1024.0)

    @property
    def effective_mb_s(self) -> float:
        """Front-end MB/s: ``IOPS * mean size * 1024 / 10^6`` (or the given MB/s)."""
        if self.iops == 0 and self.mb_per_s:
            return self.mb_per_s
        return self.iops * self.mean_size_kib * 1024.0 / 1e6


class Workload(Frozen):
    """One application's demand across its windows."""

    name: str = Field(min_length=1, max_length=80)
    capacity_tb: PositiveFloat = Field(description="capacity needed today [TB, decimal], before reduction")
    growth_pct_per_year: float = Field(default=0.0, ge=0.0, le=1000.0)
    horizon_years: float = Field(default=0.0, ge=0.0, le=20.0)
    dedupe_ratio: Ratio = 1.0
    compression_ratio: Ratio = 1.0
    working_set_gb: PositiveFloat | None = Field(default=None, description="hot data [GB]")
    working_set_pct: float | None = Field(
        default=None, gt=0.0, le=100.0, description="hot data [% of capacity]"
    )
    skew: Skew = Field(default_factory=Skew)
    replication: Replication = Field(default_factory=Replication)
    snapshot_reserve_pct: Pct = Field(default=0.0, description="space held for snapshots [% of volume]")
    snapshot_change_pct_per_day: Pct = Field(
        default=0.0, description="data changed per day kept by snapshots [%]"
    )
    snapshot_retention_days: float = Field(
        default=0.0, ge=0.0, le=3650.0, description="how long snapshots are kept"
    )
    pool: str | None = Field(
        default=None, description="name of the drive pool it lives in; default the first"
    )
    phases: list[Phase] = Field(min_length=1, max_length=32)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.working_set_gb is not None and self.working_set_pct is not None:
            raise ValueError("give working_set_gb or working_set_pct, not both")
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names):
            raise ValueError("phase names must be unique within a workload")
        return self

    @property
    def grown_capacity_tb(self) -> float:
        """Capacity at the horizon [TB]: ``C * (1 + g)^years`` (compound growth)."""
        return self.capacity_tb * (1.0 + self.growth_pct_per_year / 100.0) ** self.horizon_years

    def working_set_for(self, phase: Phase) -> float:
        """Working set of ``phase`` [GB]: its own, else the workload's, else the whole capacity."""
        if phase.working_set_gb is not None:
            return phase.working_set_gb
        if self.working_set_gb is not None:
            return self.working_set_gb
        if self.working_set_pct is not None:
            return self.capacity_tb * 1000.0 * self.working_set_pct / 100.0
        return self.capacity_tb * 1000.0


def windows_of(workloads: list[Workload]) -> list[str]:
    """Window names in first-seen order across all workloads."""
    seen: dict[str, None] = {}
    for w in workloads:
        for p in w.phases:
            seen.setdefault(p.window, None)
    return list(seen)
