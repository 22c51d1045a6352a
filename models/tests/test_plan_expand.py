"""Expanding an installed configuration (models.plan.expand): one shelf by hand, mixed groups, limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.base import InputError
from models.catalog import Catalog, build_configuration, load_catalog
from models.configuration import Packaging
from models.plan.expand import AddedGroup, Expansion, expand, shelf_drives
from models.tests.conftest import make_config, oltp

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def test_one_shelf_of_24_joins_the_pool_less_the_spare_it_needs(hdd15k):
    # 46 drives + ceil(46/30) = 2 spares = 48 = two shelves; one shelf more: 72 in all.
    # N' = 72 - 2 = 70 needs ceil(70/30) = 3 spares (73 > 72): N' = 69, 69 + 3 = 72
    cfg = make_config(hdd15k, scheme="raid6", width=12, count=46)
    assert shelf_drives(46, 1, 24, cfg.pools[0]) == 69

    res = expand([oltp(iops=3000)], cfg, Expansion(shelves=1), drives={})

    assert res.configuration.pools[0].drive_count == 69
    assert res.drives_added.value == 24  # 48 -> 72 with spares
    assert res.shelves_added.value == 1  # ceil(48/24) = 2 -> ceil(72/24) = 3
    # RAID 6 groups of 12: 46 = 3 x 12 + 10 -> 3 x 10 + 8 = 38 data drives; 69 = 5 x 12 + 9 -> 5 x 10 + 7 = 57
    # 19 data drives x 272,000 MiB (285.212672 GB) = 5.41904 TB usable added
    assert res.usable_tb_added.value == pytest.approx(19 * 272000 * 2**20 / 1e12)
    assert res.cost_added_usd.value == pytest.approx(24 * 500.0)  # drives at 500 USD, shelves unpriced
    # RAID 6 writes in place: the same back-end I/Os over 69 drives instead of 46
    per_before = res.before.windows[0].pools[0].per_drive_iops.value
    per_after = res.after.windows[0].pools[0].per_drive_iops.value
    assert per_after == pytest.approx(per_before * 46 / 69)
    gain = res.windows[0]
    assert gain.drive_busy_after_pct < gain.drive_busy_before_pct


def test_an_expansion_says_when_growth_breaks_it_again(hdd15k):
    cfg = make_config(hdd15k, scheme="raid6", width=12, count=22)
    growing = oltp(iops=1000, growth_pct_per_year=40, horizon_years=5)

    res = expand([growing], cfg, Expansion(shelves=1), drives={})

    assert res.breaks_before_month is not None and res.breaks_after_month is not None
    assert res.breaks_after_month > res.breaks_before_month
    assert f"month {res.breaks_after_month}" in res.text


def test_drives_of_another_model_form_their_own_pool_and_carry_the_moved_workloads(catalog):
    base = build_configuration(
        catalog.arrays["netapp-fas3270"], catalog.drives["hdd-10k-sas-600"], "raid-dp", drive_count=48
    )
    group = AddedGroup(drive_id="hdd-7k2-nlsas-3000", count=16, workloads=["archive"])
    res = expand(
        [oltp(iops=3000), oltp(name="archive", iops=200, capacity_tb=20)],
        base,
        Expansion(groups=[group]),
        drives=catalog.drives,
        array=catalog.arrays["netapp-fas3270"],
    )
    pools = res.configuration.pools
    assert [p.drive.id for p in pools] == ["hdd-10k-sas-600", "hdd-7k2-nlsas-3000"]
    assert pools[1].drive_count == 16
    assert {p.pool for p in res.after.windows[0].pools} == {pools[0].name, "expansion 1"}
    archive = next(ph for ph in res.after.windows[0].phases if ph.workload == "archive")
    assert archive.pool == "expansion 1"


def test_a_drive_the_array_cannot_take_is_an_error_at_the_groups_drive(catalog):
    array = catalog.arrays["netapp-fas3270"]
    base = build_configuration(array, catalog.drives["hdd-10k-sas-600"], "raid-dp", drive_count=48)
    bad = Expansion(groups=[AddedGroup(drive_id="hdd-7k2-nlsas-22000", count=16)])
    with pytest.raises(InputError) as exc:
        expand([oltp()], base, bad, drives=catalog.drives, array=array)
    assert exc.value.field == "expansion.groups.0.drive_id"


def test_another_model_cannot_join_an_existing_raid_group(catalog):
    array = catalog.arrays["netapp-fas3270"]
    base = build_configuration(array, catalog.drives["hdd-10k-sas-600"], "raid-dp", drive_count=48)
    bad = Expansion(groups=[AddedGroup(drive_id="hdd-15k-sas-450", count=16, pool=base.pools[0].name)])
    with pytest.raises(InputError) as exc:
        expand([oltp()], base, bad, drives=catalog.drives, array=array)
    assert exc.value.field == "expansion.groups.0.drive_id"


def test_shelves_beyond_the_arrays_maximum_are_an_error_at_shelves(hdd15k):
    cfg = make_config(hdd15k, scheme="raid6", width=12, count=46, packaging=Packaging(max_shelves=2))
    with pytest.raises(InputError) as exc:
        expand([oltp()], cfg, Expansion(shelves=1), drives={})
    assert exc.value.field == "expansion.shelves"
    assert "3 shelves" in exc.value.reason


def test_drives_beyond_the_arrays_maximum_are_an_error_at_the_groups_count(catalog):
    array = catalog.arrays["netapp-fas3270"]  # 960 drives at most
    base = build_configuration(array, catalog.drives["hdd-10k-sas-600"], "raid-dp", drive_count=900)
    big = Expansion(groups=[AddedGroup(drive_id="hdd-10k-sas-600", count=64, pool=base.pools[0].name)])
    with pytest.raises(InputError) as exc:
        expand([oltp()], base, big, drives=catalog.drives, array=array)
    assert exc.value.field == "expansion.groups.0.count"


def test_an_expansion_that_adds_nothing_is_an_error(hdd15k):
    with pytest.raises(InputError) as exc:
        expand([oltp()], make_config(hdd15k), Expansion(), drives={})
    assert exc.value.field == "expansion"
