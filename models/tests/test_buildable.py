"""Only what can be built (models.buildable): a layout placed one piece per host needs the hosts."""

from pathlib import Path

import pytest

from models.base import InputError
from models.blocks import BlockTarget, block_from_array, size_blocks
from models.buildable import hosts_needed, layout_words
from models.catalog import Catalog, build_configuration, load_catalog
from models.evaluate import evaluate
from models.raid import RaidLayout
from models.size import size, with_drive_count
from models.tests.conftest import oltp

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def test_erasure_k_plus_m_needs_k_plus_m_hosts_and_one_more_to_heal():
    ec = RaidLayout(scheme="erasure", group_width=7, ec_data=5, ec_parity=2)
    assert hosts_needed(ec) == (7, 8)
    assert layout_words(ec) == "erasure 5+2"
    three = RaidLayout(scheme="replica", group_width=1, copies=3)
    assert hosts_needed(three) == (3, 4)
    assert layout_words(three) == "3 copies"
    assert hosts_needed(RaidLayout(scheme="raid-dp", group_width=16)) is None


def test_a_ceph_4_plus_2_block_keeps_two_thirds_of_raw_below_nearfull_and_needs_six_hosts(catalog):
    # one node of ten NVMe drives; 4+2 stripes span the nodes: 4/6 of raw after the erasure code,
    # not the 6-drive group one node could hold alone (6 x 4/6 / 10 = 0.40); of that, data is planned
    # below Ceph's nearfull ratio 0.85 (15% reserve): usable = 4/6 x 0.85 = 0.5667
    array = catalog.arrays["ceph-nvme-reference"]
    drive = catalog.drives[array.default_drive]
    derived = block_from_array(array, drive, raid_scheme="erasure", group_width=6)
    assert derived.block.usable_fraction == pytest.approx(4 / 6 * 0.85)
    assert derived.block.min_blocks == 6
    sized = size_blocks(derived.block, BlockTarget(read_gb_s=1.0))
    assert sized.blocks == 6 and sized.binding == "failure domains"
    replicated = block_from_array(array, drive, raid_scheme="replica")
    assert replicated.block.usable_fraction == pytest.approx(1 / 3 * 0.85)  # 3 copies, the same reserve
    assert replicated.block.min_blocks == 3


def test_an_erasure_code_wider_than_the_nodes_is_an_input_error_naming_the_layout(catalog):
    array = catalog.arrays["ceph-nvme-reference"]
    drive = catalog.drives[array.default_drive]
    cfg = build_configuration(array, drive, "erasure", 7, drive_count=28, nodes=4)
    with pytest.raises(InputError) as e:
        evaluate([oltp(iops=1000)], cfg)
    assert e.value.field == "pools.0.raid"
    assert (
        "erasure 5+2 places one piece per host: it needs at least 7 hosts, the configuration has 4"
        in e.value.reason
    )


def test_at_exactly_k_plus_m_hosts_the_evaluation_warns_it_cannot_heal(catalog):
    array = catalog.arrays["ceph-nvme-reference"]
    drive = catalog.drives[array.default_drive]
    cfg = build_configuration(array, drive, "erasure", 6, drive_count=60, nodes=6)
    res = evaluate([oltp(iops=1000)], cfg)
    assert any(
        w.startswith("erasure 4+2 on 6 hosts: a failed host leaves the data degraded") for w in res.warnings
    )


def test_sizing_starts_at_the_hosts_the_layout_needs(catalog):
    array = catalog.arrays["ceph-nvme-reference"]
    drive = catalog.drives[array.default_drive]
    family = build_configuration(array, drive, "erasure", 6, nodes=3)
    family = family.model_copy(update={"pools": [family.pools[0].model_copy(update={"drive_count": None})]})
    out = size([oltp(iops=1000)], family)
    assert out.nodes is not None and out.nodes >= 6


# ---- drive increments: PowerStore DRE (#33) ------------------------------------------------------


def test_powerstore_dre_grows_a_drive_at_a_time_from_six_drives_single_parity_and_seven_double(catalog):
    from models.batch import family_counts

    ps = catalog.arrays["dell-powerstore-3200t"]
    r5, r6 = ps.raid_option("raid5"), ps.raid_option("raid6")
    # spares: max(1, ceil(N / 25)) = 1 below 26 drives. 4+1: 5 + 1 spare = 6 drives, DRE's fewest for
    # single parity; 8+1: one stripe is 9 drives (+1 = 10); 4+2: 6 + 1 = 7, DRE's fewest for double parity
    assert family_counts(ps, r5.layout(5))[:3].tolist() == [5, 6, 7]
    assert family_counts(ps, r5.layout(9))[:3].tolist() == [9, 10, 11]
    assert family_counts(ps, r6.layout(6))[:2].tolist() == [6, 7]


