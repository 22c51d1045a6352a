"""Controllers: CPU cost model, limits, HA failover.

Controller CPU demand is the sum over operation kinds of their rate times their CPU cost, plus a
cost per KiB moved, times data-service multipliers:

    busy = (R_hit c_hit + R_miss c_miss + W c_write + KiB/s c_kib + BE c_be) x m_dedupe x m_compress x m_repl
           / (10^6 x cores x controllers_serving)

where BE is the back-end I/Os the RAID layout issues to the drives (a RAID6 small write issues six,
RAID10 two: the controller builds, tracks and completes each, and computes the parity). On a
scale-out cluster, W also counts every copy kept on another node and every chunk operation of an
erasure-coded write (and R_miss every further chunk of a whole-stripe read), and KiB written (with
their copies and chunks) cost ``cpu_us_per_kib_written`` where the node states it
(:func:`controller_load`, :func:`front_end_cpu_us`).

Costs are CPU microseconds on one core of that controller model (calibrated per model in the
catalog against published plateaus). A core's work per I/O is a count of cycles, so its time
scales with the clock: costs calibrated on cores at ``f0`` cost ``c(f) = c(f0) x f0 / f`` on cores
at ``f`` (:func:`at_core_clock`), applied only where both clocks are stated (``costs_core_ghz``,
``core_ghz``); otherwise the costs stand as calibrated and the explanation says which clock is
unstated (:func:`clock_text`). Memory stalls do not scale with the clock, so the scaling is an
upper bound on a slower core's penalty and a faster core's gain. Utilization also counts the model's IOPS and MB/s ceilings
(``max_iops``/``max_mb_s`` per controller), and the larger of CPU, IOPS and MB/s utilization is the
controller's. HA: an active-active pair shares the load (two serving); after a failover one
controller carries everything. Scale-out N nodes: N serve, N - 1 after a node is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import numpy as np
from pydantic import Field

from models.base import Frozen, InputError, NonNegFloat, PositiveFloat, validator_of
from models.explain import fmt
from models.numeric import every, maximum, some
from models.provenance import CONTROLLER_COSTS, PartCalibration
from models.raid import RaidLayout, chunk_read_ops, chunk_write_ops
from models.workload import Phase, ReplicationMode, Workload

Num = Any
"""A float, or a numpy array of them (one element per candidate in the batch path)."""


class HaMode(StrEnum):
    SINGLE = "single"
    ACTIVE_ACTIVE = "active-active"
    ACTIVE_PASSIVE = "active-passive"
    SCALE_OUT = "scale-out"


class ControllerSpec(Frozen):
    """A controller model (per controller / node) and how many of them the system has."""

    model: str = Field(min_length=1, max_length=120)
    count: int = Field(default=2, ge=1, le=256)
    ha_mode: HaMode = HaMode.ACTIVE_ACTIVE
    cores: PositiveFloat = Field(default=1.0, description="CPU cores (or core-equivalents) per controller")
    core_ghz: float | None = Field(
        default=None,
        ge=0.5,
        le=6.0,
        description="the cores' clock as a cited source states it (nominal) [GHz]; None = unstated: the CPU "
        "costs are not scaled for clock (:func:`clock_factor`)",
    )
    costs_core_ghz: float | None = Field(
        default=None,
        ge=0.5,
        le=6.0,
        description="the clock of the cores the CPU costs per I/O were calibrated on [GHz] (their provenance: "
        "the measured system's CPU as its source states it); None = unstated: no clock scaling",
    )
    cpu_us_read_hit: NonNegFloat = Field(default=20.0, description="CPU per cached read [us]")
    cpu_us_read_miss: NonNegFloat = Field(default=60.0, description="CPU per read served from drives [us]")
    cpu_us_write: NonNegFloat = Field(default=80.0, description="CPU per write incl. mirroring [us]")
    cpu_us_per_kib: NonNegFloat = Field(default=0.5, description="CPU per KiB moved [us]")
    cpu_us_per_kib_written: NonNegFloat | None = Field(
        default=None,
        description="CPU per KiB written on a node: every write's KiB and each copy or chunk of it the node "
        "handles [us]; None = cpu_us_per_kib (a software-defined node checksums, logs and replicates "
        "what it writes, so its written KiB can cost far more than the KiB it reads)",
    )
    cpu_us_per_backend_io: NonNegFloat = Field(
        default=5.0,
        description="CPU per back-end (drive) I/O the RAID layout issues, parity computation included [us]; "
        "default an estimate (a tenth of a front-end read miss)",
    )
    dedupe_cpu_multiplier: float = Field(default=1.3, ge=1.0, le=5.0)
    compression_cpu_multiplier: float = Field(default=1.2, ge=1.0, le=5.0)
    replication_cpu_multiplier: float = Field(default=1.1, ge=1.0, le=5.0)
    max_iops: float | None = Field(
        default=None,
        ge=1.0,
        description="front-end IOPS ceiling per controller (node); a vendor figure, cited in source",
    )
    max_mb_s: PositiveFloat | None = Field(
        default=None, description="front-end MB/s ceiling per controller (node); a vendor figure, cited"
    )
    backend_mb_s: PositiveFloat | None = Field(
        default=None,
        description="back-end bus per controller (SAS/FC loops to the shelves), one direction [MB/s]; "
        "None = not checked",
    )
    cluster_network_mb_s: PositiveFloat | None = Field(
        default=None,
        description="cluster interconnect per controller (node), one direction [MB/s]: carries copy "
        "traffic between nodes (replicas, synchronous mirroring, indirect I/O)",
    )
    cluster_network_shared: bool = Field(
        default=False,
        description="a scale-out node's client and cluster traffic share its front-end ports (one NIC): the "
        "traffic crossing nodes is added to the ports' load and cluster_network_mb_s is not checked apart",
    )
    dram_cache_gb: NonNegFloat = Field(default=0.0, description="read cache in DRAM per controller [GB]")
    nvram_mb: NonNegFloat = Field(default=512.0, description="write cache / NVRAM per controller [MB]")
    write_ack_ms: NonNegFloat = Field(default=0.3, description="write acknowledgement from NVRAM [ms]")
    cache_hit_ms: NonNegFloat = Field(default=0.2, description="read served from DRAM [ms]")
    source: str = Field(default="user-defined")
    calibration: PartCalibration | None = Field(
        default=None,
        description=(
            "a custom controller record's calibration (None: estimate (user)); catalog arrays state "
            "theirs in the array's calibration.controller"
        ),
    )

    @property
    def kib_written_us(self) -> float:
        """CPU per KiB written [us]: ``cpu_us_per_kib_written``, else ``cpu_us_per_kib``."""
        return self.cpu_us_per_kib if self.cpu_us_per_kib_written is None else self.cpu_us_per_kib_written

    @property
    def serving(self) -> int:
        """Controllers carrying load in normal operation."""
        if self.ha_mode is HaMode.ACTIVE_PASSIVE:
            return 1
        return self.count

    @property
    def serving_after_failover(self) -> int:
        """Controllers carrying load after one fails (0 means the system is down)."""
        if self.ha_mode is HaMode.ACTIVE_PASSIVE:
            return 1 if self.count >= 2 else 0
        return self.count - 1


def clock_factor(spec: ControllerSpec) -> float | None:
    """``f0 / f``: the costs' calibration clock over the cores' clock; None when either is unstated."""
    if spec.core_ghz is None or spec.costs_core_ghz is None:
        return None
    return spec.costs_core_ghz / spec.core_ghz


def at_core_clock(spec: ControllerSpec) -> ControllerSpec:
    """``spec`` with its CPU costs at its own cores' clock: ``c(f) = c(f0) x f0 / f``
    (:func:`clock_factor`), and ``costs_core_ghz = core_ghz`` (so scaling again changes nothing);
    ``spec`` itself when either clock is unstated or they are equal."""
    k = clock_factor(spec)
    if k is None or k == 1.0:
        return spec
    changes: dict[str, float | None] = {name: getattr(spec, name) * k for name in CONTROLLER_COSTS}
    if spec.cpu_us_per_kib_written is not None:
        changes["cpu_us_per_kib_written"] = spec.cpu_us_per_kib_written * k
    changes["costs_core_ghz"] = spec.core_ghz
    return spec.model_copy(update=changes)


def clock_text(spec: ControllerSpec) -> str:
    """The clock scaling of ``spec``'s CPU costs, formula and inputs (or which clock is unstated)."""
    f, f0 = spec.core_ghz, spec.costs_core_ghz
    if f is None or f0 is None:
        unstated = " and ".join(
            name
            for name, v in (
                ("the cores' clock (core_ghz)", f),
                ("the costs' calibration clock (costs_core_ghz)", f0),
            )
            if v is None
        )
        return f"CPU costs not scaled for clock: {unstated} unstated"
    k = f0 / f
    return (
        f"CPU costs at the cores' clock: c(f) = c(f0) x f0 / f = c(f0) x {fmt(f0)} GHz / {fmt(f)} GHz "
        f"= c(f0) x {k:.3f} (c_hit {fmt(spec.cpu_us_read_hit * k)} us, c_miss {fmt(spec.cpu_us_read_miss * k)} us, "
        f"c_write {fmt(spec.cpu_us_write * k)} us)"
    )


