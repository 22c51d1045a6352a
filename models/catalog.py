"""The catalog: drives, arrays, port types, RAID schemes and workload templates as versioned data.

Records live in YAML under ``fixtures/`` (one file per vendor family, one per workload template,
plus ``catalog/drives.yaml`` and ``catalog/ports.yaml``); ``fixtures/catalog/catalog.yaml`` holds
the ``catalog_version`` and lists every file. :func:`load_catalog` takes that folder's path (the
engine never finds files by itself), validates every file against the schema below and
cross-checks the records; any failure raises :class:`CatalogError` naming the file and the field
path (``records[3].controller.cores``).

Every record carries a ``source``: a datasheet, a published test, ``"estimate: ..."`` for figures
without a verified source, or ``"calibrated: fitted to ..."`` for parameters fitted to published
measurements. Published sources are cited by their key in ``docs/sources.md`` (``[netapp-tr3838]``). Port types and RAID schemes come from the engine (:mod:`models.ports`,
:mod:`models.raid`): ``ports.yaml`` documents each port type and must agree with
``models.ports.PRACTICAL_MB_S``.

:func:`build_configuration` turns catalog records into a ready :class:`Configuration`.
"""

from __future__ import annotations

import math
from pathlib import Path, PurePosixPath
from typing import Any, Literal, Self, TypeVar

import yaml
from pydantic import BaseModel, Field, ValidationError, model_validator

from models.base import Frozen, InputError, NonNegFloat, PositiveFloat
from models.capacity import spare_count
from models.configuration import (
    CacheConfig,
    CapacityPolicy,
    Configuration,
    DrivePool,
    FlashCacheKind,
    Packaging,
    SparePolicy,
)
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.ports import PRACTICAL_MB_S, PortGroup, PortType
from models.raid import (
    RaidLayout,
    RaidScheme,
    capacity_efficiency,
    scheme_limits,
    small_write_cost,
    tolerated_failures,
)
from models.workload import Workload

CATALOG_INDEX = PurePosixPath("catalog/catalog.yaml")
"""Location of the catalog index inside the fixtures folder."""

_ID = r"^[a-z0-9][a-z0-9._-]*$"
_M = TypeVar("_M", bound=BaseModel)


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


