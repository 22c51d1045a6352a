"""RAID scheme records derived from the engine (:mod:`models.raid`), not from a data file: limits,
parity, small-write cost and capacity efficiency at a typical width, for display and the API.
"""

from __future__ import annotations

from models.catalog.schemas import RaidSchemeRecord
from models.raid import (
    RaidLayout,
    RaidScheme,
    capacity_efficiency,
    scheme_limits,
    small_write_cost,
    tolerated_failures,
)

_RAID_NAMES: dict[RaidScheme, tuple[str, int, str]] = {
    RaidScheme.RAID0: ("RAID 0 (striping)", 4, "No redundancy: one failed drive loses the group."),
    RaidScheme.RAID1: ("RAID 1 (mirror pair)", 2, "Two copies; reads from either copy."),
    RaidScheme.RAID10: (
        "RAID 10 (striped mirrors)",
        8,
        "Writes cost 2 back-end I/Os; half the raw capacity.",
    ),
    RaidScheme.RAID5: (
        "RAID 5 (distributed single parity)",
        5,
        "Small writes cost 4 back-end I/Os (read-modify-write); survives one failure.",
    ),
    RaidScheme.RAID6: (
        "RAID 6 (distributed double parity)",
        8,
        "Small writes cost 6 back-end I/Os; survives two failures. Also stands in for NetApp "
        "E-Series Dynamic Disk Pools (DDP).",
    ),
    RaidScheme.RAID_DP: (
        "NetApp RAID-DP (dedicated double parity under WAFL)",
        16,
        "WAFL coalesces writes into full stripes while free space allows; the full-stripe share "
        "falls as the aggregate ages (calibrated in fixtures/calibration). Parity drives serve no reads.",
    ),
    RaidScheme.RAID_TEC: (
        "NetApp RAID-TEC (triple parity, ONTAP 9+)",
        20,
        "Like RAID-DP with a third parity drive; ONTAP default for capacity HDDs of 6 TB and more.",
    ),
    RaidScheme.ZFS_MIRROR: ("ZFS mirror vdev", 2, "n-way mirror vdevs; random reads from any side."),
    RaidScheme.RAIDZ1: (
        "ZFS RAID-Z1",
        5,
        "Copy-on-write full variable-width stripes (no read-modify-write); a vdev gives about one "
        "drive's random-read IOPS.",
    ),
    RaidScheme.RAIDZ2: ("ZFS RAID-Z2", 8, "As RAID-Z1 with two parity sectors per stripe."),
    RaidScheme.RAIDZ3: ("ZFS RAID-Z3", 11, "As RAID-Z1 with three parity sectors per stripe."),
    RaidScheme.ERASURE: (
        "Erasure coding k+m",
        6,
        "Full stripes cost (k+m)/k; partial writes read-modify-write. Typical 4+2.",
    ),
    RaidScheme.REPLICA: (
        "n-way replication (scale-out)",
        1,
        "Whole copies on different nodes (SolidFire Double Helix: 2 copies); group width 1.",
    ),
}

_RAID_SOURCE = (
    "models.raid (engine); classic small-write penalties 1/2/4/6 for RAID0/10/5/6 per "
    "[crucial-raid-write-penalty]; WAFL, RAID-Z and erasure-coding behaviour per [netapp-community-raid-dp][truenas-zfs-pool-performance][45drives-ceph-write-amplification]"
)


def raid_scheme_records() -> dict[RaidScheme, RaidSchemeRecord]:
    """One record per engine RAID scheme: limits, parity, small-write cost at a typical width."""
    out: dict[RaidScheme, RaidSchemeRecord] = {}
    for scheme, (name, width, notes) in _RAID_NAMES.items():
        _, lo, hi, dedicated = scheme_limits(scheme)
        if scheme is RaidScheme.ERASURE:
            layout = RaidLayout(scheme=scheme, group_width=width, ec_data=width - 2, ec_parity=2)
        else:
            layout = RaidLayout(scheme=scheme, group_width=width)
        out[scheme] = RaidSchemeRecord(
            scheme=scheme,
            name=name,
            min_width=lo,
            max_width=hi,
            parity_drives=layout.parity_drives,
            dedicated_parity=dedicated,
            typical_width=width,
            small_write_cost=small_write_cost(layout, fill=1.0),
            capacity_efficiency=capacity_efficiency(layout),
            tolerated_failures=tolerated_failures(layout),
            notes=notes,
            source=_RAID_SOURCE,
        )
    return out
