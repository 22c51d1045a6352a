"""What iostat and sar (the sysstat tools [sysstat-manual]) share: column names and units, the banner
line, Linux device kinds, and a chunked hand-over of samples to the series builder.

Columns and their units across sysstat layouts (``iostat -x``, ``iostat -d``, ``sar -d``,
``sadf -d``; the ``-k``/``-m`` variants):

=============================================  =========  ==========================
column                                         role       unit -> scale to SI
=============================================  =========  ==========================
r/s, w/s                                       r/w IOPS   I/O per s
tps                                            total      I/O per s
rkB/s wkB/s, kB_read/s kB_wrtn/s               r/w bytes  KiB per s  -> x 1024
rMB/s wMB/s, MB_read/s MB_wrtn/s               r/w bytes  MiB per s  -> x 2^20
rsec/s wsec/s, rd_sec/s wr_sec/s, Blk_read/s   r/w bytes  512-byte sectors per s -> x 512
r_await, w_await                               latency    ms
await                                          latency    ms, both directions
avgqu-sz, aqu-sz                               queue      mean outstanding requests
%util                                          busy       %
rareq-sz wareq-sz (kB), avgrq-sz (sectors),    size       per I/O (used only without bytes)
areq-sz (kB)
=============================================  =========  ==========================

Merges (``rrqm/s``), discards (``d/s``, ``dkB/s``...), flushes (``f/s``), ``svctm`` (deprecated by
sysstat itself) and totals since boot (``kB_read``) are known and not used.

Device kinds (Linux names): ``sda``, ``vdb``, ``xvdc``, ``nvme0n1``, ``mmcblk0`` are whole
disks; ``sda1``, ``nvme0n1p2`` partitions; ``dm-3``, ``md0`` and device-mapper names are
stacked on disks (LVM, multipath, RAID); ``loop``, ``ram``, ``sr``, ``zram`` are other. ``sar``
without ``-p`` names devices ``devMAJOR-MINOR``: major 8, 65-71, 128-135 (SCSI disks) and 202
(Xen) are disks when the minor is a multiple of 16, partitions otherwise; 259 (NVMe and other
extended devices) are disks; 9 (md) and 252-254 (device-mapper) stacked.
"""

from __future__ import annotations

import re

import numpy as np

from models.importers.hoststats import ReadReport
from models.importers.series import SeriesBuilder, rates_from_roles
from models.importers.textutil import Clock

CHUNK_ROWS = 8192
"""Device lines converted and handed to the builder at once."""
KIB_ = 1024.0
MIB_ = 1024.0**2
SECTOR = 512.0

COLUMNS: dict[str, tuple[str, float]] = {
    "r/s": ("r_iops", 1.0),
    "w/s": ("w_iops", 1.0),
    "tps": ("t_iops", 1.0),
    "rkb/s": ("r_bps", KIB_),
    "wkb/s": ("w_bps", KIB_),
    "kb_read/s": ("r_bps", KIB_),
    "kb_wrtn/s": ("w_bps", KIB_),
    "rmb/s": ("r_bps", MIB_),
    "wmb/s": ("w_bps", MIB_),
    "mb_read/s": ("r_bps", MIB_),
    "mb_wrtn/s": ("w_bps", MIB_),
    "rsec/s": ("r_bps", SECTOR),
    "wsec/s": ("w_bps", SECTOR),
    "rd_sec/s": ("r_bps", SECTOR),
    "wr_sec/s": ("w_bps", SECTOR),
    "blk_read/s": ("r_bps", SECTOR),
    "blk_wrtn/s": ("w_bps", SECTOR),
    "r_await": ("r_lat_ms", 1.0),
    "w_await": ("w_lat_ms", 1.0),
    "await": ("t_lat_ms", 1.0),
    "avgqu-sz": ("queue", 1.0),
    "aqu-sz": ("queue", 1.0),
    "%util": ("util_pct", 1.0),
    "rareq-sz": ("r_size", KIB_),
    "wareq-sz": ("w_size", KIB_),
    "avgrq-sz": ("t_size", SECTOR),
    "areq-sz": ("t_size", KIB_),
}
KNOWN_UNUSED = frozenset(
    [
        "rrqm/s",
        "wrqm/s",
        "%rrqm",
        "%wrqm",
        "svctm",
        "d/s",
        "dkb/s",
        "drqm/s",
        "%drqm",
        "d_await",
        "dareq-sz",
        "f/s",
        "f_await",
        "kb_dscd/s",
        "kb_read",
        "kb_wrtn",
        "kb_dscd",
        "mb_read",
        "mb_wrtn",
        "mb_dscd",
        "mb_dscd/s",
        "blk_read",
        "blk_wrtn",
    ]
)

