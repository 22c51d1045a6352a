"""Only what can be built: the failure-domain rule of scale-out layouts.

Software-defined storage spreads each stripe (erasure coding) or each set of copies (replication)
over hosts, one piece per host, so a host failure loses at most one piece:

    erasure k+m    needs k + m hosts to place a stripe, k + m + 1 to heal one (re-create the lost
                   pieces on a host the stripe does not use yet)
    n copies       needs n hosts, n + 1 to heal

(The Ceph CRUSH rule with ``failure-domain=host`` and vSAN's host-count minimums state the same
placement: a layout wider than the hosts cannot be created, and at exactly that width a failed
host leaves the data degraded until it returns.) The rule applies to clustered or scale-out
configurations whose pools are erasure-coded or replicated (their nodes are the hosts); a
dual-controller array's erasure or mirror groups sit behind its own controllers and are not bound
by it.
"""

from __future__ import annotations

from models.base import InputError
from models.configuration import Configuration
from models.naming import layout_label
from models.raid import RaidLayout, RaidScheme


def hosts_needed(layout: RaidLayout) -> tuple[int, int] | None:
    """(hosts to place the layout, hosts to heal after a host failure), or None for layouts that
    keep their groups inside one system (RAID, mirrors behind a controller pair)."""
    if layout.scheme is RaidScheme.ERASURE:
        return layout.group_width, layout.group_width + 1
    if layout.scheme is RaidScheme.REPLICA:
        return layout.copies, layout.copies + 1
    return None


def spans_hosts(configuration: Configuration) -> bool:
    """Whether the configuration places each stripe or copy set across its nodes: a clustered or
    scale-out configuration whose pools are erasure-coded or replicated (Ceph, vSAN, SolidFire)."""
    return configuration.cluster is not None and any(hosts_needed(p.raid) for p in configuration.pools)


def layout_words(layout: RaidLayout) -> str:
    """A layout as a person names it (:func:`models.naming.layout_label`)."""
    return layout_label(layout)


def check_buildable(configuration: Configuration) -> list[str]:
    """:class:`InputError` at ``pools.<i>.raid`` when a pool's layout needs more hosts than the
    configuration has nodes; otherwise the warnings of layouts that can be placed but not healed
    after a host failure (hosts = the layout's width)."""
    if not spans_hosts(configuration):
        return []
    assert configuration.cluster is not None
    hosts = configuration.cluster.nodes
    warnings = []
    for i, pool in enumerate(configuration.pools):
        need = hosts_needed(pool.raid)
        if need is None:
            continue
        place, heal = need
        words = layout_words(pool.raid)
        if hosts < place:
            raise InputError(
                f"pools.{i}.raid",
                f"{words} places one piece per host: it needs at least {place} hosts, the configuration has "
                f"{hosts}",
            )
        if hosts < heal:
            warnings.append(
                f"{words} on {hosts} hosts: a failed host leaves the data degraded until it returns "
                f"({heal} hosts re-create the lost pieces on another)"
            )
    return warnings
