"""Whether an array offers a configuration, and configurations computed although it does not.

A catalog reference is built from the array's records, so :func:`models.catalog.build_configuration`
refuses a drive, RAID scheme or group width the array does not sell. A full configuration (one
``/size`` returned, edited by a client) names its array by ``array_id`` but carries its own
layout; :func:`check_offered` runs the same checks on it, so no screen can evaluate an offer the
vendor never made without saying so.

A *hypothetical* is such a configuration computed on purpose ("what would RAID 10 do on this
FAS?"): :func:`as_hypothetical` marks it (``Configuration.hypothetical``) and puts
:data:`models.naming.HYPOTHETICAL_LABEL` in its name, which every result, comparison, report and export
carries; :func:`offering_array` widens an array record so that it accepts the configuration.
"""

from __future__ import annotations

from pydantic import Field

from models.base import InputError, Output
from models.catalog import ArrayModel, RaidOption, raid_scheme_records
from models.cluster import node_label
from models.configuration import Configuration
from models.drives import DriveSpec
from models.naming import HYPOTHETICAL_LABEL, labelled
from models.raid import RaidScheme


def scheme_name(scheme: RaidScheme) -> str:
    """The scheme as people write it: ``RAID 10``, ``RAID-DP``, ``RAID-Z2`` (no parenthesis)."""
    return raid_scheme_records()[scheme].name.split(" (")[0]


def offered_schemes(array: ArrayModel) -> str:
    """The schemes ``array`` offers, in words: ``RAID-DP`` or ``RAID 5, RAID 6 and RAID 10``."""
    names = [scheme_name(r.scheme) for r in array.raid]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def allowed_widths(option: RaidOption) -> list[int]:
    """Every group width ``option`` allows that the engine can lay out (RAID 10 only even widths)."""
    candidates = option.widths if option.widths is not None else range(option.min_width, option.max_width + 1)
    out = []
    for width in candidates:
        try:
            option.layout(width)
        except ValueError:
            continue
        out.append(width)
    return sorted(out)


def group_widths(array: ArrayModel) -> dict[RaidScheme, list[int]]:
    """Every scheme ``array`` offers and the group widths it builds for it (:func:`allowed_widths`)."""
    return {r.scheme: allowed_widths(r) for r in array.raid}


class NodeChoice(Output):
    """A node count a clustered array offers, with its label (:func:`models.cluster.node_label`)."""

    nodes: int
    label: str = Field(description="e.g. '8 nodes', '12 HA pairs (24 controllers)'")


def node_choices(array: ArrayModel) -> list[NodeChoice]:
    """Every node count ``array`` grows to, ``min_nodes`` to ``max_nodes`` (none unless it clusters)."""
    so = array.scale_out
    if so is None:
        return []
    return [NodeChoice(nodes=n, label=node_label(so, n)) for n in range(so.min_nodes, so.max_nodes + 1)]


def unsupported_scheme(array: ArrayModel, scheme: RaidScheme, field: str = "raid_scheme") -> InputError:
    """The error for a scheme ``array`` does not offer, naming what it does offer."""
    return InputError(
        field,
        f"the {array.model} does not offer {scheme_name(scheme)} (it offers {offered_schemes(array)}); "
        "ask for a hypothetical to compute it anyway",
    )


def check_offered(array: ArrayModel, config: Configuration) -> None:
    """Raise :class:`InputError` at the first pool field ``array`` does not offer.

    Checked per pool: the drive (unless the array takes any drive), the RAID scheme and the
    group width (the array's widths or range). Fields are paths inside the configuration
    (``pools.0.raid.scheme``).
    """
    for i, pool in enumerate(config.pools):
        if not array.supports_drive(pool.drive.id):
            raise InputError(
                f"pools.{i}.drive",
                f"the {array.model} does not take the drive {pool.drive.name}; "
                "ask for a hypothetical to compute it anyway",
            )
        option = next((r for r in array.raid if r.scheme is pool.raid.scheme), None)
        if option is None:
            raise unsupported_scheme(array, pool.raid.scheme, f"pools.{i}.raid.scheme")
        if not option.allowed(pool.raid.group_width):
            allowed = allowed_widths(option)
            raise InputError(
                f"pools.{i}.raid.group_width",
                f"the {array.model} builds {scheme_name(option.scheme)} groups of "
                f"{allowed[0]} to {allowed[-1]} drives, not {pool.raid.group_width}",
            )


def is_offered(array: ArrayModel, config: Configuration) -> bool:
    try:
        check_offered(array, config)
    except InputError:
        return False
    return True


def as_hypothetical(config: Configuration, array: ArrayModel | None) -> Configuration:
    """``config`` marked hypothetical when ``array`` does not offer it (unchanged when it does)."""
    if array is None or is_offered(array, config):
        return config
    return config.model_copy(update={"hypothetical": True, "name": labelled(config.name)})


def offering_array(array: ArrayModel, scheme: RaidScheme | None, drive: DriveSpec | None) -> ArrayModel:
    """``array`` widened to accept ``scheme`` (at the engine's typical width and range) and ``drive``.

    Used to build a hypothetical from catalog records; the array record itself is not changed.
    """
    update: dict[str, object] = {}
    if drive is not None and not array.supports_drive(drive.id):
        update["any_drive"] = True
    if scheme is not None and all(r.scheme is not scheme for r in array.raid):
        record = raid_scheme_records()[scheme]
        option = RaidOption(
            scheme=scheme,
            default_width=record.typical_width,
            min_width=record.min_width,
            max_width=record.max_width,
            ec_parity=record.parity_drives if scheme is RaidScheme.ERASURE else None,
        )
        update["raid"] = [*array.raid, option]
    return array.model_copy(update=update) if update else array


__all__ = [
    "HYPOTHETICAL_LABEL",
    "NodeChoice",
    "allowed_widths",
    "as_hypothetical",
    "check_offered",
    "group_widths",
    "is_offered",
    "labelled",
    "node_choices",
    "offered_schemes",
    "offering_array",
    "scheme_name",
    "unsupported_scheme",
]
