"""Money over time: a TCO worked out by hand, the bill priced line by line, the three-ratio table,
the choice that flips when the ratio drops, and the inputs refused with the field named."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.base import InputError
from models.catalog import build_configuration, load_catalog
from models.configuration import Packaging
from models.drives import DriveSpec
from models.tco import (
    EXPECTED_RATIOS,
    Commercial,
    DataType,
    ExchangeRates,
    Licence,
    MoneyInputs,
    bill_lines,
    ratio_flip,
    tco,
)
from models.tests.conftest import make_config, oltp

PACKAGING = Packaging(
    controller_rack_units=3,
    drives_per_shelf=14,
    shelf_rack_units=3,
    controller_power_w=200,
    shelf_power_w=100,
    controller_price_usd=10000,
    shelf_price_usd=2000,
)
RATES = ExchangeRates(base="EUR", date="test", source="test table", per_base={"USD": 1.25, "GBP": 0.8})
MONEY = MoneyInputs(
    exchange_rates=RATES,
    currency="GBP",
    discount_pct=10,
    line_discount_pct={"drives": 20},
    years=5,
    support_years=3,
    energy_price_per_kwh=0.2,
    pue=1.5,
    rack_price_per_u_month=10,
)
TERMS = Commercial(support_max_years=5, support_pct_per_year=20)


def drive(gb: float, price: float, drive_id: str = "fc-15k-300") -> DriveSpec:
    return DriveSpec(
        id=drive_id,
        name=f"{gb:g} GB 15K FC",
        kind="hdd",
        capacity_gb=gb,
        right_sized_gib=272000 / 1024 * gb / 300,
        rpm=15000,
        avg_read_seek_ms=3.5,
        avg_write_seek_ms=4.0,
        track_to_track_ms=0.2,
        media_rate_mb_s=100,
        overhead_ms=0.2,
        power_w=15,
        price_usd=price,
    )


def config(name: str = "A", gb: float = 300, price: float = 500, count: int = 20):
    return make_config(drive(gb, price), "raid-dp", 10, count, packaging=PACKAGING, name=name)


def workloads():
    # 6 TB that the workload says reduces 2:1: 3 TB physical
    return [oltp(capacity_tb=6, dedupe_ratio=2)]


def test_five_year_tco_in_pounds_worked_out_by_hand():
    t = tco(workloads(), config(), MONEY, TERMS)
    # bill: 20 drives + max(1, ceil(20/30)) = 1 spare = 21; shelves ceil(21/14) = 2
    # list: controllers 10,000; shelves 2 x 2,000 = 4,000; drives 21 x 500 = 10,500 USD
    # net: 10,000 x 0.9 + 4,000 x 0.9 + 10,500 x 0.8 (drives' own 20%) = 21,000 USD
    # rate: 0.8 GBP / 1.25 USD per EUR = 0.64 GBP/USD, so C = 21,000 x 0.64 = 13,440 GBP
    assert t.exchange_rate.value == pytest.approx(0.64)
    assert t.capital.value == pytest.approx(13440.0)
    # support 20 % of net a year: 2,688 GBP, years 1-3 only
    assert t.support_per_year.value == pytest.approx(2688.0)
    # power 200 + 2 x 100 + 21 x 15 = 715 W: 0.715 kW x 8,760 h x 1.5 = 9,395.1 kWh x 0.2 = 1,879.02 GBP
    assert t.energy_per_year.value == pytest.approx(1879.02)
    # rack 3 + 2 x 3 = 9 U x 12 months x 10 GBP = 1,080 GBP
    assert t.rack_space_per_year.value == pytest.approx(1080.0)
    # TCO(5) = 13,440 + 3 x 2,688 + 5 x (1,879.02 + 1,080) = 36,299.1 GBP
    assert t.total.value == pytest.approx(36299.1)
    assert [round(y.total or 0, 2) for y in t.by_year] == [
        round(13440 + 2688 + 2959.02, 2),
        round(13440 + 2 * 2688 + 2 * 2959.02, 2),
        round(13440 + 3 * 2688 + 3 * 2959.02, 2),
        round(13440 + 3 * 2688 + 4 * 2959.02, 2),
        36299.1,
    ]
    assert t.by_year[3].support == 0.0
    assert any("Years 4-5 carry no support" in n for n in t.notes)
    assert "= 36,299 GBP" in t.total.text


def test_no_reduction_grows_the_pool_by_whole_groups_and_prices_it():
    t = tco(workloads(), config(), MONEY, TERMS)
    cases = {c.case: c for c in t.ratios}
    # claimed: as the workloads state it, 2:1 -> 3 TB in 4.56 TB usable: holds with 20 drives
    assert cases["claimed"].ratio == pytest.approx(2.0)
    assert cases["claimed"].drives == 20 and cases["claimed"].tco.value == pytest.approx(36299.1)
    # expected for mixed data: 2:1 (general file shares save 50%)
    assert cases["expected"].ratio == pytest.approx(2.0)
    # pessimistic: 6 TB physical; 20 drives hold 16 x 285.2 GB = 4.56 TB, 30 hold 24 x 285.2 = 6.85 TB
    p = cases["pessimistic"]
    assert (p.drives, p.drives_added, p.holds) == (30, 10, True)
    # 31 drives (1 spare), 3 shelves: list 10,000 + 6,000 + 15,500; net 9,000 + 5,400 + 12,400 = 26,800 USD
    # C = 26,800 x 0.64 = 17,152; S = 3,430.4; power 200 + 300 + 465 = 965 W -> 0.965 x 8,760 x 1.5 x 0.2
    # = 2,536.02; rack 12 U x 12 x 10 = 1,440; TCO = 17,152 + 3 x 3,430.4 + 5 x 3,976.02 = 47,323.3
    assert p.tco.value == pytest.approx(47323.3)
    assert p.usable_tb == pytest.approx(24 * 272000 * 1024**2 / 1e12)
    assert p.effective_tb.value == pytest.approx(p.usable_tb)  # 1:1
    assert p.cost_per_effective_tb.value == pytest.approx(47323.3 / p.usable_tb)
    # busiest window 5,000 IOPS: 47,323.3 / 5 = 9,464.66 GBP per 1,000 IOPS
    assert p.cost_per_1000_iops.value == pytest.approx(9464.66)
    assert "10 more drives" in (p.note or "")


def test_a_stated_claim_replaces_the_workloads_ratio():
    t = tco(workloads(), config(), MONEY.model_copy(update={"claimed_ratio": 4.0}), TERMS)
    claimed = next(c for c in t.ratios if c.case == "claimed")
    # 6 TB / 4 = 1.5 TB physical; effective = usable x 4
    assert claimed.ratio == 4.0
    assert claimed.effective_tb.value == pytest.approx(claimed.usable_tb * 4)


def test_the_cheapest_configuration_flips_when_the_ratio_drops():
    a = tco(workloads(), config("A"), MONEY, TERMS)
    # B: the same system with 1,200 GB drives at 800 USD: C = (9,000 + 3,600 + 21 x 800 x 0.8) x 0.64
    # = 16,665.6; TCO = 1.6 x 16,665.6 + 5 x 2,959.02 = 41,460.06, at every ratio (20 drives hold 6 TB)
    b = tco(workloads(), config("B", gb=1200, price=800), MONEY, TERMS)
    assert b.total.value == pytest.approx(41460.06)
    flip = ratio_flip([a, b])
    assert flip is not None and flip.flips
    assert flip.cheapest == {"claimed": "A", "expected": "A", "pessimistic": "B"}
    assert "at the claimed 2:1, A costs least" in flip.words
    assert "pessimistic 1:1, B does; A needs 10 more drives" in flip.words


def test_no_flip_when_one_configuration_is_cheapest_everywhere():
    flip = ratio_flip(
        [tco(workloads(), config("A"), MONEY, TERMS), tco(workloads(), config("C", price=900), MONEY, TERMS)]
    )
    assert flip is not None and not flip.flips
    assert flip.words.startswith("A costs least at every ratio")
    assert ratio_flip([tco(workloads(), config("A"), MONEY, TERMS)]) is None


def test_priced_lines_add_up_to_the_bill_of_a_catalog_array():
    catalog = load_catalog("fixtures")
    array = catalog.arrays["netapp-aff-a400"]
    cfg = build_configuration(array, catalog.drives[array.default_drive or ""], "raid-dp", drive_count=48)
    t = tco([oltp(capacity_tb=50)], cfg, MoneyInputs(), array.commercial)
    from models.evaluate import evaluate

    bill = evaluate([oltp(capacity_tb=50)], cfg).bill
    hardware = [line for line in t.lines if line.kind != "licences"]
    assert sum(line.list_usd or 0 for line in hardware) == pytest.approx(bill.cost_usd)
    assert sum(line.power_w or 0 for line in t.lines) == pytest.approx(bill.power_w)
    assert sum(line.rack_units for line in t.lines) == pytest.approx(bill.rack_units)
    licences = [line for line in t.lines if line.kind == "licences"]
    # the ONTAP bundle is priced per controller: 2 x 20,000 USD
    assert [(line.quantity, line.list_usd) for line in licences] == [(2.0, 40000.0)]
    ports = [line for line in t.lines if line.kind == "ports"]
    assert ports and all(line.included and line.net == 0 for line in ports)


def test_licence_per_raw_tb_counts_the_bills_raw_capacity():
    cfg = config()
    terms = Commercial(licences=[Licence(name="tiering", price_usd=100, per="raw_tb", source="test")])
    from models.capacity import pool_capacity
    from models.evaluate import evaluate

    res = evaluate(workloads(), cfg)
    pcaps = [pool_capacity(p, p.drive_count or 0, cfg.capacity) for p in cfg.pools]
    lic = bill_lines(cfg, pcaps, res.bill, terms)[-1]
    # raw = 21 drives x 300 GB = 6.3 TB
    assert (lic.quantity, lic.unit) == (pytest.approx(6.3), "TB raw")


def test_expected_ratios_take_the_low_end_of_the_published_range():
    # savings 50 % (general file shares), 30 % (user documents), 80 % (virtualization libraries)
    assert EXPECTED_RATIOS[DataType.MIXED].ratio == pytest.approx(2.0)
    assert EXPECTED_RATIOS[DataType.USER_DOCUMENTS].ratio == pytest.approx(1 / 0.7)
    assert EXPECTED_RATIOS[DataType.VIRTUAL_DESKTOPS].ratio == pytest.approx(5.0)
    assert EXPECTED_RATIOS[DataType.MEDIA_OR_ENCRYPTED].ratio == 1.0
    assert all(r.source for r in EXPECTED_RATIOS.values())


def test_a_currency_without_a_rate_is_refused_at_currency():
    with pytest.raises(ValidationError) as err:
        MoneyInputs(currency="XAU")
    assert [e["loc"] for e in err.value.errors()] == [("currency",)]
    assert "no exchange rate for XAU" in err.value.errors()[0]["msg"]
    # the default table converts: 0.82608 GBP / 1.0411 USD per EUR
    assert MoneyInputs(currency="GBP").rates.per_usd("GBP") == pytest.approx(0.82608 / 1.0411)


def test_negative_discounts_are_refused_with_the_field_named():
    with pytest.raises(ValidationError) as err:
        MoneyInputs(discount_pct=-5)
    assert err.value.errors()[0]["loc"] == ("discount_pct",)
    with pytest.raises(ValidationError) as err:
        MoneyInputs(line_discount_pct={"drives": -1})
    assert err.value.errors()[0]["loc"][0] == "line_discount_pct"
    with pytest.raises(ValidationError):
        MoneyInputs(line_discount_pct={"wishes": 10})


def test_support_beyond_the_catalogs_term_is_refused_at_support_years():
    with pytest.raises(InputError) as err:
        tco(workloads(), config(), MoneyInputs(support_years=6), Commercial(support_max_years=5))
    assert err.value.field == "support_years"
    assert "at most 5 years" in err.value.reason


def test_unknown_power_leaves_energy_and_tco_unknown():
    d = drive(300, 500).model_copy(update={"power_w": None})
    cfg = make_config(d, "raid-dp", 10, 20, packaging=PACKAGING)
    t = tco(workloads(), cfg, MONEY, TERMS)
    assert t.energy_per_year.value is None and t.total.value is None
    assert t.capital.value == pytest.approx(13440.0)
    assert all(c.tco.value is None for c in t.ratios)


def test_growth_stops_at_the_arrays_drive_limit_and_says_so():
    cfg = make_config(
        drive(300, 500), "raid-dp", 10, 20, packaging=PACKAGING.model_copy(update={"max_drives": 25})
    )
    t = tco(workloads(), cfg, MONEY, TERMS)
    p = next(c for c in t.ratios if c.case == "pessimistic")
    # 6 TB needs 30 drives + 1 spare at 1:1; the array takes 25
    assert not p.holds and p.tco.value is None and p.cost_per_effective_tb.value is None
    assert "drive limit (25 drives" in (p.note or "")


def test_an_enormous_need_stops_at_the_largest_pool():
    t = tco([oltp(capacity_tb=1e9)], config(), MONEY, TERMS)
    assert [c.holds for c in t.ratios] == [False, False, False]