class RaidOption(Frozen):
    """A RAID scheme an array supports, with its group widths (drives per group, data + parity).

    ``widths`` lists the only widths the array allows (fixed parity-group layouts such as
    3D+1P / 7D+1P); without it any width in ``[min_width, max_width]`` is allowed. Every width is
    also checked against the engine's limits for the scheme (:class:`models.raid.RaidLayout`).
    """

    scheme: RaidScheme
    default_width: int = Field(ge=1, le=64)
    min_width: int = Field(ge=1, le=64)
    max_width: int = Field(ge=1, le=64)
    widths: list[int] | None = Field(default=None, min_length=1, max_length=32)
    ec_parity: int | None = Field(default=None, ge=1, le=16, description="erasure coding: parity per stripe")
    copies: int = Field(default=2, ge=1, le=6, description="replication / mirror copies")
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
        if self.scheme is RaidScheme.ERASURE and self.ec_parity is None:
            raise ValueError("erasure coding needs ec_parity")
        for w in sorted({self.min_width, self.default_width, self.max_width, *(self.widths or [])}):
            self.layout(w)  # raises ValueError with the engine's message for an impossible width
        return self

    def allowed(self, width: int) -> bool:
        """Whether the array accepts this group width."""
        if self.widths is not None:
            return width in self.widths
        return self.min_width <= width <= self.max_width

    def layout(self, width: int, full_stripe_share: float | None = None) -> RaidLayout:
        """The engine layout for a group of ``width`` drives (erasure: ``width - ec_parity`` data)."""
        if self.scheme is RaidScheme.ERASURE:
            assert self.ec_parity is not None
            if width <= self.ec_parity:
                raise ValueError(f"erasure group width {width} must exceed ec_parity {self.ec_parity}")
            return RaidLayout(
                scheme=self.scheme,
                group_width=width,
                ec_data=width - self.ec_parity,
                ec_parity=self.ec_parity,
                full_stripe_share=full_stripe_share,
            )
        return RaidLayout(
            scheme=self.scheme, group_width=width, copies=self.copies, full_stripe_share=full_stripe_share
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
    """Scale-out growth: nodes of ``controllers_per_node`` controllers, each holding drives.

    The array record's ``controller.count`` is the base system (``min_nodes`` or more nodes).
    :func:`build_configuration` adds nodes for the drive count: ``nodes = max(base,
    ceil(drives / drives_per_node))``; with ``fixed_drives_per_node`` every node holds exactly
    that many drives (SolidFire: 10) and ``nodes = drives / drives_per_node``. Default port
    counts grow in proportion to the nodes.
    """

    drives_per_node: int = Field(ge=1, le=10000, description="drives per node (a maximum unless fixed)")
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
    capacity: CapacityPolicy = Field(default_factory=CapacityPolicy)
    packaging: Packaging
    notes: str | None = None
    source: str = Field(min_length=1)

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
        return self

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
    family: Literal["ethernet", "fibre-channel", "sas"]
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
    small_write_cost: float = Field(description="back-end I/Os per small random write, typical width")
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


# ---- RAID scheme records (engine-derived) -------------------------------------------------------

_RAID_NAMES: dict[RaidScheme, tuple[str, int, str]] = {
    RaidScheme.RAID0: ("RAID 0 (striping)", 4, "No redundancy: one failed drive loses the group."),
    RaidScheme.RAID1: ("RAID 1 (mirror pair)", 2, "Two copies; reads from either copy."),
    RaidScheme.RAID10: (
        "RAID 10 (striped mirrors)",
        8,
        "Writes cost 2 back-end I/Os; half the raw capacity.",
    ),
    RaidScheme.RAID5: (
        "RAID 5 (distributed single parity)",
        5,
        "Small writes cost 4 back-end I/Os (read-modify-write); survives one failure.",
    ),
    RaidScheme.RAID6: (
        "RAID 6 (distributed double parity)",
        8,
        "Small writes cost 6 back-end I/Os; survives two failures. Also stands in for NetApp "
        "E-Series Dynamic Disk Pools (DDP).",
    ),
    RaidScheme.RAID_DP: (
        "NetApp RAID-DP (dedicated double parity under WAFL)",
        16,
        "WAFL coalesces writes into full stripes while free space allows; the full-stripe share "
        "falls as the aggregate ages (calibrated in fixtures/calibration). Parity drives serve no reads.",
    ),
    RaidScheme.RAID_TEC: (
        "NetApp RAID-TEC (triple parity, ONTAP 9+)",
        20,
        "Like RAID-DP with a third parity drive; ONTAP default for capacity HDDs of 6 TB and more.",
    ),
    RaidScheme.ZFS_MIRROR: ("ZFS mirror vdev", 2, "n-way mirror vdevs; random reads from any side."),
    RaidScheme.RAIDZ1: (
        "ZFS RAID-Z1",
        5,
        "Copy-on-write full variable-width stripes (no read-modify-write); a vdev gives about one "
        "drive's random-read IOPS.",
    ),
    RaidScheme.RAIDZ2: ("ZFS RAID-Z2", 8, "As RAID-Z1 with two parity sectors per stripe."),
    RaidScheme.RAIDZ3: ("ZFS RAID-Z3", 11, "As RAID-Z1 with three parity sectors per stripe."),
    RaidScheme.ERASURE: (
        "Erasure coding k+m",
        6,
        "Full stripes cost (k+m)/k; partial writes read-modify-write. Typical 4+2.",
    ),
    RaidScheme.REPLICA: (
        "n-way replication (scale-out)",
        1,
        "Whole copies on different nodes (SolidFire Double Helix: 2 copies); group width 1.",
    ),
}

_RAID_SOURCE = (
    "models.raid (engine); classic small-write penalties 1/2/4/6 for RAID0/10/5/6 per "
    "[crucial-raid-write-penalty]; WAFL, RAID-Z and erasure-coding behaviour per [netapp-community-raid-dp][truenas-zfs-pool-performance][45drives-ceph-write-amplification]"
)


def raid_scheme_records() -> dict[RaidScheme, RaidSchemeRecord]:
    """One record per engine RAID scheme: limits, parity, small-write cost at a typical width."""
    out: dict[RaidScheme, RaidSchemeRecord] = {}
    for scheme, (name, width, notes) in _RAID_NAMES.items():
        _, lo, hi, dedicated = scheme_limits(scheme)
        if scheme is RaidScheme.ERASURE:
            layout = RaidLayout(scheme=scheme, group_width=width, ec_data=width - 2, ec_parity=2)
        else:
            layout = RaidLayout(scheme=scheme, group_width=width)
        out[scheme] = RaidSchemeRecord(
            scheme=scheme,
            name=name,
            min_width=lo,
            max_width=hi,
            parity_drives=layout.parity_drives,
            dedicated_parity=dedicated,
            typical_width=width,
            small_write_cost=small_write_cost(layout),
            capacity_efficiency=capacity_efficiency(layout),
            tolerated_failures=tolerated_failures(layout),
            notes=notes,
            source=_RAID_SOURCE,
        )
    return out


# ---- loading ------------------------------------------------------------------------------------


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _record_label(raw: Any, loc: tuple[int | str, ...]) -> str:
    """`` (record 'id')`` for errors inside ``records[i]`` when the raw record has an id."""
    if len(loc) >= 2 and loc[0] == "records" and isinstance(loc[1], int) and isinstance(raw, dict):
        records = raw.get("records")
        if isinstance(records, list) and 0 <= loc[1] < len(records) and isinstance(records[loc[1]], dict):
            rid = records[loc[1]].get("id") or records[loc[1]].get("type")
            if rid is not None:
                return f" (record {rid!r})"
    return ""


def _validate(model: type[_M], raw: Any, file: str) -> _M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = []
        for e in exc.errors(include_url=False):
            loc = tuple(e["loc"])
            errors.append((_loc(loc) or "(file)", f"{e['msg']}{_record_label(raw, loc)}"))
        raise CatalogError(file, errors) from exc


def _read_yaml(root: Path, rel: str) -> Any:
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts:
        raise CatalogError(
            str(CATALOG_INDEX), [("", f"file path {rel!r} must stay inside the fixtures folder")]
        )
    path = root / p
    if not path.is_file():
        raise CatalogError(str(CATALOG_INDEX), [("", f"listed file {rel!r} does not exist under {root}")])
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise CatalogError(rel, [(where, f"invalid YAML: {getattr(exc, 'problem', exc)}")]) from exc


def load_catalog(root: Path) -> Catalog:
    """Load and validate the catalog under ``root`` (the ``fixtures/`` folder).

    Reads ``catalog/catalog.yaml`` and every file it lists; validates each against its schema;
    cross-checks duplicate ids, array references to unknown drives, default drives and scale-out
    limits, template ids matching their file names, and port rates agreeing with the engine.
    Raises :class:`CatalogError` (file + field path) on the first file with problems.
    """
    root = Path(root)
    index_raw = _read_yaml(root, str(CATALOG_INDEX))
    index = _validate(CatalogIndex, index_raw, str(CATALOG_INDEX))
    files: list[str] = []

    # drives
    drives: dict[str, DriveSpec] = {}
    drive_where: dict[str, str] = {}
    for rel in index.drives:
        dfile = _validate(DrivesFile, _read_yaml(root, rel), rel)
        files.append(rel)
        for i, d in enumerate(dfile.records):
            if d.id in drives:
                raise CatalogError(
                    rel, [(f"records[{i}].id", f"duplicate drive id {d.id!r} (also {drive_where[d.id]})")]
                )
            drives[d.id] = d
            drive_where[d.id] = f"{rel} records[{i}]"

    # ports
    pfile = _validate(PortsFile, _read_yaml(root, index.ports), index.ports)
    files.append(index.ports)
    ports: dict[PortType, PortTypeRecord] = {}
    for i, p in enumerate(pfile.records):
        if p.type in ports:
            raise CatalogError(index.ports, [(f"records[{i}].type", f"duplicate port type {p.type.value!r}")])
        engine = PRACTICAL_MB_S[p.type]
        if not math.isclose(p.practical_mb_s, engine, rel_tol=1e-9):
            raise CatalogError(
                index.ports,
                [
                    (
                        f"records[{i}].practical_mb_s",
                        f"{p.practical_mb_s:g} MB/s disagrees with the engine's models.ports.PRACTICAL_MB_S "
                        f"({engine:g} MB/s for {p.type.value}); change both together",
                    )
                ],
            )
        ports[p.type] = p
    missing_ports = [t.value for t in PortType if t not in ports]
    if missing_ports:
        raise CatalogError(index.ports, [("records", f"port types missing: {', '.join(missing_ports)}")])

    # arrays
    arrays: dict[str, ArrayModel] = {}
    array_where: dict[str, str] = {}
    for rel in index.arrays:
        afile = _validate(ArraysFile, _read_yaml(root, rel), rel)
        files.append(rel)
        for i, a in enumerate(afile.records):
            errors: list[tuple[str, str]] = []
            if a.id in arrays:
                errors.append((f"records[{i}].id", f"duplicate array id {a.id!r} (also {array_where[a.id]})"))
            for j, did in enumerate(a.drives):
                if did not in drives:
                    errors.append(
                        (f"records[{i}].drives[{j}]", f"unknown drive id {did!r} (record {a.id!r})")
                    )
            if a.default_drive is not None and a.default_drive not in drives:
                errors.append((f"records[{i}].default_drive", f"unknown drive id {a.default_drive!r}"))
            if errors:
                raise CatalogError(rel, errors)
            arrays[a.id] = a
            array_where[a.id] = f"{rel} records[{i}]"

    # templates
    templates: dict[str, WorkloadTemplate] = {}
    for rel in index.templates:
        tfile = _validate(TemplateFile, _read_yaml(root, rel), rel)
        files.append(rel)
        if tfile.id != PurePosixPath(rel).stem:
            raise CatalogError(
                rel,
                [("id", f"template id {tfile.id!r} must match the file name {PurePosixPath(rel).name!r}")],
            )
        if tfile.id in templates:
            raise CatalogError(rel, [("id", f"duplicate template id {tfile.id!r}")])
        templates[tfile.id] = WorkloadTemplate.model_validate(tfile.model_dump(exclude={"kind"}))

    return Catalog(
        catalog_version=index.catalog_version,
        drives=drives,
        arrays=arrays,
        templates=templates,
        ports=ports,
        raid_schemes=raid_scheme_records(),
        files=[str(CATALOG_INDEX), *files],
    )


def catalog_json_schema() -> dict[str, dict[str, Any]]:
    """JSON Schemas of the catalog's record and file types, keyed by type name."""
    types: list[type[BaseModel]] = [
        CatalogIndex,
        DriveSpec,
        ArrayModel,
        WorkloadTemplate,
        PortTypeRecord,
        RaidSchemeRecord,
        DrivesFile,
        PortsFile,
        ArraysFile,
        TemplateFile,
    ]
    return {t.__name__: t.model_json_schema() for t in types}


# ---- building a configuration -------------------------------------------------------------------


def build_configuration(
    array: ArrayModel,
    drive: DriveSpec,
    raid_scheme: RaidScheme | str,
    group_width: int | None = None,
    drive_count: int | None = None,
    flash_cache_gb: float = 0.0,
    ports: list[PortGroup] | None = None,
    layout_full_stripe_share: float | None = None,
    name: str | None = None,
) -> Configuration:
    """A ready :class:`Configuration` from catalog records: one pool of ``drive`` in ``raid_scheme``.

    Defaults come from the array: group width (the scheme's default), drive count (the entry
    configuration rounded down to whole groups, at least one group), the default port option and
    no flash cache. Scale-out arrays get as many nodes as the drives need (see :class:`ScaleOut`),
    with default port counts growing in proportion. Raises :class:`InputError` when the array does
    not support the drive, scheme, width, flash-cache size or a port type, or when the drives
    (plus hot spares) do not fit.
    """
    if not array.supports_drive(drive.id):
        raise InputError("drive", f"{array.id} does not support drive {drive.id!r}")
    option = array.raid_option(raid_scheme)
    width = option.default_width if group_width is None else group_width
    if not option.allowed(width):
        allowed = option.widths if option.widths is not None else f"{option.min_width}-{option.max_width}"
        raise InputError(
            "group_width", f"{array.id} allows {option.scheme.value} groups of {allowed} drives, got {width}"
        )
    try:
        layout = option.layout(width, layout_full_stripe_share)
    except ValidationError as exc:
        raise InputError("group_width", exc.errors()[0]["msg"].removeprefix("Value error, ")) from exc
    except ValueError as exc:
        raise InputError("group_width", str(exc)) from exc
    min_drives = layout.copies if layout.scheme is RaidScheme.REPLICA else width

    so = array.scale_out
    if drive_count is None:
        base = array.default_drive_count
        if so is not None and so.fixed_drives_per_node:
            base = max(base, so.min_nodes * so.drives_per_node)
            drive_count = (base // so.drives_per_node) * so.drives_per_node
        else:
            drive_count = max(min_drives, (base // width) * width)
    if drive_count < min_drives:
        raise InputError(
            "drive_count", f"{option.scheme.value} needs at least {min_drives} drives, got {drive_count}"
        )

    controller = array.controller
    port_scale = 1.0
    if so is not None:
        base_nodes = controller.count // so.controllers_per_node
        if so.fixed_drives_per_node:
            if drive_count % so.drives_per_node:
                raise InputError(
                    "drive_count",
                    f"{array.id} nodes hold {so.drives_per_node} drives each: give a multiple of it",
                )
            nodes = drive_count // so.drives_per_node
            if nodes < so.min_nodes:
                raise InputError(
                    "drive_count",
                    f"{array.id} needs at least {so.min_nodes} nodes ({so.min_nodes * so.drives_per_node} drives)",
                )
        else:
            nodes = max(base_nodes, math.ceil(drive_count / so.drives_per_node))
        if nodes > so.max_nodes:
            raise InputError(
                "drive_count", f"{drive_count} drives need {nodes} nodes; {array.id} scales to {so.max_nodes}"
            )
        if nodes != base_nodes:
            controller = ControllerSpec.model_validate(
                {**controller.model_dump(), "count": nodes * so.controllers_per_node}
            )
            port_scale = nodes / base_nodes

    spares = 0 if so is not None and so.fixed_drives_per_node else spare_count(drive_count, array.spares)
    if drive_count + spares > array.max_drives:
        raise InputError(
            "drive_count",
            f"{drive_count} drives + {spares} spares exceed the {array.model} maximum of {array.max_drives}",
        )

    if ports is None:
        groups = array.port_option().ports
        if port_scale != 1.0:
            groups = [
                PortGroup.model_validate({**g.model_dump(), "count": math.ceil(g.count * port_scale)})
                for g in groups
            ]
    else:
        unknown = sorted({g.type.value for g in ports} - {t.value for t in array.port_types})
        if unknown:
            offered = ", ".join(sorted(t.value for t in array.port_types))
            raise InputError("ports", f"{array.id} offers no {', '.join(unknown)} ports (offered: {offered})")
        groups = list(ports)

    if flash_cache_gb < 0:
        raise InputError("flash_cache_gb", "must be >= 0")
    cache = CacheConfig()
    flash_price = 0.0
    if flash_cache_gb > 0:
        fc = next((f for f in array.flash_cache if f.offers(flash_cache_gb)), None)
        if fc is None:
            offered_gb = "; ".join(
                f"{f.name}: {', '.join(f'{s:g}' for s in f.sizes_gb)} GB" for f in array.flash_cache
            )
            raise InputError(
                "flash_cache_gb",
                f"{array.id} offers no {flash_cache_gb:g} GB flash cache ({offered_gb or 'no flash cache'})",
            )
        cache = CacheConfig(
            flash_cache_gb=flash_cache_gb,
            flash_kind=fc.kind,
            flash_hit_ms=fc.hit_ms,
            dedupe_aware=fc.dedupe_aware,
            exclusive=fc.exclusive,
        )
        flash_price = fc.price_usd_per_gb

    packaging = array.packaging.model_copy(
        update={
            "max_drives": array.max_drives,
            "flash_cache_price_usd_per_gb": flash_price or array.packaging.flash_cache_price_usd_per_gb,
        }
    )
    pool = DrivePool(name="pool", drive=drive, drive_count=drive_count, raid=layout, spares=array.spares)
    return Configuration(
        name=name or _default_name(array, drive, drive_count, option.scheme, width),
        vendor=array.vendor,
        array_id=array.id,
        controller=controller,
        ports=groups,
        pools=[pool],
        cache=cache,
        packaging=packaging,
        capacity=array.capacity,
    )


def _default_name(array: ArrayModel, drive: DriveSpec, count: int, scheme: RaidScheme, width: int) -> str:
    """``"<model>, <count> x <drive>, <scheme> <width>"``, within the 120 characters a name may have."""
    for label in (drive.name, drive.id):
        text = f"{array.model}, {count} x {label}, {scheme.value} {width}"
        if len(text) <= 120:
            return text
    return text[:120]
