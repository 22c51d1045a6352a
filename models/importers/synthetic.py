"""Real-looking host statistics with a known load, for tests, benchmarks and demonstrations.

A :data:`LoadFn` gives each device's load at a time (the interval ending then); the writers turn
it into the text each tool writes, line by line (generators: a day of samples for hundreds of
devices never sits in memory): ``iostat`` in several sysstat layouts and locales, ``sar -d`` and
``sadf -d``, performance-monitor CSV (typeperf/relog: quoted counter paths, decimal commas,
other separators) and ``esxtop`` batch CSV with hundreds of columns.

:func:`office_load` is the default day: a base load, a busy hour 10:00-11:00, a nightly batch
of large writes 02:00-03:00 and a heavier month-end afternoon (14:00-15:00 on the last three
days of a month), the same on every device (scaled by ``1 + device / 10``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Load:
    """One device over one interval: rates [per s], sizes [KiB], latencies [ms], queue, busy [%]."""

    r_iops: float
    w_iops: float
    r_kib: float
    w_kib: float
    r_lat_ms: float
    w_lat_ms: float

    @property
    def iops(self) -> float:
        return self.r_iops + self.w_iops

    @property
    def queue(self) -> float:
        """Little's law: outstanding I/Os = rate x time in system."""
        return (self.r_iops * self.r_lat_ms + self.w_iops * self.w_lat_ms) / 1000.0

    @property
    def util_pct(self) -> float:
        return min(100.0, self.iops / 20.0)

    @property
    def await_ms(self) -> float:
        return (self.r_iops * self.r_lat_ms + self.w_iops * self.w_lat_ms) / self.iops if self.iops else 0.0


LoadFn = Callable[[datetime, int], Load]

BASE = Load(100.0, 50.0, 8.0, 8.0, 5.0, 2.0)
PEAK = Load(400.0, 200.0, 8.0, 8.0, 12.0, 4.0)
BATCH = Load(50.0, 300.0, 64.0, 256.0, 6.0, 9.0)
MONTH_END = Load(800.0, 400.0, 8.0, 8.0, 20.0, 6.0)


def office_load(t: datetime, device: int) -> Load:
    """The load of the interval ending at ``t`` (see the module docstring)."""
    start = t - timedelta(seconds=1)  # the interval's own hour, not the next one's
    hour = start.hour
    month_end = (start + timedelta(days=3)).month != start.month
    if month_end and hour == 14:
        base = MONTH_END
    elif hour == 10:
        base = PEAK
    elif hour == 2:
        base = BATCH
    else:
        base = BASE
    k = 1.0 + device / 10.0
    return Load(base.r_iops * k, base.w_iops * k, base.r_kib, base.w_kib, base.r_lat_ms, base.w_lat_ms)


def _times(start: datetime, interval_s: float, count: int) -> Iterator[datetime]:
    for i in range(count):
        yield start + timedelta(seconds=interval_s * (i + 1))


def _f(x: float, decimal: str = ".", digits: int = 2) -> str:
    text = f"{x:.{digits}f}"
    return text.replace(".", decimal) if decimal != "." else text


# ---- iostat -------------------------------------------------------------------------------------

IOSTAT_LAYOUTS = {
    "9.0": "Device:         rrqm/s   wrqm/s     r/s     w/s   rsec/s   wsec/s avgrq-sz avgqu-sz   await  svctm  %util",
    "10": "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util",
    "12.0": "Device            r/s     w/s     rkB/s     wkB/s   rrqm/s   wrqm/s  %rrqm  %wrqm r_await w_await aqu-sz rareq-sz wareq-sz  svctm  %util",
    "12.5": "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util",
    "basic": "Device             tps    kB_read/s    kB_wrtn/s    kB_dscd/s    kB_read    kB_wrtn    kB_dscd",
}


