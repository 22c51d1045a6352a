"""A configuration: controllers, ports, drive pools, caches, tiering, packaging and headroom targets.

Everything needed to evaluate is inside the configuration (drive and controller specs are copied
in, not referenced by id), so a stored report is a self-contained snapshot.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError, NonNegFloat, Pct, PositiveFloat
from models.controller import ControllerSpec, HaMode
from models.drives import DriveKind, DriveSpec
from models.ports import PortGroup
from models.provenance import ConfigurationCalibration
from models.raid import RaidLayout
from models.rebuild import Sparing


class SparePolicy(Frozen):
    """Hot spares: ``max(min_spares, ceil(drives / per_drives))`` per pool (just ``min_spares``
    when ``per_drives`` is None, e.g. none at all for replicated scale-out nodes)."""

    per_drives: int | None = Field(default=30, ge=1, le=10000, description="one spare per this many drives")
    min_spares: int = Field(default=1, ge=0, le=64)


class DriveGroup(Frozen):
    """Additional drives of another model in a pool (mixed sizes)."""

    drive: DriveSpec
    count: int = Field(ge=1, le=100000)


class DrivePool(Frozen):
    """Drives of one type in one protection scheme (an aggregate, a RAID pool, a vdev set, a tier)."""

    name: str = Field(default="pool", min_length=1, max_length=80)
    drive: DriveSpec
    drive_count: int | None = Field(
        default=None, ge=1, le=100000, description="drives incl. parity, excl. spares; None = size it"
    )
    raid: RaidLayout
    spares: SparePolicy = Field(default_factory=SparePolicy)
    other_drives: list[DriveGroup] = Field(
        default_factory=list,
        max_length=4,
        description="drives of other models mixed into the pool; performance is modeled on `drive`",
    )
    drive_fraction_used: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="short-stroking: fraction of each drive's capacity used (outer tracks); None = all of it. "
        "Shortens seeks and divides usable capacity by the same factor",
    )
    sparing: Sparing | None = Field(
        default=None,
        description="where a failed drive is rebuilt to: a dedicated hot spare, or spare space distributed "
        "over every drive (E-Series DDP, dRAID, PowerStore DRE, Ceph, vSAN); None = the architecture's "
        "(distributed for scale-out and log-structured arrays, otherwise dedicated: conservative)",
    )
    planned_fill_pct: float | None = Field(
        default=None,
        gt=0.0,
        le=100.0,
        description="fill the pool will run at [% of usable]; None = the capacity fill target. Sets the seek "
        "span and the free space a write-anywhere layout finds",
    )
    drive_write_cache: bool = Field(
        default=False,
        description="the hard disks' volatile write cache is on: each drive acknowledges a write from its "
        "cache and reorders the writes it holds as deep as its command queue (models.drives."
        "write_cache_factor); False (default, conservative: what arrays with NVRAM and Ceph run) = writes "
        "are reordered only as deep as the host keeps commands at the drive",
    )

    @model_validator(mode="after")
    def _write_cache(self) -> Self:
        if self.drive_write_cache and self.drive.kind is not DriveKind.HDD:
            raise ValueError(
                "drive_write_cache: only a hard disk reorders the writes its cache holds (flash has no "
                "positioning to save)"
            )
        return self

    @property
    def other_count(self) -> int:
        return sum(g.count for g in self.other_drives)

    @property
    def drive_fraction(self) -> float:
        """Fraction of each drive used (1 unless short-stroked)."""
        return self.drive_fraction_used if self.drive_fraction_used is not None else 1.0


class FlashCacheKind(StrEnum):
    FLASH_CACHE = "flash-cache"  # NetApp PAM / Flash Cache: read cache, controller-attached
    FAST_CACHE = "fast-cache"  # EMC FAST Cache: SSD cache of reads and writes, 64 KB pages
    L2ARC = "l2arc"  # ZFS level-2 ARC: read cache devices
    FLASH_POOL = "flash-pool"  # SSDs caching 4 KB blocks inside an aggregate


class CacheConfig(Frozen):
    """Read-cache levels beyond controller DRAM (the DRAM cache is in the controller spec)."""

    flash_cache_gb: NonNegFloat = Field(default=0.0, description="flash read cache, whole system [GB]")
    flash_kind: FlashCacheKind = FlashCacheKind.FLASH_CACHE
    flash_hit_ms: PositiveFloat = Field(default=1.0, description="read served from the flash cache [ms]")
    flash_device_gb: PositiveFloat = Field(
        default=1024.0,
        le=100000.0,
        description="one flash cache device (module or SSD) [GB]; the cache is ceil(size / this) devices "
        "(conservative default: the largest NetApp Flash Cache module, so the fewest devices)",
    )
    flash_device_read_iops: PositiveFloat = Field(
        default=50000.0,
        le=1e8,
        description="4 KiB random reads one flash cache device serves per second (estimate: a SAS SSD of "
        "the flash-cache generation; state the module's rating when known)",
    )
    flash_device_read_mb_s: PositiveFloat = Field(
        default=500.0,
        le=1e6,
        description="read bandwidth of one flash cache device [MB/s] (estimate, as above)",
    )
    dedupe_aware: bool = Field(default=False, description="the flash cache holds deduplicated blocks")
    dram_dedupe_aware: bool = Field(default=False, description="the DRAM cache holds deduplicated blocks")
    exclusive: bool = Field(
        default=True, description="flash holds blocks evicted from DRAM (victim cache); False = inclusive"
    )
    cache_sequential: bool = Field(
        default=False, description="sequential reads bypass flash caches by default"
    )


class TieringConfig(Frozen):
    """Autotiering across pools (fastest first) with a vendor chunk size."""

    tiers: list[str] = Field(min_length=2, max_length=3, description="pool names, fastest tier first")
    chunk_mb: float = Field(gt=0.0, le=8192.0, description="relocation unit [MB]: 7.5 VMAX, 42 VSP, 1024 VNX")
    locality_b: float | None = Field(
        default=None,
        gt=0.5,
        lt=1.0,
        description="b-model spatial locality bias; None = from the tiered workloads' skew",
    )
    fast_tier_fraction: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="measured needed fraction (from a trace); overrides the model",
    )
    metadata_bytes_per_chunk: PositiveFloat = Field(
        default=64.0, description="controller RAM per tracked chunk [B]"
    )
    hot_set_change_pct: float = Field(
        default=10.0, ge=0.0, le=100.0, description="share of the fast tier's data relocated per window [%]"
    )
    relocation_window_h: PositiveFloat = Field(default=24.0, description="hours between relocation runs")

    @model_validator(mode="after")
    def _unique(self) -> Self:
        if len(set(self.tiers)) != len(self.tiers):
            raise ValueError("tier pool names must be distinct")
        return self


class Packaging(Frozen):
    """Physical packaging: enclosures, rack units, power and list prices (where the catalog has them)."""

    controller_rack_units: float = Field(
        default=3.0, ge=0.0, le=10000.0, description="controller enclosures, all nodes [U]"
    )
    drives_in_controller_enclosure: int = Field(default=0, ge=0, le=100000)
    drives_per_shelf: int = Field(default=24, ge=1, le=200)
    shelf_rack_units: float = Field(default=2.0, ge=0.0, le=20.0)
    max_drives: int | None = Field(default=None, ge=1, le=100000)
    max_shelves: int | None = Field(default=None, ge=0, le=10000)
    controller_power_w: NonNegFloat = Field(default=0.0, description="controller enclosure power [W]")
    shelf_power_w: NonNegFloat = Field(default=0.0, description="empty shelf power [W]")
    controller_price_usd: NonNegFloat = Field(default=0.0, description="controllers list price [USD]")
    shelf_price_usd: NonNegFloat = 0.0
    flash_cache_price_usd_per_gb: NonNegFloat = 0.0


class WriteArchitecture(StrEnum):
    """How an array lays writes down on its drives."""

    IN_PLACE_RAID = "in_place_raid"  # blocks overwritten where they live; small writes read-modify-write
    WRITE_ANYWHERE = "write_anywhere"  # WAFL, ZFS: new blocks go to free space, full stripes while it lasts
    LOG_STRUCTURED = "log_structured"  # writes appended to a log of full stripes, garbage-collected later
    REPLICATED_SCALE_OUT = "replicated_scale_out"  # whole copies on different nodes (SolidFire, Ceph, vSAN)


class WalPlacement(StrEnum):
    """Where a write is logged before it is acknowledged (the journal, WAL or intent log)."""

    NVRAM = "nvram"  # battery- or flash-backed controller memory (mirrored to the partner)
    FLASH = "flash"  # a separate flash device per node (Ceph WAL/DB on NVMe, ZFS SLOG, vSAN cache tier)
    DATA_DRIVE = "data_drive"  # on the drive that holds the data (Ceph BlueStore without a WAL device)


class ReductionMode(StrEnum):
    """When an array deduplicates or compresses: before the data reaches the drives, later, or both."""

    NONE = "none"
    INLINE = "inline"
    POST_PROCESS = "post_process"
    INLINE_AND_POST_PROCESS = "inline_and_post_process"


class Architecture(Frozen):
    """How the array writes and protects data; stated by the catalog record, read by the engine.

    ``copies`` counts whole copies of every write kept on different nodes or controllers (2 for
    two-way replication or synchronous mirroring), on top of the RAID layout inside each node.
    """

    write_architecture: WriteArchitecture = WriteArchitecture.IN_PLACE_RAID
    copies: int = Field(default=1, ge=1, le=6, description="copies of every write on different nodes")
    ec_read_full_stripe: bool = Field(
        default=False,
        description="an erasure-coded read within one chunk still reads every data chunk of its stripe "
        "from its node (Ceph before partial reads); counts on a scale-out cluster's CPUs",
    )
    wal: WalPlacement | None = Field(
        default=None,
        description="where writes are logged before the acknowledgement; None = the architecture's "
        "(replicated scale-out: the data drive, conservative; any other: the controllers' NVRAM)",
    )
    deferred_write_kib: float | None = Field(
        default=None,
        ge=0.0,
        le=65536.0,
        description="writes up to this size are committed into the write-ahead log first and written in "
        "place later (Ceph BlueStore bluestore_prefer_deferred_size); None = the store's default "
        "(models.architecture.deferred_write_kib: 64 KiB on hard disks, 0 on flash); replicated scale-out only",
    )
    dedupe: ReductionMode = ReductionMode.NONE
    compression: ReductionMode = ReductionMode.NONE
    prefetch_kib: float | None = Field(
        default=None,
        ge=4.0,
        le=65536.0,
        description="KiB the array reads ahead of each sequential stream it detects (one request at the "
        "drives per stream); None = the engine's readahead_kib (models.architecture.stream_prefetch_kib)",
    )
    max_prefetch_kib: float | None = Field(
        default=None,
        ge=4.0,
        le=65536.0,
        description="most the array can read ahead of one stream [KiB]; None = no stated limit",
    )
    stripe_units_kib: list[float] | None = Field(
        default=None,
        max_length=16,
        description="stripe units (segment sizes) the array offers [KiB]; None = any power of two",
    )

    @model_validator(mode="after")
    def _deferred(self) -> Self:
        if (
            self.deferred_write_kib is not None
            and self.write_architecture is not WriteArchitecture.REPLICATED_SCALE_OUT
        ):
            raise ValueError(
                "deferred_write_kib: only a software-defined store (replicated_scale_out, e.g. Ceph "
                "BlueStore) defers small writes through its write-ahead log"
            )
        return self

    @model_validator(mode="after")
    def _prefetch(self) -> Self:
        if (
            self.prefetch_kib is not None
            and self.max_prefetch_kib is not None
            and self.prefetch_kib > self.max_prefetch_kib
        ):
            raise ValueError(
                f"prefetch_kib: {self.prefetch_kib:g} KiB is more than this architecture can read ahead "
                f"(max_prefetch_kib {self.max_prefetch_kib:g})"
            )
        return self


class Cluster(Frozen):
    """A clustered or scale-out system: how many nodes it has, its limits, and what one node adds.

    A *node* is the family's unit of growth: one controller (SolidFire, Ceph) or an HA pair of
    two (ONTAP clusters grow in HA pairs, ``unit = "HA pair"``). Every figure ``*_per_node`` is
    what one more node adds to the system; :func:`models.cluster.with_nodes` multiplies them out
    into the configuration's controllers, ports and packaging. Drive limits count every drive a
    node attaches, hot spares included.
    """

    unit: Literal["node", "HA pair"] = "node"
    nodes: int = Field(ge=1, le=1000, description="nodes (or HA pairs) in this configuration")
    min_nodes: int = Field(default=1, ge=1, le=1000)
    max_nodes: int = Field(ge=1, le=1000)
    controllers_per_node: int = Field(default=1, ge=1, le=8)
    max_drives_per_node: int | None = Field(
        default=None, ge=1, le=100000, description="drives one node (HA pair) attaches, spares included"
    )
    fixed_drives_per_node: bool = Field(
        default=False, description="every node holds exactly max_drives_per_node drives (SolidFire: 10)"
    )
    max_drives: int | None = Field(default=None, ge=1, le=1000000, description="drives per cluster")
    ports_per_node: list[PortGroup] = Field(min_length=1, max_length=16)
    rack_units_per_node: NonNegFloat = Field(default=0.0, le=100.0, description="controller enclosure [U]")
    drives_in_node_enclosure: int = Field(default=0, ge=0, le=200)
    max_shelves_per_node: int | None = Field(default=None, ge=0, le=10000)
    power_w_per_node: NonNegFloat = 0.0
    price_usd_per_node: NonNegFloat = 0.0

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.min_nodes > self.max_nodes:
            raise ValueError(f"min_nodes {self.min_nodes} exceeds max_nodes {self.max_nodes}")
        if not self.min_nodes <= self.nodes <= self.max_nodes:
            raise ValueError(
                f"nodes {self.nodes} lies outside the family's {self.min_nodes}-{self.max_nodes} {self.unit}s"
            )
        if self.fixed_drives_per_node and self.max_drives_per_node is None:
            raise ValueError("fixed_drives_per_node needs max_drives_per_node")
        return self

    @property
    def drive_limit(self) -> int | None:
        """Drives (spares included) the current nodes attach: ``min(cluster max, nodes x per node)``."""
        limits = [x for x in (self.max_drives, self._per_nodes(self.nodes)) if x is not None]
        return min(limits) if limits else None

    def _per_nodes(self, nodes: int) -> int | None:
        return None if self.max_drives_per_node is None else nodes * self.max_drives_per_node


class HeadroomTargets(Frozen):
    """How busy each part may be (defaults from common practice).

    Controllers: an active-active pair at most 50% each, so the partner carries both after a
    failover; single controllers and scale-out nodes 70%, and after losing one node the rest at
    most ``failover_max_pct``. Drives 70%. Ports 70%.
    """

    controller_max_pct: Pct | None = Field(default=None, description="None = 50 for an HA pair, else 70")
    failover_max_pct: Pct = 100.0
    drive_max_pct: Pct = 70.0
    port_max_pct: Pct = 70.0
    capacity_max_fill_pct: Pct = Field(default=100.0, description="usable capacity that may be filled")

    def controller_limit_pct(self, ha_mode: HaMode) -> float:
        if self.controller_max_pct is not None:
            return self.controller_max_pct
        return 50.0 if ha_mode is HaMode.ACTIVE_ACTIVE else 70.0


class CapacityPolicy(Frozen):
    """Reserves taken from usable space."""

    filesystem_reserve_pct: Pct = Field(default=0.0, description="e.g. WAFL 10%")
    snapshot_reserve_pct: Pct = Field(default=0.0, description="array-level snapshot reserve")


class Configuration(Frozen):
    """One storage system build to evaluate."""

    name: str = Field(default="configuration", min_length=1, max_length=120)
    vendor: str | None = None
    array_id: str | None = Field(default=None, description="catalog array id it was built from")
    hypothetical: bool = Field(
        default=False,
        description="computed although the array does not offer it (its support checks are skipped)",
    )
    controller: ControllerSpec
    ports: list[PortGroup] = Field(min_length=1, max_length=16)
    pools: list[DrivePool] = Field(min_length=1, max_length=8)
    cache: CacheConfig = Field(default_factory=CacheConfig)
    tiering: TieringConfig | None = None
    packaging: Packaging = Field(default_factory=Packaging)
    capacity: CapacityPolicy = Field(default_factory=CapacityPolicy)
    headroom: HeadroomTargets = Field(default_factory=HeadroomTargets)
    architecture: Architecture | None = Field(
        default=None, description="write architecture, copies and data reduction; None = not stated"
    )
    cluster: Cluster | None = Field(
        default=None, description="nodes of a clustered or scale-out system and what one node adds"
    )
    calibration: ConfigurationCalibration | None = Field(
        default=None,
        description=(
            "per part (drives, controller, cache, ports) how calibrated the records it was built from are "
            "(models/provenance.py); None: estimate (user) throughout"
        ),
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        names = [p.name for p in self.pools]
        if len(set(names)) != len(names):
            raise ValueError("pool names must be distinct")
        units = self.architecture.stripe_units_kib if self.architecture is not None else None
        for i, pool in enumerate(self.pools):
            unit = pool.raid.stripe_unit_kib
            if units is not None and unit is not None and unit not in units:
                offered = ", ".join(f"{u:g}" for u in units)
                raise ValueError(
                    f"pools[{i}].raid.stripe_unit_kib: this array offers stripe units of {offered} KiB, not {unit:g}"
                )
        if self.tiering is not None:
            missing = [t for t in self.tiering.tiers if t not in names]
            if missing:
                raise ValueError(f"tiering names unknown pools: {', '.join(missing)}")
        arch = self.architecture
        if arch is not None and arch.wal is WalPlacement.NVRAM and self.controller.nvram_mb <= 0:
            raise InputError(
                "architecture.wal",
                "nvram: the controller has no NVRAM (nvram_mb 0); state flash or data_drive",
            )
        return self

    def pool(self, name: str | None) -> DrivePool:
        if name is None:
            return self.pools[0]
        for p in self.pools:
            if p.name == name:
                return p
        raise KeyError(name)