class ControllerLoad(Frozen):
    """Per-second front-end demand on the controllers."""

    read_hits: NonNegFloat = 0.0
    read_misses: NonNegFloat = 0.0
    writes: NonNegFloat = 0.0
    kib_per_s: NonNegFloat = 0.0
    write_kib_per_s: NonNegFloat = Field(default=0.0, description="KiB written of kib_per_s [per s]")
    backend_ios: NonNegFloat = Field(default=0.0, description="back-end (drive) I/Os per second")
    copy_writes: NonNegFloat = Field(
        default=0.0,
        description="writes of copies kept on other nodes, and further chunk operations of erasure-coded "
        "writes (old chunks read, new ones written) [per s]",
    )
    copy_kib_per_s: NonNegFloat = Field(default=0.0, description="KiB of those copies and chunks [per s]")
    chunk_reads: NonNegFloat = Field(
        default=0.0, description="further chunk reads of erasure-coded stripes read whole [per s]"
    )
    chunk_read_kib_per_s: NonNegFloat = Field(default=0.0, description="KiB of those chunk reads [per s]")
    dedupe: bool = False
    compression: bool = False
    replication: bool = False
    protocol_cpu_multiplier: float = Field(
        default=1.0,
        ge=1.0,
        le=5.0,
        description="front-end CPU per operation of the ports' protocol (models.ports.protocol_cpu_multiplier)",
    )

    @property
    def iops(self) -> float:
        return self.read_hits + self.read_misses + self.writes


