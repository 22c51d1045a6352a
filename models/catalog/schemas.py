"""Catalog record and file schemas: arrays, their RAID, port, cache and scale-out options, port
types, RAID scheme records, workload templates, and the files that hold them.

Every record type validates itself; cross-record checks (unknown drive ids, duplicates) are the
loader's (:mod:`models.catalog.loader`).
"""

from __future__ import annotations

import math
from typing import Literal, Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError, NonNegFloat, PositiveFloat
from models.commercial import Commercial
from models.configuration import (
    Architecture,
    CapacityPolicy,
    FlashCacheKind,
    Packaging,
    ReductionMode,
    SparePolicy,
)
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.ports import PortGroup, PortType
from models.provenance import ArrayCalibration
from models.raid import RaidLayout, RaidScheme
from models.workload import Workload

_ID = r"^[a-z0-9][a-z0-9._-]*$"


class CatalogError(ValueError):
    """A catalog file failed validation; ``file`` and ``field`` name where, ``errors`` lists all.

    ``str(error)`` reads ``catalog/drives.yaml: records[3].rpm: Input should be ...`` (one line
    per problem).
    """

    def __init__(self, file: str, errors: list[tuple[str, str]]) -> None:
        self.file = file
        self.errors = errors
        self.field = errors[0][0] if errors else ""
        lines = [f"{file}: {field}: {msg}" if field else f"{file}: {msg}" for field, msg in errors]
        super().__init__("\n".join(lines))


# ---- record types -------------------------------------------------------------------------------


class WidthRule(Frozen):
    """What the vendor builds at one width: its own parity (an erasure width with more parity than
    the option's, vSAN's RAID-6 4+2 beside RAID-5) and the host counts it is built on."""

    width: int = Field(ge=1, le=64)
    ec_parity: int | None = Field(default=None, ge=1, le=16, description="erasure parity at this width")
    min_hosts: int | None = Field(default=None, ge=1, le=1000)
    max_hosts: int | None = Field(default=None, ge=1, le=1000)
    source: str | None = None


