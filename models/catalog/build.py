"""Building a ready :class:`~models.configuration.Configuration` from catalog records."""

from __future__ import annotations

import math

from pydantic import ValidationError

from models.base import InputError
from models.buildable import drive_step, fewest_drives, hosts_needed
from models.capacity import spare_count
from models.catalog.schemas import ArrayModel
from models.cluster import node_label, nodes_needed, with_nodes
from models.configuration import CacheConfig, Cluster, Configuration, DrivePool
from models.drives import DriveSpec
from models.ports import PortGroup
from models.provenance import configuration_calibration
from models.raid import RaidScheme


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
    *,
    port_option: str | None = None,
    nodes: int | None = None,
) -> Configuration:
    """A ready :class:`Configuration` from catalog records: one pool of ``drive`` in ``raid_scheme``.

    Defaults come from the array: group width (the scheme's default), drive count (the entry
    configuration rounded down to whole groups, at least one group), the default port option
    (``port_option`` names another; ``ports`` gives explicit counts instead) and no flash cache.

    Clustered and scale-out families (:class:`ScaleOut`) get a :class:`Cluster`: ``nodes`` (HA
    pairs where the family grows in pairs) within the family's range, or, when None, the base
    system's nodes or as many as the drives need. Controllers, catalog port options, node
    enclosures, power and price scale with the nodes (:func:`models.cluster.with_nodes`); without
    a given ``drive_count`` the entry drives per base node are multiplied out too.

    Raises :class:`InputError` (its ``field`` names the input: ``drive``, ``raid_scheme``,
    ``group_width``, ``drive_count``, ``nodes``, ``ports``, ``flash_cache_gb``) when the array does
    not support the drive, scheme, width, flash-cache size, port option or node count, or when the
    drives (plus hot spares) exceed the per-node or per-cluster limit.
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
    min_drives = fewest_drives(layout, array.spares)  # one group, or the vendor's fewest (models.buildable)

    so = array.scale_out
    if nodes is not None and so is None:
        raise InputError("nodes", f"{array.id} does not cluster: it has no node count to choose")
    cluster = None if so is None else _cluster(array, nodes, ports, port_option)
    if drive_count is None:
        drive_count = _entry_drive_count(array, cluster, min_drives, drive_step(layout))
    if drive_count < min_drives:
        raise InputError(
            "drive_count",
            f"{option.scheme.value} needs at least {min_drives} drives"
            + (f" ({layout.min_drives} with spares)" if layout.min_drives else "")
            + f", got {drive_count}",
        )
    spares = spare_count(drive_count, array.spares)
    if cluster is not None:
        needed = nodes_needed(cluster, drive_count + spares)
        if nodes is None:
            # at least the hosts a layout placed one piece per host needs (models.buildable)
            hosts = hosts_needed(layout)
            place = hosts[0] if hosts is not None and not cluster.fixed_drives_per_node else 0
            nodes = max(cluster.nodes, needed, min(place, cluster.max_nodes))
        elif nodes < needed or (cluster.fixed_drives_per_node and nodes != needed):
            raise InputError(
                "drive_count",
                f"{drive_count} drives + {spares} spares need {needed} {cluster.unit}s of at most "
                f"{cluster.max_drives_per_node} drives (max drives per {cluster.unit}); {nodes} given",
            )
    elif drive_count + spares > array.max_drives:
        raise InputError(
            "drive_count",
            f"{drive_count} drives + {spares} spares exceed the {array.model} maximum of {array.max_drives}",
        )

    groups = _port_groups(array, ports, port_option)
    cache, flash_price = _flash_cache(array, flash_cache_gb)
    packaging = array.packaging.model_copy(
        update={
            "max_drives": array.max_drives,
            "flash_cache_price_usd_per_gb": flash_price or array.packaging.flash_cache_price_usd_per_gb,
        }
    )
    pool = DrivePool(name="pool", drive=drive, drive_count=drive_count, raid=layout, spares=array.spares)
    config = Configuration(
        name=name or _default_name(array, drive, drive_count, option.scheme, width, cluster, nodes),
        vendor=array.vendor,
        array_id=array.id,
        controller=array.controller,
        ports=groups,
        pools=[pool],
        cache=cache,
        packaging=packaging,
        capacity=array.capacity,
        architecture=array.architecture,
        cluster=cluster,
        calibration=configuration_calibration(
            array.calibration, [drive.calibration], array.controller.calibration
        ),
    )
    return config if cluster is None or nodes is None else with_nodes(config, nodes)


def _cluster(
    array: ArrayModel, nodes: int | None, ports: list[PortGroup] | None, port_option: str | None
) -> Cluster:
    """The record's scale-out family as an engine :class:`Cluster`: the base system's figures per
    node (the record's port options and packaging divided by its base nodes)."""
    so = array.scale_out
    assert so is not None
    base = array.base_nodes
    pk = array.packaging
    if ports is None:
        per_node = [
            g.model_copy(update={"count": g.count // base}) for g in array.port_option(port_option).ports
        ]
    else:
        _check_port_types(array, ports)
        n = nodes or base
        per_node = [g.model_copy(update={"count": max(1, math.ceil(g.count / n))}) for g in ports]
    try:
        return Cluster(
            unit=so.unit,
            nodes=base if nodes is None else nodes,
            min_nodes=so.min_nodes,
            max_nodes=so.max_nodes,
            controllers_per_node=so.controllers_per_node,
            max_drives_per_node=so.drives_per_node,
            fixed_drives_per_node=so.fixed_drives_per_node,
            max_drives=array.max_drives,
            ports_per_node=per_node,
            rack_units_per_node=pk.controller_rack_units / base,
            drives_in_node_enclosure=pk.drives_in_controller_enclosure // base,
            max_shelves_per_node=None if pk.max_shelves is None else pk.max_shelves // base,
            power_w_per_node=pk.controller_power_w / base,
            price_usd_per_node=pk.controller_price_usd / base,
        )
    except ValidationError as exc:
        if nodes is not None and not so.min_nodes <= nodes <= so.max_nodes:
            raise InputError(
                "nodes",
                f"{array.model} clusters {so.min_nodes} to {so.max_nodes} {so.unit}s "
                f"(min_nodes-max_nodes); got {nodes}",
            ) from exc
        raise


def _entry_drive_count(array: ArrayModel, cluster: Cluster | None, min_drives: int, width: int) -> int:
    """The entry configuration's drives: whole steps of ``width`` (groups; one drive for a
    distributed layout; whole nodes when nodes hold a fixed number), per base node times the nodes
    for a cluster."""
    base = array.default_drive_count
    if cluster is None:
        return max(min_drives, (base // width) * width)
    per = cluster.max_drives_per_node
    if cluster.fixed_drives_per_node and per is not None:
        return max(cluster.nodes, cluster.min_nodes) * per
    wanted = base * cluster.nodes // array.base_nodes
    return max(min_drives, (wanted // width) * width)


def _check_port_types(array: ArrayModel, ports: list[PortGroup]) -> None:
    unknown = sorted({g.type.value for g in ports} - {t.value for t in array.port_types})
    if unknown:
        offered = ", ".join(sorted(t.value for t in array.port_types))
        raise InputError("ports", f"{array.id} offers no {', '.join(unknown)} ports (offered: {offered})")


def _port_groups(
    array: ArrayModel, ports: list[PortGroup] | None, port_option: str | None
) -> list[PortGroup]:
    """Explicit ``ports`` (checked against the types the array offers), else the named or default
    option; a cluster's are multiplied out by :func:`with_nodes` afterwards."""
    if ports is None:
        return list(array.port_option(port_option).ports)
    _check_port_types(array, ports)
    return list(ports)


def _flash_cache(array: ArrayModel, flash_cache_gb: float) -> tuple[CacheConfig, float]:
    """The cache configuration for ``flash_cache_gb`` of one of the array's options, and its price."""
    if flash_cache_gb < 0:
        raise InputError("flash_cache_gb", "must be >= 0")
    if flash_cache_gb == 0:
        return CacheConfig(), 0.0
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
    return cache, fc.price_usd_per_gb


def _default_name(
    array: ArrayModel,
    drive: DriveSpec,
    count: int,
    scheme: RaidScheme,
    width: int,
    cluster: Cluster | None = None,
    nodes: int | None = None,
) -> str:
    """``"<model>[, <n> <unit>s], <count> x <drive>, <scheme> <width>"``, within 120 characters."""
    model = (
        array.model if cluster is None else f"{array.model}, {node_label(cluster, nodes or cluster.nodes)}"
    )
    for label in (drive.name, drive.id):
        text = f"{model}, {count} x {label}, {scheme.value} {width}"
        if len(text) <= 120:
            return text
    return text[:120]
