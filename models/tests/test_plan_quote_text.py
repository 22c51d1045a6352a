"""A quote pasted as text (models.plan.quote_text): each item read, and what cannot be read named."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.base import InputError
from models.catalog import Catalog, load_catalog
from models.plan.quote_text import read_quote
from models.raid import RaidScheme

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def test_a_netapp_quote_is_read_item_by_item(catalog):
    text = """NetApp FAS8040 HA pair, 2 controllers
    6 x DS2246 disk shelves
    144 x 900GB 10K SAS
    RAID-DP; 1 TB Flash Cache
    ONTAP 9.1"""
    q = read_quote(text, catalog.arrays, catalog.drives)
    assert (q.array_id, q.model) == ("netapp-fas8040", "FAS8040")
    assert q.drive_id == "hdd-10k-sas-900" and q.drive_count == 144
    assert (q.controllers, q.shelves, q.raid_scheme) == (2, 6, RaidScheme.RAID_DP)
    assert q.flash_cache_gb == 1000.0 and q.software_release == "9.1"


def test_a_model_the_catalog_lacks_is_kept_as_written(catalog):
    q = read_quote("Acme Hyperstore 9000, 24 x 3.84TB SSD, RAID 6", catalog.arrays, catalog.drives)
    assert q.array_id is None and q.model == "Acme Hyperstore 9000"
    assert q.drive_count == 24 and catalog.drives[q.drive_id].kind.value in ("ssd", "nvme")
    assert q.raid_scheme is RaidScheme.RAID6


def test_a_quote_without_a_drive_line_is_an_error_at_text(catalog):
    with pytest.raises(InputError) as exc:
        read_quote("FAS8040 with lots of disks", catalog.arrays, catalog.drives)
    assert exc.value.field == "text" and "drive line" in exc.value.reason


def test_a_drive_the_catalog_lacks_is_named(catalog):
    with pytest.raises(InputError) as exc:
        read_quote("FAS8040, 24 x 777GB 10K", catalog.arrays, catalog.drives)
    assert "777 GB (10K)" in exc.value.reason
