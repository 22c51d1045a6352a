"""Calibration coverage of the catalog: every record states, part by part, how calibrated it is.

:func:`calibration_gaps` lists every record and field that does not (one line each, naming the
record and the field), so the catalog test can fail with exactly what to fix. The schema is
:mod:`models.provenance`; the source keys must be keys of ``docs/sources.md``, which the caller
reads and passes in (the engine reads no files).
"""

from __future__ import annotations

from collections.abc import Iterable

from models.catalog.schemas import Catalog
from models.provenance import PartCalibration

CEILINGS = ("max_iops", "max_mb_s")
"""Controller throughput ceilings: each one set on a catalog record states its own status and
source keys in ``calibration.controller.figures`` (a ceiling read off a published figure, or an
estimate said to be one), so a ceiling never rides on its part's status unstated."""


def _part_gaps(where: str, part: PartCalibration, known: set[str]) -> list[str]:
    out = [
        f"{where}.sources: unknown source key {k!r} (not in docs/sources.md)"
        for k in part.sources
        if k not in known
    ]
    for name, fig in part.figures.items():
        out += [
            f"{where}.figures.{name}.sources: unknown source key {k!r} (not in docs/sources.md)"
            for k in fig.sources
            if k not in known
        ]
    return out


def calibration_gaps(catalog: Catalog, known_sources: Iterable[str]) -> list[str]:
    """Lines ``<record>: <field>: <problem>`` for every missing status or unknown source key.

    A catalog array must state ``calibration`` with its ``controller``, ``cache`` and ``ports``
    parts, and each throughput ceiling it sets (:data:`CEILINGS`) in ``calibration.controller.figures``;
    a drive record its own ``calibration``. Statuses that need a source (``measured``,
    ``fitted``, ``datasheet``) without one are already refused by the schema when the file loads.
    """
    known = set(known_sources)
    out: list[str] = []
    for d in catalog.drives.values():
        where = f"drives[{d.id}].calibration"
        if d.calibration is None:
            out.append(f"{where}: missing (status and source keys of the drive's service-time figures)")
        else:
            out += _part_gaps(where, d.calibration, known)
    for a in catalog.arrays.values():
        where = f"arrays[{a.id}].calibration"
        if a.calibration is None:
            out.append(f"{where}: missing (controller, cache and ports: status and source keys)")
            continue
        for name in ("controller", "cache", "ports"):
            out += _part_gaps(f"{where}.{name}", getattr(a.calibration, name), known)
        for field in CEILINGS:
            if getattr(a.controller, field) is not None and field not in a.calibration.controller.figures:
                out.append(
                    f"arrays[{a.id}].calibration.controller.figures.{field}: missing (the ceiling "
                    f"controller.{field} states no status and source keys of its own)"
                )
        if a.controller.calibration is not None:
            out.append(
                f"arrays[{a.id}].controller.calibration: state it in calibration.controller "
                "(a controller's own calibration is for custom controller records)"
            )
    return out