def cpu_multiplier(load: ControllerLoad, spec: ControllerSpec) -> float:
    """Product of the data-service CPU multipliers that apply (dedupe, compression, replication)."""
    m = 1.0
    if load.dedupe:
        m *= spec.dedupe_cpu_multiplier
    if load.compression:
        m *= spec.compression_cpu_multiplier
    if load.replication:
        m *= spec.replication_cpu_multiplier
    return m


def front_end_cpu_us(load: ControllerLoad, spec: ControllerSpec) -> float:
    """CPU microseconds per second of the front-end operations (multipliers not applied); KiB
    written (and their copies and chunks) at ``cpu_us_per_kib_written`` when stated."""
    ops = (
        load.read_hits * spec.cpu_us_read_hit
        + (load.read_misses + load.chunk_reads) * spec.cpu_us_read_miss
        + (load.writes + load.copy_writes) * spec.cpu_us_write
    )
    if spec.cpu_us_per_kib_written is None:  # one cost for every KiB
        return ops + (load.kib_per_s + load.copy_kib_per_s + load.chunk_read_kib_per_s) * spec.cpu_us_per_kib
    return (
        ops
        + (load.kib_per_s - load.write_kib_per_s + load.chunk_read_kib_per_s) * spec.cpu_us_per_kib
        + (load.write_kib_per_s + load.copy_kib_per_s) * spec.cpu_us_per_kib_written
    )


def cpu_seconds_per_second(load: ControllerLoad, spec: ControllerSpec, backend_ios: Num = None) -> Num:
    """Total CPU demand [core-seconds per second] over all controllers, with multipliers.

    ``backend_ios`` overrides ``load.backend_ios`` (an array of them in the batch path).
    """
    be = load.backend_ios if backend_ios is None else backend_ios
    front = front_end_cpu_us(load, spec)
    if load.protocol_cpu_multiplier != 1.0:  # TCP on the controller's cores (models.ports)
        front = front * load.protocol_cpu_multiplier
    return (front + be * spec.cpu_us_per_backend_io) * cpu_multiplier(load, spec) / 1e6