def _iostat_values(version: str, x: Load, dec: str) -> list[str]:
    rkb, wkb = x.r_iops * x.r_kib, x.w_iops * x.w_kib
    mean_kib = (rkb + wkb) / x.iops if x.iops else 0.0
    svctm = x.util_pct * 10.0 / x.iops if x.iops else 0.0
    f = {
        "r": x.r_iops,
        "w": x.w_iops,
        "rkb": rkb,
        "wkb": wkb,
        "rsec": rkb * 2,
        "wsec": wkb * 2,
        "avgrq": mean_kib * 2,
        "q": x.queue,
        "await": x.await_ms,
        "r_await": x.r_lat_ms,
        "w_await": x.w_lat_ms,
        "svctm": svctm,
        "util": x.util_pct,
        "rareq": x.r_kib,
        "wareq": x.w_kib,
        "tps": x.iops,
        "z": 0.0,
        "merge": 1.5,
    }
    order = {
        "9.0": "merge merge r w rsec wsec avgrq q await svctm util",
        "10": "merge merge r w rkb wkb avgrq q await r_await w_await svctm util",
        "12.0": "r w rkb wkb merge merge z z r_await w_await q rareq wareq svctm util",
        "12.5": "r rkb merge z r_await rareq w wkb merge z w_await wareq z z z z z z z z q util",
        "basic": "tps rkb wkb z",
    }[version].split()
    out = [_f(f[k], dec) for k in order]
    if version == "basic":
        out += ["123456", "654321", "0"]
    return out


def write_iostat(
    devices: list[str],
    start: datetime,
    interval_s: float,
    count: int,
    *,
    version: str = "12.5",
    timestamps: str | None = "en_US",
    cpu: bool = True,
    decimal: str = ".",
    host: str = "dbhost01",
    load: LoadFn = office_load,
) -> Iterator[str]:
    """``iostat -x [-t] interval count`` output (``version`` a key of :data:`IOSTAT_LAYOUTS`;
    ``basic`` is ``iostat -d``). ``timestamps``: None (no ``-t``), ``en_US``
    (``01/15/2024 09:00:01 AM``), ``C`` (``01/15/24 09:00:01``), ``de`` (``15.01.2024
    09:00:01``), ``iso`` (``2024-01-15T09:00:01+0100``). The first report is the average since
    boot (values of 1 I/O per second)."""
    header = IOSTAT_LAYOUTS[version]
    width = max(len(d) for d in devices) + 2
    day = f"{start:%d.%m.%Y}" if timestamps == "de" else f"{start:%m/%d/%Y}"
    yield f"Linux 5.15.0-91-generic ({host}) \t{day} \t_x86_64_\t(8 CPU)\n"
    yield "\n"
    since_boot = Load(1.0, 1.0, 4.0, 4.0, 1.0, 1.0)
    for i, t in enumerate([start, *_times(start, interval_s, count)]):
        if timestamps == "en_US":
            yield f"{t:%m/%d/%Y %I:%M:%S %p}\n"
        elif timestamps == "C":
            yield f"{t:%m/%d/%y %H:%M:%S}\n"
        elif timestamps == "de":
            yield f"{t:%d.%m.%Y %H:%M:%S}\n"
        elif timestamps == "iso":
            yield f"{t:%Y-%m-%dT%H:%M:%S}+0100\n"
        if cpu:
            yield "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
            yield (
                "           "
                + "    ".join(_f(v, decimal) for v in (3.25, 0.0, 1.42, 0.35, 0.0, 94.98))
                + "\n"
            )
            yield "\n"
        yield header + "\n"
        for d, name in enumerate(devices):
            x = since_boot if i == 0 else load(t, d)
            values = _iostat_values(version, x, decimal)
            yield name.ljust(width) + " ".join(v.rjust(8) for v in values) + "\n"
        yield "\n"


# ---- sar ----------------------------------------------------------------------------------------

SAR_LAYOUTS = {
    "10": "tps  rd_sec/s  wr_sec/s  avgrq-sz  avgqu-sz     await     svctm     %util",
    "12": "tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util",
}


def _sar_values(version: str, x: Load) -> list[float]:
    rkb, wkb = x.r_iops * x.r_kib, x.w_iops * x.w_kib
    mean_kib = (rkb + wkb) / x.iops if x.iops else 0.0
    if version == "10":
        return [x.iops, rkb * 2, wkb * 2, mean_kib * 2, x.queue, x.await_ms, 1.0, x.util_pct]
    return [x.iops, rkb, wkb, 0.0, mean_kib, x.queue, x.await_ms, x.util_pct]


