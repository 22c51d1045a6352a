"""What an array's write architecture and node layout do to its I/O.

* **Log-structured arrays** (Pure FlashArray, vSAN ESA, SolidFire's block store) append every
  write to a log written in whole stripes: the drives see streams of full stripes (data and
  parity, or whole copies), never a small random write, and nothing is read to update parity
  (:func:`written_layout`; :func:`models.raid.write_plan` with ``full_stripe_share = 1``). An
  SSD's small random-write rating therefore never binds there; its sequential write rate does.
  Segment cleaning of the array's own log (copying live blocks out of partly dead segments) is
  not modelled: it runs in the free space the array keeps and is not in the published figures
  this engine is checked against.
* **Write-anywhere** (WAFL, ZFS) and **in-place RAID** keep their own plans in :mod:`models.raid`.
* **Scale-out clusters** of single-controller nodes (SolidFire, Ceph, vSAN: ``ha_mode =
  scale-out``) spread every volume's blocks, copies and erasure-coded stripes over all ``n``
  nodes. A request arrives at one node; each back-end byte it moves lands on a node chosen
  uniformly, so a share ``(n - 1) / n`` of the back-end traffic (reads, writes, copies, parity)
  crosses the cluster network (:func:`cluster_network_mb_s`). Copies kept on other nodes
  (``Architecture.copies``) cost the receiving node's CPU a write each
  (:func:`models.controller.controller_load`). An erasure-coded pool spreads each stripe's
  ``k + m`` chunks over as many nodes: every chunk a write reads or writes is an operation on some
  node's CPU (:func:`models.raid.chunk_write_ops`, :func:`node_stripes`), and a store that reads
  whole stripes for small reads (``Architecture.ec_read_full_stripe``) reads ``k`` chunks per miss
  (:func:`full_stripe_reads`).
* **Sparing** (:func:`sparing_of`): scale-out clusters re-protect a lost drive's copies and chunks
  on every other drive, and log-structured arrays rebuild into the free space of every drive
  (Pure: no hot spares; PowerStore DRE; vSAN): distributed. Any other array rebuilds to a
  dedicated spare unless the pool states otherwise (E-Series DDP, dRAID, IBM DRAID):
  conservative (:mod:`models.rebuild`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.configuration import Architecture, Configuration, DrivePool, WalPlacement, WriteArchitecture
from models.controller import HaMode
from models.drives import DriveKind, DriveSpec, Num
from models.explain import Explained, explained, fmt
from models.raid import RaidLayout, RaidScheme
from models.rebuild import Sparing

_APPENDABLE = {
    RaidScheme.RAID0,
    RaidScheme.RAID1,
    RaidScheme.RAID10,
    RaidScheme.RAID5,
    RaidScheme.RAID6,
    RaidScheme.ERASURE,
    RaidScheme.ZFS_MIRROR,
}
"""Layouts a log-structured array writes as full stripes (WAFL and RAID-Z have their own
copy-on-write plans; replicas are whole-object copies)."""


def written_layout(layout: RaidLayout, architecture: Architecture | None) -> RaidLayout:
    """The layout as the array writes it: a log-structured array appends every write to full
    stripes (``full_stripe_share = 1``) of RAID0, mirrors, RAID5/6 and erasure coding; any other
    architecture, or a layout naming its own share, is written as given."""
    if (
        architecture is None
        or architecture.write_architecture is not WriteArchitecture.LOG_STRUCTURED
        or layout.scheme not in _APPENDABLE
        or layout.full_stripe_share is not None
    ):
        return layout
    return layout.model_copy(update={"full_stripe_share": 1.0})


def written_pool(pool: DrivePool, architecture: Architecture | None) -> DrivePool:
    """``pool`` with its layout as the array writes it (:func:`written_layout`)."""
    layout = written_layout(pool.raid, architecture)
    return pool if layout is pool.raid else pool.model_copy(update={"raid": layout})


def stream_prefetch_kib(architecture: Architecture | None, default_kib: float) -> float:
    """KiB the array reads ahead of one sequential stream: the architecture's ``prefetch_kib``
    (the catalog record's, sourced per family), else ``default_kib`` (the engine's conservative
    ``readahead_kib``)."""
    if architecture is None or architecture.prefetch_kib is None:
        return default_kib
    return architecture.prefetch_kib


def sparing_of(pool: DrivePool, architecture: Architecture | None) -> Sparing:
    """Where ``pool`` rebuilds a failed drive: the pool's stated :class:`~models.rebuild.Sparing`,
    else distributed for replicated scale-out and log-structured arrays, else a dedicated spare."""
    if pool.sparing is not None:
        return pool.sparing
    if architecture is not None and architecture.write_architecture in (
        WriteArchitecture.REPLICATED_SCALE_OUT,
        WriteArchitecture.LOG_STRUCTURED,
    ):
        return Sparing.DISTRIBUTED
    return Sparing.DEDICATED


def wal_placement(arch: Architecture | None) -> WalPlacement:
    """Where an array of architecture ``arch`` logs a write before acknowledging it: the stated
    :class:`~models.configuration.WalPlacement`, else the data drive for replicated scale-out
    (software-defined nodes without a stated WAL device: conservative), else the controllers' NVRAM."""
    if arch is not None and arch.wal is not None:
        return arch.wal
    if arch is not None and arch.write_architecture is WriteArchitecture.REPLICATED_SCALE_OUT:
        return WalPlacement.DATA_DRIVE
    return WalPlacement.NVRAM


