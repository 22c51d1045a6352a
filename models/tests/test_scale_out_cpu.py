"""Node CPU of a scale-out cluster (issue #15): the chunk operations of erasure-coded writes and
whole-stripe reads, per copy and per chunk (models.raid.chunk_write_ops, chunk_read_ops,
models.controller.controller_load)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.architecture import full_stripe_reads, node_stripes
from models.base import InputError
from models.catalog import build_configuration, load_catalog
from models.controller import ControllerSpec, controller_load, cpu_seconds_per_second
from models.evaluate import evaluate
from models.raid import RaidLayout, RaidScheme, chunk_read_ops, chunk_write_ops
from models.tests.test_flash import writes_only
from models.workload import Phase, Workload

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SPEC = ControllerSpec(
    model="node", count=4, ha_mode="scale-out", cores=1, cpu_us_write=25, cpu_us_per_kib=0.5
)


def ec(k: int, m: int, unit: float | None = None) -> RaidLayout:
    return RaidLayout(
        scheme=RaidScheme.ERASURE, group_width=k + m, ec_data=k, ec_parity=m, stripe_unit_kib=unit
    )


def reads_only(iops: float, size_kib: float = 4) -> list[Workload]:
    phase = Phase(name="day", window="day", iops=iops, read_pct=100, random_pct=100, io_size_kib=size_kib)
    return [Workload(name="r", capacity_tb=1, phases=[phase])]


def test_a_small_erasure_coded_write_reads_and_writes_its_chunk_and_the_parity():
    # 4+2, 4 KiB inside one 64 KiB chunk: read old data and 2 parity, write the 3 new = 6 chunk
    # operations of 4 KiB each = 24 KiB
    assert chunk_write_ops(ec(4, 2), 4) == pytest.approx((6.0, 24.0))
    # 2+1: 2 (1 + 1) = 4 operations, 16 KiB
    assert chunk_write_ops(ec(2, 1), 4) == pytest.approx((4.0, 16.0))


def test_a_write_of_whole_stripes_sends_every_chunk_once():
    # 4+2 with 4 KiB chunks: a 4 MiB write covers 256 stripes; 6 operations (one per chunk) moving
    # 4,096 x 6 / 4 = 6,144 KiB; nothing read
    assert chunk_write_ops(ec(4, 2, unit=4), 4096) == pytest.approx((6.0, 6144.0))


def test_a_log_appending_whole_stripes_writes_every_chunk_once():
    log = ec(4, 2).model_copy(update={"full_stripe_share": 1.0})
    # 6 operations, 4 KiB x 6 / 4 = 6 KiB
    assert chunk_write_ops(log, 4) == pytest.approx((6.0, 6.0))


def test_replication_is_the_write_itself_per_copy():
    rep = RaidLayout(scheme=RaidScheme.REPLICA, group_width=1, copies=3)
    assert chunk_write_ops(rep, 8) == (1.0, 8.0)
    assert chunk_read_ops(rep, 8, full_stripe=True) == (1.0, 8.0)


def test_a_small_read_of_a_whole_stripe_store_reads_every_data_chunk():
    # 4+2 with 4 KiB chunks: a 4 KiB read reads the 4 data chunks = 16 KiB; a store with partial
    # reads reads the one chunk
    assert chunk_read_ops(ec(4, 2, unit=4), 4, full_stripe=True) == pytest.approx((4.0, 16.0))
    assert chunk_read_ops(ec(4, 2, unit=4), 4, full_stripe=False) == pytest.approx((1.0, 4.0))


def test_chunk_operations_refuse_a_size_that_is_not_positive():
    with pytest.raises(InputError) as err:
        chunk_write_ops(ec(4, 2), 0)
    assert err.value.field == "size_kib"
    with pytest.raises(InputError) as err:
        chunk_read_ops(ec(4, 2), -1, full_stripe=True)
    assert err.value.field == "size_kib"


def test_erasure_coded_writes_load_the_nodes_with_every_chunk_operation():
    # 1,000 writes/s of 4 KiB on 4+2: 6 operations per write = the write and 5,000 more, 20,000
    # more KiB/s; CPU = 6,000 x 25 us + 24,000 KiB/s x 0.5 us = 0.162 core-s/s (remote copies do not
    # apply: the stripe is the pool's protection)
    members = [(w, w.phases[0]) for w in writes_only(1000, size_kib=4)]
    load = controller_load(members, [(0.0, 0.0)], remote_copies=2, stripes=[ec(4, 2)])
    assert load.copy_writes == pytest.approx(5000.0)
    assert load.copy_kib_per_s == pytest.approx(20000.0)
    assert cpu_seconds_per_second(load, SPEC) == pytest.approx(0.162)


def test_a_large_replicated_write_costs_its_kib_on_every_copy():
    # 100 writes/s of 4 MiB, 3 copies, c_KiB = 0.5 us: 3 x 4,096 x 0.5 = 6,144 us per write of
    # per-KiB CPU, plus 3 x 25 us per write: 100 x 6,219 us = 0.6219 core-s/s
    members = [(w, w.phases[0]) for w in writes_only(100, size_kib=4096)]
    load = controller_load(members, [(0.0, 0.0)], remote_copies=2)
    assert cpu_seconds_per_second(load, SPEC) == pytest.approx(100 * (3 * 4096 * 0.5 + 3 * 25) / 1e6)


def test_whole_stripe_reads_load_the_nodes_with_every_data_chunk():
    # 1,000 read misses/s of 4 KiB on 4+2 with 4 KiB chunks: 3,000 more chunk reads, 12,000 KiB/s
    # more; CPU = 4,000 x 60 us + 16,000 KiB/s x 0.5 us = 0.248 core-s/s
    members = [(w, w.phases[0]) for w in reads_only(1000)]
    spec = SPEC.model_copy(update={"cpu_us_read_miss": 60.0})
    load = controller_load(members, [(0.0, 0.0)], stripes=[ec(4, 2, unit=4)], full_stripe_reads=True)
    assert load.chunk_reads == pytest.approx(3000.0)
    assert load.chunk_read_kib_per_s == pytest.approx(12000.0)
    assert cpu_seconds_per_second(load, spec) == pytest.approx(0.248)
    plain = controller_load(members, [(0.0, 0.0)], stripes=[ec(4, 2, unit=4)])
    assert plain.chunk_reads == 0.0 and cpu_seconds_per_second(plain, spec) == pytest.approx(0.062)


def test_stripes_must_match_the_phases():
    members = [(w, w.phases[0]) for w in writes_only(1000)]
    with pytest.raises(InputError) as err:
        controller_load(members, [(0.0, 0.0)], stripes=[None, None])
    assert err.value.field == "stripes"


def test_the_catalog_ceph_cluster_spreads_its_erasure_coded_stripes_over_nodes_and_reads_them_whole():
    catalog = load_catalog(FIXTURES)
    array = catalog.arrays["ceph-nvme-reference"]
    assert array.default_drive is not None
    drive = catalog.drives[array.default_drive]
    cfg = build_configuration(array, drive, "erasure")
    stripes = node_stripes(cfg, [cfg.pools[0].name])
    assert stripes is not None and stripes[0] is not None and stripes[0].scheme is RaidScheme.ERASURE
    assert full_stripe_reads(cfg)
    assert node_stripes(build_configuration(array, drive, "replica"), [cfg.pools[0].name]) is None


@settings(max_examples=200, deadline=None)
@given(
    k=st.integers(2, 12),
    m=st.integers(1, 4),
    size=st.sampled_from([0.5, 4, 8, 16, 64, 128, 1024, 4096]),
    unit=st.sampled_from([None, 4.0, 16.0, 64.0]),
)
def test_node_cpu_per_write_never_falls_with_more_parity_and_chunk_operations_never_with_more_data(
    k: int, m: int, size: float, unit: float | None
):
    members = [(w, w.phases[0]) for w in writes_only(1000, size_kib=size)]

    def cpu(layout: RaidLayout) -> float:
        return float(cpu_seconds_per_second(controller_load(members, [(0.0, 0.0)], stripes=[layout]), SPEC))

    assert cpu(ec(k, m + 1, unit)) >= cpu(ec(k, m, unit)) - 1e-12
    # more data chunks: never fewer operations (whole stripes carry less parity per KiB, though)
    assert chunk_write_ops(ec(k + 1, m, unit), size)[0] >= chunk_write_ops(ec(k, m, unit), size)[0]


@settings(max_examples=100, deadline=None)
@given(copies=st.integers(1, 5), size=st.sampled_from([0.5, 4, 64, 4096]))
def test_node_cpu_per_write_never_falls_with_more_copies(copies: int, size: float):
    members = [(w, w.phases[0]) for w in writes_only(1000, size_kib=size)]

    def cpu(n: int) -> float:
        return float(
            cpu_seconds_per_second(controller_load(members, [(0.0, 0.0)], remote_copies=n - 1), SPEC)
        )

    assert cpu(copies + 1) > cpu(copies)


def test_written_kib_cost_their_own_cpu_on_every_copy_and_reads_keep_the_per_kib_cost():
    # 100 writes/s of 4 MiB, 3 copies, c_KiB,w = 3 us: 3 x 4,096 x 3 = 36,864 us per write plus
    # 3 x 25 us; 100 reads/s of 4 MiB (misses) at c_KiB = 0.5 us: 2,048 us + 60 us each
    spec = SPEC.model_copy(update={"cpu_us_per_kib_written": 3.0, "cpu_us_read_miss": 60.0})
    writes = [(w, w.phases[0]) for w in writes_only(100, size_kib=4096)]
    load = controller_load(writes, [(0.0, 0.0)], remote_copies=2)
    assert load.write_kib_per_s == pytest.approx(409600.0)
    assert cpu_seconds_per_second(load, spec) == pytest.approx(100 * (3 * 4096 * 3.0 + 3 * 25) / 1e6)
    reads = [(w, w.phases[0]) for w in reads_only(100, size_kib=4096)]
    load = controller_load(reads, [(0.0, 0.0)], remote_copies=2)
    assert load.write_kib_per_s == 0.0
    assert cpu_seconds_per_second(load, spec) == pytest.approx(100 * (4096 * 0.5 + 60) / 1e6)
    # not stated: written KiB cost the per-KiB figure
    assert SPEC.kib_written_us == 0.5 and spec.kib_written_us == 3.0


def test_a_negative_cpu_per_kib_written_is_refused_naming_the_field():
    with pytest.raises(ValidationError) as err:
        ControllerSpec(model="node", cpu_us_per_kib_written=-1.0)
    assert err.value.errors()[0]["loc"] == ("cpu_us_per_kib_written",)


def test_the_catalog_ceph_node_carries_the_per_kib_written_cost_fitted_to_the_clyso_4mib_write():
    # make calibrate fits it to the in-sample row write_4m_30osd (scale_out_fit.yaml) and writes it
    catalog = load_catalog(FIXTURES)
    fit = yaml.safe_load((FIXTURES / "calibration" / "scale_out_fit.yaml").read_text())["fits"][0]
    assert fit["target"] == "catalog:ceph-nvme-reference"
    assert fit["parameters"]["cpu_us_per_kib_written"]["rows"] == [
        "clyso_dell_r6615_ceph_quincy/write_4m_30osd"
    ]
    stated = catalog.arrays["ceph-nvme-reference"].controller.cpu_us_per_kib_written
    assert stated == pytest.approx(fit["values"]["cpu_us_per_kib_written"], rel=1e-9)
    assert stated == pytest.approx(3.0, rel=0.02)  # 15 GiB/s of 4 MiB writes on 30 OSDs, 3 copies


def test_shared_ports_carry_the_front_end_and_the_traffic_between_nodes_by_hand():
    # SolidFire SF9605, 4 nodes; 10,000 random 64 KiB writes/s = 655.36 MB/s front end; 2 copies
    # x 655.36 = 1,310.72 MB/s at the drives, 3/4 crossing nodes = 983.04 MB/s. On shared ports:
    # U_port = (655.36 + 983.04) / port capacity; no separate cluster-network check
    catalog = load_catalog(FIXTURES)
    array = catalog.arrays["netapp-solidfire-sf9605"]
    assert array.default_drive is not None
    cfg = build_configuration(array, catalog.drives[array.default_drive], "replica", drive_count=40)
    apart = evaluate(writes_only(10000, size_kib=64), cfg).windows[0]
    shared_cfg = cfg.model_copy(
        update={"controller": cfg.controller.model_copy(update={"cluster_network_shared": True})}
    )
    shared = evaluate(writes_only(10000, size_kib=64), shared_cfg).windows[0]
    cap = sum(pg.total_mb_s for pg in cfg.ports)
    assert apart.port_utilization_pct.value == pytest.approx(100 * 655.36 / cap, rel=1e-9)
    assert shared.port_utilization_pct.value == pytest.approx(100 * (655.36 + 983.04) / cap, rel=1e-9)
    assert shared.port_utilization_pct.inputs["cross_node_mb_s"] == pytest.approx(983.04, rel=1e-9)
    assert shared.cluster_network_utilization_pct is None
    assert not any(c.name == "cluster network" for c in shared.checks)
    assert apart.cluster_network_utilization_pct is not None


def test_shared_ports_must_be_a_yes_or_no_naming_the_field():
    with pytest.raises(ValidationError) as err:
        ControllerSpec(model="node", cluster_network_shared="sometimes")
    assert err.value.errors()[0]["loc"] == ("cluster_network_shared",)


def test_catalog_arrays_keep_cluster_traffic_apart_as_the_batch_path_models_it():
    # models.batch checks the ports with the front end's MB/s only: a catalog array stating shared
    # ports would need that path to add the traffic between nodes first
    catalog = load_catalog(FIXTURES)
    assert not [a.id for a in catalog.arrays.values() if a.controller.cluster_network_shared]
