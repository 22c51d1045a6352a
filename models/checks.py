"""The checks, stated once: what each reads, what it is held to, the words a person reads, the pass rule.

A check's name is ``<head>`` or ``<head>:<detail>`` (``drives:aggr0``, ``read latency:oltp/day``,
``drives:aggr0:degraded group``). :data:`CHECKS` is the table of heads:

=================================  ==================================  ===================================  ======
head                               figure it reads                     limit (``HeadroomTargets`` field)    unit
=================================  ==================================  ===================================  ======
capacity                           fill of the usable capacity         ``capacity_max_fill_pct``            %
drives[:pool]                      busiest drive role's utilization    ``drive_max_pct``                    %
drives:pool:degraded group         degraded group, rebuild I/O added   100 %                                %
parity drives[:pool]               dedicated parity drives busy        ``drive_max_pct``                    %
flash cache                        flash cache devices busy            ``drive_max_pct``                    %
controllers                        controller CPU utilization          ``controller_limit_pct(ha_mode)``    %
controllers (one failed)           the survivors' CPU utilization      ``failover_max_pct``                 %
controllers after failover         CPU after one controller fails      ``failover_max_pct``                 %
ports                              front-end ports busy                ``port_max_pct``                     %
cluster network                    scale-out cluster links busy        ``port_max_pct``                     %
back-end bus                       controller back-end bus busy        ``port_max_pct``                     %
read latency:workload/phase        the phase's mean read latency       the phase's target                   ms
=================================  ==================================  ===================================  ======

Flash wear is no check: a lifetime budget, not a rate, it is reported as years to wear-out
(:func:`models.pool.endurance_result`) with a warning when that falls under the planning horizon
or the warranty, and never fails a window, binds a load or names a bottleneck.

Pass rule (:func:`within`): a figure passes when it is finite and at most its limit plus
:data:`TOLERANCE` (1e-9, in the figure's unit): a figure computed as exactly its limit in another
order of floating-point operations passes as it does by hand. A saturated figure (None or
infinite) fails. The scalar engine, the batch path and the recommendation all decide with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.explain import fmt

TOLERANCE = 1e-9
"""How far past its limit a figure may be and still pass [the figure's unit]: rounding only."""

BoolArray = NDArray[np.bool_]


def within(value: float | None, limit: float) -> bool:
    """The pass rule: ``value`` finite and at most ``limit`` + :data:`TOLERANCE` (None: saturated)."""
    return value is not None and math.isfinite(value) and value <= limit + TOLERANCE


def within_array(value: NDArray[np.float64], limit: NDArray[np.float64] | float) -> BoolArray:
    """:func:`within` over arrays (NaN and infinity fail, as a saturated figure does)."""
    return np.asarray(value <= np.asarray(limit) + TOLERANCE)


@dataclass(frozen=True)
class CheckKind:
    """One row of :data:`CHECKS`.

    ``busy`` is the subject of a check's text in an evaluation (``{of}`` takes " of pool <name>"
    where a configuration has several pools); ``line`` is the one-line form a recommendation
    lists (``{value}``, ``{limit}`` with their unit, ``{subject}`` the name's detail); ``noun``
    what a sentence calls it (``{detail}``: the pool, or the workload and phase).
    """

    head: str
    figure: str
    limit: str
    unit: str
    applies: str
    busy: str
    line: str
    noun: str
    noun_of: str = ""  # the noun where the configuration has several pools ("" = as ``noun``)


CHECKS: dict[str, CheckKind] = {
    k.head: k
    for k in (
        CheckKind(
            "capacity",
            "fill_pct",
            "capacity_max_fill_pct",
            "%",
            "once per evaluation, not per window",
            "capacity needed is {needed_tb} TB of {usable_tb} TB usable: fill",
            "capacity {value} full (limit {limit})",
            "the capacity",
        ),
        CheckKind(
            "drives",
            "drive_utilization_pct",
            "drive_max_pct",
            "%",
            "every window, every pool",
            "drives{of} busy",
            "drives {value} busy (limit {limit})",
            "the drives",
            "the drives of {detail}",
        ),
        CheckKind(
            "degraded group",
            "degraded_group_utilization_pct",
            "100 %: the group keeps up while it rebuilds",
            "%",
            "a drive failed or rebuilding (DegradedMode.DRIVE_FAILED, REBUILDING)",
            "degraded RAID group{of} busy",
            "degraded RAID group {value} busy (limit {limit})",
            "the drives (one RAID group degraded)",
            "the drives of {detail} (one RAID group degraded)",
        ),
        CheckKind(
            "parity drives",
            "parity_utilization_pct",
            "drive_max_pct",
            "%",
            "every window, pools with dedicated parity drives (RAID-DP, RAID-TEC)",
            "parity drives{of} busy",
            "parity drives {value} busy (limit {limit})",
            "the parity drives",
            "the parity drives of {detail}",
        ),
        CheckKind(
            "flash cache",
            "flash_cache_utilization_pct",
            "drive_max_pct",
            "%",
            "every window, configurations with a flash read cache",
            "flash cache devices busy",
            "flash cache devices {value} busy (limit {limit})",
            "the flash cache devices",
            "the flash cache devices",
        ),
        CheckKind(
            "controllers",
            "controller_utilization_pct",
            "controller_limit_pct(ha_mode)",
            "%",
            "every window but a controller failure",
            "controllers busy",
            "controllers {value} busy (limit {limit})",
            "the controllers",
        ),
        CheckKind(
            "controllers (one failed)",
            "controller_utilization_pct",
            "failover_max_pct",
            "%",
            "every window of a controller failure (DegradedMode.CONTROLLER_FAILED)",
            "controllers (one failed) busy",
            "controllers (one failed) {value} busy (limit {limit})",
            "the controllers (one failed)",
        ),
        CheckKind(
            "controllers after failover",
            "failover_utilization_pct",
            "failover_max_pct",
            "%",
            "every healthy window of an HA pair or more (not single controllers)",
            "surviving controllers after a failover busy",
            "controllers at {value} after failover (limit {limit})",
            "the controllers after failover",
        ),
        CheckKind(
            "ports",
            "port_utilization_pct",
            "port_max_pct",
            "%",
            "every window",
            "front-end ports busy",
            "front-end ports {value} busy (limit {limit})",
            "the front-end ports",
        ),
        CheckKind(
            "cluster network",
            "cluster_network_utilization_pct",
            "port_max_pct",
            "%",
            "every window of a scale-out configuration",
            "cluster network links busy",
            "cluster network links {value} busy (limit {limit})",
            "the cluster network",
        ),
        CheckKind(
            "back-end bus",
            "backend_bus_utilization_pct",
            "port_max_pct",
            "%",
            "every window, controllers that state a back-end bus",
            "back-end bus to the drives busy",
            "back-end bus to the drives {value} busy (limit {limit})",
            "the back-end bus",
        ),
        CheckKind(
            "read latency",
            "read_latency_ms of the phase",
            "the phase's read_latency_target_ms",
            "ms",
            "every phase with a read-latency target and reads",
            "{detail} read latency",
            "{detail} read latency {value} (target {limit})",
            "the read latency of {detail}",
        ),
    )
}


def kind_of(name: str) -> tuple[CheckKind | None, str]:
    """The table row of check ``name`` and its detail (pool, or ``workload/phase``); None if unknown."""
    head, _, detail = name.partition(":")
    pool, degraded, _ = detail.partition(":")
    if head == "drives" and degraded:  # drives:<pool>:degraded group
        return CHECKS["degraded group"], pool
    return CHECKS.get(head), detail


def check_words(name: str, pools: int = 1) -> str:
    """A check's name in words: ``drives:pool`` -> ``the drives``, ``read latency:oltp/day`` -> ``the read latency of oltp, day``."""
    if name == "none":
        return "nothing"
    kind, detail = kind_of(name)
    if kind is None:
        return f"the {name}"
    if kind.head == "read latency":
        return kind.noun.format(detail=detail.replace("/", ", "))
    if pools > 1 and kind.noun_of:
        return kind.noun_of.format(detail=detail)
    return kind.noun


def located_words(binding: str, pools: int = 1) -> str:
    """A binding check with the window it binds in, as analyses name it (``window: check``), in
    words: ``month-end batch: drives:pool`` -> ``the drives in month-end batch``; a bare check name
    as :func:`check_words` says it."""
    window, sep, name = binding.partition(": ")
    if not sep:
        return check_words(binding, pools)
    return f"{check_words(name, pools)} in {window}"


_BUSY_ALONE = {
    head: kind.busy.format(of="") for head, kind in CHECKS.items() if "{" not in kind.busy.replace("{of}", "")
}
"""The subjects with nothing to fill in a configuration of one pool (most checks): said as is."""


def busy_words(head: str, of: str = "", **figures: str) -> str:
    """The subject of a check's text in an evaluation: ``drives of pool fast busy`` (``figures``
    fill the rest of its template: ``detail`` of a read latency, the capacity's TB)."""
    if not of and not figures:
        alone = _BUSY_ALONE.get(head)
        if alone is not None:
            return alone
    return CHECKS[head].busy.format(of=of, **figures)


def _with_unit(value: float, unit: str) -> str:
    if not math.isfinite(value):
        return "saturated"
    return f"{fmt(value)}{unit}" if unit == "%" else f"{fmt(value)} {unit}"


def describe(name: str, value: float, limit: float, window: str | None = None) -> str:
    """A check in one line, in its own unit: ``"controllers at 143% after failover (limit 100%) in day"``,
    ``"parity drives 70.3% busy (limit 70%)"``, ``"oltp/day read latency 12 ms (target 10 ms)"``."""
    kind, detail = kind_of(name)
    where = f" in {window}" if window else ""
    if kind is None:
        return f"{name} {fmt(value)} (limit {fmt(limit)}){where}"
    line = kind.line.format(
        value=_with_unit(value, kind.unit), limit=_with_unit(limit, kind.unit), detail=detail
    )
    return line + where


__all__ = [
    "CHECKS",
    "TOLERANCE",
    "CheckKind",
    "busy_words",
    "check_words",
    "describe",
    "kind_of",
    "located_words",
    "within",
    "within_array",
]