def write_sar(
    devices: list[str],
    start: datetime,
    interval_s: float,
    count: int,
    *,
    version: str = "12",
    sadf: bool = False,
    host: str = "db01",
    load: LoadFn = office_load,
) -> Iterator[str]:
    """``sar -d`` text (``version`` 10: sectors and a 12-hour clock; 12: kB and 24 hours) or, with
    ``sadf``, ``sadf -d`` output (UTC timestamps)."""
    cols = SAR_LAYOUTS[version].split()
    if sadf:
        yield "# hostname;interval;timestamp;DEV;" + ";".join(cols) + "\n"
        for t in _times(start, interval_s, count):
            for d, name in enumerate(devices):
                values = ";".join(_f(v) for v in _sar_values(version, load(t, d)))
                yield f"{host};{interval_s:g};{t:%Y-%m-%d %H:%M:%S} UTC;{name};{values}\n"
        return
    clock = "%I:%M:%S %p" if version == "10" else "%H:%M:%S"
    yield f"Linux 3.10.0-1160.el7.x86_64 ({host}) \t{start:%m/%d/%Y} \t_x86_64_\t(4 CPU)\n\n"
    previous = start
    for t in _times(start, interval_s, count):
        if t.date() != previous.date():
            yield f"\nLinux 3.10.0-1160.el7.x86_64 ({host}) \t{t:%m/%d/%Y} \t_x86_64_\t(4 CPU)\n\n"
        yield f"{previous:{clock}}       DEV " + "  ".join(c.rjust(8) for c in cols) + "\n"
        for d, name in enumerate(devices):
            values = "  ".join(_f(v).rjust(8) for v in _sar_values(version, load(t, d)))
            yield f"{t:{clock}} {name.rjust(9)}  {values}\n"
        yield "\n"
        previous = t
    yield "Average:          DEV " + "  ".join(c.rjust(8) for c in cols) + "\n"


# ---- perfmon ------------------------------------------------------------------------------------

PERFMON_COUNTERS = (
    "Disk Reads/sec",
    "Disk Writes/sec",
    "Disk Transfers/sec",
    "Disk Read Bytes/sec",
    "Disk Write Bytes/sec",
    "Avg. Disk Bytes/Read",
    "Avg. Disk Bytes/Write",
    "Avg. Disk sec/Read",
    "Avg. Disk sec/Write",
    "Avg. Disk Queue Length",
    "Current Disk Queue Length",
    "% Idle Time",
    "Split IO/Sec",
)


def _perfmon_values(x: Load) -> dict[str, float]:
    return {
        "Disk Reads/sec": x.r_iops,
        "Disk Writes/sec": x.w_iops,
        "Disk Transfers/sec": x.iops,
        "Disk Read Bytes/sec": x.r_iops * x.r_kib * 1024,
        "Disk Write Bytes/sec": x.w_iops * x.w_kib * 1024,
        "Avg. Disk Bytes/Read": x.r_kib * 1024,
        "Avg. Disk Bytes/Write": x.w_kib * 1024,
        "Avg. Disk sec/Read": x.r_lat_ms / 1000.0,
        "Avg. Disk sec/Write": x.w_lat_ms / 1000.0,
        "Avg. Disk Queue Length": x.queue,
        "Current Disk Queue Length": round(x.queue),
        "% Idle Time": 100.0 - x.util_pct,
        "Split IO/Sec": 0.0,
    }


def perfmon_disk_names(n: int) -> list[str]:
    """``0 C:``, ``1 D:``... then ``26``, ``27``... (disks without a drive letter)."""
    letters = "CDEFGHIJKLMNOPQRSTUVWXYZ"
    return [f"{i} {letters[i]}:" if i < len(letters) else str(i) for i in range(n)]