def cpu_us_per_io(load: ControllerLoad, spec: ControllerSpec, cpu_s: Num = None) -> Num:
    """Mean CPU time of one front-end I/O [us on one core], multipliers included."""
    if every(load.iops <= 0):  # (the batch path passes loads all idle or all not)
        return 0.0
    cpu = cpu_seconds_per_second(load, spec) if cpu_s is None else cpu_s
    return cpu * 1e6 / load.iops


def controller_utilization(
    load: ControllerLoad, spec: ControllerSpec, serving: int, cpu_s: Num = None
) -> Num:
    """Utilization of each of ``serving`` controllers sharing ``load`` evenly (0..inf).

    ``max(cpu / (cores x serving), IOPS / (max_iops x serving), MB/s / (max_mb_s x serving))``;
    ``cpu_s`` overrides the CPU demand of ``load`` (:func:`cpu_seconds_per_second`).
    """
    if some(serving < 1):
        raise InputError("serving", "no controller left to serve the load")
    cpu = cpu_seconds_per_second(load, spec) if cpu_s is None else cpu_s
    u = cpu / (spec.cores * serving)
    # a ceiling not stated (None or 0) is no ceiling (the batch path passes controllers all
    # stating one or none)
    if spec.max_iops is not None and every(spec.max_iops):
        u = maximum(u, load.iops / (spec.max_iops * serving))
    if spec.max_mb_s is not None and every(spec.max_mb_s):
        u = maximum(u, load.kib_per_s * 1.024e-3 / (spec.max_mb_s * serving))
    return u if isinstance(u, np.ndarray) else float(u)


def controller_load(
    members: Sequence[tuple[Workload, Phase]],
    hits: Sequence[tuple[float, float]],
    backend_ios: float = 0.0,
    remote_copies: int = 0,
    stripes: Sequence[RaidLayout | None] | None = None,
    full_stripe_reads: bool = False,
    protocol_multiplier: float = 1.0,
) -> ControllerLoad:
    """Demand of phases running together, given each one's (DRAM, flash) read-hit ratio and the
    back-end I/Os their pools issue.

    Sequential reads are prefetched (served from cache: hits); random reads hit with
    ``h_DRAM + h_flash`` and miss otherwise; every write and every KiB moved counts. Each write
    kept as ``remote_copies`` further copies on other nodes (scale-out replication,
    :func:`models.architecture.remote_copies`) is received and written there too: that many
    more writes and their KiB, on the nodes' CPUs.

    ``stripes`` (one per member; None where its pool is not an erasure-coded stripe spread over
    nodes) turns each write of ``s`` KiB into the chunk operations of its stripe instead of copies
    (the stripe is that pool's protection across nodes)
    (:func:`models.raid.chunk_write_ops`: ``2 (b + m)`` for a partial-stripe update, ``k + m`` for
    whole stripes), each one on some node's CPU like a copy: the write itself and ``ops - 1`` more
    (``copy_writes``), with their KiB. With ``full_stripe_reads`` a read miss from such a stripe
    reads every data chunk (:func:`models.raid.chunk_read_ops`): ``k - 1`` more reads at the read
    cost, with their KiB (``chunk_reads``). ``protocol_multiplier`` scales the front-end operations'
    CPU for the ports' protocol (:func:`models.ports.protocol_cpu_multiplier`).
    """
    pairs = list(zip(members, hits, strict=True))
    layouts = list(stripes) if stripes is not None else [None] * len(members)
    if len(layouts) != len(members):
        raise InputError("stripes", f"{len(layouts)} stripes for {len(members)} phases")
    # One pass over the phases; each total adds the same terms in the same order as sum() would
    # (from 0), so the figures are bit for bit those of one sum() per total.
    read_hits: float = 0
    misses: float = 0
    writes: float = 0
    kib_per_s: float = 0
    write_kib_per_s: float = 0
    chunk_writes = chunk_write_kib = chunk_reads = chunk_read_kib = 0.0
    dedupe = compression = replication = False
    for ((wl, ph), (hd, hf)), layout in zip(pairs, layouts, strict=True):
        iops = ph.effective_iops
        size = ph.mean_size_kib
        read_pct, random_pct = ph.read_pct, ph.random_pct
        w = iops * (1 - read_pct / 100)
        miss = iops * read_pct / 100 * random_pct / 100 * max(0.0, 1 - hd - hf)
        read_hits += iops * read_pct / 100 * (1 - random_pct / 100 + random_pct / 100 * (hd + hf))
        misses += miss
        writes += w
        kib_per_s += iops * size
        write_kib_per_s += w * size
        dedupe = dedupe or wl.dedupe_ratio > 1
        compression = compression or wl.compression_ratio > 1
        replication = replication or wl.replication.mode is not ReplicationMode.NONE
        if layout is None:
            chunk_writes += w * remote_copies
            chunk_write_kib += w * size * remote_copies
            continue
        ops, kib = chunk_write_ops(layout, size)
        chunk_writes += w * (ops - 1.0)
        chunk_write_kib += w * (kib - size)
        if full_stripe_reads:
            r_ops, r_kib = chunk_read_ops(layout, size, full_stripe=True)
            chunk_reads += miss * (r_ops - 1.0)
            chunk_read_kib += miss * (r_kib - size)
    fields = {
        "read_hits": read_hits,
        "read_misses": misses,
        "writes": writes,
        "kib_per_s": kib_per_s,
        "write_kib_per_s": write_kib_per_s,
        "backend_ios": backend_ios,
        "copy_writes": chunk_writes,
        "copy_kib_per_s": chunk_write_kib,
        "chunk_reads": chunk_reads,
        "chunk_read_kib_per_s": chunk_read_kib,
        "dedupe": dedupe,
        "compression": compression,
        "replication": replication,
    }
    if protocol_multiplier != 1.0:  # stated only where a protocol costs more (the default left unset)
        fields["protocol_cpu_multiplier"] = protocol_multiplier
    return _CONTROLLER_LOAD(fields)


