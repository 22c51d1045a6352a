"""Write architectures and scale-out: log-structured full stripes, copies on other nodes, the
cluster network (models.architecture)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.architecture import cross_node_share, written_layout
from models.catalog import Catalog, build_configuration, load_catalog
from models.configuration import Architecture, WriteArchitecture
from models.controller import ControllerSpec, controller_load, controller_utilization
from models.evaluate import evaluate
from models.raid import RaidLayout, RaidScheme, write_plan
from models.tests.conftest import make_config
from models.tests.test_flash import nvme, writes_only

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LOG = Architecture(write_architecture=WriteArchitecture.LOG_STRUCTURED)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def written_kib(layout: RaidLayout, size_kib: float) -> float:
    """KiB written to the drives (data and parity, every copy) per KiB of a front-end write."""
    plan = write_plan(layout, size_kib, fill=0.8, stripe_run_kib=256.0)
    random = (plan.data_writes + plan.parity_writes) * plan.access_kib
    return (random + plan.data_stream_write_kib + plan.parity_stream_write_kib) / size_kib


def written_ios(layout: RaidLayout, size_kib: float) -> float:
    """Back-end I/Os per front-end write (random accesses + streamed KiB in units of the write)."""
    return write_plan(layout, size_kib, fill=0.8, stripe_run_kib=256.0).backend_ios


@st.composite
def layouts(draw: st.DrawFn) -> RaidLayout:
    scheme = draw(st.sampled_from(["raid0", "raid1", "raid10", "raid5", "raid6", "erasure"]))
    unit = draw(st.sampled_from([None, 16.0, 64.0, 256.0]))
    if scheme == "raid1":
        return RaidLayout(scheme=scheme, group_width=2, stripe_unit_kib=unit)
    if scheme == "raid10":
        return RaidLayout(scheme=scheme, group_width=2 * draw(st.integers(1, 8)), stripe_unit_kib=unit)
    if scheme == "erasure":
        k, m = draw(st.integers(2, 12)), draw(st.integers(1, 4))
        return RaidLayout(scheme=scheme, group_width=k + m, ec_data=k, ec_parity=m, stripe_unit_kib=unit)
    low = {"raid0": 1, "raid5": 3, "raid6": 4}[scheme]
    return RaidLayout(scheme=scheme, group_width=draw(st.integers(low, 24)), stripe_unit_kib=unit)


@settings(max_examples=300)
@given(layouts(), st.sampled_from([0.5, 4, 8, 16, 32, 64, 128, 256, 1024, 4096]))
def test_a_log_never_writes_more_than_in_place_raid_for_the_same_protection(layout: RaidLayout, size: float):
    log = written_layout(layout, LOG)
    assert log.full_stripe_share == 1.0
    assert written_kib(log, size) <= written_kib(layout, size) * (1 + 1e-12)
    assert written_ios(log, size) <= written_ios(layout, size) * (1 + 1e-12)
    plan = write_plan(log, size, fill=0.8, stripe_run_kib=256.0)
    assert plan.data_reads == plan.parity_reads == 0  # nothing read to update parity


def test_raid6_small_write_in_a_log_streams_a_full_stripe_share():
    # 8 + 2: in place a 4 KiB write reads 3 and writes 3 blocks (6 I/Os); a log writes 4 KiB of
    # data and 4 x 2/8 = 1 KiB of parity, streamed: (4 + 1) / 4 = 1.25 I/Os of the write's size
    layout = RaidLayout(scheme="raid6", group_width=10)
    assert written_ios(layout, 4) == pytest.approx(6.0)
    assert written_ios(written_layout(layout, LOG), 4) == pytest.approx(1.25)


def test_write_anywhere_raid_z_and_replicas_keep_their_own_plans():
    for layout in (
        RaidLayout(scheme="raid-dp", group_width=16),
        RaidLayout(scheme="raidz2", group_width=8),
        RaidLayout(scheme="replica", group_width=1, copies=3),
    ):
        assert written_layout(layout, LOG) is layout


def test_an_ssds_random_write_rating_does_not_bind_in_a_log_structured_array():
    # 100% random 4 KiB writes on RAID 6 over NVMe: in place, a drive rated 5,000 steady write IOPS
    # is far busier than one rated 500,000; in a log both stream and load the drives alike
    workloads = writes_only(20000)
    slow, fast = nvme(write_iops_4k=5000), nvme(write_iops_4k=500000)

    def busy(drive, arch):
        cfg = make_config(drive, "raid6", 10, 20).model_copy(update={"architecture": arch})
        return evaluate(workloads, cfg).windows[0].pools[0].drive_utilization_pct.value

    assert busy(slow, None) > 5 * busy(fast, None)
    assert busy(slow, LOG) == pytest.approx(busy(fast, LOG))
    assert busy(slow, LOG) < busy(slow, None)


def test_copies_on_other_nodes_load_their_cpus_with_a_write_each():
    # 1,000 writes/s of 8 KiB, 3 copies: 2 remote copies = 2,000 writes and 16,000 KiB/s more;
    # CPU = (1,000 + 2,000) x 25 us + (8,000 + 16,000) KiB/s x 0.5 us = 0.087 core-s/s
    members = [(w, w.phases[0]) for w in writes_only(1000, size_kib=8)]
    spec = ControllerSpec(
        model="node", count=4, ha_mode="scale-out", cores=1, cpu_us_write=25, cpu_us_per_kib=0.5
    )
    load = controller_load(members, [(0.0, 0.0)], remote_copies=2)
    assert load.copy_writes == 2000 and load.copy_kib_per_s == 16000
    assert controller_utilization(load, spec, 4) == pytest.approx(0.087 / 4)


def test_cross_node_share_of_a_uniformly_placed_cluster():
    assert cross_node_share(1) == 0.0
    assert cross_node_share(4) == pytest.approx(0.75)


def test_replicated_writes_cross_the_cluster_network_by_hand(catalog: Catalog):
    # SolidFire SF9605: 4 nodes, two copies, 2 x 10GbE = 2,300 MB/s per node. 10,000 random
    # 64 KiB writes/s: 2 copies x 640,000 KiB/s = 1,310.72 MB/s at the drives, 3/4 of it crosses
    # nodes = 983.04 MB/s over 4 x 2,300 MB/s = 10.685%
    array = catalog.arrays["netapp-solidfire-sf9605"]
    assert array.default_drive is not None
    cfg = build_configuration(array, catalog.drives[array.default_drive], "replica", drive_count=40)
    window = evaluate(writes_only(10000, size_kib=64), cfg).windows[0]
    net = window.cluster_network_utilization_pct
    assert net is not None
    assert net.value == pytest.approx(100 * 983.04 / 9200, rel=1e-9)
    assert any(c.name == "cluster network" for c in window.checks)


def test_an_ha_pair_array_has_no_cluster_network_check():
    window = evaluate(writes_only(1000), make_config(nvme(), "raid6", 10, 20)).windows[0]
    assert window.cluster_network_utilization_pct is None
    assert not any(c.name == "cluster network" for c in window.checks)


def test_log_structured_is_read_from_the_catalog_record(catalog: Catalog):
    array = catalog.arrays["pure-flasharray-x70"]
    assert array.default_drive is not None
    cfg = build_configuration(array, catalog.drives[array.default_drive], "raid6")
    assert cfg.architecture is not None
    assert written_layout(cfg.pools[0].raid, cfg.architecture).full_stripe_share == 1.0
    assert cfg.pools[0].raid.scheme == RaidScheme.RAID6