def write_perfmon(
    disks: int,
    start: datetime,
    interval_s: float,
    count: int,
    *,
    decimal: str = ".",
    delimiter: str = ",",
    date_order: str = "mdy",
    host: str = "SQL01",
    zone: str = "W. Europe Standard Time",
    bias: int = -60,
    volumes: bool = True,
    other_objects: bool = True,
    load: LoadFn = office_load,
) -> Iterator[str]:
    """A typeperf/relog CSV of ``disks`` physical disks (every counter of
    :data:`PERFMON_COUNTERS`), their volumes' free space (``volumes``), processor and memory
    counters (``other_objects``); the first row's rate counters are blank as typeperf writes
    them. ``decimal`` ``,`` writes decimal commas, ``date_order`` ``dmy`` dates ``15.01.2024``."""
    names = perfmon_disk_names(disks)
    cols = [f"\\\\{host}\\PhysicalDisk({n})\\{c}" for n in names for c in PERFMON_COUNTERS]
    letters = [n.split()[1] for n in names if " " in n]
    if volumes:
        cols += [
            f"\\\\{host}\\LogicalDisk({v})\\{c}" for v in letters for c in ("% Free Space", "Free Megabytes")
        ]
    if other_objects:
        cols += [f"\\\\{host}\\Processor(_Total)\\% Processor Time", f"\\\\{host}\\Memory\\Available MBytes"]

    def row(cells: list[str]) -> str:
        return delimiter.join(f'"{c}"' for c in cells) + "\n"

    kind = "TSV" if delimiter == "\t" else "CSV"
    yield row([f"(PDH-{kind} 4.0) ({zone})({bias})", *cols])
    fmt = "%m/%d/%Y %H:%M:%S" if date_order == "mdy" else "%d.%m.%Y %H:%M:%S"
    for i, t in enumerate([start, *_times(start, interval_s, count)]):
        cells = [f"{t:{fmt}}.{(i * 37) % 1000:03d}"]
        for d in range(disks):
            v = _perfmon_values(load(t, d))
            for c in PERFMON_COUNTERS:
                blank = i == 0 and c != "Current Disk Queue Length"  # rates need two samples
                cells.append(" " if blank else _f(v[c], decimal, 6))
        if volumes:
            for _ in letters:
                cells += [_f(25.0, decimal, 6), _f(256_000.0, decimal, 6)]  # 1,024,000 MiB volumes
        if other_objects:
            cells += [_f(12.5, decimal, 6), _f(8_192.0, decimal, 6)]
        yield row(cells)


# ---- esxtop -------------------------------------------------------------------------------------

ESX_DEVICE_COUNTERS = (
    "Active Commands",
    "Queued Commands",
    "Commands/sec",
    "Reads/sec",
    "Writes/sec",
    "MBytes Read/sec",
    "MBytes Written/sec",
    "Average Driver MilliSec/Command",
    "Average Kernel MilliSec/Command",
    "Average Guest MilliSec/Command",
    "Average Queue MilliSec/Command",
    "Average Driver MilliSec/Read",
    "Average Kernel MilliSec/Read",
    "Average Guest MilliSec/Read",
    "Average Driver MilliSec/Write",
    "Average Kernel MilliSec/Write",
    "Average Guest MilliSec/Write",
    "Failed Commands/sec",
    "Aborts/sec",
    "Resets/sec",
)
ESX_VDISK_COUNTERS = (
    "Commands/sec",
    "Reads/sec",
    "Writes/sec",
    "MBytes Read/sec",
    "MBytes Written/sec",
    "Average MilliSec/Read",
    "Average MilliSec/Write",
)


def _esx_values(x: Load) -> dict[str, float]:
    kernel = 0.05
    return {
        "Active Commands": x.queue,
        "Queued Commands": 0.0,
        "Commands/sec": x.iops,
        "Reads/sec": x.r_iops,
        "Writes/sec": x.w_iops,
        "MBytes Read/sec": x.r_iops * x.r_kib / 1024.0,
        "MBytes Written/sec": x.w_iops * x.w_kib / 1024.0,
        "Average Driver MilliSec/Command": x.await_ms,
        "Average Kernel MilliSec/Command": kernel,
        "Average Guest MilliSec/Command": x.await_ms + kernel,
        "Average Queue MilliSec/Command": 0.01,
        "Average Driver MilliSec/Read": x.r_lat_ms,
        "Average Kernel MilliSec/Read": kernel,
        "Average Guest MilliSec/Read": x.r_lat_ms + kernel,
        "Average Driver MilliSec/Write": x.w_lat_ms,
        "Average Kernel MilliSec/Write": kernel,
        "Average Guest MilliSec/Write": x.w_lat_ms + kernel,
        "Failed Commands/sec": 0.0,
        "Aborts/sec": 0.0,
        "Resets/sec": 0.0,
        "Average MilliSec/Read": x.r_lat_ms + kernel,
        "Average MilliSec/Write": x.w_lat_ms + kernel,
    }


def esx_device_names(n: int) -> list[str]:
    return [f"naa.600a098038303053453f4{i:011x}" for i in range(n)]


