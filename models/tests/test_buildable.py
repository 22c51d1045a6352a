"""Only what can be built (models.buildable): a layout placed one piece per host needs the hosts."""

from pathlib import Path

import pytest

from models.base import InputError
from models.blocks import BlockTarget, block_from_array, size_blocks
from models.buildable import hosts_needed, layout_words
from models.catalog import Catalog, build_configuration, load_catalog
from models.evaluate import evaluate
from models.raid import RaidLayout
from models.size import size
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