def test_a_dre_pool_of_ten_drives_keeps_eight_ninths_of_them_not_a_group_and_a_stray_drive(catalog):
    from models.capacity import data_drive_count

    layout = catalog.arrays["dell-powerstore-3200t"].raid_option("raid5").layout(9)
    # 8+1 stripes over chunks of all ten drives: 10 x 8/9 = 8.889 drives of data
    assert data_drive_count(10, layout) == pytest.approx(10 * 8 / 9)
    cfg = build_configuration(
        catalog.arrays["dell-powerstore-3200t"],
        catalog.drives["nvme-7450-pro-7680"],
        "raid5",
        9,
        drive_count=10,
    )
    assert evaluate([oltp(iops=1000)], cfg).passed


def test_fewer_drives_than_dre_builds_on_are_an_input_error_at_the_pools_drive_count(catalog):
    ps = catalog.arrays["dell-powerstore-3200t"]
    cfg = build_configuration(ps, catalog.drives["nvme-7450-pro-7680"], "raid6", 6, drive_count=6)
    short = cfg.model_copy(update={"pools": [cfg.pools[0].model_copy(update={"drive_count": 5})]})
    with pytest.raises(InputError) as e:
        evaluate([oltp(iops=1000)], short)
    assert e.value.field == "pools.0.drive_count"
    assert "at least 6 drives (7 with spares), got 5" in e.value.reason
    with pytest.raises(InputError, match=r"at least 6 drives \(7 with spares\)"):
        build_configuration(ps, catalog.drives["nvme-7450-pro-7680"], "raid6", 6, drive_count=5)


def test_sizing_a_dre_pool_answers_the_fewest_drives_not_a_multiple_of_nine(catalog):
    ps = catalog.arrays["dell-powerstore-3200t"]
    cfg = build_configuration(ps, catalog.drives["nvme-7450-pro-7680"], "raid5", 9)
    family = cfg.model_copy(update={"pools": [cfg.pools[0].model_copy(update={"drive_count": None})]})
    # 80 TB of data: at 8/9 of 7.68 TB drives less the reserves, more than 11 drives and fewer than 18
    w = oltp(iops=1000, capacity_tb=80.0)
    out = size([w], family)
    assert out.feasible and out.drive_count % 9 != 0 and 11 < out.drive_count < 18
    one_fewer = with_drive_count(out.configuration, 0, out.drive_count - 1)
    assert not evaluate([w], one_fewer).passed
    assert "distributed raid5 (stripes of 9 over every drive)" in out.explanation


def test_a_dre_block_keeps_every_drive_but_its_spare(catalog):
    from models.blocks import grouped_drives

    ps = catalog.arrays["dell-powerstore-3200t"]
    # 25 drives less max(1, ceil(25 / 25)) = 1 spare: 24, not rounded down to 18 (two groups of 9)
    assert grouped_drives(ps, ps.raid_option("raid5").layout(9), 25) == (24, 1.0)


# ---- vSAN ESA layouts by host count (#33) --------------------------------------------------------


def test_vsan_offers_raid5_2_plus_1_on_3_to_5_hosts_4_plus_1_and_raid6_4_plus_2_from_6(catalog):
    vsan = catalog.arrays["vsan-esa-reference"]
    ec = vsan.raid_option("erasure")
    assert sorted(ec.widths or []) == [3, 5, 6]
    two, four, six = ec.layout(3), ec.layout(5), ec.layout(6)
    assert (layout_words(two), two.min_hosts, two.max_hosts) == ("erasure 2+1", 3, 5)
    assert (layout_words(four), four.min_hosts, four.max_hosts) == ("erasure 4+1", 6, None)
    assert (layout_words(six), six.min_hosts) == ("erasure 4+2", 6)  # no 5+1
    assert hosts_needed(four) == (6, 6)  # vSAN's minimum; 4+1 re-lays out as 2+1 when a host is lost
    assert hosts_needed(six) == (6, 7)
    assert hosts_needed(vsan.raid_option("replica").layout(1)) == (3, 3)  # two copies and a witness


def test_vsan_layouts_outside_their_host_counts_are_input_errors_naming_the_pool_raid(catalog):
    vsan = catalog.arrays["vsan-esa-reference"]
    drive = catalog.drives[vsan.default_drive]
    four_on_four = build_configuration(vsan, drive, "erasure", 5, drive_count=20, nodes=4)
    with pytest.raises(InputError) as e:
        evaluate([oltp(iops=1000)], four_on_four)
    assert e.value.field == "pools.0.raid"
    assert (
        "erasure 4+1 is built on at least 6 hosts (the vendor's minimum), the configuration has 4"
        in e.value.reason
    )
    two_on_six = build_configuration(vsan, drive, "erasure", 3, drive_count=24, nodes=6)
    with pytest.raises(InputError) as e:
        evaluate([oltp(iops=1000)], two_on_six)
    assert e.value.field == "pools.0.raid"
    assert "erasure 2+1 is built on at most 5 hosts, the configuration has 6" in e.value.reason
    assert evaluate(
        [oltp(iops=1000)], build_configuration(vsan, drive, "erasure", 6, drive_count=24, nodes=6)
    )