_BANNER = re.compile(r"^(?P<os>Linux|SunOS|AIX|HP-UX)\s+\S+\s+\((?P<host>[^)]+)\)\s+(?P<date>\S+)")


def banner(line: str) -> tuple[str, str] | None:
    """(host, date text) of ``Linux 5.15.0 (host)  01/15/2024  _x86_64_  (8 CPU)``."""
    m = _BANNER.match(line.strip())
    return (m.group("host"), m.group("date")) if m else None


_DISK = re.compile(r"^(sd[a-z]+|vd[a-z]+|xvd[a-z]+|hd[a-z]+|nvme\d+n\d+|mmcblk\d+|nbd\d+|rbd\d+)$")
_PART = re.compile(r"^(sd[a-z]+|vd[a-z]+|xvd[a-z]+|hd[a-z]+)\d+$|^(nvme\d+n\d+|mmcblk\d+)p\d+$")
_OTHER = re.compile(r"^(loop|ram|sr|zram|fd|scd)\d+$")
_DEVNUM = re.compile(r"^dev(\d+)-(\d+)$")
_SCSI_MAJORS = {8, *range(65, 72), *range(128, 136), 202}


def device_kind(name: str) -> str:
    """``disk``, ``partition``, ``stacked`` or ``other`` (see the module docstring)."""
    m = _DEVNUM.match(name)
    if m:
        major, minor = int(m.group(1)), int(m.group(2))
        if major in _SCSI_MAJORS:
            return "disk" if minor % 16 == 0 else "partition"
        if major == 259:
            return "disk"
        if major in (1, 7, 11):
            return "other"
        return "stacked"
    if _DISK.match(name):
        return "disk"
    if _PART.match(name):
        return "partition"
    if _OTHER.match(name):
        return "other"
    return "stacked"


LINUX_DEFAULTS: list[tuple[str, ...]] = [("disk",), ("stacked",), ("partition",), ("other",)]
DEFAULT_NOTE = (
    "whole disks are used by default: partitions and stacked devices (LVM, multipath, md) carry "
    "the same I/O again; pick devices to change that"
)


def column_roles(columns: list[str], report: ReadReport) -> dict[int, tuple[str, float]]:
    """Column position -> (role, scale); other columns go to the report's unknown list."""
    roles: dict[int, tuple[str, float]] = {}
    for i, col in enumerate(columns):
        key = col.lower()
        if key in COLUMNS:
            roles[i] = COLUMNS[key]
        elif key not in KNOWN_UNUSED:
            report.unknown_counter(col)
    return roles


class SampleChunks:
    """Rows of one column layout, handed to the builder in chunks (time strings converted by the
    file's :class:`Clock` once it has learned the date order)."""

    def __init__(self, builder: SeriesBuilder, report: ReadReport, rows: int | None = None) -> None:
        self.builder = builder
        self.report = report
        self.rows = rows or CHUNK_ROWS
        self.times: list[float | str] = []
        self.devices: list[int] = []
        self.values: list[list[float]] = []
        self.roles: dict[int, tuple[str, float]] = {}

    def layout(self, roles: dict[int, tuple[str, float]], clock: Clock | None) -> None:
        if roles != self.roles:
            self.flush(clock)
            self.roles = roles

    def add(self, t: float | str, device: int, values: list[float], clock: Clock | None) -> None:
        self.times.append(t)
        self.devices.append(device)
        self.values.append(values)
        if len(self.times) >= self.rows and clock is not None:
            self.flush(clock)

    def flush(self, clock: Clock | None) -> None:
        if not self.times:
            return
        if clock is not None:
            t = np.asarray([clock.seconds(x) if isinstance(x, str) else x for x in self.times])
        else:
            t = np.asarray(self.times, dtype=np.float64)
        m = np.asarray(self.values, dtype=np.float64)
        arrays: dict[str, np.ndarray] = {}
        for i, (role, scale) in self.roles.items():
            col = m[:, i] * scale
            arrays[role] = arrays[role] + col if role in arrays else col
        rates = rates_from_roles(arrays, self.report.notes, "the devices")
        if rates is not None:
            self.builder.add(t, np.asarray(self.devices, dtype=np.int64), *rates)
        self.times, self.devices, self.values = [], [], []


def to_float(token: str) -> float:
    """A sysstat number: ``12.50`` or, in a locale with a decimal comma, ``12,50``."""
    try:
        return float(token)
    except ValueError:
        return float(token.replace(",", "."))
