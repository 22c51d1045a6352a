"""SSD/NVMe service, garbage collection and endurance (models.drives, models.pool)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.base import InputError
from models.configuration import Configuration, DrivePool
from models.drives import (
    DriveSpec,
    drive_writes_per_day,
    flash_write_amplification,
    random_write_wear,
    ssd_service_ms,
    steady_write_iops,
    years_to_wear_out,
)
from models.evaluate import evaluate
from models.tests.conftest import make_config
from models.workload import Phase, Workload


def nvme(**kw) -> DriveSpec:
    base = {
        "id": "nvme-test",
        "name": "NVMe test drive",
        "kind": "nvme",
        "capacity_gb": 1000,
        "media_rate_mb_s": 3000,
        "seq_write_mb_s": 2000,
        "read_iops_4k": 500000,
        "write_iops_4k": 100000,
        "read_latency_us": 80,
        "write_latency_us": 20,
        "endurance_dwpd": 1,
        "warranty_years": 5,
        "over_provisioning_pct": 28,
    }
    return DriveSpec(**{**base, **kw})


def writes_only(iops: float, size_kib: float = 4, random_pct: float = 100) -> list[Workload]:
    return [
        Workload(
            name="w",
            capacity_tb=1,
            phases=[
                Phase(
                    name="day",
                    window="day",
                    iops=iops,
                    read_pct=0,
                    random_pct=random_pct,
                    io_size_kib=size_kib,
                )
            ],
        )
    ]


def test_write_amplification_at_30pct_spare_matches_the_published_greedy_figure():
    # Xiang & Kurkoski 2012: over-provisioning factor 0.3 -> WA 2.36 (simulated 2.35)
    assert flash_write_amplification(0.3) == pytest.approx(2.36, abs=0.01)


@given(st.floats(1e-3, 50), st.floats(1e-3, 50))
def test_write_amplification_never_rises_with_more_spare(a: float, b: float):
    lo, hi = sorted((a, b))
    assert flash_write_amplification(hi) <= flash_write_amplification(lo) + 1e-9
    assert flash_write_amplification(hi) >= 1.0


def test_write_amplification_needs_a_positive_spare():
    with pytest.raises(InputError) as err:
        flash_write_amplification(0.0)
    assert err.value.field == "spare_factor"


def test_a_full_drive_writes_at_its_steady_state_rating():
    # 100,000 steady IOPS: 1000 / 100,000 = 0.01 ms per 4 KiB write; 16 KiB = 4 ratings = 0.04 ms
    drive = nvme()
    assert ssd_service_ms(drive, 4, is_read=False) == pytest.approx(0.01)
    assert ssd_service_ms(drive, 16, is_read=False) == pytest.approx(0.04)


def test_the_steady_state_rating_replaces_a_fresh_out_of_box_rating():
    drive = nvme(write_iops_4k=200000, steady_write_iops_4k=50000)
    assert steady_write_iops(drive) == 50000
    assert ssd_service_ms(drive, 4, is_read=False) == pytest.approx(1000 / 50000)


def test_a_drive_kept_half_empty_writes_faster_by_the_ratio_of_write_amplifications():
    # OP 28%: spare at full fill 0.28, at half fill (1.28 / 0.5) - 1 = 1.56
    drive = nvme()
    ratio = flash_write_amplification(1.56) / flash_write_amplification(0.28)
    assert random_write_wear(drive, 0.5) == pytest.approx(ratio)
    assert ssd_service_ms(drive, 4, is_read=False, fill=0.5) == pytest.approx(0.01 * ratio)
    assert ratio < 0.6  # WA 2.48 at full fill vs ~1.4 at half fill


@settings(max_examples=200)
@given(
    st.floats(1000, 2e6),
    st.floats(100, 20000),
    st.floats(0.05, 1.0),
    st.floats(0.5, 4096),
    st.floats(0.5, 4096),
)
def test_random_write_service_never_falls_as_the_io_grows(
    write_iops: float, seq_mb_s: float, fill: float, a: float, b: float
):
    drive = nvme(write_iops_4k=write_iops, seq_write_mb_s=seq_mb_s, media_rate_mb_s=max(seq_mb_s, 3000))
    small, large = sorted((a, b))
    assert ssd_service_ms(drive, small, is_read=False, fill=fill) <= ssd_service_ms(
        drive, large, is_read=False, fill=fill
    )


@given(st.floats(0.01, 1.0), st.floats(0.01, 1.0))
def test_a_fuller_drive_never_wears_less_per_random_write(a: float, b: float):
    drive = nvme()
    lo, hi = sorted((a, b))
    assert random_write_wear(drive, lo) <= random_write_wear(drive, hi) + 1e-12
    assert random_write_wear(drive, 1.0) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("read_iops_4k", 0),
        ("write_iops_4k", -5),
        ("steady_write_iops_4k", 0),
        ("read_latency_us", 0),
        ("endurance_dwpd", -1),
        ("over_provisioning_pct", 100),
        ("over_provisioning_pct", -1),
    ],
)
def test_bad_datasheet_figures_are_errors_naming_the_field(field: str, value: float):
    with pytest.raises(ValidationError) as err:
        nvme(**{field: value})
    assert err.value.errors()[0]["loc"] == (field,)


def test_drive_writes_per_day_by_hand():
    # 2,000 KiB/s x 1024 B x 86,400 s / 10^12 B = 0.176947 drive writes per day
    assert drive_writes_per_day(2000, nvme()) == pytest.approx(0.176947, rel=1e-5)
    # 5 years x 1 DWPD rated / 0.176947 needed = 28.26 years
    assert years_to_wear_out(0.176947, nvme()) == pytest.approx(28.257, rel=1e-4)


def raid10_config(drive: DriveSpec) -> Configuration:
    cfg = make_config(drive, "raid10", 4, 4)
    pool = cfg.pools[0]
    return cfg.model_copy(update={"pools": [DrivePool(**{**pool.model_dump(), "drive": drive})]})


def test_raid10_random_writes_wear_each_drive_by_hand():
    # 1,000 random 4 KiB writes/s on RAID10 over 4 drives: 2 copies x 4 KiB x 1,000 = 8,000 KiB/s,
    # 2,000 KiB/s per drive at full fill (wear 1) -> 0.176947 DWPD, 28.26 years at 1 DWPD for 5 years
    result = evaluate(writes_only(1000), raid10_config(nvme()))
    end = result.windows[0].pools[0].endurance
    assert end is not None
    assert end.drive_writes_per_day.value == pytest.approx(0.176947, rel=1e-5)
    assert end.years_to_wear_out.value == pytest.approx(28.257, rel=1e-4)
    # 28 years: well past the 5-year warranty, no wear warning
    assert not any("flash wear" in w for w in result.warnings)


def test_writing_past_the_rated_endurance_warns_in_years_and_fails_nothing():
    # 20,000 x 2 x 4 KiB / 4 drives = 40,000 KiB/s per drive = 3.5389 DWPD against 1 rated:
    # 5 years x 1 / 3.5389 = 1.413 years to wear-out, under the 5-year warranty
    result = evaluate(writes_only(20000), raid10_config(nvme()))
    end = result.windows[0].pools[0].endurance
    assert end is not None
    assert end.drive_writes_per_day.value == pytest.approx(3.5389, rel=1e-4)
    assert end.years_to_wear_out.value == pytest.approx(5 / 3.5389, rel=1e-4)
    # wear is a lifetime budget: no check, no bottleneck, a warning in years
    assert not any(c.name.startswith("endurance") for w in result.windows for c in w.checks)
    assert "endurance" not in result.bottleneck and "wear" not in result.bottleneck
    (warning,) = [w for w in result.warnings if "flash wear" in w]
    assert "1.41 years" in warning and "5-year warranty" in warning


def test_a_planning_horizon_past_the_warranty_sets_the_wear_budget():
    # 1,000 writes/s: 28.26 years; a 30-year horizon is longer: the warning names the horizon
    wl = [w.model_copy(update={"horizon_years": 30.0}) for w in writes_only(1000)]
    result = evaluate(wl, raid10_config(nvme()))
    (warning,) = [w for w in result.warnings if "flash wear" in w]
    assert "28.3 years" in warning and "30-year planning horizon" in warning


def test_a_drive_without_an_endurance_rating_has_no_endurance_figure():
    result = evaluate(writes_only(1000), raid10_config(nvme(endurance_dwpd=None)))
    assert result.windows[0].pools[0].endurance is None
    assert not any("flash wear" in w for w in result.warnings)


@settings(max_examples=20, deadline=None)
@given(st.floats(0.05, 20), st.sampled_from(["raid5", "raid6", "raid10"]))
def test_wear_never_fails_a_window_or_names_the_bottleneck(scale: float, scheme: str):
    width = 4 if scheme == "raid10" else 6
    cfg = make_config(nvme(endurance_dwpd=0.1), scheme, width, 12)
    res = evaluate(writes_only(4000, size_kib=16, random_pct=70), cfg, load_scale=scale)
    assert all(not c.name.startswith("endurance") for w in res.windows for c in w.checks)
    assert all("endurance" not in w.bottleneck for w in res.windows)


@settings(max_examples=30, deadline=None)
@given(st.floats(0.05, 5), st.floats(0.05, 5), st.sampled_from(["raid5", "raid6", "raid10"]))
def test_endurance_never_improves_as_the_write_rate_grows(a: float, b: float, scheme: str):
    lo, hi = sorted((a, b))
    width = 4 if scheme == "raid10" else 6
    cfg = make_config(nvme(), scheme, width, 12)
    wl = writes_only(4000, size_kib=16, random_pct=70)
    low = evaluate(wl, cfg, load_scale=lo).windows[0].pools[0].endurance
    high = evaluate(wl, cfg, load_scale=hi).windows[0].pools[0].endurance
    assert low is not None and high is not None
    assert (high.drive_writes_per_day.value or 0) >= (low.drive_writes_per_day.value or 0) * (1 - 1e-12)
    y_low = low.years_to_wear_out.value or math.inf
    y_high = high.years_to_wear_out.value or math.inf
    assert y_high <= y_low * (1 + 1e-12)
