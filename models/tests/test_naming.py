"""A configuration in words (models.naming.describe_configuration): what column heads and reports say."""

from __future__ import annotations

from models.naming import HYPOTHETICAL_LABEL, describe_configuration
from models.raid import RaidLayout
from models.tests.conftest import make_config


def test_a_configuration_is_described_by_its_array_drives_layout_and_flash(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 32, name="FAS3170 (HA pair), 32 x whatever, raid-dp 16")
    cfg = cfg.model_copy(update={"cache": cfg.cache.model_copy(update={"flash_cache_gb": 1024.0})})
    drive = hdd15k.name.split(" (")[0]
    assert describe_configuration(cfg) == f"FAS3170 (HA pair), {drive}, raid-dp 16, 1,024 GB flash"


def test_a_hypothetical_says_so_and_layouts_read_as_copies_and_k_plus_m(hdd15k):
    cfg = make_config(hdd15k, "raid-dp", 16, 32, name="Ceph (3 nodes)")
    ec = cfg.pools[0].model_copy(
        update={"raid": RaidLayout(scheme="erasure", group_width=6, ec_data=4, ec_parity=2)}
    )
    rep = cfg.pools[0].model_copy(
        update={"name": "r", "raid": RaidLayout(scheme="replica", group_width=1, copies=3)}
    )
    cfg = cfg.model_copy(update={"pools": [ec, rep], "hypothetical": True})
    drive = hdd15k.name.split(" (")[0]
    assert describe_configuration(cfg) == (
        f"Ceph (3 nodes), {drive}, erasure 4+2, {drive}, 3 copies, {HYPOTHETICAL_LABEL}"
    )
    assert HYPOTHETICAL_LABEL == "hypothetical: not offered by this array"
