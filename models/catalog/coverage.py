"""Calibration coverage of the catalog: every record states, part by part, how calibrated it is.

:func:`calibration_gaps` lists every record and field that does not (one line each, naming the
record and the field), so the catalog test can fail with exactly what to fix; :func:`source_gaps`
likewise every record or record part whose ``source`` says nothing. The schema is
:mod:`models.provenance`; the source keys must be keys of ``docs/sources.md``, which the caller
reads and passes in (the engine reads no files).
"""

from __future__ import annotations

from collections.abc import Iterable

from models.catalog.schemas import ArrayModel, Catalog
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.provenance import PartCalibration

CEILINGS = ("max_iops", "max_mb_s")
"""Controller throughput ceilings: each one set on a catalog record states its own status and
source keys in ``calibration.controller.figures`` (a ceiling read off a published figure, or an
estimate said to be one), so a ceiling never rides on its part's status unstated."""


FIGURE_FIELDS = {
    "drives": frozenset(DriveSpec.model_fields),
    "controller": frozenset(ControllerSpec.model_fields),
    "cache": frozenset(ControllerSpec.model_fields) | {"flash_cache", "write_log"},
    "ports": frozenset(ControllerSpec.model_fields) | {"port_options"},
}
"""The record fields a part's ``figures`` may name: a drive's for ``drives``; the controller's for
``controller``, ``cache`` (and the array's flash cache and write log options) and ``ports`` (its
cluster network, and the array's port options). A figure naming anything else states the status
of nothing: a misspelt figure would leave the real one riding on its part's status unstated."""


def _part_gaps(where: str, part: PartCalibration, known: set[str], fields: frozenset[str]) -> list[str]:
    out = [
        f"{where}.sources: unknown source key {k!r} (not in docs/sources.md)"
        for k in part.sources
        if k not in known
    ]
    for name, fig in part.figures.items():
        if name not in fields:
            out.append(f"{where}.figures.{name}: not a figure of the record (no field {name!r})")
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
            out += _part_gaps(where, d.calibration, known, FIGURE_FIELDS["drives"])
    for a in catalog.arrays.values():
        where = f"arrays[{a.id}].calibration"
        if a.calibration is None:
            out.append(f"{where}: missing (controller, cache and ports: status and source keys)")
            continue
        for name in ("controller", "cache", "ports"):
            out += _part_gaps(f"{where}.{name}", getattr(a.calibration, name), known, FIGURE_FIELDS[name])
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


def _array_sources(a: ArrayModel) -> list[tuple[str, str]]:
    where = f"arrays[{a.id}]"
    out = [(f"{where}.source", a.source), (f"{where}.controller.source", a.controller.source)]
    out += [(f"{where}.flash_cache[{f.name}].source", f.source) for f in a.flash_cache]
    out += [(f"{where}.write_log[{w.name}].source", w.source) for w in a.write_log]
    out.append((f"{where}.commercial.source", a.commercial.source))
    out += [(f"{where}.commercial.licences[{lic.name}].source", lic.source) for lic in a.commercial.licences]
    return out


def source_gaps(catalog: Catalog) -> list[str]:
    """Lines ``<record>.<field>: no source`` for every catalog record (or record part with figures of
    its own) whose ``source`` is empty or the custom records' ``user-defined``: each figure states
    where it comes from, a datasheet, a published test or ``estimate: ...``."""
    fields: list[tuple[str, str]] = []
    fields += [(f"drives[{d.id}].source", d.source) for d in catalog.drives.values()]
    fields += [(f"templates[{t.id}].source", t.source) for t in catalog.templates.values()]
    fields += [(f"ports[{p.type.value}].source", p.source) for p in catalog.ports.values()]
    fields += [(f"raid_schemes[{r.scheme.value}].source", r.source) for r in catalog.raid_schemes.values()]
    for a in catalog.arrays.values():
        fields += _array_sources(a)
    return [
        f"{where}: no source (cite a docs/sources.md key, a datasheet or 'estimate: ...')"
        for where, src in fields
        if not src.strip() or src.strip() == "user-defined"
    ]
