"""Recommend's calibration margins: each family at the pessimistic end of its class's error band,
and the answers stated back under the records' own ids (:func:`models.recommend.recommend`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from models.batch import Family, family_configuration, family_counts
from models.catalog import ArrayModel
from models.configuration import HeadroomTargets
from models.drives import DriveSpec
from models.provenance import ModelErrorTable, band_factor, margin_parts, scaled_drive, without_margins
from models.workload import Workload

if TYPE_CHECKING:  # recommend imports this module
    from models.recommend import RecommendedConfiguration

IntArray = npt.NDArray[np.int64]


MARGINED_ID = "{id}@x{factor:.6g}"
"""The id of a record at a margin factor: the batch tells records apart by id, and one array (or
drive) can be in families of different classes, so at different factors."""


def margined_families(
    families: list[Family], workloads: list[Workload], table: ModelErrorTable | None
) -> list[Family]:
    """Each family with its estimated controller and drive at the pessimistic end of its class's
    error band, as the API sizes a family (:func:`models.provenance.with_margins` on the family's
    smallest configuration: the class and the parts' statuses depend only on the array, the drive
    and whether there is a flash cache). The controller's margin is the family's
    ``controller_factor`` (the batch applies it where it reads the controller, so the array's
    record is not copied and its families share their front ends); a margined drive is shared by
    every family with the same record and factor, under its own id (:data:`MARGINED_ID`), and the
    array's record offers it. :func:`recommend` states the answers under the records' own ids."""
    # per (array, drive, flash cache or not): [controller factor, drive factor, a family of it,
    # then the array and drive its families take]; each family points at its key's entry
    keys: dict[tuple[str, str, bool], list] = {}
    firsts: dict[tuple, int | None] = {}  # the smallest drive count of each (array, layout)
    entry_of: list[list] = []
    for fam in families:
        key = (fam.array.id, fam.drive.id, fam.flash_cache_gb > 0)
        entry = keys.get(key)
        if entry is None:
            lay = fam.layout
            at = (fam.array.id, lay.scheme, lay.group_width, lay.copies)
            if at not in firsts:
                counts = family_counts(fam.array, lay)
                firsts[at] = int(counts[0]) if counts.size else None
            first = firsts[at]
            parts = (
                None if first is None else margin_parts(family_configuration(fam, first), workloads, table)
            )
            entry = keys[key] = [None, None, fam, fam.array, fam.drive]
            if parts is not None:
                f = band_factor(parts[0])
                entry[0] = f if "controller" in parts[2] else None
                entry[1] = f if "drives" in parts[2] else None
        entry_of.append(entry)
    drives: dict[tuple[str, float], DriveSpec] = {}
    offered: dict[str, set[str]] = {}  # array -> the margined drives it takes
    for _, f_drive, fam, _, _ in keys.values():
        if f_drive is not None:
            if (fam.drive.id, f_drive) not in drives:
                drives[(fam.drive.id, f_drive)] = scaled_drive(fam.drive, f_drive).model_copy(
                    update={"id": MARGINED_ID.format(id=fam.drive.id, factor=f_drive)}
                )
            offered.setdefault(fam.array.id, set()).add(drives[(fam.drive.id, f_drive)].id)
    arrays: dict[str, ArrayModel] = {}
    for entry in keys.values():
        _, f_drive, fam, _, _ = entry
        if f_drive is not None:  # the array offers the margined drives (its own record otherwise)
            offering = arrays.get(fam.array.id)
            if offering is None:
                offering = arrays[fam.array.id] = fam.array.model_copy(
                    update={"drives": [*fam.array.drives, *sorted(offered[fam.array.id])]}
                )
            entry[3] = offering
            entry[4] = drives[(fam.drive.id, f_drive)]
    return [
        fam
        if e[0] is None and e[1] is None
        else Family(e[3], e[4], fam.layout, fam.flash_cache_gb, controller_factor=e[0])
        for fam, e in zip(families, entry_of, strict=True)
    ]


def stated_index(ids: list[str]) -> IntArray:
    """One index per distinct id, in the order of first appearance (as the batch numbers records)."""
    if not ids:
        return np.zeros(0, dtype=np.int64)
    _, at, inverse = np.unique(np.asarray(ids), return_index=True, return_inverse=True)
    rank = np.empty(at.size, dtype=np.int64)
    rank[np.argsort(at, kind="stable")] = np.arange(at.size, dtype=np.int64)
    return rank[inverse.ravel()]


def as_stated(
    items: list[tuple[RecommendedConfiguration, Family]], headroom: HeadroomTargets
) -> list[RecommendedConfiguration]:
    """``items`` found with margins, each configuration with its records' own controller and drive
    figures back (:func:`models.provenance.without_margins`): what is bought, as its records state it."""
    out = []
    for item, fam in items:
        original = family_configuration(fam, item.configuration.pools[0].drive_count or 1, headroom)
        config = without_margins(item.configuration, original).model_copy(update={"array_id": fam.array.id})
        out.append(
            item.model_copy(
                update={"array_id": fam.array.id, "drive_id": fam.drive.id, "configuration": config}
            )
        )
    return out


class StatedRecords:
    """The arrays and drives of margined families under their records' own ids (the batch numbers
    a margined record apart, :data:`MARGINED_ID`): per family the index of its array and drive."""

    def __init__(self, families: list[Family]) -> None:
        self.fam_array = stated_index([f.array.id for f in families])
        self.fam_drive = stated_index([f.drive.id for f in families])
        self.arrays: dict[int, ArrayModel] = {}
        for f, k in zip(families, self.fam_array.tolist(), strict=True):
            self.arrays.setdefault(k, f.array)
        self.drive_count = int(self.fam_drive.max(initial=-1)) + 1
