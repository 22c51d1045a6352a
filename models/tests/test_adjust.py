"""What-if dials: each at its neutral value changes nothing; each moves exactly its input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.adjust import Adjustments, adjust_configuration, adjust_workloads, with_flash_cache
from models.base import InputError
from models.catalog import FlashCacheOption
from models.configuration import FlashCacheKind
from models.drives import DriveSpec
from models.tests.conftest import make_config, oltp

PAM = FlashCacheOption(
    name="PAM II",
    kind=FlashCacheKind.FLASH_CACHE,
    sizes_gb=[512, 1024],
    dedupe_aware=True,
    hit_ms=0.6,
    price_usd_per_gb=50,
    source="test",
)


def test_neutral_dials_leave_workloads_and_configuration_as_they_are(hdd15k: DriveSpec) -> None:
    workloads = [oltp()]
    config = make_config(hdd15k)

    assert adjust_workloads(workloads, Adjustments()) == workloads
    assert adjust_configuration(config, Adjustments()) == config


def test_write_share_moves_by_points_and_clamps_at_zero_reads() -> None:
    # 70% reads; +20 points of writes -> 50% reads; +90 points -> max(0, 70 - 90) = 0
    assert adjust_workloads([oltp()], Adjustments(write_shift_pp=20))[0].phases[0].read_pct == 50
    assert adjust_workloads([oltp()], Adjustments(write_shift_pp=90))[0].phases[0].read_pct == 0


def test_working_sets_scale_but_never_exceed_the_capacity() -> None:
    # 200 GB x 3 = 600 GB; 200 GB x 20 = 4,000 GB, capped at the 2 TB = 2,000 GB of data
    assert adjust_workloads([oltp()], Adjustments(working_set_scale=3))[0].working_set_gb == 600
    assert adjust_workloads([oltp()], Adjustments(working_set_scale=20))[0].working_set_gb == 2000


def test_a_workload_without_a_working_set_shrinks_from_its_whole_capacity() -> None:
    whole = oltp().model_copy(update={"working_set_gb": None})
    # all of 2 TB is hot; x 0.25 = 500 GB
    assert adjust_workloads([whole], Adjustments(working_set_scale=0.25))[0].working_set_gb == 500


def test_load_scales_iops_and_leaves_capacity_alone() -> None:
    out = adjust_workloads([oltp(iops=5000)], Adjustments(iops_scale=1.5))[0]
    assert out.phases[0].iops == 7500  # 5,000 x 1.5
    assert out.capacity_tb == 2.0


def test_growth_replaces_every_workloads_rate() -> None:
    out = adjust_workloads(
        [oltp(), oltp(name="b", growth_pct_per_year=10)], Adjustments(growth_pct_per_year=40)
    )
    assert [w.growth_pct_per_year for w in out] == [40, 40]


def test_drive_count_sets_the_first_pool(hdd15k: DriveSpec) -> None:
    out = adjust_configuration(make_config(hdd15k, count=20), Adjustments(drive_count=40))
    assert out.pools[0].drive_count == 40


def test_flash_cache_takes_the_product_that_sells_the_size(hdd15k: DriveSpec) -> None:
    out = with_flash_cache(make_config(hdd15k), 1024, [PAM])
    assert out.cache.flash_cache_gb == 1024
    assert out.cache.flash_hit_ms == 0.6
    assert out.cache.dedupe_aware is True
    assert out.packaging.flash_cache_price_usd_per_gb == 50


def test_a_flash_size_no_product_sells_names_the_dial(hdd15k: DriveSpec) -> None:
    with pytest.raises(InputError) as exc:
        with_flash_cache(make_config(hdd15k), 300, [PAM])
    assert exc.value.field == "flash_cache_gb"


@settings(max_examples=60, deadline=None)
@given(
    shift=st.floats(-100, 100),
    scale=st.floats(0.01, 100),
    read_pct=st.floats(0, 100),
)
def test_adjusted_workloads_stay_valid_and_keep_their_working_set_within_capacity(
    shift: float, scale: float, read_pct: float
) -> None:
    out = adjust_workloads(
        [oltp(read_pct=read_pct)], Adjustments(write_shift_pp=shift, working_set_scale=scale)
    )[0]
    assert 0 <= out.phases[0].read_pct <= 100
    assert out.working_set_gb is not None
    assert out.working_set_gb <= out.capacity_tb * 1000