DEFERRED_WRITE_KIB_HDD = 64.0
"""Ceph BlueStore's ``bluestore_prefer_deferred_size_hdd`` [KiB]: writes up to 64 KiB to a hard disk
are committed into RocksDB's write-ahead log and applied in place later; flash defers none
(``bluestore_prefer_deferred_size_ssd`` 0) [ceph-bluestore-config]."""


def deferred_write_kib(arch: Architecture | None, drive: DriveSpec) -> float:
    """Largest write [KiB] a store commits into its write-ahead log before writing it in place: the
    architecture's ``deferred_write_kib``, else for replicated scale-out (Ceph BlueStore)
    :data:`DEFERRED_WRITE_KIB_HDD` on hard disks and 0 on flash; 0 for every other architecture
    (an array's NVRAM holds the write; nothing is written twice on the drives)."""
    return _deferred_kib(arch, drive.kind is DriveKind.HDD)


def _deferred_kib(arch: Architecture | None, hdd: bool) -> float:
    if arch is None or arch.write_architecture is not WriteArchitecture.REPLICATED_SCALE_OUT:
        return 0.0
    if arch.deferred_write_kib is not None:
        return arch.deferred_write_kib
    return DEFERRED_WRITE_KIB_HDD if hdd else 0.0


def wal_copy_kib(arch: Architecture | None, drive: DriveSpec) -> float:
    """Largest write [KiB] that lands twice on its data drive: once in the write-ahead log, then in
    place (:func:`deferred_write_kib` where the log lives on the data drive,
    :func:`wal_placement`; 0 where it lives in NVRAM or on a flash device, which takes the first copy)."""
    return wal_copy_kib_of(arch, drive.kind is DriveKind.HDD)


def wal_copy_kib_of(arch: Architecture | None, hdd: bool) -> float:
    """:func:`wal_copy_kib` on a hard disk (``hdd``) or on flash."""
    if wal_placement(arch) is not WalPlacement.DATA_DRIVE:
        return 0.0
    return _deferred_kib(arch, hdd)


def remote_copies(architecture: Architecture | None) -> int:
    """Copies of every write kept on other nodes: ``Architecture.copies - 1`` (0 when not stated)."""
    return 0 if architecture is None else architecture.copies - 1


