"""Building a ready :class:`~models.configuration.Configuration` from catalog records."""

from __future__ import annotations

import math

from pydantic import ValidationError

from models.base import InputError
from models.capacity import spare_count
from models.catalog.schemas import ArrayModel
from models.configuration import CacheConfig, Configuration, DrivePool
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.ports import PortGroup
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