class RaidOption(Frozen):
    """A RAID scheme an array supports, with its group widths (drives per group, data + parity).

    ``widths`` lists the only widths the array allows (fixed parity-group layouts such as
    3D+1P / 7D+1P); without it any width in ``[min_width, max_width]`` is allowed. Every width is
    also checked against the engine's limits for the scheme (:class:`models.raid.RaidLayout`).
    ``rules`` state per width what :mod:`models.buildable` enforces (host counts, parity);
    ``distributed`` and ``min_drives`` the drive increments of a distributed layout.
    """

    scheme: RaidScheme
    default_width: int = Field(ge=1, le=64)
    min_width: int = Field(ge=1, le=64)
    max_width: int = Field(ge=1, le=64)
    widths: list[int] | None = Field(default=None, min_length=1, max_length=32)
    ec_parity: int | None = Field(default=None, ge=1, le=16, description="erasure coding: parity per stripe")
    copies: int = Field(default=2, ge=1, le=6, description="replication / mirror copies")
    recommended_min_width: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="the narrowest group the vendor recommends building (e.g. NetApp RAID-DP on hard disks: 12); "
        "recommend proposes only recommended widths; null: every allowed width",
    )
    recommended_max_width: int | None = Field(
        default=None, ge=1, le=64, description="the widest group the vendor recommends building"
    )
    distributed: bool = Field(
        default=False,
        description="stripes laid over chunks of every drive (PowerStore DRE): drives added one at a time",
    )
    min_drives: int | None = Field(
        default=None, ge=1, le=1000, description="fewest drives, spares included, the layout is built on"
    )
    rules: list[WidthRule] | None = Field(default=None, max_length=32)
    notes: str | None = None

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not self.min_width <= self.default_width <= self.max_width:
            raise ValueError(
                f"default_width {self.default_width} must lie between min_width {self.min_width} "
                f"and max_width {self.max_width}"
            )
        if self.widths is not None:
            if self.default_width not in self.widths:
                raise ValueError(f"default_width {self.default_width} is not one of widths {self.widths}")
            outside = [w for w in self.widths if not self.min_width <= w <= self.max_width]
            if outside:
                raise ValueError(f"widths {outside} lie outside [{self.min_width}, {self.max_width}]")
        lo, hi = self.recommended_min_width, self.recommended_max_width
        if (lo is None) != (hi is None):
            raise ValueError("recommended_min_width and recommended_max_width come together")
        if (
            lo is not None
            and hi is not None
            and not self.min_width <= lo <= self.default_width <= hi <= self.max_width
        ):
            raise ValueError(
                f"the recommended widths {lo}-{hi} must hold default_width {self.default_width} and lie within "
                f"{self.min_width}-{self.max_width}"
            )
        if self.scheme is RaidScheme.ERASURE and self.ec_parity is None:
            raise ValueError("erasure coding needs ec_parity")
        stray = [r.width for r in self.rules or [] if not self.allowed(r.width)]
        if stray:
            raise ValueError(f"rules name widths {stray} the option does not allow")
        for w in sorted({self.min_width, self.default_width, self.max_width, *(self.widths or [])}):
            self.layout(w)  # raises ValueError with the engine's message for an impossible width
        return self

    def allowed(self, width: int) -> bool:
        """Whether the array accepts this group width."""
        if self.widths is not None:
            return width in self.widths
        return self.min_width <= width <= self.max_width

    def recommended_widths(self) -> list[int]:
        """The widths the vendor recommends building (its suggested range), ascending; every
        allowed width where it states none."""
        allowed = sorted(self.widths or range(self.min_width, self.max_width + 1))
        lo, hi = self.recommended_min_width, self.recommended_max_width
        if lo is None or hi is None:
            return allowed
        return [w for w in allowed if lo <= w <= hi]

    def rule(self, width: int) -> WidthRule | None:
        """The rule stated for ``width``, if any."""
        return next((r for r in self.rules or [] if r.width == width), None)

    def layout(self, width: int, full_stripe_share: float | None = None) -> RaidLayout:
        """The engine layout for a group of ``width`` drives (erasure: ``width - ec_parity`` data),
        with the option's drive increments and the width's host counts (:mod:`models.buildable`)."""
        rule = self.rule(width)
        vendor = {
            "distributed": self.distributed,
            "min_drives": self.min_drives,
            "min_hosts": rule.min_hosts if rule else None,
            "max_hosts": rule.max_hosts if rule else None,
        }
        if self.scheme is RaidScheme.ERASURE:
            parity = rule.ec_parity if rule is not None and rule.ec_parity is not None else self.ec_parity
            assert parity is not None
            if width <= parity:
                raise ValueError(f"erasure group width {width} must exceed ec_parity {parity}")
            return RaidLayout(
                scheme=self.scheme,
                group_width=width,
                ec_data=width - parity,
                ec_parity=parity,
                full_stripe_share=full_stripe_share,
                **vendor,
            )
        return RaidLayout(
            scheme=self.scheme,
            group_width=width,
            copies=self.copies,
            full_stripe_share=full_stripe_share,
            **vendor,
        )


class PortOption(Frozen):
    """One front-end port configuration the array is sold with (counts for the whole system)."""

    name: str = Field(min_length=1, max_length=80)
    ports: list[PortGroup] = Field(min_length=1, max_length=16)
    notes: str | None = None


class FlashCacheOption(Frozen):
    """A flash (or PCIe DRAM) read-cache product and the total sizes it is sold in [GB, system]."""

    name: str = Field(min_length=1, max_length=80)
    kind: FlashCacheKind
    sizes_gb: list[PositiveFloat] = Field(min_length=1, max_length=32, description="total GB offered")
    any_size: bool = Field(default=False, description="custom builds: any size up to max(sizes_gb)")
    dedupe_aware: bool = False
    exclusive: bool = Field(default=True, description="victim cache of DRAM (True) or inclusive")
    hit_ms: PositiveFloat = Field(default=1.0, description="read served from this cache [ms]")
    price_usd_per_gb: NonNegFloat = Field(default=0.0, description="list-price estimate [USD/GB]")
    source: str = Field(min_length=1)

    def offers(self, gb: float) -> bool:
        if self.any_size:
            return 0 < gb <= max(self.sizes_gb) * (1 + 1e-9)
        return any(math.isclose(gb, s, rel_tol=1e-9) for s in self.sizes_gb)

    def nearest(self, gb: float) -> float:
        """The size this product sells nearest to ``gb`` (``gb`` itself where it sells any size up
        to its largest; ties: the larger, never less cache than asked when it can be helped)."""
        if self.offers(gb):
            return gb
        return min(self.sizes_gb, key=lambda s: (abs(s - gb), -s))


