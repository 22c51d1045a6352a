"""The candidate space: families (array x drive x layout x flash cache), their drive counts (rows)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from models.batch.arrays import IntArray
from models.bill import shelves_needed
from models.buildable import hosts_needed
from models.capacity import hot_spares
from models.catalog import ArrayModel, build_configuration
from models.cluster import nodes_for_drives
from models.configuration import Configuration, HeadroomTargets, SparePolicy
from models.drives import DriveSpec
from models.provenance import scaled_controller
from models.raid import (
    RaidLayout,
    RaidScheme,
)

POOL = "pool"
"""Name of the one pool of a catalog-built configuration."""


@dataclass(frozen=True, slots=True)
class Family:
    """One array x drive x RAID layout x flash-cache size [GB]; its rows are the drive counts.

    ``layout`` carries the scheme, width, full-stripe share and scatter (as the API resolves a
    WAFL layout age); :func:`family_configuration` builds a row's configuration.
    ``controller_factor``: the array's controller at a margin (:func:`models.provenance.scaled_controller`:
    CPU costs x f, throughput ceilings / f; None: as its record states it). The batch applies it
    per segment where it reads the controller (:mod:`models.batch.work`), so families of one array
    at different margins share their front ends.
    """

    array: ArrayModel
    drive: DriveSpec
    layout: RaidLayout
    flash_cache_gb: float = 0.0
    controller_factor: float | None = None

    @property
    def label(self) -> str:
        """``"<model>, <drive>, <scheme> <width>[, <flash> GB flash]"``."""
        text = f"{self.array.model}, {self.drive.name}, {self.layout.scheme.value} {self.layout.group_width}"
        if self.flash_cache_gb:
            text += f", {self.flash_cache_gb:g} GB flash cache"
        return text


def spare_counts(drive_counts: IntArray, policy: SparePolicy) -> IntArray:
    """:func:`models.capacity.hot_spares` of one spare policy for many counts."""
    return np.asarray(hot_spares(drive_counts, policy.per_drives, policy.min_spares), dtype=np.int64)


def family_nodes(array: ArrayModel, drive_counts: IntArray) -> IntArray:
    """Scale-out nodes for each drive count, as :func:`build_configuration` adds them (0 if not
    scale-out): ``max(base nodes, ceil((drives + spares) / drives per node))`` (:mod:`models.cluster`)."""
    so = array.scale_out
    if so is None:
        return np.zeros_like(drive_counts)
    if so.fixed_drives_per_node:
        return drive_counts // so.drives_per_node
    attached = drive_counts + spare_counts(drive_counts, array.spares)
    return np.asarray(nodes_for_drives(attached, so.drives_per_node, array.base_nodes), dtype=np.int64)


def family_counts(array: ArrayModel, layout: RaidLayout) -> IntArray:
    """Candidate drive counts of a family, ascending: whole groups that ``build_configuration`` accepts.

    Steps of the group width (of ``copies`` drives for replication; of whole nodes too when nodes
    hold a fixed number of drives), from one group (or the minimum nodes) up to the array's
    ``max_drives`` with hot spares, ``scale_out.max_nodes`` and ``packaging.max_shelves``.
    """
    step = layout.copies if layout.scheme is RaidScheme.REPLICA else layout.group_width
    first = step
    so = array.scale_out
    if so is not None and so.fixed_drives_per_node:
        step = math.lcm(step, so.drives_per_node)
        first = max(step, -(-so.min_nodes * so.drives_per_node // step) * step)
    counts = np.arange(first, array.max_drives + 1, step, dtype=np.int64)
    spares = spare_counts(counts, array.spares)  # what evaluate() bills and build_configuration checks
    ok = counts + spares <= array.max_drives
    pk = array.packaging
    base = array.base_nodes
    max_shelves: IntArray | int | None
    if so is not None:  # a cluster's node enclosures and shelf limit are per node (models.cluster)
        nodes = family_nodes(array, counts)
        ok &= nodes <= so.max_nodes
        need = hosts_needed(layout)
        if need is not None:
            ok &= (
                nodes >= need[0]
            )  # one piece per host: fewer nodes cannot hold the layout (models.buildable)
        in_nodes = nodes * (pk.drives_in_controller_enclosure // base)
        max_shelves = None if pk.max_shelves is None else nodes * (pk.max_shelves // base)
    else:
        in_nodes = np.full_like(counts, pk.drives_in_controller_enclosure)
        max_shelves = pk.max_shelves
    if max_shelves is not None:
        ok &= shelves_needed(counts + spares, in_nodes, pk.drives_per_shelf) <= max_shelves
    return counts[ok]


def family_configuration(
    family: Family,
    drive_count: int,
    headroom: HeadroomTargets | None = None,
    name: str | None = None,
) -> Configuration:
    """The configuration of one row: :func:`build_configuration` with the family's layout and headroom."""
    lay = family.layout
    config = build_configuration(
        family.array,
        family.drive,
        lay.scheme,
        group_width=lay.group_width,
        drive_count=drive_count,
        flash_cache_gb=family.flash_cache_gb,
        layout_full_stripe_share=lay.full_stripe_share,
        name=name,
    )
    pool = config.pools[0]
    update: dict = {"pools": [pool.model_copy(update={"raid": lay})]}
    if name is None and family.flash_cache_gb:
        update["name"] = f"{config.name}, {family.flash_cache_gb:g} GB flash cache"[:120]
    if headroom is not None:
        update["headroom"] = headroom
    if family.controller_factor is not None:  # only the controllers' count depends on the nodes
        update["controller"] = scaled_controller(config.controller, family.controller_factor)
    return config.model_copy(update=update)


