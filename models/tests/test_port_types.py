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


def test_iscsi_and_nvme_tcp_cost_the_controllers_more_cpu_than_fc_and_roce():
    from models.ports import Protocol, protocol_cpu_multiplier

    fc = PortGroup(type="32gfc", count=4, protocol="fc")
    roce = PortGroup(type="100gbe", count=2, protocol=Protocol.NVME_ROCE)
    tcp = PortGroup(type="100gbe", count=2, protocol=Protocol.NVME_TCP)
    assert protocol_cpu_multiplier([fc, roce]) == 1.0
    # hosts may use any port: the costliest protocol stated (software iSCSI 1.8 x FC [netapp-tr3697])
    assert protocol_cpu_multiplier([fc, tcp]) == 1.8
    assert protocol_cpu_multiplier([PortGroup(type="25gbe", count=2)]) == 1.0


def test_a_protocol_on_a_link_it_does_not_run_on_is_a_422_naming_the_field():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="protocol: nvme-roce does not run on 32gfc"):
        PortGroup(type="32gfc", count=2, protocol="nvme-roce")
    with pytest.raises(ValidationError, match="protocol: fc does not run on 100gbe"):
        PortGroup(type="100gbe", count=2, protocol="fc")


def test_nvme_tcp_ports_load_the_controller_cpu_by_the_protocol_multiplier(hdd15k):
    # the front-end operations' CPU x 1.8; the back-end I/Os' CPU unchanged:
    # U_tcp - U_fc = 0.8 x front-end CPU / (cores x controllers)
    from models.controller import front_end_cpu_us
    from models.evaluate import evaluate
    from models.tests.conftest import make_config, oltp

    base = make_config(hdd15k, "raid10", 2, 40)
    fc = base.model_copy(update={"ports": [PortGroup(type="25gbe", count=4, protocol="nvme-roce")]})
    tcp = base.model_copy(update={"ports": [PortGroup(type="25gbe", count=4, protocol="nvme-tcp")]})
    w_fc = evaluate([oltp(iops=3000)], fc).windows[0]
    w_tcp = evaluate([oltp(iops=3000)], tcp).windows[0]
    load = w_fc.controller_utilization_pct.inputs
    ctrl = base.controller
    assert (
        w_tcp.controller_utilization_pct.value is not None
        and w_fc.controller_utilization_pct.value is not None
    )
    from models.controller import ControllerLoad

    front = front_end_cpu_us(
        ControllerLoad(
            read_hits=load["read_hits"],
            read_misses=load["read_misses"],
            writes=load["writes"],
            kib_per_s=load["kib_per_s"],
            write_kib_per_s=3000 * 0.3 * 8,
        ),
        ctrl,
    )
    expected = 0.8 * front / 1e6 / (ctrl.cores * ctrl.serving) * 100
    assert w_tcp.controller_utilization_pct.value - w_fc.controller_utilization_pct.value == pytest.approx(
        expected, rel=1e-9
    )
    assert "the ports' protocol runs TCP" in w_tcp.controller_utilization_pct.text
