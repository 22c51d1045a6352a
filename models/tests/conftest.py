"""Shared engine fixtures: a 15K FC drive and a FAS-like configuration built by hand."""

from __future__ import annotations

import pytest

from models.configuration import CapacityPolicy, Configuration, DrivePool
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.ports import PortGroup
from models.raid import RaidLayout
from models.workload import IoSize, Phase, Workload


@pytest.fixture
def hdd15k() -> DriveSpec:
    # 300 GB 15K FC drive: Cheetah-class seeks (3.5 / 4.0 ms), 0.2 ms track-to-track,
    # NetApp right-sized to 272,000 MiB = 265.625 GiB
    return DriveSpec(
        id="fc-15k-300",
        name="300 GB 15K FC",
        kind="hdd",
        capacity_gb=300,
        right_sized_gib=272000 / 1024,
        rpm=15000,
        avg_read_seek_ms=3.5,
        avg_write_seek_ms=4.0,
        track_to_track_ms=0.2,
        media_rate_mb_s=100,
        overhead_ms=0.2,
        power_w=15,
        price_usd=500,
    )


@pytest.fixture
def ssd() -> DriveSpec:
    return DriveSpec(
        id="sas-ssd",
        name="SAS SSD",
        kind="ssd",
        capacity_gb=1920,
        media_rate_mb_s=2100,
        seq_write_mb_s=1700,
        read_iops_4k=400000,
        write_iops_4k=50000,
        read_latency_us=120,
        write_latency_us=40,
    )


def make_config(
    drive: DriveSpec, scheme: str = "raid-dp", width: int = 20, count: int | None = 20, **kw
) -> Configuration:
    return Configuration(
        name=kw.pop("name", f"{scheme}-{count}"),
        controller=ControllerSpec(
            **{"model": "test", "count": 2, "cores": 4, "dram_cache_gb": 8, **kw.pop("ctrl", {})}
        ),
        ports=[PortGroup(type="10gbe", count=4)],
        pools=[
            DrivePool(
                name="aggr0",
                drive=drive,
                drive_count=count,
                raid=RaidLayout(scheme=scheme, group_width=width),
            )
        ],
        capacity=CapacityPolicy(filesystem_reserve_pct=kw.pop("fs_reserve", 0.0)),
        **kw,
    )


def oltp(
    iops: float = 5000, read_pct: float = 70, ws_gb: float = 200, capacity_tb: float = 2.0, **kw
) -> Workload:
    return Workload(
        name=kw.pop("name", "oltp"),
        capacity_tb=capacity_tb,
        working_set_gb=ws_gb,
        phases=[
            Phase(
                name="day",
                window="business hours",
                iops=iops,
                read_pct=read_pct,
                io_size_kib=8,
                read_latency_target_ms=kw.pop("target", None),
            )
        ],
        **kw,
    )


FILE_SERVER_MIX = [
    IoSize(size_kib=0.5, pct=10),
    IoSize(size_kib=1, pct=5),
    IoSize(size_kib=2, pct=5),
    IoSize(size_kib=4, pct=60),
    IoSize(size_kib=8, pct=2),
    IoSize(size_kib=16, pct=4),
    IoSize(size_kib=32, pct=4),
    IoSize(size_kib=64, pct=10),
]
