"""Every input of a configuration as a person names it, with its unit: one table.

:data:`LABELS` holds, per model of the configuration tree, each field's words and unit
(``ControllerSpec.cpu_us_read_hit`` -> "controller CPU per read hit", "µs"). A field holding a
part (a model) maps to the words its own fields are said after ("mixed-in drive"), or to nothing;
the configuration's parts map to their names (said when one side has the part and the other not),
their fields' words being whole.
:func:`change_words` says one changed input: ``controller CPU per read hit 31 -> 10 µs``,
``flash cache 1,024 -> 0 GB``. A comparison lists every other difference in these words
(:func:`models.compare.differences`); a test holds that every field of the tree has its label.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from pydantic import BaseModel

from models.configuration import (
    Architecture,
    CacheConfig,
    CapacityPolicy,
    Cluster,
    Configuration,
    DriveGroup,
    DrivePool,
    HeadroomTargets,
    Packaging,
    SparePolicy,
    TieringConfig,
    WalPlacement,
    WriteArchitecture,
)
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.explain import number
from models.ports import PortGroup
from models.provenance import ConfigurationCalibration, FigureCalibration, PartCalibration
from models.raid import RaidLayout


class FieldLabel(NamedTuple):
    """A field in words, its unit (``""`` for a count or a setting) and what its null means."""

    words: str
    unit: str = ""
    none: str = "none"


L = FieldLabel

NOT_A_DIFFERENCE = frozenset(
    {"name", "id", "source", "sources", "notes", "note", "vendor", "array_id", "hypothetical"}
)
"""Fields that name or cite a record and change no figure (the array is named beside the list)."""

LABELS: dict[type[BaseModel], dict[str, FieldLabel]] = {
    Configuration: {  # a part stated on one side only is said once by these words
        "controller": L("controllers"),
        "ports": L("front-end ports"),
        "pools": L("drive pools"),
        "cache": L("caches"),
        "tiering": L("automated tiering"),
        "packaging": L("packaging"),
        "capacity": L("capacity reserves"),
        "headroom": L("headroom targets"),
        "architecture": L("write architecture"),
        "cluster": L("scale-out cluster"),
        "calibration": L("calibration"),
    },
    ControllerSpec: {
        "model": L("controller model"),
        "count": L("controllers"),
        "ha_mode": L("controller high availability"),
        "cores": L("CPU cores per controller"),
        "core_ghz": L("CPU clock", "GHz", "unstated (costs not scaled)"),
        "costs_core_ghz": L("CPU clock the costs were measured at", "GHz", "unstated (costs not scaled)"),
        "cpu_us_read_hit": L("controller CPU per read hit", "µs"),
        "cpu_us_read_miss": L("controller CPU per read from the drives", "µs"),
        "cpu_us_write": L("controller CPU per write", "µs"),
        "cpu_us_per_kib": L("controller CPU per KiB moved", "µs"),
        "cpu_us_per_kib_written": L("controller CPU per KiB written", "µs", "as per KiB moved"),
        "cpu_us_per_backend_io": L("controller CPU per back-end I/O", "µs"),
        "dedupe_cpu_multiplier": L("controller CPU with deduplication", "x"),
        "compression_cpu_multiplier": L("controller CPU with compression", "x"),
        "replication_cpu_multiplier": L("controller CPU with replication", "x"),
        "max_iops": L("IOPS ceiling per controller", "IOPS", "no ceiling"),
        "max_mb_s": L("throughput ceiling per controller", "MB/s", "no ceiling"),
        "backend_mb_s": L("back-end bus per controller", "MB/s", "not modelled"),
        "cluster_network_mb_s": L("cluster network per node", "MB/s", "not modelled"),
        "cluster_network_shared": L("cluster traffic shares the front-end ports"),
        "dram_cache_gb": L("DRAM cache per controller", "GB"),
        "nvram_mb": L("NVRAM per controller", "MB"),
        "write_ack_ms": L("write acknowledgement", "ms"),
        "cache_hit_ms": L("read from DRAM", "ms"),
        "calibration": L("controller"),
    },
    PartCalibration: {"status": L("calibration"), "figures": L("")},
    FigureCalibration: {"status": L("figures' calibration")},
    ConfigurationCalibration: {
        "drives": L("drives'"),
        "controller": L("controller's"),
        "cache": L("cache's"),
        "ports": L("ports'"),
    },
    PortGroup: {
        "type": L("front-end port type"),
        "count": L("front-end ports"),
        "practical_mb_s": L("practical rate per front-end port", "MB/s", "the port type's"),
        "protocol": L("front-end protocol", "", "the port type's"),
    },
    DrivePool: {
        "drive": L(""),
        "drive_count": L("drives", "", "sized"),
        "raid": L(""),
        "spares": L(""),
        "other_drives": L("mixed-in"),
        "drive_fraction_used": L("share of each drive used (short-stroking)", "", "all of it"),
        "sparing": L("rebuild target", "", "the architecture's"),
        "planned_fill_pct": L("planned fill", "%", "the capacity fill target"),
        "drive_write_cache": L("drives' volatile write cache"),
    },
    DriveGroup: {"drive": L(""), "count": L("drives")},
    DriveSpec: {
        "kind": L("drive kind"),
        "interface": L("drive interface"),
        "capacity_gb": L("drive capacity", "GB"),
        "right_sized_gib": L("drive capacity after right-sizing", "GiB", "not stated"),
        "rpm": L("drive speed", "rpm", "not stated"),
        "avg_read_seek_ms": L("drive average read seek", "ms", "not stated"),
        "avg_write_seek_ms": L("drive average write seek", "ms", "not stated"),
        "track_to_track_ms": L("drive track-to-track seek", "ms", "not stated"),
        "overhead_ms": L("drive command overhead", "ms"),
        "media_rate_mb_s": L("drive media rate", "MB/s"),
        "read_iops_4k": L("drive 4 KiB random read IOPS", "IOPS", "not stated"),
        "write_iops_4k": L("drive 4 KiB random write IOPS", "IOPS", "not stated"),
        "iops_rated_qd": L("queue depth of the drive's IOPS ratings", "", "not stated"),
        "steady_write_iops_4k": L("drive steady-state 4 KiB write IOPS", "IOPS", "not stated"),
        "read_latency_us": L("drive 4 KiB read latency", "µs", "not stated"),
        "write_latency_us": L("drive 4 KiB write latency", "µs", "not stated"),
        "seq_write_mb_s": L("drive sequential write rate", "MB/s", "not stated"),
        "endurance_dwpd": L("drive endurance", "drive writes per day", "not stated"),
        "warranty_years": L("drive warranty", "years", "not stated"),
        "over_provisioning_pct": L("drive over-provisioning", "%", "not stated"),
        "unrecoverable_read_error_bits": L("bits read per unrecoverable error", "", "the class default"),
        "actuators": L("actuators per drive"),
        "power_w": L("drive power", "W", "not stated"),
        "price_usd": L("drive price", "USD", "not stated"),
        "calibration": L("drive"),
    },
    RaidLayout: {
        "scheme": L("RAID scheme"),
        "group_width": L("RAID group width", "drives"),
        "ec_data": L("erasure-code data chunks", "", "from the group width"),
        "ec_parity": L("erasure-code parity chunks", "", "from the scheme"),
        "copies": L("copies"),
        "full_stripe_share": L("full-stripe write share", "", "the scheme default"),
        "scatter": L("layout scatter"),
        "fragmentation": L("free-space fragmentation", "", "the scheme default"),
        "stripe_unit_kib": L("stripe unit", "KiB", "64 KiB"),
        "record_kib": L("RAID-Z record", "KiB", "128 KiB"),
        "sector_kib": L("RAID-Z sector", "KiB"),
        "distributed": L("distributed RAID"),
        "min_drives": L("fewest drives of the layout", "", "no minimum"),
        "min_hosts": L("fewest hosts of the layout", "", "the failure domains'"),
        "max_hosts": L("most hosts of the layout", "", "no maximum"),
    },
    SparePolicy: {
        "per_drives": L("one hot spare per", "drives", "no share"),
        "min_spares": L("fewest hot spares"),
    },
    CacheConfig: {
        "flash_cache_gb": L("flash cache", "GB"),
        "flash_kind": L("flash cache kind"),
        "flash_hit_ms": L("read from the flash cache", "ms"),
        "flash_device_gb": L("flash cache device", "GB"),
        "flash_device_read_iops": L("flash cache device reads", "IOPS"),
        "flash_device_read_mb_s": L("flash cache device read rate", "MB/s"),
        "dedupe_aware": L("flash cache holds deduplicated blocks"),
        "dram_dedupe_aware": L("DRAM cache holds deduplicated blocks"),
        "exclusive": L("flash cache holds what DRAM evicts"),
        "cache_sequential": L("flash cache takes sequential reads"),
    },
    TieringConfig: {
        "tiers": L("tiers, fastest first"),
        "chunk_mb": L("tiering chunk", "MB"),
        "locality_b": L("tiering locality bias", "", "from the workloads' skew"),
        "fast_tier_fraction": L("fast tier share needed", "", "modelled"),
        "metadata_bytes_per_chunk": L("tiering memory per chunk", "B"),
        "hot_set_change_pct": L("fast tier relocated per window", "%"),
        "relocation_window_h": L("time between relocations", "h"),
    },
    Packaging: {
        "controller_rack_units": L("controller enclosures", "U"),
        "drives_in_controller_enclosure": L("drives in the controller enclosure"),
        "drives_per_shelf": L("drives per shelf"),
        "shelf_rack_units": L("shelf height", "U"),
        "max_drives": L("most drives of the array", "", "no limit"),
        "max_shelves": L("most shelves of the array", "", "no limit"),
        "controller_power_w": L("controller enclosure power", "W"),
        "shelf_power_w": L("empty shelf power", "W"),
        "controller_price_usd": L("controllers' price", "USD"),
        "shelf_price_usd": L("shelf price", "USD"),
        "flash_cache_price_usd_per_gb": L("flash cache price", "USD/GB"),
    },
    CapacityPolicy: {
        "filesystem_reserve_pct": L("file-system reserve", "%"),
        "snapshot_reserve_pct": L("array snapshot reserve", "%"),
    },
    HeadroomTargets: {
        "controller_max_pct": L("controller busy limit", "%", "50% for an HA pair, else 70%"),
        "failover_max_pct": L("controller busy limit after a failover", "%"),
        "drive_max_pct": L("drive busy limit", "%"),
        "port_max_pct": L("port busy limit", "%"),
        "capacity_max_fill_pct": L("capacity fill limit", "%"),
    },
    Architecture: {
        "write_architecture": L("write architecture"),
        "copies": L("copies of every write on different nodes"),
        "ec_read_full_stripe": L("erasure-coded reads read the whole stripe"),
        "wal": L("write-ahead log", "", "the architecture's"),
        "deferred_write_kib": L("writes deferred through the log up to", "KiB", "none"),
        "dedupe": L("deduplication"),
        "compression": L("compression"),
        "prefetch_kib": L("read-ahead per sequential stream", "KiB", "the architecture's"),
        "max_prefetch_kib": L("longest read-ahead", "KiB", "no stated limit"),
        "stripe_units_kib": L("stripe units offered", "KiB", "any power of two"),
    },
    Cluster: {
        "unit": L("cluster unit"),
        "nodes": L("nodes"),
        "min_nodes": L("fewest nodes"),
        "max_nodes": L("most nodes"),
        "controllers_per_node": L("controllers per node"),
        "max_drives_per_node": L("most drives per node", "", "no limit"),
        "fixed_drives_per_node": L("every node full of drives"),
        "max_drives": L("most drives per cluster", "", "no limit"),
        "ports_per_node": L("per node:"),
        "rack_units_per_node": L("node height", "U"),
        "drives_in_node_enclosure": L("drives in a node enclosure"),
        "max_shelves_per_node": L("most shelves per node", "", "no limit"),
        "power_w_per_node": L("node power", "W"),
        "price_usd_per_node": L("node price", "USD"),
    },
}
"""Each field of the configuration tree in words; a field holding a part: the words its fields follow."""

ITEMS: dict[tuple[type[BaseModel], str], str] = {
    (Configuration, "pools"): "pool",
    (Configuration, "ports"): "port group",
    (DrivePool, "other_drives"): "mixed-in group",
    (Cluster, "ports_per_node"): "per node: port group",
}
"""How an item of a list of parts is named when the list has more than one (a pool by its name,
the others by their place: ``port group 2``)."""

_TIGHT = frozenset({"%", "x"})
"""Units written against the number (``70%``, ``1.5x``)."""


SETTING_WORDS: dict[Enum, str] = {
    WriteArchitecture.IN_PLACE_RAID: "in place (small writes read-modify-write)",
    WriteArchitecture.WRITE_ANYWHERE: "write anywhere (WAFL, ZFS)",
    WriteArchitecture.LOG_STRUCTURED: "log-structured (full-stripe appends)",
    WriteArchitecture.REPLICATED_SCALE_OUT: "whole copies on separate nodes",
    WalPlacement.NVRAM: "controller NVRAM",
    WalPlacement.FLASH: "a flash device per node",
    WalPlacement.DATA_DRIVE: "the data drive",
}
"""Settings whose value alone does not say what it means to a person; any other setting reads as its
value with spaces (``post_process`` -> ``post process``)."""


def value_words(value: object, label: FieldLabel) -> str:
    """One side of a change: a number with its unit (``1,024 GB``), yes/no, a setting, or the
    label's words for null."""
    if value is None:
        return label.none
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return SETTING_WORDS.get(value) or str(value.value).replace("_", " ")
    if isinstance(value, int | float):
        text = number(float(value))
        return f"{text}{label.unit}" if label.unit in _TIGHT else f"{text} {label.unit}".rstrip()
    if isinstance(value, list | tuple):
        return ", ".join(value_words(v, label) for v in value) if value else "none"
    return str(value)


def change_words(label: FieldLabel, before: object, after: object, prefix: str = "") -> str:
    """``controller CPU per read hit 31 -> 10 µs``: the unit said once when both sides are
    numbers, else on each side that has one (``none -> 200,000 IOPS``)."""
    words = f"{prefix} {label.words}".strip()
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (before, after))
    if numbers and label.unit:
        bare = label._replace(unit="")
        tail = value_words(after, label)
        return f"{words} {value_words(before, bare)} -> {tail}"
    return f"{words} {value_words(before, label)} -> {value_words(after, label)}"


__all__ = [
    "ITEMS",
    "LABELS",
    "NOT_A_DIFFERENCE",
    "SETTING_WORDS",
    "FieldLabel",
    "change_words",
    "value_words",
]
