"""Building blocks and scale-out: size throughput-bound systems in whole blocks, racks and watts.

Kept as one module (about 650 lines): a block, its derivation from catalog records, its sizing and
what it rests on (its records' calibration and its class of system) are one calculator.

For targets like 1 TB/s of streaming or tens of PB, one array is the wrong unit: such systems
are built from identical blocks (an E-Series-style 4U enclosure of 60 drives with its
controllers, a SolidFire-style 1U node, a scale-out NAS node) and the questions are how many
blocks, racks, rack units and watts, and how much bandwidth per rack unit (performance
density).

A block delivers ``X`` (read GB/s, write GB/s, IOPS) alone; ``N > 1`` blocks deliver
``N x X x e`` with a scaling efficiency ``e`` (cluster traffic, imperfect balance; 1 for
independent blocks behind a parallel file system)::

    blocks  = max over needs of ceil(target / (X x e))     (1 when one block alone suffices)
    blocks per rack = floor((U_rack - U_reserved) / U_block)
    racks   = ceil(blocks / blocks per rack)
    density = N x X x e / (N x U_block)                     [GB/s per rack unit]

:func:`block_from_array` derives a block from catalog records, the arithmetic shown::

    read  = min(drive streams, controllers x max MB/s, ports)
    write = min(drive streams, controllers x max MB/s, ports)

where the drive streams are what the block's drives carry of the stated streams, priced as
evaluate prices a sequential phase (:func:`models.pool.stream_capacity`: the media rate less one
positioning per readahead request on each drive, none for a single stream; streams unstated are
interleaved without queuing credit). At most drives x media rate x data share (reads) and
drives x write rate / stripe write cost (writes).

Published check (``eseries_building_block``, vendor engineer's blog 2012, a 1 TB/s Lustre
system, [vendor-blog-eseries-2012]): E5400, 60 drives in 4U incl. controllers, ~4 GB/s sustained per 4U; ~40 GB/s per
rack with 600 high-capacity drives (1.8 PB raw); 480 faster drives per rack ~80 GB/s reads /
60 GB/s writes. See ``fixtures/validation/building_blocks.yaml``.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Self

from pydantic import Field, model_validator

from models.base import Frozen, InputError, NonNegFloat, Output
from models.buildable import hosts_needed, most_hosts
from models.capacity import pool_capacity, raid_groups, spare_count
from models.catalog import ArrayModel
from models.configuration import DrivePool
from models.drives import DriveKind, DriveSpec, drive_times, positioning_units
from models.explain import Explained, explained, fmt
from models.memo import holds_memo
from models.naming import plural
from models.parameters import EngineParameters
from models.pool_plans import PoolPlans
from models.ports import PortGroup
from models.provenance import (
    Assessment,
    ModelErrorTable,
    SystemClass,
    classify_parts,
    configuration_calibration,
    model_error,
    parts_calibration,
)
from models.raid import COPY_SCHEMES, RaidLayout, RaidScheme, capacity_efficiency, sequential_write_cost
from models.stream_capacity import stream_capacity

DEFAULT_SCALING_EFFICIENCY = 0.95
"""Share of N x one block that N blocks deliver (assumed; 1.0 for fully independent blocks)."""

RACK_UNITS = 42
"""Rack units of a standard rack."""

RESERVED_RACK_UNITS = 2
"""Rack units kept for switches and PDUs in every rack (assumed)."""


class BlockKind(StrEnum):
    CONTROLLER_SHELF = "controller-shelf"  # E-Series: controllers and drives in one enclosure
    SCALE_OUT_NODE = "scale-out-node"  # SolidFire: 1U node, replicated across nodes
    NAS_NODE = "nas-node"  # scale-out NAS node


class BuildingBlock(Frozen):
    """One block as delivered alone: packaging, capacity and sustained throughput."""

    name: str = Field(min_length=1, max_length=120)
    kind: BlockKind = BlockKind.CONTROLLER_SHELF
    rack_units: float = Field(
        ge=0.5, le=48.0, description="height of the block [U]: half a unit (a half-width 1U node) to 48"
    )
    drives: int = Field(ge=0, le=10000)
    drive_capacity_gb: NonNegFloat = Field(description="marketed capacity per drive [GB]")
    drive_kind: DriveKind | None = Field(
        default=None,
        description="kind of the block's drives (hdd, ssd, nvme), which sets its class of system for an IOPS "
        "target; null = not stated: the class with the widest error band is assumed",
    )
    usable_fraction: float = Field(
        default=0.8, gt=0.0, le=1.0, description="usable share of raw (RAID / replication efficiency)"
    )
    read_gb_s: NonNegFloat = Field(description="sustained read from the drives [GB/s]")
    write_gb_s: NonNegFloat = Field(description="sustained write to the drives [GB/s]")
    iops: NonNegFloat | None = Field(default=None, description="random IOPS one block sustains")
    power_w: NonNegFloat | None = Field(default=None, description="power of one block with its drives [W]")
    min_blocks: int = Field(
        default=1,
        ge=1,
        le=64,
        description="blocks the layout needs as failure domains (a scale-out node is a host: erasure k+m "
        "needs k+m, n copies need n; models.buildable)",
    )
    max_blocks: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="most blocks (hosts) the vendor builds the layout on (vSAN ESA RAID-5 2+1: 5; "
        "models.buildable); None = no limit",
    )
    source: str = Field(default="user-defined", min_length=1)

    @property
    def raw_tb(self) -> float:
        return self.drives * self.drive_capacity_gb / 1000.0


class BlockTarget(Frozen):
    """What the system must deliver (zero = no requirement); at least one target above zero.

    OpenAPI could state "at least one above zero" (``anyOf``), but schemathesis' coverage phase then
    generates nothing for the operation taking it: the rule is this description and a 422 at
    ``target`` ("give at least one target ...").
    """

    read_gb_s: NonNegFloat = Field(default=0.0, description="streaming reads [GB/s]")
    write_gb_s: NonNegFloat = Field(default=0.0, description="streaming writes [GB/s]")
    iops: NonNegFloat = Field(default=0.0, description="random IOPS")
    usable_pb: NonNegFloat = Field(default=0.0, description="usable capacity [PB, decimal]")
    raw_pb: NonNegFloat = Field(default=0.0, description="raw capacity [PB, decimal]")

    @model_validator(mode="after")
    def _something(self) -> Self:
        if not any((self.read_gb_s, self.write_gb_s, self.iops, self.usable_pb, self.raw_pb)):
            raise ValueError(
                "give at least one target: read or write bandwidth, IOPS, usable or raw capacity"
            )
        return self


class BlockStreams(Frozen):
    """The streams a block serves, priced as evaluate prices sequential phases
    (:func:`models.pool.stream_capacity`): I/O size, stream count, host readahead."""

    io_size_kib: float = Field(
        default=1024.0, gt=0.0, le=16384.0, description="size of each stream's I/Os [KiB]"
    )
    sequential_streams: int | None = Field(
        default=None,
        ge=1,
        le=100000,
        description="concurrent streams per block; 1 = one stream read without seeking; None = unknown: "
        "interleaved, one positioning per request on each drive, no queuing credit",
    )
    readahead_kib: float | None = Field(
        default=None, ge=4.0, le=65536.0, description="KiB each stream keeps requested ahead at the host"
    )


class BlockNeed(Output):
    """Blocks one requirement alone needs."""

    need: str
    target: float
    unit: str
    blocks: int
    blocks_formula: Explained


class DerivedBlock(Output):
    """A block derived from catalog records, with the arithmetic of its throughput."""

    block: BuildingBlock
    read_gb_s: Explained
    write_gb_s: Explained
    iops: Explained | None
    layout: RaidLayout


class BlockSizing(Output):
    block: BuildingBlock
    target: BlockTarget
    scaling_efficiency: float
    needs: list[BlockNeed]
    blocks: int
    binding: str = Field(description="the need that sets the block count")
    blocks_per_rack: int
    racks: int
    rack_units: float = Field(description="rack units of the blocks [U]")
    drives: int
    raw_pb: float
    usable_pb: float
    read_gb_s: Explained = Field(description="delivered by all blocks")
    write_gb_s: Explained
    iops: float | None
    power_w: float | None
    power_kw_per_rack: float | None = Field(description="a full rack of blocks [kW]")
    gb_s_per_rack_unit: Explained = Field(description="performance density: read GB/s per rack unit")
    gb_s_per_rack: Explained = Field(description="read GB/s of a full rack of blocks")
    text: str


def delivered(per_block: float, blocks: int, efficiency: float) -> float:
    """What ``blocks`` blocks deliver together: ``N x X x e`` (``X`` alone)."""
    if blocks <= 0:
        return 0.0
    return per_block if blocks == 1 else blocks * per_block * efficiency


def _blocks_for(target: float, per_block: float, efficiency: float) -> int:
    if target <= 0:
        return 0
    if target <= per_block:
        return 1
    return max(2, math.ceil(target / (per_block * efficiency) - 1e-9))


@holds_memo
def size_blocks(
    block: BuildingBlock,
    target: BlockTarget,
    *,
    scaling_efficiency: float = DEFAULT_SCALING_EFFICIENCY,
    rack_units_per_rack: int = RACK_UNITS,
    reserved_rack_units: int = RESERVED_RACK_UNITS,
) -> BlockSizing:
    """The fewest whole blocks meeting every need of ``target``, and their racks, watts and density."""
    e = scaling_efficiency
    if not 0.0 < e <= 1.0:
        raise InputError("scaling_efficiency", "must be in (0, 1]")
    if not 1 <= rack_units_per_rack <= 60:
        raise InputError("rack_units_per_rack", "must be between 1 and 60")
    if not 0 <= reserved_rack_units < rack_units_per_rack:
        raise InputError("reserved_rack_units", "must be >= 0 and below the rack's units")
    per_rack = math.floor((rack_units_per_rack - reserved_rack_units) / block.rack_units + 1e-9)
    if per_rack < 1:
        raise InputError("block.rack_units", f"a {fmt(block.rack_units)}U block does not fit a rack")
    usable_tb = block.raw_tb * block.usable_fraction
    specs: list[tuple[str, float, float | None, str, str]] = [
        ("read bandwidth", target.read_gb_s, block.read_gb_s, "GB/s", "read_gb_s"),
        ("write bandwidth", target.write_gb_s, block.write_gb_s, "GB/s", "write_gb_s"),
        ("IOPS", target.iops, block.iops, "IOPS", "iops"),
        ("usable capacity", target.usable_pb * 1000.0, usable_tb, "TB", "drives"),
        ("raw capacity", target.raw_pb * 1000.0, block.raw_tb, "TB", "drives"),
    ]
    needs: list[BlockNeed] = []
    for need, want, per, unit, field in specs:
        if want <= 0:
            continue
        if per is None or per <= 0:
            raise InputError(
                f"block.{field}", f"the block has no {need} figure but the target asks for {fmt(want)} {unit}"
            )
        eff = 1.0 if unit == "TB" else e  # capacity adds up exactly
        n = _blocks_for(want, per, eff)
        needs.append(
            BlockNeed(
                need=need,
                target=want,
                unit=unit,
                blocks=n,
                blocks_formula=explained(
                    float(n),
                    "blocks",
                    "N = ceil(target / (X x e))" if eff != 1.0 else "N = ceil(target / X)",
                    f"N = ceil({fmt(want)} {unit} / ({fmt(per)} {unit}"
                    + (f" x {fmt(eff)}" if eff != 1.0 else "")
                    + f")) = {n}",
                    target=want,
                    per_block=per,
                    efficiency=eff,
                ),
            )
        )
    if block.min_blocks > 1 and needs:
        # the layout places one piece per block (host): fewer blocks cannot hold it (models.buildable)
        k = block.min_blocks
        needs.append(
            BlockNeed(
                need="failure domains",
                target=float(k),
                unit="hosts",
                blocks=k,
                blocks_formula=explained(
                    float(k),
                    "blocks",
                    "N >= hosts the layout places its pieces on",
                    f"N >= {k} hosts",
                    hosts=k,
                ),
            )
        )
    top = max(needs, key=lambda x: x.blocks)
    n = top.blocks
    if block.max_blocks is not None and n > block.max_blocks:
        raise InputError(
            "block.max_blocks",
            f"the {top.need} needs {n} blocks, but the layout is built on at most {block.max_blocks} hosts: "
            "choose the layout the vendor builds on more hosts",
        )
    racks = math.ceil(n / per_rack)
    ru = n * block.rack_units
    read = delivered(block.read_gb_s, n, e)
    write = delivered(block.write_gb_s, n, e)
    eff_text = "" if n == 1 else f" x {fmt(e)}"
    rack_read = delivered(block.read_gb_s, per_rack, e)
    power = None if block.power_w is None else n * block.power_w
    rack_kw = None if block.power_w is None else per_rack * block.power_w / 1000.0
    density = read / ru
    text = (
        f"{n} x {block.name} ({top.need} binds), {plural(racks, 'rack')} of {plural(per_rack, 'block')}, {fmt(ru)}U: "
        f"{fmt(read)} GB/s reads, {fmt(write)} GB/s writes, {fmt(n * block.raw_tb / 1000)} PB raw; "
        f"{fmt(density)} GB/s per rack unit."
    )
    return BlockSizing(
        block=block,
        target=target,
        scaling_efficiency=e,
        needs=needs,
        blocks=n,
        binding=top.need,
        blocks_per_rack=per_rack,
        racks=racks,
        rack_units=ru,
        drives=n * block.drives,
        raw_pb=n * block.raw_tb / 1000.0,
        usable_pb=n * usable_tb / 1000.0,
        read_gb_s=explained(
            read,
            "GB/s",
            "read = N x X_read x e",
            f"read = {n} x {fmt(block.read_gb_s)} GB/s{eff_text} = {fmt(read)} GB/s",
            N=n,
            per_block=block.read_gb_s,
            efficiency=e,
        ),
        write_gb_s=explained(
            write,
            "GB/s",
            "write = N x X_write x e",
            f"write = {n} x {fmt(block.write_gb_s)} GB/s{eff_text} = {fmt(write)} GB/s",
            N=n,
            per_block=block.write_gb_s,
            efficiency=e,
        ),
        iops=None if block.iops is None else delivered(block.iops, n, e),
        power_w=power,
        power_kw_per_rack=rack_kw,
        gb_s_per_rack_unit=explained(
            density,
            "GB/s per U",
            "density = read / (N x U_block)",
            f"density = {fmt(read)} GB/s / ({n} x {fmt(block.rack_units)}U) = {fmt(density)} GB/s per U",
        ),
        gb_s_per_rack=explained(
            rack_read,
            "GB/s",
            "rack = floor((U_rack - U_reserved) / U_block) x X_read x e",
            f"rack = floor(({rack_units_per_rack} - {reserved_rack_units}) / {fmt(block.rack_units)}) = {per_rack} blocks"
            f" x {fmt(block.read_gb_s)} GB/s"
            + (f" x {fmt(e)}" if per_rack > 1 else "")
            + f" = {fmt(rack_read)} GB/s",
            blocks_per_rack=per_rack,
        ),
        text=text,
    )


KIB_PER_MB = 1024.0 / 1e6
"""MB/s of one KiB/s."""


def _streams_words(st: BlockStreams, segment_kib: float, queue: float) -> str:
    """How the block's streams were priced, in words."""
    request = f"{fmt(st.io_size_kib)} KiB reads in requests of {fmt(segment_kib)} KiB"
    if st.sequential_streams == 1:
        return f"1 stream of {request}, read without seeking"
    if st.sequential_streams is None:
        return (
            f"streams not stated: assumed interleaved, {request}, one positioning per request on each "
            "drive, no queuing credit"
        )
    return (
        f"{st.sequential_streams:,} interleaved streams of {request}, one positioning per request on "
        f"each drive, {fmt(queue)} commands queued per drive"
    )


