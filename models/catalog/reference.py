"""A configuration named by catalog records: :class:`CatalogReference` and :func:`resolve_reference`.

A reference names an array, and optionally a drive, RAID scheme, group width, drive count, flash
cache, port option, nodes, a custom controller and a WAFL layout age; everything unnamed takes the
array's defaults. :func:`resolve_reference` turns it into an engine :class:`Configuration` with
:func:`~models.catalog.build.build_configuration`, the layout age's calibrated full-stripe share
and scatter (:class:`~models.catalog.calibration.Calibration`) and the name a person reads
(:func:`models.naming.configuration_name`). Records the catalog does not hold (custom hardware)
come from a lookup the caller passes. Errors are :class:`InputError` whose ``field`` is the
reference's own field (``array_id``, ``drive_id``, ``group_width`` ...), or ``""`` for the
reference as a whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError

from models.base import Frozen, InputError
from models.catalog.build import build_configuration
from models.catalog.calibration import Calibration, Layout
from models.catalog.raid_schemes import raid_scheme_records
from models.catalog.schemas import ArrayModel, Catalog
from models.cluster import node_label
from models.configuration import Architecture, Configuration, HeadroomTargets
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.naming import configuration_name
from models.provenance import user_estimate
from models.raid import WAFL_SCHEMES, RaidLayout, RaidScheme
from models.support import as_hypothetical, offering_array

CountMode = Literal["entry", "family", "either"]
"""What ``drive_count: null`` in a catalog reference means: the array's entry configuration
(evaluate, curves), the count to find (size; a given count is an error), or either (compare)."""

CustomRecord = Callable[[str], "ArrayModel | DriveSpec | ControllerSpec | None"]
"""The custom hardware a record id names (an array, drive or controller spec), None if none."""


class CatalogReference(Frozen):
    """A configuration built from catalog records (or custom hardware record ids).

    Unset fields take the array's defaults: its default drive, RAID scheme and the scheme's group
    width, the default port option, no flash cache, the default headroom targets and (clustered
    arrays) the base system's nodes or as many as the drives need; ports, controllers and packaging
    scale with ``nodes`` whether the port option is named or not. ``drive_count`` null means the
    array's entry configuration for ``/evaluate`` and ``/curves``, and the count to find for
    ``/size`` and ``/compare``. ``layout`` is the age of a WAFL layout (RAID-DP/RAID-TEC: calibrated
    full-stripe share and scatter; null = the calibration's default age) and is ignored for other
    schemes. A drive or RAID scheme the array does not offer is a 422 at its field unless
    ``hypothetical`` is set: then it is computed and its name says "hypothetical: not offered by
    this array".
    """

    model_config = ConfigDict(title="CatalogReference")

    array_id: str = Field(
        min_length=1, max_length=80, description="catalog array id or custom array record id"
    )
    drive_id: str | None = Field(
        default=None, min_length=1, max_length=80, description="catalog drive id or custom drive record id"
    )
    raid_scheme: RaidScheme | None = None
    group_width: int | None = Field(default=None, ge=1, le=64, description="drives per RAID group")
    drive_count: int | None = Field(default=None, ge=1, le=100000, description="drives excl. spares")
    flash_cache_gb: float = Field(default=0.0, ge=0.0, le=1e6, description="flash read cache [GB, system]")
    port_option: str | None = Field(
        default=None, min_length=1, max_length=80, description="array port option name"
    )
    nodes: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="nodes (HA pairs where the family grows in pairs) of a clustered or scale-out "
        "array, within its range; null = the base system, or as many as the drives need",
    )
    controller_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="custom controller record replacing the array's",
    )
    layout: Layout | None = Field(
        default=None, description="WAFL layout age (RAID-DP/RAID-TEC only); null = the calibrated default"
    )
    drive_fraction_used: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="short-stroking: fraction of each drive used; null = all of it (full stroke)",
    )
    planned_fill_pct: float | None = Field(
        default=None,
        gt=0.0,
        le=100.0,
        description="fill the pool will run at [% of usable]; null = the capacity fill target",
    )
    prefetch_kib: float | None = Field(
        default=None,
        ge=4.0,
        le=65536.0,
        description="KiB the array reads ahead of each sequential stream; null = the catalog's (at most the "
        "architecture's max_prefetch_kib)",
    )
    headroom: HeadroomTargets | None = Field(
        default=None, description="how busy each part may be; null = the defaults"
    )
    hypothetical: bool = Field(
        default=False,
        description="compute a drive or RAID scheme the array does not offer (labelled as such)",
    )
    name: str | None = Field(
        default=None, min_length=1, max_length=120, description="null = named by the server from its parts"
    )


_BUILD_FIELD = {"drive": "drive_id", "ports": "port_option", "raid_scheme": "raid_scheme"}
"""``build_configuration``'s error fields that a reference names otherwise."""


def _no_custom(_record_id: str) -> None:
    return None


def reference_field(build_field: str) -> str:
    """The reference field behind a ``build_configuration`` error field ("" = the reference)."""
    name = _BUILD_FIELD.get(build_field, build_field)
    return name if name in CatalogReference.model_fields else ""


def resolve_reference(
    ref: CatalogReference,
    catalog: Catalog,
    calibration: Calibration,
    count: CountMode = "entry",
    custom: CustomRecord = _no_custom,
) -> Configuration:
    """The engine configuration ``ref`` names.

    The array, drive and controller come from ``catalog``, else from ``custom`` (record ids of
    custom hardware); the RAID-DP/RAID-TEC layout age from ``calibration``. Raises
    :class:`InputError` at the reference field that is wrong (see the module docstring).
    """
    if count == "family" and ref.drive_count is not None:
        raise InputError(
            "drive_count", "must be null: sizing finds the drive count (use /evaluate for a given count)"
        )
    offered = catalog.arrays.get(ref.array_id) or custom(ref.array_id)
    if not isinstance(offered, ArrayModel):
        raise InputError("array_id", f"unknown array {ref.array_id!r} (not in the catalog or custom arrays)")
    array = offered
    drive_id = ref.drive_id or array.default_drive or (array.drives[0] if array.drives else None)
    if drive_id is None:
        raise InputError("drive_id", f"array {array.id!r} has no default drive: give drive_id")
    drive = catalog.drives.get(drive_id) or custom(drive_id)
    if not isinstance(drive, DriveSpec):
        raise InputError("drive_id", f"unknown drive {drive_id!r} (not in the catalog or custom drives)")
    if ref.controller_id is not None:
        controller = custom(ref.controller_id)
        if not isinstance(controller, ControllerSpec):
            raise InputError("controller_id", f"unknown custom controller {ref.controller_id!r}")
        if (
            controller.calibration is None
        ):  # a custom controller states its own calibration, or is estimate (user)
            controller = controller.model_copy(update={"calibration": user_estimate()})
        array = array.model_copy(update={"controller": controller})
    scheme = ref.raid_scheme or array.default_raid
    if ref.hypothetical:
        array = offering_array(array, scheme, drive)
    age, share, scatter = calibration.wafl_layout(ref.layout) if scheme in WAFL_SCHEMES else (None, None, 0.0)
    try:
        config = build_configuration(
            array,
            drive,
            scheme,
            group_width=ref.group_width,
            drive_count=ref.drive_count,
            flash_cache_gb=ref.flash_cache_gb,
            layout_full_stripe_share=share,
            port_option=ref.port_option,
            nodes=ref.nodes,
        )
    except InputError as exc:
        raise InputError(reference_field(exc.field), exc.reason) from exc

    pool = config.pools[0]
    layout = pool.raid.model_copy(update={"scatter": scatter}) if scatter else pool.raid
    family = ref.drive_count is None and count != "entry"
    model = array.model
    if config.cluster is not None:
        model += f", {node_label(config.cluster, config.cluster.nodes)}"
    name = ref.name or configuration_name(
        model,
        drive.name,
        layout,
        None if family else pool.drive_count,
        age.value if age is not None else None,
    )
    pool = pool.model_copy(
        update={
            "raid": layout,
            "drive_count": None if family else pool.drive_count,
            "drive_fraction_used": ref.drive_fraction_used,
            "planned_fill_pct": ref.planned_fill_pct,
        }
    )
    update: dict[str, object] = {"pools": [pool], "name": name}
    if ref.prefetch_kib is not None:
        update["architecture"] = _with_prefetch(config.architecture, ref.prefetch_kib)
    if ref.headroom is not None:
        update["headroom"] = ref.headroom
    built = config.model_copy(update=update)
    return as_hypothetical(built, offered) if ref.hypothetical else built


def _with_prefetch(arch: Architecture | None, prefetch_kib: float) -> Architecture:
    """The array's architecture reading ``prefetch_kib`` ahead of each stream; more than the
    architecture can (``max_prefetch_kib``) is an error naming ``prefetch_kib``."""
    base = arch.model_dump() if arch is not None else {}
    try:
        return Architecture.model_validate({**base, "prefetch_kib": prefetch_kib})
    except ValidationError as exc:
        reason = str(exc.errors()[0]["msg"]).removeprefix("Value error, ").removeprefix("prefetch_kib: ")
        raise InputError("prefetch_kib", reason) from None


def layout_for_scheme(scheme: RaidScheme, old: RaidLayout, array: ArrayModel | None) -> RaidLayout:
    """``old`` switched to ``scheme``: the array's default width for it, else the engine's typical one.

    The layout age (full-stripe share and scatter) carries over between WAFL schemes only.
    """
    option = None
    if array is not None:
        option = next((r for r in array.raid if r.scheme is scheme), None)
    wafl = scheme in WAFL_SCHEMES and old.scheme in WAFL_SCHEMES
    share = old.full_stripe_share if wafl else None
    scatter = old.scatter if wafl else 0.0
    if option is not None:
        layout = option.layout(option.default_width, share)
    else:
        typical = raid_scheme_records()[scheme].typical_width
        if scheme is RaidScheme.ERASURE:
            layout = RaidLayout(
                scheme=scheme, group_width=typical, ec_data=typical - 2, ec_parity=2, full_stripe_share=share
            )
        else:
            layout = RaidLayout(scheme=scheme, group_width=typical, full_stripe_share=share)
    return layout.model_copy(update={"scatter": scatter})
