"""Example array exports and collector workbooks with a known load, built from the documented
layouts (never customer data), for tests, benchmarks, the end-to-end journey and demonstrations.

The load is :func:`~models.importers.synthetic.office_load` (busy hour 10:00-11:00, nightly batch
02:00-03:00, each object scaled by ``1 + object / 10``) unless a ``load`` is given. Text exports
are generators of lines; workbooks are written into a binary file object the caller gives.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import IO, Any

from models.importers.synthetic import Load, LoadFn, office_load
from models.importers.xlsx_writer import Cell, write_xlsx

MIB = 1024.0**2
LIVE_OPTICS_SERIES_COLUMNS = [
    "Timestamp",
    "Server",
    "Read IOPS",
    "Write IOPS",
    "Read MB/s",
    "Write MB/s",
    "Read Latency (ms)",
    "Write Latency (ms)",
    "Queue Depth",
]
"""The columns of the example workbooks' time series (see :mod:`models.importers.liveoptics`)."""


def afternoon_load(t: datetime, device: int) -> Load:
    """1,000 reads per s of 8 KiB 14:00-15:00, 100 otherwise (2 ms), scaled by ``1 + device / 10``:
    a load that peaks when :func:`~models.importers.synthetic.office_load` does not."""
    hour = (t - timedelta(seconds=1)).hour
    k = 1.0 + device / 10.0
    return Load((1000.0 if hour == 14 else 100.0) * k, 0.0, 8.0, 8.0, 2.0, 2.0)


def _times(start: datetime, interval_s: float, count: int) -> Iterator[datetime]:
    for i in range(count):
        yield start + timedelta(seconds=interval_s * (i + 1))


def _mb(iops: float, kib: float) -> float:
    return iops * kib * 1024.0 / 1e6


def write_generic_csv(
    objects: list[str],
    start: datetime,
    interval_s: float,
    count: int,
    *,
    offset: str = "",
    load: LoadFn = office_load,
) -> Iterator[str]:
    """The generic CSV; ``offset`` (``+01:00``, ``Z``) is appended to every timestamp."""
    yield "timestamp,object,read_iops,write_iops,read_mb_s,write_mb_s,read_latency_ms,write_latency_ms\n"
    for t in _times(start, interval_s, count):
        for i, name in enumerate(objects):
            x = load(t, i)
            yield (
                f"{t:%Y-%m-%dT%H:%M:%S}{offset},{name},{x.r_iops:.3f},{x.w_iops:.3f},"
                f"{_mb(x.r_iops, x.r_kib):.6f},{_mb(x.w_iops, x.w_kib):.6f},{x.r_lat_ms:.3f},{x.w_lat_ms:.3f}\n"
            )


def write_powerstore_csv(
    volumes: list[str], start: datetime, interval_s: float, count: int, *, load: LoadFn = office_load
) -> Iterator[str]:
    """PowerStore ``performance_metrics_by_volume`` fields as CSV; ``start`` is UTC."""
    yield (
        "timestamp,volume_id,appliance_id,read_iops,write_iops,total_iops,read_bandwidth,"
        "write_bandwidth,total_bandwidth,avg_read_latency,avg_write_latency,avg_latency,repeat_count\n"
    )
    for t in _times(start, interval_s, count):
        for i, name in enumerate(volumes):
            x = load(t, i)
            rb, wb = x.r_iops * x.r_kib * 1024.0, x.w_iops * x.w_kib * 1024.0
            yield (
                f"{t:%Y-%m-%dT%H:%M:%S}Z,{name},A1,{x.r_iops:.3f},{x.w_iops:.3f},{x.iops:.3f},{rb:.1f},{wb:.1f},"
                f"{rb + wb:.1f},{x.r_lat_ms * 1000:.1f},{x.w_lat_ms * 1000:.1f},{x.await_ms * 1000:.1f},1\n"
            )


def _ontap_size(b: float) -> str:
    for unit, k in (("GB", 1024.0**3), ("MB", 1024.0**2), ("KB", 1024.0)):
        if b >= k:
            return f"{b / k:.2f}{unit}"
    return f"{b:.0f}B"


