"""Front-end ports: practical bandwidth per link and port utilization.

Practical one-direction payload rates (not line rates), from published measurements:
1 GbE iSCSI/NFS about 115 MB/s at best (100 typical); 10 GbE about 1.1-1.2 GB/s; 25 GbE about
2.9 GB/s (derived: 25 Gb/s x 0.94 / 8); Fibre Channel nominal data rates 400/800/1,600 MB/s for
4/8/16GFC and 3,200/6,400 MB/s for 32/64GFC. ``port_utilization = MB/s / (count x practical)``.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from models.base import Frozen, InputError
from models.units import transfer_ms


class PortType(StrEnum):
    GBE1 = "1gbe"
    GBE10 = "10gbe"
    GBE25 = "25gbe"
    GBE40 = "40gbe"
    GBE100 = "100gbe"
    GBE200 = "200gbe"
    GBE400 = "400gbe"
    FC4 = "4gfc"
    FC8 = "8gfc"
    FC16 = "16gfc"
    FC32 = "32gfc"
    FC64 = "64gfc"
    SAS6 = "6gsas"
    SAS12 = "12gsas"
    IB_EDR = "edr-ib"
    IB_HDR = "hdr-ib"
    IB_NDR = "ndr-ib"


PRACTICAL_MB_S: dict[PortType, float] = {
    PortType.GBE1: 115.0,
    PortType.GBE10: 1150.0,
    PortType.GBE25: 2900.0,
    PortType.GBE40: 4600.0,
    PortType.GBE100: 11500.0,
    PortType.GBE200: 23000.0,
    PortType.GBE400: 46000.0,
    PortType.FC4: 400.0,
    PortType.FC8: 800.0,
    PortType.FC16: 1600.0,
    PortType.FC32: 3200.0,
    PortType.FC64: 6400.0,
    PortType.SAS6: 2200.0,
    PortType.SAS12: 4400.0,
    PortType.IB_EDR: 11500.0,
    PortType.IB_HDR: 23000.0,
    PortType.IB_NDR: 46000.0,
}

PORT_SOURCE = (
    "Practical link rates: 1GbE ~115 MB/s (Microsoft iSCSI Target perf. white paper); 10GbE "
    "~1.15 GB/s iSCSI (InfoWorld 'myth of 10GbE'); FC 400/800/1600 MB/s (FCIA roadmap); "
    "25/40/100/200/400GbE, 32/64GFC, SAS and InfiniBand EDR/HDR/NDR (4x: 100/200/400 Gb/s) "
    "derived from line rate x ~0.92-0.94"
)


class PortGroup(Frozen):
    """Front-end ports of one type across the whole system (all controllers)."""

    type: PortType
    count: int = Field(ge=1, le=512, description="ports of this type in the whole system")
    practical_mb_s: float | None = Field(
        default=None, gt=0.0, description="override the practical per-port rate [MB/s]"
    )

    @property
    def mb_s_per_port(self) -> float:
        return self.practical_mb_s if self.practical_mb_s is not None else PRACTICAL_MB_S[self.type]

    @property
    def total_mb_s(self) -> float:
        return self.count * self.mb_s_per_port


def port_utilization(mb_per_s: float, ports: list[PortGroup]) -> float:
    """Front-end link utilization: ``MB/s / sum(count x practical MB/s)`` (0..inf, 1 = saturated)."""
    if mb_per_s < 0:
        raise InputError("mb_per_s", "must be >= 0")
    capacity = sum(p.total_mb_s for p in ports)
    if capacity <= 0:
        raise InputError("ports", "at least one port is needed")
    return mb_per_s / capacity


def port_service_ms(size_kib: float, ports: list[PortGroup]) -> float:
    """Wire time of one I/O on one port of the fastest group [ms] (size / practical rate)."""
    fastest = max(p.mb_s_per_port for p in ports)
    return transfer_ms(size_kib, fastest)
