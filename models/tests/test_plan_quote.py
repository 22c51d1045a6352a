"""A second opinion on a quote (models.plan.quote): parts labelled, provisioning found and measured."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.base import InputError
from models.catalog import Catalog, build_configuration, load_catalog
from models.configuration import SparePolicy
from models.plan.quote import Quote, in_groups, quote_check, quote_parts
from models.tests.conftest import oltp

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def _check(catalog: Catalog, quote: Quote, workloads):
    array = catalog.arrays.get(quote.array_id or "")
    parts = quote_parts(quote, array, catalog.drives.get(quote.drive_id), catalog.arrays["generic"])
    used = catalog.arrays[parts.array_id]
    cfg = build_configuration(
        used,
        catalog.drives[quote.drive_id],
        quote.raid_scheme or used.default_raid,
        drive_count=parts.drive_count,
    )
    return parts, quote_check(workloads, cfg, quote, parts)


def test_quoted_drives_count_their_spares():
    # FAS3270: one spare per 28 drives, at least 2. 96 quoted: 92 + ceil(92 / 28) = 92 + 4 = 96;
    # 93 would need 93 + 4 = 97
    assert in_groups(96, SparePolicy(per_drives=28, min_spares=2)) == 92
    assert in_groups(24, SparePolicy(per_drives=28, min_spares=2)) == 22


def test_a_quote_far_above_the_load_is_over_provisioned_by_the_drives_sizing_leaves_out(catalog):
    quote = Quote(model="FAS3270", array_id="netapp-fas3270", drive_id="hdd-10k-sas-600", drive_count=192)
    parts, res = _check(catalog, quote, [oltp(iops=2000)])

    assert parts.labels == [] and parts.drive_count == 185  # 185 + ceil(185 / 28) = 185 + 7 = 192
    drives = res.findings[0]
    assert drives.area == "drives" and drives.verdict == "over"
    needed = res.sizing.result.bill.drives + res.sizing.result.bill.spares
    assert drives.amount == 192 - needed and needed < 192
    assert res.verdict == "over"
    assert "over-provisioned" in res.text


def test_a_quote_below_the_load_is_under_provisioned_in_the_window_that_fails(catalog):
    quote = Quote(model="FAS3270", array_id="netapp-fas3270", drive_id="hdd-10k-sas-600", drive_count=24)
    _, res = _check(catalog, quote, [oltp(iops=12000)])

    assert res.verdict == "under"
    window = next(f for f in res.findings if f.area == "window business hours")
    assert window.verdict == "under" and window.amount > 100
    assert res.findings[0].verdict == "under"
    assert {f.area for f in res.findings} >= {
        "drives",
        "capacity",
        "failure drive-failed",
        "failure controller-failed",
    }


def test_parts_the_catalog_lacks_are_labelled(catalog):
    unknown = Quote(model="Acme 9000", drive_id="hdd-10k-sas-600", drive_count=48, software_release="9.1")
    parts = quote_parts(unknown, None, catalog.drives["hdd-10k-sas-600"], catalog.arrays["generic"])
    assert parts.array_id == "generic" and parts.labels[0].startswith("estimate: Acme 9000")

    odd = Quote(
        model="FAS3270",
        array_id="netapp-fas3270",
        drive_id="hdd-7k2-nlsas-22000",
        drive_count=48,
        controllers=4,
        software_release="8.2",
    )
    parts = quote_parts(odd, catalog.arrays["netapp-fas3270"], catalog.drives["hdd-7k2-nlsas-22000"])
    assert parts.hypothetical
    assert [label.split(":")[0] for label in parts.labels] == ["hypothetical", "estimate", "estimate"]


def test_an_unknown_drive_is_an_error_at_the_quotes_drive():
    with pytest.raises(InputError) as exc:
        quote_parts(Quote(model="x", drive_id="nope", drive_count=10), None, None)
    assert exc.value.field == "quote.drive_id"


def test_shelves_quoted_against_the_shelves_the_drives_fill(catalog):
    # 96 drives at 24 per shelf fill 4 shelves; 6 quoted: over by 2
    quote = Quote(
        model="FAS3270", array_id="netapp-fas3270", drive_id="hdd-10k-sas-600", drive_count=96, shelves=6
    )
    _, res = _check(catalog, quote, [oltp(iops=2000)])
    shelves = next(f for f in res.findings if f.area == "shelves")
    assert shelves.verdict == "over" and shelves.amount == 2
