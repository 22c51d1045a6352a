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

Vendors build some layouts only on some host counts, stated on the layout (``min_hosts``,
``max_hosts``): vSAN ESA's RAID-5 is 2+1 on 3-5 hosts and 4+1 from 6, its RAID-6 4+2 from 6
hosts, RAID-1 (FTT 1) from 3 (two copies and a witness) [vmware-vsan-esa-raid]. A layout outside
its range is what the vendor does not build: an :class:`InputError` naming the pool's ``raid``.

Drive increments (``min_drives``, ``distributed``): a distributed layout lays its stripes over
chunks of every drive, so it grows a drive at a time from the vendor's fewest drives, spares
included (PowerStore DRE: a resiliency set of 6-25 drives single parity, 7-50 double parity,
each with a drive's worth of spare space [dell-powerstore-capacity-kb]); any other layout grows in
whole groups (mirrors and replicas in copies).
"""

from __future__ import annotations

from models.base import InputError
from models.capacity import spare_count
from models.configuration import Configuration, SparePolicy
from models.naming import layout_label
from models.raid import RaidLayout, RaidScheme


def _one_piece_per_host(layout: RaidLayout) -> tuple[int, int] | None:
    """(hosts to place, hosts to heal) by the failure-domain rule alone."""
    if layout.scheme is RaidScheme.ERASURE:
        return layout.group_width, layout.group_width + 1
    if layout.scheme is RaidScheme.REPLICA:
        return layout.copies, layout.copies + 1
    return None


def hosts_needed(layout: RaidLayout) -> tuple[int, int] | None:
    """(hosts to place the layout, hosts to heal after a host failure), or None for layouts that
    keep their groups inside one system (RAID, mirrors behind a controller pair). Placing takes
    the vendor's ``min_hosts`` where it asks more than one piece per host does."""
    rule = _one_piece_per_host(layout)
    if rule is None:
        return None
    place = max(rule[0], layout.min_hosts or 0)
    return place, max(rule[1], place)


def most_hosts(layout: RaidLayout) -> int | None:
    """The most hosts the vendor builds the layout on (vSAN ESA 2+1: 5), None where it states none."""
    return layout.max_hosts if hosts_needed(layout) is not None else None


def drive_step(layout: RaidLayout) -> int:
    """Drives a pool of ``layout`` grows by: a copy set (replicas), one drive (distributed
    layouts), else a whole group."""
    if layout.scheme is RaidScheme.REPLICA:
        return layout.copies
    return 1 if layout.distributed else layout.group_width


def fewest_drives(layout: RaidLayout, spares: SparePolicy) -> int:
    """The fewest drives (spares excluded) a pool of ``layout`` is built on: one group (a copy set,
    one stripe) and, with the spares the policy adds, the vendor's ``min_drives``."""
    n = layout.copies if layout.scheme is RaidScheme.REPLICA else layout.group_width
    if layout.min_drives is not None:
        while n + spare_count(n, spares) < layout.min_drives:
            n += 1
    return n


def spans_hosts(configuration: Configuration) -> bool:
    """Whether the configuration places each stripe or copy set across its nodes: a clustered or
    scale-out configuration whose pools are erasure-coded or replicated (Ceph, vSAN, SolidFire)."""
    return configuration.cluster is not None and any(hosts_needed(p.raid) for p in configuration.pools)


def layout_words(layout: RaidLayout) -> str:
    """A layout as a person names it (:func:`models.naming.layout_label`)."""
    return layout_label(layout)


def least_drives_per_node(layout: RaidLayout, spares: SparePolicy, controllers_per_node: int) -> int:
    """Drives each node of a cluster holds at least: an HA pair or appliance serves the drives it
    attaches, so it holds a group of its own (its fewest drives; a node added for its controllers
    comes with drives, never as an empty head); a scale-out node is a storage host, a drive at
    least."""
    if controllers_per_node == 1:
        return 1
    step = drive_step(layout)
    return -(-max(fewest_drives(layout, spares), layout.group_width) // step) * step


def check_buildable(configuration: Configuration) -> list[str]:
    """:class:`InputError` at ``pools.<i>.raid`` when a pool's layout needs more hosts than the
    configuration has nodes; otherwise the warnings of layouts that can be placed but not healed
    after a host failure (hosts = the layout's width)."""
    for i, pool in enumerate(configuration.pools):
        if pool.drive_count is None or (pool.raid.min_drives is None and not pool.raid.distributed):
            continue  # whole groups: models.capacity.raid_groups names a count that leaves too few
        least = fewest_drives(pool.raid, pool.spares)
        if pool.drive_count < least:
            raise InputError(
                f"pools.{i}.drive_count",
                f"{layout_words(pool.raid)} is built on at least {least} drives"
                + (f" ({pool.raid.min_drives} with spares)" if pool.raid.min_drives else "")
                + f", got {pool.drive_count}",
            )
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
        place_rule = (_one_piece_per_host(pool.raid) or need)[0]
        words = layout_words(pool.raid)
        if hosts < place:
            raise InputError(
                f"pools.{i}.raid",
                f"{words} places one piece per host: it needs at least {place} hosts, the configuration has "
                f"{hosts}"
                if place == place_rule
                else f"{words} is built on at least {place} hosts (the vendor's minimum), the configuration "
                f"has {hosts}",
            )
        most = most_hosts(pool.raid)
        if most is not None and hosts > most:
            raise InputError(
                f"pools.{i}.raid",
                f"{words} is built on at most {most} hosts, the configuration has {hosts} (the vendor lays out "
                "wider clusters differently)",
            )
        if hosts < heal:
            warnings.append(
                f"{words} on {hosts} hosts: a failed host leaves the data degraded until it returns "
                f"({heal} hosts re-create the lost pieces on another)"
            )
    return warnings