class WriteLogOption(Frozen):
    """A separate write-log device (ZFS SLOG/"Logzilla"): acknowledges synchronous writes.

    Informational for now: :class:`Configuration` has no slot for it (the controller's
    ``write_ack_ms`` is set for the catalog's default, with a log device).
    """

    name: str = Field(min_length=1, max_length=80)
    sizes_gb: list[PositiveFloat] = Field(min_length=1, max_length=16)
    write_ack_ms: PositiveFloat
    source: str = Field(min_length=1)


class ScaleOut(Frozen):
    """A clustered or scale-out family: it grows in nodes (or HA pairs) of ``controllers_per_node``.

    The array record describes its base system: ``controller.count`` controllers make
    ``controller.count / controllers_per_node`` base nodes, and its port options and packaging
    (node enclosures, their drives, power, price, shelf limit) are the base system's figures;
    :func:`build_configuration` divides them by the base nodes and multiplies them out for the
    nodes asked for (:mod:`models.cluster`), so they must divide evenly. ``drives_per_node`` counts
    every drive one node attaches, spares included; with ``fixed_drives_per_node`` every node
    holds exactly that many (SolidFire: 10). ``max_drives`` of the record is the cluster maximum.
    """

    unit: Literal["node", "HA pair"] = "node"
    drives_per_node: int = Field(
        ge=1, le=10000, description="drives per node, spares included (a maximum unless fixed)"
    )
    fixed_drives_per_node: bool = False
    controllers_per_node: int = Field(default=1, ge=1, le=8)
    min_nodes: int = Field(default=1, ge=1, le=1000)
    max_nodes: int = Field(ge=1, le=1000)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.min_nodes > self.max_nodes:
            raise ValueError("min_nodes must not exceed max_nodes")
        return self