@dataclass(frozen=True)
class CandidateSpace:
    """Every row of every family: ``family[r]`` and ``drive_count[r]``; family f owns rows
    ``starts[f]:starts[f + 1]``, its drive counts ``counts[f]`` in ascending order (families of one
    array and layout share one array of counts).

    ``family`` and ``drive_count`` (one entry per row: ~20 million with custom builds) are built
    on first use; :meth:`family_of` and :meth:`count_of` answer for a few rows without them.
    """

    families: tuple[Family, ...]
    counts: tuple[IntArray, ...]
    starts: IntArray

    @property
    def rows(self) -> int:
        return int(self.starts[-1])

    @cached_property
    def family(self) -> IntArray:
        return np.repeat(np.arange(len(self.counts), dtype=np.int64), np.diff(self.starts))

    @cached_property
    def drive_count(self) -> IntArray:
        return np.concatenate(self.counts) if self.counts else np.zeros(0, dtype=np.int64)

    @cached_property
    def _distinct_counts(self) -> tuple[IntArray, IntArray]:
        """The distinct count arrays end to end, and per family where its own begins there
        minus its first row (``count_of(r) = table[base[family] + r]``)."""
        where: dict[int, int] = {}
        parts: list[IntArray] = []
        base = np.empty(len(self.counts), dtype=np.int64)
        at = 0
        for f, c in enumerate(self.counts):
            k = where.get(id(c))
            if k is None:
                k = where[id(c)] = at
                parts.append(c)
                at += c.size
            base[f] = k - self.starts[f]
        return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)), base

    def family_of(self, rows: IntArray | int) -> IntArray:
        """The family of each of ``rows`` (``family[rows]``)."""
        if "family" in self.__dict__:
            return self.family[rows]
        return np.searchsorted(self.starts, rows, side="right").astype(np.int64) - 1

    def count_of(self, rows: IntArray | int, family: IntArray | None = None) -> IntArray:
        """The drive count of each of ``rows`` (``drive_count[rows]``); ``family`` their families if known."""
        if "drive_count" in self.__dict__:
            return self.drive_count[rows]
        table, base = self._distinct_counts
        fam = self.family_of(rows) if family is None else family
        return table[base[fam] + np.asarray(rows, dtype=np.int64)]


def candidate_space(families: Sequence[Family]) -> CandidateSpace:
    """Lay out the rows of ``families`` (counts from :func:`family_counts`)."""
    memo: dict[tuple, IntArray] = {}
    by_object: dict[tuple[int, int], IntArray] = {}  # the same, by the (array, layout) objects
    parts: list[IntArray] = []
    for fam in families:
        counts = by_object.get((id(fam.array), id(fam.layout)))
        if counts is None:
            lay = fam.layout
            key = (fam.array.id, lay.scheme, lay.group_width, lay.copies)
            counts = memo.get(key)
            if counts is None:
                counts = memo[key] = family_counts(fam.array, lay)
            by_object[(id(fam.array), id(fam.layout))] = counts
        parts.append(counts)
    sizes = np.fromiter((p.size for p in parts), dtype=np.int64, count=len(parts))
    starts = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    return CandidateSpace(families=tuple(families), counts=tuple(parts), starts=starts)


# ---- results -------------------------------------------------------------------------------------