def test_sizing_vsan_keeps_each_layout_within_its_hosts(catalog):
    vsan = catalog.arrays["vsan-esa-reference"]
    drive = catalog.drives[vsan.default_drive]
    four = build_configuration(vsan, drive, "erasure", 5, drive_count=20, nodes=4)
    family = four.model_copy(update={"pools": [four.pools[0].model_copy(update={"drive_count": None})]})
    assert size([oltp(iops=1000)], family).nodes == 6  # starts at vSAN's six hosts for 4+1
    two = build_configuration(vsan, drive, "erasure", 3, drive_count=12, nodes=3)
    family = two.model_copy(update={"pools": [two.pools[0].model_copy(update={"drive_count": None})]})
    heavy = size([oltp(iops=400_000)], family)  # the hosts' CPUs need more than five: 2+1 stops at 5
    assert not heavy.feasible and heavy.nodes == 5


def test_recommend_proposes_vsan_layouts_only_on_their_host_counts(catalog):
    from models.recommend import OnePer, RecommendConstraints, recommend

    rec = recommend(
        [catalog.templates["oltp-database"].workload],
        catalog,
        RecommendConstraints(array_ids=["vsan-esa-reference"]),
        one_per=OnePer.FAMILY,
        limit=100,
    )
    seen = {(r.layout, r.nodes) for r in rec.configurations + rec.pareto_front}
    assert {layout for layout, _ in seen} >= {"erasure 2+1", "erasure 4+1"}
    for layout, nodes in seen:
        assert nodes is not None
        assert {"erasure 2+1": 3 <= nodes <= 5, "erasure 4+1": nodes >= 6, "erasure 4+2": nodes >= 6}.get(
            layout, nodes >= 3
        ), (layout, nodes)


def test_a_vsan_2_plus_1_block_is_built_on_3_to_5_hosts(catalog):
    vsan = catalog.arrays["vsan-esa-reference"]
    block = block_from_array(
        vsan, catalog.drives[vsan.default_drive], raid_scheme="erasure", group_width=3
    ).block
    assert (block.min_blocks, block.max_blocks) == (3, 5)
    with pytest.raises(InputError) as e:
        size_blocks(block, BlockTarget(read_gb_s=1000.0))
    assert e.value.field == "block.max_blocks"


# ---- recommend's nodes follow size()'s (#33) -----------------------------------------------------


@pytest.mark.parametrize(
    ("array_id", "drive_id", "scheme"),
    [
        ("dell-powerstore-3200t", "nvme-7450-pro-7680", "raid5"),
        ("ceph-nvme-reference", None, "erasure"),
        ("vsan-esa-reference", None, "erasure"),
    ],
)
def test_recommend_and_size_agree_on_nodes_and_drives_for_the_oltp_template(
    catalog, array_id, drive_id, scheme
):
    # the OLTP template at 30 x its IOPS: one PowerStore appliance's controllers (and three Ceph
    # hosts' CPUs) cannot carry it; size() adds nodes for the load with drives of their own, and
    # recommend answers the same nodes and drives, not the nodes its drives would need slots for
    from models.cases import HEALTHY_ONLY
    from models.recommend import RecommendConstraints, recommend

    template = catalog.templates["oltp-database"].workload
    w = template.model_copy(
        update={"phases": [p.model_copy(update={"iops": p.iops * 30}) for p in template.phases]}
    )
    array = catalog.arrays[array_id]
    drive = catalog.drives[drive_id or array.default_drive]
    rec = recommend(
        [w],
        catalog,
        RecommendConstraints(array_ids=[array_id], drive_ids=[drive.id], raid_schemes=[scheme]),
        limit=1,
        pareto_limit=0,
    )
    got = rec.configurations[0]
    cfg = build_configuration(array, drive, scheme, got.group_width)
    family = cfg.model_copy(update={"pools": [cfg.pools[0].model_copy(update={"drive_count": None})]})
    sized = size([w], family, relax=HEALTHY_ONLY, max_drives=array.max_drives)
    assert sized.nodes is not None and sized.nodes > array.base_nodes  # the load, not the drives, adds nodes
    assert (got.nodes, got.configuration.pools[0].drive_count) == (sized.nodes, sized.drive_count)