class ArrayModel(Frozen):
    """One array model as sold: controllers, drives, RAID, ports, caches, tiering, packaging."""

    id: str = Field(min_length=1, max_length=80, pattern=_ID)
    vendor: str = Field(min_length=1, max_length=80)
    family: str = Field(min_length=1, max_length=80)
    model: str = Field(min_length=1, max_length=120)
    era: int = Field(ge=1990, le=2100, description="year of introduction")
    controller: ControllerSpec
    scale_out: ScaleOut | None = None
    max_drives: int = Field(ge=1, le=100000)
    any_drive: bool = Field(default=False, description="custom builds: accepts any drive record")
    drives: list[str] = Field(default_factory=list, max_length=200, description="supported drive ids")
    default_drive: str | None = None
    default_drive_count: int = Field(ge=1, le=100000, description="drives in the entry configuration")
    raid: list[RaidOption] = Field(min_length=1, max_length=16)
    default_raid: RaidScheme
    spares: SparePolicy = Field(default_factory=SparePolicy)
    port_options: list[PortOption] = Field(min_length=1, max_length=16)
    default_ports: str
    flash_cache: list[FlashCacheOption] = Field(default_factory=list, max_length=8)
    write_log: list[WriteLogOption] = Field(default_factory=list, max_length=4)
    tiering_name: str | None = Field(default=None, description="autotiering product, e.g. FAST VP")
    tiering_chunk_mb: PositiveFloat | None = Field(
        default=None, le=8192.0, description="relocation unit [MB]"
    )
    inline_dedupe: bool = False
    inline_compression: bool = False
    architecture: Architecture | None = Field(
        default=None, description="write architecture, copies, inline/post-process data reduction"
    )
    capacity: CapacityPolicy = Field(default_factory=CapacityPolicy)
    packaging: Packaging
    commercial: Commercial = Field(
        default_factory=Commercial, description="support terms and licences (default: an estimate)"
    )
    notes: str | None = None
    source: str = Field(min_length=1)
    calibration: ArrayCalibration | None = Field(
        default=None,
        description=(
            "per part (controller, cache, ports) its status and source keys; every catalog record "
            "states it, a custom record without it is estimate (user) (models/provenance.py)"
        ),
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        schemes = [r.scheme for r in self.raid]
        if len(set(schemes)) != len(schemes):
            raise ValueError("each RAID scheme may be listed once")
        if self.default_raid not in schemes:
            raise ValueError(f"default_raid {self.default_raid.value} is not among the supported schemes")
        names = [p.name for p in self.port_options]
        if len(set(names)) != len(names):
            raise ValueError("port option names must be distinct")
        if self.default_ports not in names:
            raise ValueError(f"default_ports {self.default_ports!r} is not a port option")
        if not self.any_drive and not self.drives:
            raise ValueError("list the supported drive ids (or set any_drive for a custom build)")
        if len(set(self.drives)) != len(self.drives):
            raise ValueError("supported drive ids must be distinct")
        if self.default_drive is not None and not self.any_drive and self.default_drive not in self.drives:
            raise ValueError(f"default_drive {self.default_drive!r} is not among the supported drives")
        if self.default_drive_count > self.max_drives:
            raise ValueError("default_drive_count exceeds max_drives")
        if self.packaging.max_drives is not None and self.packaging.max_drives != self.max_drives:
            raise ValueError("packaging.max_drives must equal max_drives (or be left out)")
        if (self.tiering_name is None) != (self.tiering_chunk_mb is None):
            raise ValueError("give tiering_name and tiering_chunk_mb together")
        so = self.scale_out
        if so is not None:
            nodes, rest = divmod(self.controller.count, so.controllers_per_node)
            if rest or not so.min_nodes <= nodes <= so.max_nodes:
                raise ValueError(
                    "controller.count must be a whole number of nodes between min_nodes and max_nodes "
                    f"({so.controllers_per_node} controller(s) per node)"
                )
            if so.max_nodes * so.drives_per_node < self.max_drives:
                raise ValueError("max_drives exceeds scale_out.max_nodes x drives_per_node")
            self._check_per_node(nodes)
        arch = self.architecture
        if arch is not None:
            inline = (ReductionMode.INLINE, ReductionMode.INLINE_AND_POST_PROCESS)
            if self.inline_dedupe != (arch.dedupe in inline):
                raise ValueError("inline_dedupe must agree with architecture.dedupe")
            if self.inline_compression != (arch.compression in inline):
                raise ValueError("inline_compression must agree with architecture.compression")
        return self

    def _check_per_node(self, base_nodes: int) -> None:
        """Scale-out: the base system's figures divide into whole nodes; fixed nodes have no spares."""
        so = self.scale_out
        assert so is not None
        pk = self.packaging
        whole = {
            "packaging.drives_in_controller_enclosure": pk.drives_in_controller_enclosure,
            "packaging.max_shelves": pk.max_shelves or 0,
        }
        whole.update(
            {
                f"port_options[{i}] {p.name!r} {g.type.value} count": g.count
                for i, p in enumerate(self.port_options)
                for g in p.ports
            }
        )
        uneven = [name for name, value in whole.items() if value % base_nodes]
        if uneven:
            raise ValueError(
                f"scale-out figures are the base system's ({base_nodes} {so.unit}s) and must divide into "
                f"whole {so.unit}s: {', '.join(uneven)}"
            )
        if so.fixed_drives_per_node and (self.spares.min_spares or self.spares.per_drives is not None):
            raise ValueError(
                "nodes holding a fixed number of drives keep no hot spares: set spares to "
                "{per_drives: null, min_spares: 0}"
            )

    @property
    def base_nodes(self) -> int:
        """Nodes (HA pairs) of the base system the record describes (1 without scale-out)."""
        so = self.scale_out
        return 1 if so is None else self.controller.count // so.controllers_per_node

    def raid_option(self, scheme: RaidScheme | str) -> RaidOption:
        """The supported option for ``scheme``; :class:`InputError` when the array lacks it."""
        try:
            s = RaidScheme(scheme)
        except ValueError:
            known = ", ".join(x.value for x in RaidScheme)
            raise InputError("raid_scheme", f"unknown scheme {scheme!r} (known: {known})") from None
        for r in self.raid:
            if r.scheme is s:
                return r
        offered = ", ".join(r.scheme.value for r in self.raid)
        raise InputError("raid_scheme", f"{self.id} does not support {s.value} (supported: {offered})")

    def port_option(self, name: str | None = None) -> PortOption:
        """The named port option, or the default."""
        wanted = name or self.default_ports
        for p in self.port_options:
            if p.name == wanted:
                return p
        raise InputError("ports", f"{self.id} has no port option {wanted!r}")

    @property
    def port_types(self) -> set[PortType]:
        """Every port type offered in any option."""
        return {g.type for p in self.port_options for g in p.ports}

    def supports_drive(self, drive_id: str) -> bool:
        return self.any_drive or drive_id in self.drives


class WorkloadTemplate(Frozen):
    """A ready workload (every phase and window filled in) with a title, description and source."""

    id: str = Field(min_length=1, max_length=80, pattern=_ID)
    title: str = Field(min_length=1, max_length=120)
    description: str = Field(min_length=1)
    source: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list, max_length=16)
    workload: Workload


