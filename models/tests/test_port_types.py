"""Front-end port types (models.ports): practical one-direction rates of the faster Ethernet and
InfiniBand ports, derived as the others are (line rate x ~0.92 / 8)."""

from __future__ import annotations

import pytest

from models.ports import PRACTICAL_MB_S, PortGroup, PortType


@pytest.mark.parametrize(
    ("port", "line_gbit_s"),
    [("200gbe", 200), ("400gbe", 400), ("edr-ib", 100), ("hdr-ib", 200), ("ndr-ib", 400)],
)
def test_fast_ports_carry_92_pct_of_their_line_rate(port, line_gbit_s):
    # 400 Gb/s x 0.92 / 8 bits = 46,000 MB/s; 200 Gb/s: 23,000; 100 Gb/s: 11,500
    assert PRACTICAL_MB_S[PortType(port)] == pytest.approx(line_gbit_s * 0.92 / 8 * 1000)


def test_a_port_group_adds_its_ports():
    # 4 x 400GbE = 184,000 MB/s; 2 x InfiniBand HDR = 46,000 MB/s
    assert PortGroup(type="400gbe", count=4).total_mb_s == pytest.approx(184_000)
    assert PortGroup(type="hdr-ib", count=2).total_mb_s == pytest.approx(46_000)