def write_ontap_statistics(
    volumes: list[str], start: datetime, interval_s: float, count: int, *, load: LoadFn = office_load
) -> Iterator[str]:
    """``statistics show -object volume`` blocks, one per interval and volume."""
    yield "cluster1::*> statistics show -object volume -counter read_ops|write_ops|read_data|write_data|read_latency|write_latency|avg_latency\n"
    yield "\n"
    for t in _times(start, interval_s, count):
        begin = t - timedelta(seconds=interval_s)
        for i, name in enumerate(volumes):
            x = load(t, i)
            yield "Object: volume\n"
            yield f"Instance: {name}\n"
            yield f"Start-time: {begin.month}/{begin.day}/{begin.year} {begin:%H:%M:%S}\n"
            yield f"End-time: {t.month}/{t.day}/{t.year} {t:%H:%M:%S}\n"
            yield f"Elapsed-time: {interval_s:.0f}s\n"
            yield "Scope: svm1\n"
            yield "    Counter                                                     Value\n"
            yield "    -------------------------------- --------------------------------\n"
            rows = [
                ("avg_latency", f"{x.await_ms * 1000:.0f}us"),
                ("read_data", _ontap_size(x.r_iops * x.r_kib * 1024.0)),
                ("read_latency", f"{x.r_lat_ms * 1000:.0f}us"),
                ("read_ops", f"{x.r_iops:.0f}"),
                ("write_data", _ontap_size(x.w_iops * x.w_kib * 1024.0)),
                ("write_latency", f"{x.w_lat_ms * 1000:.0f}us"),
                ("write_ops", f"{x.w_iops:.0f}"),
            ]
            for counter, value in rows:
                yield f"    {counter:<32} {value:>32}\n"
            yield "\n"


def write_ontap_qos(
    workloads: list[str],
    interval_s: float,
    count: int,
    *,
    characteristics: bool = True,
    load: LoadFn = office_load,
) -> Iterator[str]:
    """``qos statistics volume performance show`` tables (and ``characteristics show`` ones),
    one per iteration, the load of the day starting at midnight."""
    day = datetime(2024, 1, 15)
    yield "cluster1::> qos statistics volume performance show -iterations 100 -refresh-display false\n"
    for k, t in enumerate(_times(day, interval_s, count)):
        loads = [load(t, i) for i in range(len(workloads))]
        total = sum(x.iops for x in loads)
        yield "Workload            ID     IOPS       Throughput    Latency\n"
        yield "--------------- ------ -------- ---------------- ----------\n"
        yield f"{'-total-':<15} {'-':>6} {total:>8.0f} {'-':>16} {'-':>10}\n"
        for i, (name, x) in enumerate(zip(workloads, loads, strict=True)):
            mb = (x.r_iops * x.r_kib + x.w_iops * x.w_kib) / 1024.0
            yield f"{name:<15} {1000 + i:>6} {x.iops:>8.0f} {mb:>12.2f}MB/s {x.await_ms * 1000:>8.2f}us\n"
        if characteristics and k == 0:
            yield "Workload            ID     IOPS       Throughput      Request size    Read    Concurrency\n"
            yield "--------------- ------ -------- ---------------- --------------- ------- -----------\n"
            for i, (name, x) in enumerate(zip(workloads, loads, strict=True)):
                mb = (x.r_iops * x.r_kib + x.w_iops * x.w_kib) / 1024.0
                size = (x.r_iops * x.r_kib + x.w_iops * x.w_kib) / x.iops * 1024.0
                yield f"{name:<15} {1000 + i:>6} {x.iops:>8.0f} {mb:>12.2f}MB/s {size:>14.0f}B {100 * x.r_iops / x.iops:>6.0f}% {x.queue:>11.0f}\n"


