"""Names of configurations, stated once: ``"<array model>, <N> x <drive>, <scheme> <width>[, <age> layout]"``.

Every configuration the server builds (catalog references, RAID-scheme variants, peers) is named
here, so the name always says the scheme and width actually computed and clients never rebuild it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.explain import number
from models.raid import RaidLayout

if TYPE_CHECKING:
    from models.configuration import Configuration

NAME_LENGTH = 120
"""Longest configuration name (``Configuration.name``)."""

HYPOTHETICAL_LABEL = "hypothetical: not offered by this array"
"""Said next to every configuration computed although its array does not offer it."""

_HYPOTHETICAL_SUFFIX = f" ({HYPOTHETICAL_LABEL})"


def layout_label(layout: RaidLayout) -> str:
    """A layout as a person names it: ``raid-dp 16``, ``erasure 4+2`` (k data + m parity pieces),
    ``3 copies`` (never "replica 1", its group width)."""
    if layout.scheme.value == "erasure":
        return f"erasure {layout.data_drives}+{layout.group_width - layout.data_drives}"
    if layout.scheme.value == "replica":
        return f"{layout.copies} copies"
    return f"{layout.scheme.value} {layout.group_width}"


def configuration_name(
    array_model: str,
    drive_name: str,
    layout: RaidLayout,
    drive_count: int | None = None,
    layout_age: str | None = None,
) -> str:
    """``FAS3270 (HA pair), 48 x 600 GB 10K SAS, raid-dp 16, moderate layout``.

    Without ``drive_count`` (a family still to be sized) the count is left out; the layout age
    is said only for write-anywhere layouts that have one. A long drive name loses its
    parenthesis (``600 GB 10K SAS 2.5in (2011, ...)``) so that the scheme and width always fit,
    with room left for :func:`labelled`.
    """
    age = f", {layout_age} layout" if layout_age else ""
    room = NAME_LENGTH - len(_HYPOTHETICAL_SUFFIX)
    name = ""
    for drive in (drive_name, drive_name.split(" (")[0]):
        drives = drive if drive_count is None else f"{drive_count} x {drive}"
        name = f"{array_model}, {drives}, {layout_label(layout)}{age}"
        if len(name) <= room:
            return name
    return name[:NAME_LENGTH]


def describe_configuration(cfg: Configuration) -> str:
    """What a configuration is, from its contents rather than its whole name: the array (its name's
    first part), each pool's drive (without its parenthesis) and layout (:func:`layout_label`), the
    flash cache, and :data:`HYPOTHETICAL_LABEL` when its array does not offer it:
    ``FAS3170 (HA pair), 450 GB 15K FC, raid10 8, 1,024 GB flash``. Column heads and reports say it."""
    parts = [cfg.name.split(",")[0].strip()]
    parts += [f"{p.drive.name.split(' (')[0]}, {layout_label(p.raid)}" for p in cfg.pools]
    if cfg.cache.flash_cache_gb > 0:
        parts.append(f"{number(cfg.cache.flash_cache_gb)} GB flash")
    if cfg.hypothetical:
        parts.append(HYPOTHETICAL_LABEL)
    return ", ".join(parts)


def plural(n: float, one: str, many: str | None = None) -> str:
    """``1 group``, ``2 groups``, ``1 spare``: a count and its noun in the right number."""
    word = one if n == 1 else (many or f"{one}s")
    return f"{n:g} {word}" if isinstance(n, float) else f"{n} {word}"


def labelled(name: str) -> str:
    """``name`` ending in ``(hypothetical: not offered by this array)``, within the name's length."""
    if name.endswith(_HYPOTHETICAL_SUFFIX):
        return name
    return name[: NAME_LENGTH - len(_HYPOTHETICAL_SUFFIX)].rstrip(" ,") + _HYPOTHETICAL_SUFFIX


__all__ = [
    "HYPOTHETICAL_LABEL",
    "NAME_LENGTH",
    "configuration_name",
    "describe_configuration",
    "labelled",
    "plural",
]
