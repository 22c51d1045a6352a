"""Clusters and the systems the literature cites: node counts, what scales with them, their limits,
each family's default configuration against its datasheet, and the flash/scale-out record fields."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.base import InputError
from models.cases import Relaxation
from models.catalog import Catalog, build_configuration, load_catalog
from models.cluster import with_nodes
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.size import size
from models.support import node_choices

ALL_BUT_HEALTHY = [
    Relaxation(case=c) for c in ("drive-failed", "rebuilding", "failover", "cold-cache", "horizon")
]

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def _default(catalog: Catalog, array_id: str):  # type: ignore[no-untyped-def]
    array = catalog.arrays[array_id]
    assert array.default_drive is not None
    config = build_configuration(array, catalog.drives[array.default_drive], array.default_raid)
    bill = evaluate([catalog.templates["file-server"].workload], config).bill
    return config, bill


def _ports(config) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {g.type.value: g.count for g in config.ports}


# ---- each family's default configuration against its datasheet -----------------------------------

DATASHEET_DEFAULTS = [
    # (array, drives, spares, shelves, ports): spares = max(min, ceil(N / per)); shelves =
    # ceil((N + spares - drives in the controller enclosure) / drives per shelf)
    # FAS8040: 48 in RAID-DP 16; max(2, ceil(48/28)) = 2 spares; ceil(50/24) = 3 DS2246; 2 x (2 UTA2 as
    # 16GFC + 2 UTA2 as 10GbE + 2 x 10GbE) per HA pair
    ("netapp-fas8040", 48, 2, 3, {"16gfc": 4, "10gbe": 8}),
    # FAS8060: 96; ceil(96/28) = 4 spares; ceil(100/24) = 5 shelves
    ("netapp-fas8060", 96, 4, 5, {"16gfc": 4, "10gbe": 8}),
    # FAS8080 EX: 144; ceil(144/28) = 6 spares; ceil(150/24) = 7 shelves; twice the 8040's ports
    ("netapp-fas8080", 144, 6, 7, {"16gfc": 8, "10gbe": 16}),
    # FAS2520: a 10-drive group and 2 spares fill the 12 internal slots, no shelf; 2 x 10GBASE-T + 4 GbE
    # per controller
    ("netapp-fas2520", 10, 2, 0, {"10gbe": 4, "1gbe": 8}),
    # FAS2552: 16 (one RAID-DP 16) + 2 spares in the 24 internal slots
    ("netapp-fas2552", 16, 2, 0, {"16gfc": 4, "10gbe": 4, "1gbe": 8}),
    # FAS2554: 2 x 10 + 2 spares = 22 of 24 internal LFF slots
    ("netapp-fas2554", 20, 2, 0, {"16gfc": 4, "10gbe": 4, "1gbe": 8}),
    # FAS2620: 10 + 2 spares = the 12 internal slots; FAS2650: 16 + 2 of 24
    ("netapp-fas2620", 10, 2, 0, {"16gfc": 4, "10gbe": 8}),
    ("netapp-fas2650", 16, 2, 0, {"16gfc": 4, "10gbe": 8}),
    # FAS6240 (one HA pair): 96; 4 spares; ceil(100/24) = 5 DS2246
    ("netapp-fas6240", 96, 4, 5, {"8gfc": 8, "10gbe": 8}),
    # E2724: two RAID 6 8+2 = 20 + 1 spare in the 24 internal slots; 2 x 12Gb SAS per controller
    ("netapp-e2700", 20, 1, 0, {"12gsas": 4}),
    # E5660: 60 in 8+2; ceil(60/30) = 2 spares; 62 > 60 internal -> one DE6600; 4 x 16GFC per controller
    ("netapp-e5600", 60, 2, 1, {"16gfc": 8}),
    # Sun 7110: 14 usable 146 GB drives in mirrors, no expansion, 4 x GbE
    ("sun-7110", 14, 0, 0, {"1gbe": 4}),
    # Sun 7210: 44 data drives in the 48-slot chassis (2 system, 2 Logzilla), 4 x GbE
    ("sun-7210", 44, 0, 0, {"1gbe": 4}),
    # Sun 7410 cluster: 22 x 1 TB + max(1, ceil(22/24)) = 1 spare in one J4400; 4 x GbE per head
    ("sun-7410", 22, 1, 1, {"1gbe": 8}),
    # SolidFire: four nodes of 10 (SF9608: 8) drives, no spares, no shelves, 2 x 10GbE per node
    ("netapp-solidfire-sf9605", 40, 0, 0, {"10gbe": 8}),
    ("netapp-solidfire-sf9608", 32, 0, 0, {"10gbe": 8}),
    ("netapp-solidfire-sf19210", 40, 0, 0, {"10gbe": 8}),
    ("netapp-solidfire-sf38410", 40, 0, 0, {"10gbe": 8}),
]


@pytest.mark.parametrize(("array_id", "drives", "spares", "shelves", "ports"), DATASHEET_DEFAULTS)
def test_a_default_configuration_has_its_datasheets_spare_shelf_and_port_counts(
    catalog: Catalog, array_id: str, drives: int, spares: int, shelves: int, ports: dict[str, int]
) -> None:
    config, bill = _default(catalog, array_id)
    assert config.pools[0].drive_count == drives
    assert (bill.spares, bill.shelves) == (spares, shelves)
    assert _ports(config) == ports


def test_the_zfs_7320_and_7420_take_the_500_gb_sata_drive(catalog: Catalog) -> None:
    drive = catalog.drives["hdd-7k2-sata-500"]
    for array_id in ("oracle-zfs-7320", "oracle-zfs-7420", "sun-7210", "sun-7410"):
        config = build_configuration(catalog.arrays[array_id], drive, "raidz2")
        assert config.pools[0].drive.id == "hdd-7k2-sata-500"


def test_the_sun_7410_offers_readzilla_l2arc_and_logzilla_zil(catalog: Catalog) -> None:
    sun = catalog.arrays["sun-7410"]
    config = build_configuration(sun, catalog.drives["hdd-7k2-sata-1000"], "zfs-mirror", flash_cache_gb=600)
    assert (config.cache.flash_kind.value, config.cache.flash_cache_gb) == ("l2arc", 600)  # 6 x 100 GB
    assert sun.write_log[0].sizes_gb == [18, 36, 72]  # 18 GB Logzillas


def test_the_sf9605_has_its_datasheets_six_cores(catalog: Catalog) -> None:
    assert catalog.arrays["netapp-solidfire-sf9605"].controller.cores == 6


# ---- clusters ---------------------------------------------------------------------------------------


def test_a_24_node_fas6240_cluster_with_1632_data_drives_is_a_catalog_reference(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas6240"]
    # 96 RAID-DP groups of 19 (17 data + 2 parity): 96 x 19 = 1,824 drives, 96 x 17 = 1,632 data drives
    config = build_configuration(
        fas, catalog.drives["hdd-15k-sas-450"], "raid-dp", group_width=19, drive_count=1824, nodes=12
    )
    pool = config.pools[0]
    assert pool.drive_count == 1824
    assert pool.raid.data_drives * (1824 // 19) == 1632
    assert config.cluster is not None and config.cluster.nodes == 12
    assert config.controller.count == 24  # 12 HA pairs
    assert _ports(config) == {"8gfc": 96, "10gbe": 96}  # 8 + 8 per HA pair x 12
    bill = evaluate([catalog.templates["file-server"].workload], config).bill
    # spares ceil(1,824 / 28) = 66; shelves ceil(1,890 / 24) = 79; 12 x 12U + 79 x 2U = 302U
    assert (bill.spares, bill.shelves, bill.rack_units) == (66, 79, 302)
    assert config.name.startswith("FAS6240 (HA pair), 12 HA pairs (24 controllers), 1824 x")


@pytest.mark.parametrize("nodes", [0, 13])
def test_a_node_count_outside_the_familys_range_names_the_range(catalog: Catalog, nodes: int) -> None:
    fas = catalog.arrays["netapp-fas6240"]
    with pytest.raises(InputError, match="1 to 12 HA pairs") as exc:
        build_configuration(fas, catalog.drives["hdd-10k-sas-900"], "raid-dp", nodes=nodes)
    assert exc.value.field == "nodes"


def test_drives_beyond_the_per_cluster_limit_name_it_at_drive_count(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas6240"]
    # 17,008 drives + ceil(17,008 / 28) = 608 spares = 17,616 > 12 x 1,440 = 17,280
    with pytest.raises(InputError, match="cluster maximum of 17280 drives") as exc:
        build_configuration(fas, catalog.drives["hdd-10k-sas-900"], "raid-dp", drive_count=17008)
    assert exc.value.field == "drive_count"


def test_drives_beyond_the_given_ha_pairs_name_the_per_pair_limit(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas6240"]
    # 1,440 + 52 spares = 1,492 > 1,440 per HA pair: two pairs needed, one given
    with pytest.raises(InputError, match="max drives per HA pair") as exc:
        build_configuration(fas, catalog.drives["hdd-10k-sas-900"], "raid-dp", drive_count=1440, nodes=1)
    assert exc.value.field == "drive_count"


def test_an_array_that_does_not_cluster_refuses_a_node_count(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="does not cluster") as exc:
        build_configuration(
            catalog.arrays["netapp-fas3070"], catalog.drives["hdd-15k-fc-300"], "raid-dp", nodes=2
        )
    assert exc.value.field == "nodes"


def test_solidfire_bills_exactly_its_nodes_no_phantom_spare(catalog: Catalog) -> None:
    sf = catalog.arrays["netapp-solidfire-sf9605"]
    config = build_configuration(sf, catalog.drives["ssd-sata-960"], "replica", drive_count=80)
    bill = evaluate([catalog.templates["file-server"].workload], config).bill
    # 80 drives = 8 nodes of 10, no spares: 8 x 1U; 8 x 350 W + 80 x 4 W = 3,120 W;
    # 8 x 60,000 + 80 x 900 = 552,000 USD
    assert (bill.drives, bill.spares, bill.shelves, bill.rack_units) == (80, 0, 0, 8)
    assert bill.power_w == pytest.approx(3120)
    assert bill.cost_usd == pytest.approx(552_000)


def test_naming_the_default_port_option_gives_the_same_ports_as_leaving_it_out(catalog: Catalog) -> None:
    sf = catalog.arrays["netapp-solidfire-sf9605"]
    ssd = catalog.drives["ssd-sata-960"]
    unnamed = build_configuration(sf, ssd, "replica", drive_count=80)
    named = build_configuration(sf, ssd, "replica", drive_count=80, port_option="10Gb iSCSI")
    assert _ports(unnamed) == _ports(named) == {"10gbe": 16}  # 2 per node x 8 nodes
    other = build_configuration(sf, ssd, "replica", drive_count=80, port_option="25Gb iSCSI")
    assert _ports(other) == {"25gbe": 16}


def test_an_unknown_port_option_is_an_error_at_ports(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="no port option") as exc:
        build_configuration(
            catalog.arrays["netapp-fas8040"], catalog.drives["hdd-10k-sas-900"], "raid-dp", port_option="nope"
        )
    assert exc.value.field == "ports"


@settings(max_examples=25, deadline=None)
@given(nodes=st.integers(min_value=1, max_value=12))
def test_controllers_ports_and_enclosures_grow_in_proportion_to_the_nodes(
    catalog: Catalog, nodes: int
) -> None:
    base = build_configuration(catalog.arrays["netapp-fas8080"], catalog.drives["hdd-10k-sas-900"], "raid-dp")
    scaled = with_nodes(base, nodes)
    assert scaled.controller.count == 2 * nodes
    assert _ports(scaled) == {k: v * nodes for k, v in _ports(base).items()}
    pk, pk0 = scaled.packaging, base.packaging
    assert pk.controller_rack_units == pytest.approx(pk0.controller_rack_units * nodes)
    assert pk.controller_price_usd == pytest.approx(pk0.controller_price_usd * nodes)
    assert pk.controller_power_w == pytest.approx(pk0.controller_power_w * nodes)
    assert pk.max_drives == 1440 * nodes


def test_size_adds_ha_pairs_when_the_drives_outgrow_one_and_says_so(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas8040"]
    config = build_configuration(fas, catalog.drives["hdd-10k-sas-900"], "raid-dp")
    family = config.model_copy(update={"pools": [config.pools[0].model_copy(update={"drive_count": None})]})
    workload = catalog.templates["file-server"].workload.model_copy(update={"capacity_tb": 700})
    result = size([workload], family)
    # 700 TB needs ~2,048 drives + spares: more than 2 x 720 per HA pair, so 3 pairs
    assert result.feasible
    assert (result.nodes, result.nodes_added) == (3, 2)
    assert result.binding_constraint.startswith("HA pair count")
    assert "Adds 2 HA pair(s)" in result.explanation
    assert result.configuration.controller.count == 6
    assert result.drive_count + result.result.bill.spares <= 3 * 720


def test_the_name_states_the_node_count_it_has(catalog: Catalog) -> None:
    base = build_configuration(
        catalog.arrays["dell-powerstore-3200t"], catalog.drives["nvme-7450-pro-7680"], "raid5"
    )
    assert ", 1 node (2 controllers)," in base.name
    scaled = with_nodes(base, 2)
    assert ", 2 nodes (4 controllers)," in scaled.name and "1 node" not in scaled.name


def test_nodes_added_for_their_controllers_each_bring_a_group_of_drives(catalog: Catalog) -> None:
    # 400,000 random 8 KiB I/O per s on 7.68 TB NVMe in RAID 5 groups of 5: one PowerStore appliance's
    # controllers cannot carry it, one group of five drives could; the second appliance serves drives
    # of its own, so the answer has a group per appliance (10 drives), not two heads over five drives
    ps = catalog.arrays["dell-powerstore-3200t"]
    config = build_configuration(ps, catalog.drives["nvme-7450-pro-7680"], "raid5", group_width=5)
    family = config.model_copy(update={"pools": [config.pools[0].model_copy(update={"drive_count": None})]})
    workload = catalog.templates["oltp-database"].workload
    phase = workload.phases[0].model_copy(update={"iops": 400_000, "read_pct": 70, "io_size_kib": 8})
    w = workload.model_copy(update={"capacity_tb": 5.0, "phases": [phase], "growth_pct_per_year": 0.0})
    result = size([w], family, relax=ALL_BUT_HEALTHY)
    assert (result.feasible, result.nodes, result.drive_count) == (True, 2, 10)
    assert ", 2 nodes (4 controllers)," in result.configuration.name


def test_size_keeps_the_nodes_when_they_suffice(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas8040"]
    config = build_configuration(fas, catalog.drives["hdd-10k-sas-900"], "raid-dp")
    family = config.model_copy(update={"pools": [config.pools[0].model_copy(update={"drive_count": None})]})
    result = size([catalog.templates["file-server"].workload], family)
    assert (result.nodes, result.nodes_added) == (1, 0)


# ---- flash and scale-out fields ---------------------------------------------------------------------


def _ssd(**fields: object) -> DriveSpec:
    base: dict[str, object] = {
        "id": "x",
        "name": "x",
        "kind": "nvme",
        "capacity_gb": 3840,
        "media_rate_mb_s": 6800,
        "read_iops_4k": 1_000_000,
        "write_iops_4k": 200_000,
        "read_latency_us": 80,
        "write_latency_us": 15,
    }
    return DriveSpec.model_validate({**base, **fields})


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("endurance_dwpd", 0),
        ("endurance_dwpd", -1),
        ("warranty_years", 0),
        ("steady_write_iops_4k", 0),
        ("iops_rated_qd", 0),
        ("over_provisioning_pct", -1),
        ("over_provisioning_pct", 100),
        ("seq_write_mb_s", 0),
    ],
)
def test_a_zero_or_negative_datasheet_figure_is_an_error_naming_the_field(field: str, value: float) -> None:
    with pytest.raises(ValidationError) as exc:
        _ssd(**{field: value})
    assert exc.value.errors()[0]["loc"] == (field,)


def test_steady_state_write_iops_never_exceed_the_rating() -> None:
    with pytest.raises(ValidationError, match="steady_write_iops_4k 250000 exceeds write_iops_4k 200000"):
        _ssd(steady_write_iops_4k=250_000)
    assert _ssd(steady_write_iops_4k=150_000, over_provisioning_pct=28, endurance_dwpd=3).endurance_dwpd == 3


def test_rated_endurance_in_terabytes_per_day() -> None:
    # 3 DWPD x 3,840 GB = 11.52 TB/day
    assert _ssd(endurance_dwpd=3).rated_writes_tb_per_day == pytest.approx(11.52)


def test_a_hard_disk_has_no_flash_figures(catalog: Catalog) -> None:
    hdd = catalog.drives["hdd-10k-sas-900"].model_dump()
    with pytest.raises(ValidationError, match="endurance_dwpd is a flash figure"):
        DriveSpec.model_validate({**hdd, "endurance_dwpd": 1})


def test_a_node_iops_ceiling_below_one_io_is_an_error_naming_it() -> None:
    with pytest.raises(ValidationError) as exc:
        ControllerSpec(model="node", max_iops=0.5)
    assert exc.value.errors()[0]["loc"] == ("max_iops",)


def test_current_hardware_covers_flash_and_scale_out_architectures(catalog: Catalog) -> None:
    current = [a for a in catalog.arrays.values() if a.era >= 2018]
    assert len(current) >= 12
    kinds = {a.architecture.write_architecture.value for a in current if a.architecture is not None}
    assert kinds == {"write_anywhere", "log_structured", "in_place_raid", "replicated_scale_out"}
    ssds = [d for d in catalog.drives.values() if d.kind.value in ("ssd", "nvme") and d.endurance_dwpd]
    assert len([d for d in ssds if "202" in d.name]) >= 10
    assert len([d for d in catalog.drives.values() if d.kind.value == "hdd" and d.capacity_gb >= 20000]) >= 3


def test_recommend_names_the_ha_pairs_a_clustered_family_needs(catalog: Catalog) -> None:
    from models.recommend import RecommendConstraints, recommend

    workload = catalog.templates["file-server"].workload.model_copy(update={"capacity_tb": 700})
    constraints = RecommendConstraints(array_ids=["netapp-fas8040"], drive_ids=["hdd-10k-sas-900"])
    best = recommend([workload], catalog, constraints, limit=1).configurations[0]
    # ~2,000 drives of 900 GB need more than the 720 slots of one HA pair
    assert best.nodes is not None and best.nodes >= 2
    assert best.drive_count + best.spares <= best.nodes * 720
    assert best.configuration.controller.count == 2 * best.nodes


def test_a_clustered_array_offers_each_node_count_with_its_label(catalog: Catalog) -> None:
    # FAS6240: 1 to 12 HA pairs of 2 controllers; SolidFire SF9605: 4 to 100 nodes of 1
    fas = node_choices(catalog.arrays["netapp-fas6240"])
    assert [c.nodes for c in fas] == list(range(1, 13))
    assert (fas[0].label, fas[-1].label) == ("1 HA pair (2 controllers)", "12 HA pairs (24 controllers)")
    sf = node_choices(catalog.arrays["netapp-solidfire-sf9605"])
    assert (sf[0].nodes, sf[0].label, len(sf)) == (4, "4 nodes", 97)


def test_an_array_that_does_not_cluster_offers_no_node_count(catalog: Catalog) -> None:
    assert node_choices(catalog.arrays["netapp-fas3170"]) == []