def _read_share(layout: RaidLayout) -> float:
    """Share of a drive's streaming rate that is user data on reads: ``d / w``; mirrors read any copy (1)."""
    if layout.scheme in COPY_SCHEMES:
        return 1.0
    return capacity_efficiency(layout)


def block_usable_fraction(array: ArrayModel, drive: DriveSpec, layout: RaidLayout, drives: int) -> float:
    """Usable TB over the marketed TB of ``drives`` installed drives, as sizing computes it.

    The array's spare policy takes its spares out of the block's drives (none in nodes of a fixed
    drive count, which protect by replication across nodes); the rest form whole RAID
    groups (a last smaller group where the scheme allows it) and go through the capacity waterfall
    of :func:`models.capacity.pool_capacity`: right-sizing, RAID, the array's reserves::

        usable fraction = usable TB (N data-and-parity drives) / (drives x C_marketed)
    """
    n, held = grouped_drives(array, layout, drives)
    pool = DrivePool(drive=drive, drive_count=n, raid=layout, spares=array.spares)
    usable = (pool_capacity(pool, n, array.capacity).usable_tb.value or 0.0) * held
    raw = drives * drive.capacity_gb / 1000.0
    return min(1.0, usable / raw) if raw > 0 else 0.0


def grouped_drives(array: ArrayModel, layout: RaidLayout, drives: int) -> tuple[int, float]:
    """(drives in whole RAID groups, the share of them the block holds) of ``drives`` installed.

    The array's spare policy takes its spares out (none in nodes of a fixed drive count); the rest
    form whole groups (a last smaller group where the scheme allows it, else whole groups only,
    share 1). Where stripes and copies span the nodes (:mod:`models.buildable`) every drive holds
    pieces: whole stripes over as many drives, of which the block holds ``n / whole``.
    """
    so = array.scale_out
    fixed_nodes = so is not None and so.fixed_drives_per_node  # no hot spares, as build_configuration
    spares = 0 if fixed_nodes else spare_count(drives, array.spares)
    n = max(1, drives - spares)
    if so is not None and hosts_needed(layout) is not None:
        whole = math.ceil(n / layout.group_width) * layout.group_width
        return whole, n / whole
    try:
        raid_groups(n, layout)
    except InputError:
        n = max(layout.group_width, (n // layout.group_width) * layout.group_width)
    return n, 1.0


def block_from_array(
    array: ArrayModel,
    drive: DriveSpec,
    *,
    raid_scheme: RaidScheme | str | None = None,
    group_width: int | None = None,
    drives: int | None = None,
    rack_units: float | None = None,
    ports: list[PortGroup] | None = None,
    name: str | None = None,
    streams: BlockStreams | None = None,
    params: EngineParameters | None = None,
) -> DerivedBlock:
    """One building block of ``array`` with ``drive`` (see the module docstring for the arithmetic).

    A scale-out array's block is one node (``scale_out.controllers_per_node`` controllers with its
    share of the default ports, and ``drives_per_node`` drives when nodes hold a fixed number, else
    the drives of its enclosure or one shelf); any other array's block is
    its controllers with the drives of the controller enclosure (or one shelf when the enclosure
    holds none). ``drives`` and ``rack_units`` override the packaging (e.g. a 2U / 24-drive
    enclosure of the same controllers). IOPS come from the controllers' ``max_iops`` when the
    catalog has it. The usable share of raw is the engine's capacity waterfall for the block's
    drives (:func:`block_usable_fraction`), the same figure sizing reports.
    """
    if not array.supports_drive(drive.id):
        raise InputError("drive_id", f"{array.id} does not support drive {drive.id!r}")
    option = array.raid_option(raid_scheme or array.default_raid)
    width = option.default_width if group_width is None else group_width
    if not option.allowed(width):
        raise InputError("group_width", f"{array.id} does not allow {option.scheme.value} groups of {width}")
    try:
        layout = option.layout(width)
    except ValueError as exc:
        raise InputError("group_width", str(exc)) from exc
    pk = array.packaging
    so = array.scale_out
    ctrl = array.controller
    # a scale-out record's packaging is its base system's: one node is that divided by the base nodes
    in_enclosure = pk.drives_in_controller_enclosure // array.base_nodes
    enclosure_ru = pk.controller_rack_units / array.base_nodes
    if so is not None:
        controllers = so.controllers_per_node
        # a node of a fixed size (SolidFire: 10 drives), else an HA pair with its enclosure's
        # drives or one shelf, like any controller block
        default_drives = (
            so.drives_per_node if so.fixed_drives_per_node else in_enclosure or pk.drives_per_shelf
        )
        kind = BlockKind.SCALE_OUT_NODE
    else:
        controllers = ctrl.count
        default_drives = pk.drives_in_controller_enclosure or pk.drives_per_shelf
        kind = BlockKind.CONTROLLER_SHELF
    n = default_drives if drives is None else drives
    if n < 1:
        raise InputError("drives", "a block needs at least one drive")
    shelves = math.ceil(max(0, n - in_enclosure) / pk.drives_per_shelf)
    ru = rack_units if rack_units is not None else enclosure_ru + shelves * pk.shelf_rack_units
    if ru <= 0:
        raise InputError("rack_units", "must be > 0")
    port_groups = ports if ports is not None else array.port_option().ports
    port_mb = sum(g.total_mb_s for g in port_groups)
    if so is not None and ports is None:
        port_mb *= controllers / ctrl.count
    ctrl_mb = ctrl.max_mb_s * controllers if ctrl.max_mb_s else math.inf

    share = _read_share(layout)
    w_cost = sequential_write_cost(layout)
    w_rate = drive.seq_write_mb_s or drive.media_rate_mb_s
    st = streams or BlockStreams()
    # the drives' streams as evaluate prices them: full drives (span 1), the array's prefetch
    p = params or EngineParameters()
    plans = PoolPlans(layout, drive_times(drive, 1.0), p, 1.0, array.architecture, positioning_units(drive))
    grouped, held = grouped_drives(array, layout, n)
    cap = stream_capacity(
        plans,
        drive,
        grouped,
        1.0,
        size_kib=st.io_size_kib,
        streams=st.sequential_streams,
        readahead_kib=st.readahead_kib,
    )
    d_read = cap.read_kib_s * held * KIB_PER_MB
    d_write = cap.write_kib_s * held * KIB_PER_MB
    read = min(d_read, ctrl_mb, port_mb)
    write = min(d_write, ctrl_mb, port_mb)
    ctrl_text = f"{controllers} x {fmt(ctrl.max_mb_s)} MB/s" if ctrl.max_mb_s else "no controller ceiling"
    how = _streams_words(st, cap.segment_kib, cap.queue)

    def limit(x: float, d: float) -> str:
        return "drives" if x == d else ("controllers" if x == ctrl_mb else "ports")

    read_exp = explained(
        read / 1000.0,
        "GB/s",
        "read = min(drive streams, controllers x max MB/s, ports); drive streams <= drives x media rate x data share",
        f"read = min({grouped} drives in RAID groups streaming {fmt(d_read)} MB/s (of {grouped} x {fmt(drive.media_rate_mb_s)} MB/s x "
        f"{fmt(share)} at the media rate; {how}), {ctrl_text}, {fmt(port_mb)} MB/s ports)"
        f" = {fmt(read)} MB/s ({limit(read, d_read)} bind)",
        drives=n,
        media_rate_mb_s=drive.media_rate_mb_s,
        data_share=share,
        drive_streams_mb_s=d_read,
        segment_kib=cap.segment_kib,
        controller_mb_s=None if math.isinf(ctrl_mb) else ctrl_mb,
        port_mb_s=port_mb,
    )
    write_exp = explained(
        write / 1000.0,
        "GB/s",
        "write = min(drive streams, controllers x max MB/s, ports); drive streams <= drives x write rate / stripe write cost",
        f"write = min({grouped} drives in RAID groups streaming {fmt(d_write)} MB/s (of {grouped} x {fmt(w_rate)} MB/s / {fmt(w_cost)} at the "
        f"media rate), {ctrl_text}, {fmt(port_mb)} MB/s ports) = {fmt(write)} MB/s ({limit(write, d_write)} bind)",
        drives=n,
        write_rate_mb_s=w_rate,
        stripe_write_cost=w_cost,
        drive_streams_mb_s=d_write,
    )
    iops_exp: Explained | None = None
    iops = None
    if ctrl.max_iops:
        iops = ctrl.max_iops * controllers
        iops_exp = explained(
            iops,
            "IOPS",
            "IOPS = controllers x max IOPS",
            f"IOPS = {controllers} x {fmt(ctrl.max_iops)} = {fmt(iops)}",
        )
    power: float | None = None
    if drive.power_w is not None:
        power = pk.controller_power_w + shelves * pk.shelf_power_w + n * drive.power_w
    label = name or f"{array.model}: {n} x {drive.name}, {layout.scheme.value} {layout.group_width}"
    block = BuildingBlock(
        name=label[:120],
        kind=kind,
        rack_units=ru,
        drives=n,
        drive_capacity_gb=drive.capacity_gb,
        drive_kind=drive.kind,
        usable_fraction=block_usable_fraction(array, drive, layout, n),
        min_blocks=max((hosts_needed(layout) or (1, 1))[0], so.min_nodes) if so is not None else 1,
        max_blocks=most_hosts(layout) if so is not None else None,
        read_gb_s=read / 1000.0,
        write_gb_s=write / 1000.0,
        iops=iops,
        power_w=power,
        source=f"derived from catalog {array.id} + {drive.id}; {array.source}"[:2000],
    )
    return DerivedBlock(block=block, read_gb_s=read_exp, write_gb_s=write_exp, iops=iops_exp, layout=layout)


__all__ = [
    "BlockKind",
    "BlockNeed",
    "BlockSizing",
    "BlockTarget",
    "BuildingBlock",
    "DerivedBlock",
    "block_from_array",
    "block_usable_fraction",
    "delivered",
    "size_blocks",
]


def block_class(
    block: BuildingBlock, target: BlockTarget, flash: bool | None, table: ModelErrorTable | None
) -> SystemClass:
    r"""The class of system whose validation errors apply to sizing in ``block``\ s.

    ``streaming`` when the target is bandwidth alone (no IOPS); ``scale_out`` for scale-out nodes;
    else by the drives (``flash``: every drive flash; None: a block given whole without its
    ``drive_kind``, whose drives are not known): flash ``all_flash``, disks ``hdd``, unknown the
    class with the widest band in ``table`` (conservative: the drives could be of any class).
    """
    streaming = target.iops == 0 and (target.read_gb_s > 0 or target.write_gb_s > 0)
    if flash is None and not streaming and block.kind is not BlockKind.SCALE_OUT_NODE:
        known = (
            []
            if table is None
            else [(c.expected.p90_pct, k) for k, c in table.classes.items() if c.expected.p90_pct]
        )
        return max(known)[1] if known else SystemClass.HDD
    return classify_parts(
        streaming=streaming,
        scale_out=block.kind is BlockKind.SCALE_OUT_NODE,
        flash_pools=[bool(flash)],
        flash_cached=False,
    )


def block_assessment(
    block: BuildingBlock,
    target: BlockTarget,
    table: ModelErrorTable | None,
    *,
    array: ArrayModel | None = None,
    drive: DriveSpec | None = None,
) -> Assessment:
    """What a block sizing rests on: the catalog records a block was derived from (``array`` and
    ``drive``), or ``estimate (user)`` throughout for a block given whole; and its class's error
    (the drive's kind from ``drive``, else from the block's own ``drive_kind`` when it states one)."""
    parts = None
    if array is not None and drive is not None:
        parts = configuration_calibration(array.calibration, [drive.calibration])
    kind = drive.kind if drive is not None else block.drive_kind
    flash = None if kind is None else kind is not DriveKind.HDD
    return Assessment(
        calibration=parts_calibration(parts, "building block given whole: figures of your own"),
        model_error=model_error(block_class(block, target, flash, table), table),
    )
