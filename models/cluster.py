"""Clusters: a configuration's node (or HA-pair) count and what it scales.

A clustered or scale-out configuration carries a :class:`~models.configuration.Cluster`: the
node count, the family's limits and what one node adds. Everything that grows with the nodes
is a per-node figure times the node count ``n``::

    controllers      = n x controllers per node
    ports (per type) = n x ports per node
    rack units       = n x node enclosure [U]      + shelves x shelf [U]
    power, price     = n x node figure             + shelves x shelf figure   (the bill)
    drives in nodes  = n x drives in a node enclosure (shelves hold the rest)
    drive limit      = min(cluster maximum, n x drives per node)  (spares included)

:func:`with_nodes` applies this to a configuration; :func:`nodes_needed` is the fewest nodes
that attach a number of drives. Both name the limit they enforce in their errors.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from models.base import InputError
from models.configuration import Cluster, Configuration, Packaging
from models.controller import ControllerSpec
from models.ports import PortGroup


class Grows(Protocol):
    """What names a family's unit of growth: a configuration's :class:`Cluster`, or a catalog
    array's ``ScaleOut``."""

    @property
    def unit(self) -> str: ...
    @property
    def controllers_per_node(self) -> int: ...


def node_label(cluster: Grows, nodes: int) -> str:
    """``"8 nodes"``, ``"12 HA pairs (24 controllers)"``."""
    text = f"{nodes} {cluster.unit}{'' if nodes == 1 else 's'}"
    if cluster.controllers_per_node > 1:
        text += f" ({nodes * cluster.controllers_per_node} controllers)"
    return text


def _check_nodes(cluster: Cluster, nodes: int) -> None:
    if not cluster.min_nodes <= nodes <= cluster.max_nodes:
        raise InputError(
            "nodes",
            f"{nodes} {cluster.unit}s lies outside the family's range of {cluster.min_nodes} to "
            f"{cluster.max_nodes} {cluster.unit}s (min_nodes-max_nodes)",
        )


def nodes_for_drives(drives: int | NDArray[np.int64], per_node: int, least: int) -> int | NDArray[np.int64]:
    """Nodes attaching ``drives`` drives (spares included): ``max(least, ceil(drives / drives per
    node))``; one count, or many (the batch path's family counts)."""
    if isinstance(drives, np.ndarray):
        return np.maximum(least, -(-drives // per_node))
    return max(least, math.ceil(drives / per_node))


def nodes_needed(cluster: Cluster, drives: int) -> int:
    """Fewest nodes attaching ``drives`` drives (spares included), never below ``min_nodes``.

    ``max(min_nodes, ceil(drives / drives per node))``; exactly ``drives / drives per node`` when
    every node holds a fixed number (then ``drives`` must be a multiple of it). Raises
    :class:`InputError` on ``drive_count`` naming the limit when even ``max_nodes`` cannot.
    """
    per = cluster.max_drives_per_node
    if cluster.max_drives is not None and drives > cluster.max_drives:
        raise InputError(
            "drive_count",
            f"{drives} drives (spares included) exceed the cluster maximum of {cluster.max_drives} "
            "drives (max_drives per cluster)",
        )
    if per is None:
        return cluster.min_nodes
    if cluster.fixed_drives_per_node:
        if drives % per:
            raise InputError(
                "drive_count", f"every {cluster.unit} holds exactly {per} drives: give a multiple of {per}"
            )
        if drives < cluster.min_nodes * per:
            raise InputError(
                "drive_count",
                f"the family needs at least {cluster.min_nodes} {cluster.unit}s (min_nodes) of {per} drives: "
                f"at least {cluster.min_nodes * per} drives, got {drives}",
            )
    nodes = int(nodes_for_drives(drives, per, cluster.min_nodes))
    if nodes > cluster.max_nodes:
        raise InputError(
            "drive_count",
            f"{drives} drives (spares included) need {nodes} {cluster.unit}s of at most {per} drives "
            f"(max drives per {cluster.unit}); the family clusters at most {cluster.max_nodes}",
        )
    return nodes


def _scaled_ports(per_node: list[PortGroup], nodes: int) -> list[PortGroup]:
    return [g.model_copy(update={"count": g.count * nodes}) for g in per_node]


def with_nodes(cfg: Configuration, nodes: int) -> Configuration:
    """``cfg`` with ``nodes`` nodes: controllers, ports, node enclosures, power, price and the drive
    limit multiplied out (module formulas). Raises :class:`InputError` on ``nodes`` outside the
    family's range, and on ``drive_count`` when the pools' drives (spares included) exceed what
    that many nodes attach.
    """
    cluster = cfg.cluster
    if cluster is None:
        raise InputError("nodes", "this configuration is not clustered: it has no node count to change")
    _check_nodes(cluster, nodes)
    resized = cluster.model_copy(update={"nodes": nodes})
    packaging = Packaging.model_validate(
        {
            **cfg.packaging.model_dump(),
            "controller_rack_units": nodes * cluster.rack_units_per_node,
            "drives_in_controller_enclosure": nodes * cluster.drives_in_node_enclosure,
            "controller_power_w": nodes * cluster.power_w_per_node,
            "controller_price_usd": nodes * cluster.price_usd_per_node,
            "max_shelves": None
            if cluster.max_shelves_per_node is None
            else nodes * cluster.max_shelves_per_node,
            "max_drives": resized.drive_limit,
        }
    )
    controller = ControllerSpec.model_validate(
        {**cfg.controller.model_dump(), "count": nodes * cluster.controllers_per_node}
    )
    # the name states the node count (models.catalog.build): it follows the nodes
    old_label, new_label = node_label(cluster, cluster.nodes), node_label(cluster, nodes)
    name = cfg.name.replace(f", {old_label}", f", {new_label}", 1) if old_label != new_label else cfg.name
    return cfg.model_copy(
        update={
            "name": name,
            "cluster": resized,
            "controller": controller,
            "ports": _scaled_ports(cluster.ports_per_node, nodes),
            "packaging": packaging,
        }
    )