def live_optics_workbook(
    out: IO[bytes],
    servers: list[str],
    start: datetime,
    interval_s: float,
    count: int,
    *,
    series: bool = True,
    used_gib: float = 500.0,
    series_sheet: str = "Performance",
    load: LoadFn = office_load,
    drop: tuple[str, str] | None = None,
) -> None:
    """A Live Optics vSphere project workbook for VMs ``servers`` (each ``used_gib`` in use):
    Details, VMs, VM Performance, ESX Performance, Host Devices and, with ``series``, a time
    series sheet. ``drop=(sheet, column)`` leaves a column out (``column`` empty: the sheet)."""
    loads = {s: [load(t, i) for t in _times(start, interval_s, count)] for i, s in enumerate(servers)}
    end = start + timedelta(seconds=interval_s * count)
    sheets: dict[str, list[Any]] = {
        "Details": [
            ["Project Name", "Synthetic engagement"],
            ["Collection Start", start],
            ["Collection End", end],
            ["Collector", "Optical Prime (example built from the documented layout)"],
        ],
        "VMs": [
            [
                "VM Name",
                "MOB ID",
                "Power State",
                "Cluster",
                "Datacenter",
                "Host",
                "Virtual Disk Size (MiB)",
                "Virtual Disk Used (MiB)",
            ]
        ]
        + [
            [
                s,
                f"vm-{100 + i}",
                "poweredOn",
                "Cluster A",
                "DC1",
                f"esx{i % 2 + 1}",
                used_gib * 2048.0,
                used_gib * 1024.0,
            ]
            for i, s in enumerate(servers)
        ],
        "VM Performance": [
            [
                "MOB ID",
                "VM Name",
                "Avg Read IOPS",
                "Avg Write IOPS",
                "Peak Read IOPS",
                "Peak Write IOPS",
                "Avg Read MB/s",
                "Avg Write MB/s",
                "Peak Read MB/s",
                "Peak Write MB/s",
            ]
        ]
        + [_vm_performance(i, s, loads[s]) for i, s in enumerate(servers)],
        "ESX Performance": [
            ["Host", "Peak IOPS", "Average IOPS", "95% IOPS", "Peak Throughput MB/s", "Avg Throughput MB/s"]
        ]
        + [
            _esx_performance(f"esx{h + 1}", [loads[s] for i, s in enumerate(servers) if i % 2 == h])
            for h in range(2)
        ],
        "Host Devices": [
            [
                "Server Name",
                "Device Name",
                "Device Type",
                "Capacity (GiB)",
                "Used Capacity (GiB)",
                "Free Capacity (GiB)",
            ],
            [
                "esx1",
                "datastore1",
                "Cluster",
                used_gib * len(servers) * 2.0,
                used_gib * len(servers),
                used_gib * len(servers),
            ],
        ],
    }
    if series:
        rows: list[list[Cell]] = [list(LIVE_OPTICS_SERIES_COLUMNS)]
        for k, t in enumerate(_times(start, interval_s, count)):
            for s in servers:
                x = loads[s][k]
                rows.append(
                    [
                        t,
                        s,
                        round(x.r_iops, 3),
                        round(x.w_iops, 3),
                        round(_mb(x.r_iops, x.r_kib), 6),
                        round(_mb(x.w_iops, x.w_kib), 6),
                        x.r_lat_ms,
                        x.w_lat_ms,
                        round(x.queue, 4),
                    ]
                )
        sheets[series_sheet] = rows
    write_xlsx(out, _dropped(sheets, drop))


def _dropped(sheets: dict[str, list[Any]], drop: tuple[str, str] | None) -> dict[str, list[Any]]:
    """``sheets`` without the column ``drop = (sheet, column)`` (``column`` empty: the sheet)."""
    if drop is None:
        return sheets
    sheet, column = drop
    out = dict(sheets)
    if not column:
        out.pop(sheet)
    else:
        i = out[sheet][0].index(column)
        out[sheet] = [r[:i] + r[i + 1 :] for r in out[sheet]]
    return out