def write_esxtop(
    devices: int,
    start: datetime,
    interval_s: float,
    count: int,
    *,
    cpus: int = 32,
    vms: int = 6,
    host: str = "esx01.example.com",
    load: LoadFn = office_load,
) -> Iterator[str]:
    """``esxtop -b -d interval -n count`` CSV: memory and CPU counters (``cpus`` physical CPUs,
    per-VM CPU groups), network ports, two adapters each the sum of half the devices, ``devices``
    SCSI devices with 20 counters each, and ``vms`` VMs each with one virtual disk per device it
    uses (the VM is the sum of its disks). Hundreds of columns for a handful of devices."""
    names = esx_device_names(devices)
    adapters = ["vmhba1", "vmhba2"]
    vm_names = [f"VM{v:02d} (4c07ff-{v:04d})" for v in range(vms)]
    cols = [f"\\\\{host}\\Memory\\Memory Overcommit ({m} Minute Avg)" for m in (1, 5, 15)]
    cols += [f"\\\\{host}\\Physical Cpu({c})\\% Processor Time" for c in range(cpus)]
    cols += [f"\\\\{host}\\Physical Cpu(_Total)\\% Processor Time"]
    for v, vm in enumerate(vm_names):
        for c in ("% Used", "% Run", "% Ready", "% CoStop", "% Wait"):
            cols.append(f"\\\\{host}\\Group Cpu({1000 + v}:{vm})\\{c}")
    for p in range(8):
        for c in (
            "Packets Transmitted/sec",
            "Packets Received/sec",
            "MBits Transmitted/sec",
            "MBits Received/sec",
        ):
            cols.append(f"\\\\{host}\\Network Port(vSwitch0:{50331650 + p}:vmnic{p % 2})\\{c}")
    for a in adapters:
        cols += [f"\\\\{host}\\Physical Disk Adapter({a})\\{c}" for c in ESX_DEVICE_COUNTERS]
    for n in names:
        cols += [f"\\\\{host}\\Physical Disk SCSI Device({n})\\{c}" for c in ESX_DEVICE_COUNTERS]
    for vm in vm_names:
        cols += [f"\\\\{host}\\Virtual Disk({vm})\\{c}" for c in ESX_VDISK_COUNTERS]
        cols += [
            f"\\\\{host}\\Virtual Disk({vm}:scsi0:{d})\\{c}"
            for d in range(devices)
            for c in ESX_VDISK_COUNTERS
        ]

    def row(cells: list[str]) -> str:
        return ",".join(f'"{c}"' for c in cells) + "\n"

    yield row(["(PDH-CSV 4.0) (UTC)(0)", *cols])
    for t in _times(start, interval_s, count):
        loads = [load(t, d) for d in range(devices)]
        cells = [f"{t:%m/%d/%Y %H:%M:%S}"]
        cells += ["0.00"] * 3 + [_f(35.0)] * (cpus + 1) + [_f(10.0)] * (5 * vms) + [_f(100.0)] * 32
        half = max(1, devices // 2)
        for part in (loads[:half], loads[half:]):
            total = _sum_loads(part)
            vals = _esx_values(total)
            cells += [_f(vals[c]) for c in ESX_DEVICE_COUNTERS]
        for x in loads:
            vals = _esx_values(x)
            cells += [_f(vals[c]) for c in ESX_DEVICE_COUNTERS]
        shares = [_esx_values(_scale(x, 1.0 / vms)) for x in loads]
        vm_total = _esx_values(_sum_loads([_scale(x, 1.0 / vms) for x in loads]))
        for _ in vm_names:  # each VM gets 1/vms of every device's I/O, on one virtual disk per device
            cells += [_f(vm_total[c]) for c in ESX_VDISK_COUNTERS]
            for vals in shares:
                cells += [_f(vals[c]) for c in ESX_VDISK_COUNTERS]
        yield row(cells)


def _scale(x: Load, k: float) -> Load:
    return Load(x.r_iops * k, x.w_iops * k, x.r_kib, x.w_kib, x.r_lat_ms, x.w_lat_ms)


def _sum_loads(loads: list[Load]) -> Load:
    """Loads of parallel devices added: rates add, sizes and latencies average weighted by I/Os."""
    r = sum(x.r_iops for x in loads)
    w = sum(x.w_iops for x in loads)
    if not loads or r + w == 0:
        return Load(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    return Load(
        r,
        w,
        sum(x.r_iops * x.r_kib for x in loads) / r if r else 0.0,
        sum(x.w_iops * x.w_kib for x in loads) / w if w else 0.0,
        sum(x.r_iops * x.r_lat_ms for x in loads) / r if r else 0.0,
        sum(x.w_iops * x.w_lat_ms for x in loads) / w if w else 0.0,
    )