def backend_bus_pct(mb_s: Num, bus_mb_s: float, controllers: int) -> Num:
    """Back-end bus busy: ``U_bus = sum(pool back-end MB/s) / (bus MB/s x controllers)`` [%].

    ``mb_s``: bytes moved to and from the drives [MB/s] (one figure, or one per batch segment);
    checked against the port headroom (``models.checks``: ``back-end bus``)."""
    return 100.0 * mb_s / (bus_mb_s * controllers)


def cpu_response_ms(load: ControllerLoad, spec: ControllerSpec, utilization: Num, cpu_s: Num = None) -> Num:
    """Mean time an I/O spends at the controller CPUs [ms] (``None`` when saturated; inf in arrays).

    Seidmann's approximation of an M/M/c station with c = cores: ``D (c - 1)/c + (D/c) / (1 - U)``
    with D the CPU time of one I/O on one core (:func:`cpu_us_per_io`).
    """
    s_cpu = cpu_us_per_io(load, spec, cpu_s) / 1000.0
    c = np.maximum(spec.cores, 1.0) if isinstance(spec.cores, np.ndarray) else max(spec.cores, 1.0)
    if isinstance(utilization, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(utilization < 1, s_cpu * (c - 1) / c + (s_cpu / c) / (1 - utilization), np.inf)
    if utilization >= 1:
        return None
    return float(s_cpu * (c - 1) / c + (s_cpu / c) / (1 - utilization))


def utilization_text(name: str, load: ControllerLoad, serving: int, cores: float, u: float) -> str:
    """The controller utilization formula with its inputs filled in."""
    copies = (
        f" + {fmt(load.copy_writes)} copy/chunk writes x c_write + {fmt(load.copy_kib_per_s)} copy KiB/s x c_KiB,w"
        if load.copy_writes
        else ""
    )
    if load.chunk_reads:
        copies += (
            f" + {fmt(load.chunk_reads)} stripe chunk reads x c_miss + "
            f"{fmt(load.chunk_read_kib_per_s)} chunk KiB/s x c_KiB"
        )
    return (
        f"{name} = ({fmt(load.read_hits)} hits x c_hit + {fmt(load.read_misses)} misses x c_miss + "
        f"{fmt(load.writes)} writes x c_write + {fmt(load.kib_per_s - load.write_kib_per_s)} KiB/s read x c_KiB + "
        f"{fmt(load.write_kib_per_s)} KiB/s written x c_KiB,w{copies} + "
        f"{fmt(load.backend_ios)} back-end I/Os x c_BE) / "
        f"({fmt(cores)} cores x {serving} controllers) = {fmt(100 * u)}%"
        + (
            f" (front-end operations x {fmt(load.protocol_cpu_multiplier)}: the ports' protocol runs TCP on "
            "the controllers' cores)"
            if load.protocol_cpu_multiplier != 1.0
            else ""
        )
    )


_CONTROLLER_LOAD = validator_of(ControllerLoad)