def _esx_performance(host: str, vms: list[list[Load]]) -> list[Cell]:
    """A host's row: its VMs' load summed per interval, then the statistics over the intervals."""
    if not vms:
        return [host, 0.0, 0.0, 0.0, 0.0, 0.0]
    iops = sorted(sum(v[k].iops for v in vms) for k in range(len(vms[0])))
    mbs = [
        sum(_mb(v[k].r_iops, v[k].r_kib) + _mb(v[k].w_iops, v[k].w_kib) for v in vms)
        for k in range(len(vms[0]))
    ]
    p95 = iops[min(len(iops) - 1, int(round(0.95 * (len(iops) - 1))))]
    return [
        host,
        round(iops[-1], 3),
        round(sum(iops) / len(iops), 3),
        round(p95, 3),
        round(max(mbs), 6),
        round(sum(mbs) / len(mbs), 6),
    ]


def _vm_performance(i: int, name: str, loads: list[Load]) -> list[Cell]:
    n = len(loads)
    avg_r = sum(x.r_iops for x in loads) / n
    avg_w = sum(x.w_iops for x in loads) / n
    return [
        f"vm-{100 + i}",
        name,
        round(avg_r, 3),
        round(avg_w, 3),
        round(max(x.r_iops for x in loads), 3),
        round(max(x.w_iops for x in loads), 3),
        round(sum(_mb(x.r_iops, x.r_kib) for x in loads) / n, 6),
        round(sum(_mb(x.w_iops, x.w_kib) for x in loads) / n, 6),
        round(max(_mb(x.r_iops, x.r_kib) for x in loads), 6),
        round(max(_mb(x.w_iops, x.w_kib) for x in loads), 6),
    ]


def rvtools_workbook(
    out: IO[bytes],
    vms: list[tuple[str, str, float, float]],
    *,
    drop: tuple[str, str] | None = None,
) -> None:
    """An RVTools workbook of ``vms`` (name, cluster, provisioned MiB, in use MiB), each on
    datastore ``ds-<cluster>``, with vInfo, vDisk, vPartition, vHost and vDatastore sheets."""
    clusters = sorted({c for _, c, _, _ in vms})
    sheets: dict[str, list[Any]] = {
        "vInfo": [
            [
                "VM",
                "Powerstate",
                "Template",
                "CPUs",
                "Memory",
                "Provisioned MiB",
                "In Use MiB",
                "Unshared MiB",
                "Datacenter",
                "Cluster",
                "Host",
                "Folder",
                "Path",
            ]
        ]
        + [
            [
                name,
                "poweredOn",
                "False",
                4,
                16384,
                prov,
                used,
                used,
                "DC1",
                c,
                f"esx-{c}",
                f"/{c}/apps",
                f"[ds-{c}] {name}/{name}.vmx",
            ]
            for name, c, prov, used in vms
        ],
        "vDisk": [["VM", "Disk", "Capacity MiB", "Thin", "Path"]]
        + [[name, "Hard disk 1", prov, "True", f"[ds-{c}] {name}/{name}.vmdk"] for name, c, prov, _ in vms],
        "vPartition": [["VM", "Disk", "Capacity MiB", "Consumed MiB", "Free MiB"]]
        + [[name, "C:\\", prov, used * 0.9, prov - used * 0.9] for name, _, prov, used in vms],
        "vHost": [["Host", "Datacenter", "Cluster", "# VMs"]]
        + [[f"esx-{c}", "DC1", c, sum(1 for v in vms if v[1] == c)] for c in clusters],
        "vDatastore": [
            ["Name", "Type", "Capacity MiB", "Provisioned MiB", "In Use MiB", "Free MiB", "Free %", "# VMs"]
        ]
        + [_datastore(c, [v for v in vms if v[1] == c]) for c in clusters],
    }
    write_xlsx(out, _dropped(sheets, drop))


def _datastore(cluster: str, vms: list[tuple[str, str, float, float]]) -> list[Cell]:
    prov = sum(v[2] for v in vms)
    used = sum(v[3] for v in vms)
    capacity = 2.0 * prov
    return [
        f"ds-{cluster}",
        "VMFS",
        capacity,
        prov,
        used,
        capacity - used,
        round(100 * (capacity - used) / capacity, 1),
        len(vms),
    ]


__all__ = [
    "afternoon_load",
    "live_optics_workbook",
    "rvtools_workbook",
    "write_generic_csv",
    "write_ontap_qos",
    "write_ontap_statistics",
    "write_powerstore_csv",
]