def node_stripes(cfg: Configuration, pool_names: Sequence[str]) -> list[RaidLayout | None] | None:
    """The erasure-coded layout (as written, :func:`written_layout`) of each named pool whose
    stripes a scale-out cluster spreads over its nodes, None for any other pool; None when no
    pool named is one (not a scale-out cluster, or no erasure coding)."""
    if not spans_nodes(cfg):
        return None
    by_name = {pl.name: written_layout(pl.raid, cfg.architecture) for pl in cfg.pools}
    out = [
        lay if (lay := by_name.get(name)) is not None and lay.scheme is RaidScheme.ERASURE else None
        for name in pool_names
    ]
    return out if any(lay is not None for lay in out) else None


def full_stripe_reads(cfg: Configuration) -> bool:
    """Whether a scale-out cluster's erasure-coded reads read every data chunk of the stripe
    (``Architecture.ec_read_full_stripe``)."""
    return spans_nodes(cfg) and cfg.architecture is not None and cfg.architecture.ec_read_full_stripe


def spans_nodes(cfg: Configuration) -> bool:
    """Whether the configuration spreads data over nodes of one controller each (scale-out)."""
    cl = cfg.cluster
    return cl is not None and cl.controllers_per_node == 1 and cfg.controller.ha_mode is HaMode.SCALE_OUT


def cross_node_share(nodes: int) -> float:
    """Share of back-end bytes that land on another node than the one a request arrived at:
    ``(n - 1) / n`` (blocks placed uniformly over ``n`` nodes)."""
    return (nodes - 1) / nodes if nodes > 1 else 0.0


def network_utilization(backend_mb_s: Num, nodes: Num, network_mb_s_per_node: Num) -> Num:
    """Cluster-link utilization of each node (0..inf): ``BE MB/s x (n - 1) / n / (n x network MB/s)``
    (floats, or arrays over candidates)."""
    n = np.maximum(nodes, 1)
    return backend_mb_s * (n - 1) / n / (n * network_mb_s_per_node)


def shares_ports(cfg: Configuration) -> bool:
    """Whether a scale-out cluster's traffic between nodes runs over its front-end ports
    (``ControllerSpec.cluster_network_shared``: one NIC per node for clients and the cluster)."""
    return spans_nodes(cfg) and cfg.controller.cluster_network_shared


def cross_node_mb_s(cfg: Configuration, backend_mb_s: float) -> float:
    """Back-end MB/s that crosses between nodes: ``BE MB/s x (n - 1) / n`` (0 when the
    configuration does not span nodes, :func:`cross_node_share`)."""
    if not spans_nodes(cfg) or cfg.cluster is None:
        return 0.0
    return backend_mb_s * cross_node_share(cfg.cluster.nodes)


def cluster_network(cfg: Configuration, backend_mb_s: float) -> Explained | None:
    """Utilization of each node's cluster-network link [%] (None: not a scale-out cluster, the
    catalog gives no network figure, or the cluster traffic shares the front-end ports,
    :func:`shares_ports`, where the port check counts it).

    ``U_net = BE MB/s x (n - 1) / n / (n x network MB/s per node)``: the cross-node share of all
    back-end traffic (reads, writes, copies and parity, :func:`cross_node_share`), spread evenly
    over the nodes, each sending (and receiving) its part on one link in each direction.
    """
    net = cfg.controller.cluster_network_mb_s
    if not spans_nodes(cfg) or net is None or cfg.cluster is None or shares_ports(cfg):
        return None
    n = cfg.cluster.nodes
    share = cross_node_share(n)
    cross = backend_mb_s * share
    u = float(network_utilization(backend_mb_s, n, net))
    return explained(
        100.0 * u,
        "%",
        "U_net = BE MB/s x (n - 1) / n / (n x network MB/s per node)",
        f"U_net = {fmt(backend_mb_s)} MB/s back end x {fmt(share)} crossing nodes / ({n} nodes x "
        f"{fmt(net)} MB/s) = {fmt(100 * u)}% of each node's cluster link",
        backend_mb_s=backend_mb_s,
        cross_node_mb_s=cross,
        nodes=n,
        network_mb_s_per_node=net,
    )