class PortTypeRecord(Frozen):
    """A front-end port type: line rate and the practical payload rate the engine uses."""

    type: PortType
    name: str = Field(min_length=1, max_length=80)
    family: Literal["ethernet", "fibre-channel", "sas", "infiniband"]
    line_rate_gbit_s: PositiveFloat = Field(description="nominal line rate [Gb/s]")
    practical_mb_s: PositiveFloat = Field(description="practical one-direction payload [MB/s]")
    source: str = Field(min_length=1)


class RaidSchemeRecord(Frozen):
    """A RAID scheme as the engine models it (derived from :mod:`models.raid`, not a data file).

    Figures at ``typical_width`` (erasure coding 4+2, replication 2 copies).
    """

    scheme: RaidScheme
    name: str
    min_width: int
    max_width: int
    parity_drives: int = Field(description="redundancy drives per group at the typical width")
    dedicated_parity: bool
    typical_width: int
    small_write_cost: float = Field(
        description="back-end I/Os per 4 KiB random write, typical width, pool full (write-anywhere layouts)"
    )
    capacity_efficiency: float = Field(description="usable share of raw at the typical width")
    tolerated_failures: int
    notes: str
    source: str


class Catalog(Frozen):
    """Everything in the catalog, keyed by id; ``catalog_version`` identifies the data release."""

    catalog_version: str
    drives: dict[str, DriveSpec]
    arrays: dict[str, ArrayModel]
    templates: dict[str, WorkloadTemplate]
    ports: dict[PortType, PortTypeRecord]
    raid_schemes: dict[RaidScheme, RaidSchemeRecord]
    files: list[str] = Field(default_factory=list, description="data files read, relative to the root")

    def drives_for(self, array: ArrayModel) -> list[DriveSpec]:
        """The catalog drives the array supports (every drive for a custom-build array)."""
        if array.any_drive:
            return list(self.drives.values())
        return [self.drives[d] for d in array.drives]


# ---- file schemas -------------------------------------------------------------------------------


class CatalogIndex(Frozen):
    """``catalog/catalog.yaml``: the version and the files making up the catalog (paths relative to
    the fixtures folder)."""

    catalog_version: str = Field(pattern=r"^\d{4}\.\d{1,2}\.\d+$", description="YYYY.MM.patch")
    description: str | None = None
    drives: list[str] = Field(min_length=1)
    ports: str
    arrays: list[str] = Field(min_length=1)
    templates: list[str] = Field(default_factory=list)


class DrivesFile(Frozen):
    kind: Literal["drives"]
    description: str | None = None
    records: list[DriveSpec] = Field(min_length=1)


class PortsFile(Frozen):
    kind: Literal["ports"]
    description: str | None = None
    records: list[PortTypeRecord] = Field(min_length=1)


class ArraysFile(Frozen):
    kind: Literal["arrays"]
    vendor: str
    family: str
    description: str | None = None
    records: list[ArrayModel] = Field(min_length=1)


class TemplateFile(WorkloadTemplate):
    kind: Literal["template"]
