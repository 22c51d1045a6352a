"""Front-end ports: practical bandwidth per link and port utilization.

Practical one-direction payload rates (not line rates), from published measurements:
1 GbE iSCSI/NFS about 115 MB/s at best (100 typical); 10 GbE about 1.1-1.2 GB/s; 25 GbE about
2.9 GB/s (derived: 25 Gb/s x 0.94 / 8); Fibre Channel nominal data rates 400/800/1,600 MB/s for
4/8/16GFC and 3,200/6,400 MB/s for 32/64GFC. ``port_utilization = MB/s / (count x practical)``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import Field, model_validator

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


class Protocol(StrEnum):
    """The block protocol a port group carries (the link is its :class:`PortType`)."""

    FC = "fc"  # SCSI over Fibre Channel (the HBA runs the transport)
    NVME_FC = "nvme-fc"  # NVMe over Fibre Channel
    NVME_ROCE = "nvme-roce"  # NVMe over RDMA on Ethernet (RoCE v2: the NIC runs the transport)
    ISCSI = "iscsi"  # SCSI over TCP/IP (the controller's CPU runs TCP)
    NVME_TCP = "nvme-tcp"  # NVMe over TCP/IP (the controller's CPU runs TCP)


_FC_LINKS = frozenset({PortType.FC4, PortType.FC8, PortType.FC16, PortType.FC32, PortType.FC64})
_ETHERNET = frozenset(
    {
        PortType.GBE1,
        PortType.GBE10,
        PortType.GBE25,
        PortType.GBE40,
        PortType.GBE100,
        PortType.GBE200,
        PortType.GBE400,
    }
)
PROTOCOL_LINKS: dict[Protocol, frozenset[PortType]] = {
    Protocol.FC: _FC_LINKS,
    Protocol.NVME_FC: _FC_LINKS,
    Protocol.NVME_ROCE: _ETHERNET,
    Protocol.ISCSI: _ETHERNET,
    Protocol.NVME_TCP: _ETHERNET,
}
"""The links each protocol runs on (a protocol on any other link is a 422 naming ``protocol``)."""

PROTOCOL_CPU_MULTIPLIER: dict[Protocol, float] = {
    Protocol.FC: 1.0,
    Protocol.NVME_FC: 1.0,
    Protocol.NVME_ROCE: 1.0,
    Protocol.ISCSI: 1.8,
    Protocol.NVME_TCP: 1.8,
}
"""Controller CPU per front-end operation relative to an offloaded transport [-]. Fibre Channel and
RDMA (RoCE) ports run the transport in the adapter: 1 (the catalog's costs as fitted). iSCSI and
NVMe/TCP run TCP on the controller's cores for every I/O: software iSCSI cost 40-80% more CPU per
I/O than FC in every test of the same server and array [netapp-tr3697]; 1.8, the top of that range
(conservative: measured on the initiator, whose TCP work per I/O a target repeats). NVMe/TCP is
given iSCSI's cost (its lighter protocol is not credited)."""


class PortGroup(Frozen):
    """Front-end ports of one type across the whole system (all controllers)."""

    type: PortType
    count: int = Field(ge=1, le=512, description="ports of this type in the whole system")
    practical_mb_s: float | None = Field(
        default=None, gt=0.0, description="override the practical per-port rate [MB/s]"
    )
    protocol: Protocol | None = Field(
        default=None,
        description="block protocol on these ports: fc, nvme-fc (FC links), nvme-roce, iscsi, nvme-tcp "
        "(Ethernet); iSCSI and NVMe/TCP cost the controllers more CPU per I/O "
        "(models.ports.PROTOCOL_CPU_MULTIPLIER); None = the costs the catalog states",
    )

    @model_validator(mode="after")
    def _protocol_link(self) -> Self:
        if self.protocol is not None and self.type not in PROTOCOL_LINKS[self.protocol]:
            raise ValueError(f"protocol: {self.protocol.value} does not run on {self.type.value} ports")
        return self

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


def protocol_cpu_multiplier(ports: list[PortGroup]) -> float:
    """Controller CPU per front-end operation for the protocols the ports carry [-]: the largest
    :data:`PROTOCOL_CPU_MULTIPLIER` of the groups that state one (hosts may use any port:
    conservative), 1 when none does."""
    return max((PROTOCOL_CPU_MULTIPLIER[pg.protocol] for pg in ports if pg.protocol is not None), default=1.0)
