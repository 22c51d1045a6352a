"""Names of configurations, stated once: ``"<array model>, <N> x <drive>, <scheme> <width>[, <age> layout]"``.

Every configuration the server builds (catalog references, RAID-scheme variants, peers) is named
here, so the name always says the scheme and width actually computed and clients never rebuild it.
"""

from __future__ import annotations

from models.raid import RaidLayout

NAME_LENGTH = 120
"""Longest configuration name (``Configuration.name``)."""

HYPOTHETICAL_LABEL = "hypothetical: not offered by this array"
"""Said next to every configuration computed although its array does not offer it."""

_HYPOTHETICAL_SUFFIX = f" ({HYPOTHETICAL_LABEL})"


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
        name = f"{array_model}, {drives}, {layout.scheme.value} {layout.group_width}{age}"
        if len(name) <= room:
            return name
    return name[:NAME_LENGTH]


def plural(n: float, one: str, many: str | None = None) -> str:
    """``1 group``, ``2 groups``, ``1 spare``: a count and its noun in the right number."""
    word = one if n == 1 else (many or f"{one}s")
    return f"{n:g} {word}" if isinstance(n, float) else f"{n} {word}"


def labelled(name: str) -> str:
    """``name`` ending in ``(hypothetical: not offered by this array)``, within the name's length."""
    if name.endswith(_HYPOTHETICAL_SUFFIX):
        return name
    return name[: NAME_LENGTH - len(_HYPOTHETICAL_SUFFIX)].rstrip(" ,") + _HYPOTHETICAL_SUFFIX


__all__ = ["HYPOTHETICAL_LABEL", "NAME_LENGTH", "configuration_name", "labelled", "plural"]
