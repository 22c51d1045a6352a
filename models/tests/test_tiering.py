"""Autotiering: b-model needed fraction, tier split, overheads, calibration and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from models import tiering
from models.base import InputError
from models.tiering import (
    b_for_skew,
    chunk_depth,
    fit_b,
    hot_fraction,
    metadata_ram_bytes,
    migration_mb_per_s,
    needed_fast_fraction,
    tier_split,
)
from models.units import GB, MIB
from models.workload import Skew

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = ROOT / "fixtures" / "calibration" / "tiering.yaml"

GIB_CHUNK_GB = MIB * 1024 / GB  # a 1,024 MiB chunk in decimal GB = 1.073741824


def _needed_at_depth(k: int, b: float, io_capture: float) -> float:
    """needed_fast_fraction for a capacity of exactly 2^k chunks of 1 GiB, no floor."""
    return needed_fast_fraction((2**k) * GIB_CHUNK_GB, 1024, io_capture, b, floor_fraction=0.0, extent_gb=1e9)


# ---- the b-model by hand -------------------------------------------------------------------------


def test_bmodel_depth_two_computed_by_hand() -> None:
    # k = 2, b = 0.75: weights 0.75^2 = 0.5625 (1 chunk), 0.75 x 0.25 = 0.1875 (2), 0.0625 (1).
    # 70% of I/O: 0.5625 + 0.1875 = 0.75 >= 0.70 -> 2 chunks of 4 = 0.5
    # 80% of I/O: 0.5625 + 2 x 0.1875 = 0.9375 >= 0.80, one 0.1875 chunk is not enough -> 3 of 4 = 0.75
    assert _needed_at_depth(2, 0.75, 0.70) == pytest.approx(0.5)
    assert _needed_at_depth(2, 0.75, 0.80) == pytest.approx(0.75)


def test_bmodel_depth_three_computed_by_hand() -> None:
    # k = 3, b = 0.8: weights 0.512 (1 chunk), 0.128 (3), 0.032 (3), 0.008 (1).
    # 80%: 0.512 leaves 0.288 -> 0.288 / 0.128 = 2.25 -> 3 more chunks: 4 of 8 = 0.5
    assert _needed_at_depth(3, 0.8, 0.80) == pytest.approx(0.5)
    # 50%: the hottest chunk alone (0.512) -> 1 of 8 = 0.125
    assert _needed_at_depth(3, 0.8, 0.50) == pytest.approx(0.125)


def test_fractional_depth_interpolates_between_integer_depths() -> None:
    # capacity = 2^2.5 chunks: halfway between k = 2 (0.75) and k = 3 (0.5 at b = 0.8? no: b = 0.75)
    f2, f3 = _needed_at_depth(2, 0.75, 0.8), _needed_at_depth(3, 0.75, 0.8)
    half = needed_fast_fraction(2**2.5 * GIB_CHUNK_GB, 1024, 0.8, 0.75, floor_fraction=0.0, extent_gb=1e9)
    assert half == pytest.approx((f2 + f3) / 2)


def test_a_chunk_as_large_as_the_data_must_be_held_whole() -> None:
    assert needed_fast_fraction(500, 1024 * 1024) == 1.0
    assert chunk_depth(500, 1024 * 1024) == 0.0


def test_no_locality_needs_the_io_share_itself() -> None:
    # b = 0.5: every chunk carries the same I/O, so 80% of I/O needs 80% of the capacity
    assert needed_fast_fraction(1000, 1, 0.8, b=0.5) == pytest.approx(0.8, abs=1e-3)


def test_calibrated_defaults_meet_the_published_chunk_guidance() -> None:
    # "a 7.5 MB chunk may need as little as 3-5% of capacity ...; a 1 GB chunk may need 10-15%"
    assert 0.03 <= needed_fast_fraction(100_000, 7.5) <= 0.05
    assert 0.10 <= needed_fast_fraction(100_000, 1024) <= 0.15


def test_defaults_equal_the_calibration_fixture() -> None:
    cal = yaml.safe_load(CALIBRATION.read_text(encoding="utf-8"))["bmodel"]
    assert cal["b"] == tiering.DEFAULT_B
    assert cal["extent_gb"] == tiering.DEFAULT_EXTENT_GB
    assert cal["floor_fraction"] == tiering.DEFAULT_FLOOR_FRACTION
    assert cal["io_capture"] == tiering.DEFAULT_IO_CAPTURE


def test_fitting_the_guidance_recovers_the_calibrated_b() -> None:
    assert fit_b([(7.5, 0.04), (1024, 0.125)]) == pytest.approx(tiering.DEFAULT_B, abs=0.005)


def test_the_floor_binds_for_block_sized_chunks() -> None:
    assert needed_fast_fraction(100_000, tiering.FLASH_POOL_BLOCK_MB) == tiering.DEFAULT_FLOOR_FRACTION


def test_pools_larger_than_the_extent_need_the_same_share() -> None:
    assert needed_fast_fraction(5_000, 42) == needed_fast_fraction(500_000, 42)


def test_small_pools_with_big_chunks_need_a_larger_share() -> None:
    assert needed_fast_fraction(200, 1024) > needed_fast_fraction(100_000, 1024)


def test_a_measured_fraction_replaces_the_model() -> None:
    assert needed_fast_fraction(100_000, 1024, measured_fraction=0.07) == 0.07


def test_vendor_chunk_sizes_match_the_reference() -> None:
    assert tiering.VENDOR_CHUNK_MB == {
        "symmetrix-fast-vp": 7.5,
        "hds-vsp-hdt": 42.0,
        "vnx-fast-vp": 1024.0,
        "ds8000-easy-tier": 1024.0,
        "3par-ao": 128.0,
        "compellent": 2.0,
        "vnx2-unity": 256.0,
        "flash-pool": 4.0 / 1024.0,
    }


# ---- tier split --------------------------------------------------------------------------------


def test_a_fast_tier_of_the_needed_size_serves_the_captured_io() -> None:
    for chunk in (2, 7.5, 42, 128, 256, 1024):
        needed = needed_fast_fraction(100_000, chunk)
        split = tier_split([needed * 100_000, 100_000], 100_000, chunk)
        assert split.tiers[0].io_share >= 0.8 - 1e-9
        assert split.spill == []


def test_an_undersized_fast_tier_spills_to_the_next_and_says_so() -> None:
    split = tier_split([3_000, 97_000], 100_000, 1024)
    assert split.tiers[0].io_share < 0.8
    assert len(split.spill) == 1 and "spills to tier 1" in split.spill[0]


def test_tiers_too_small_for_the_data_are_rejected() -> None:
    with pytest.raises(InputError) as err:
        tier_split([1_000, 2_000], 10_000, 7.5)
    assert err.value.field == "tier_capacities_gb"


def test_a_free_reserve_shrinks_what_each_tier_holds() -> None:
    # VNX2 keeps 10% free: a 10,000 GB flash tier holds 9,000 GB of data
    split = tier_split([10_000, 110_000], 100_000, 256, free_reserve_pct=10)
    assert split.tiers[0].data_gb == pytest.approx(9_000)


def test_a_single_tier_serves_all_io() -> None:
    split = tier_split([50_000], 40_000, 7.5)
    assert split.tiers[0].io_share == 1.0 and split.spill == []


def test_without_locality_io_follows_the_data() -> None:
    split = tier_split([25_000, 75_000], 100_000, 7.5, b=0.5, floor_fraction=0.0)
    assert [t.io_share for t in split.tiers] == pytest.approx([0.25, 0.75], abs=1e-3)


def test_a_measured_fraction_shapes_the_split() -> None:
    split = tier_split([20_000, 80_000], 100_000, 1024, measured_fraction=0.2)
    assert split.needed_fast_fraction == 0.2
    assert split.tiers[0].io_share >= 0.8 - 1e-9
    assert "measured" in split.source


# ---- overheads ---------------------------------------------------------------------------------


def test_metadata_ram_computed_by_hand() -> None:
    # 1,000 GB / 1 GiB chunks = 10^12 / 1,073,741,824 = 931.3 -> 932 chunks x 64 B = 59,648 B
    assert metadata_ram_bytes(1000, 1024) == 59_648
    # 7.5 MiB chunks: 10^12 / 7,864,320 = 127,156.6 -> 127,157 x 64 = 8,138,048 B
    assert metadata_ram_bytes(1000, 7.5) == 8_138_048


def test_migration_rate_computed_by_hand() -> None:
    # 1,000 chunks of 1 GiB in 24 h: 1,000 x 1,073.741824 MB / 86,400 s = 12.4276 MB/s
    assert migration_mb_per_s(1000, 1024, 24) == pytest.approx(12.4276, abs=1e-4)


# ---- invariants (hypothesis) -------------------------------------------------------------------

capacities = st.floats(1.0, 1e7)
chunks = st.floats(0.001, 8192.0)


@settings(max_examples=150, deadline=None)
@given(
    capacity=capacities,
    a=chunks,
    c=chunks,
    b=st.floats(0.5, 0.99),
    io=st.floats(0.05, 1.0),
    floor=st.floats(0.0, 0.1),
)
def test_needed_fast_fraction_never_falls_as_chunk_size_grows(
    capacity: float, a: float, c: float, b: float, io: float, floor: float
) -> None:
    small, large = sorted((a, c))
    f_small = needed_fast_fraction(capacity, small, io, b, floor)
    f_large = needed_fast_fraction(capacity, large, io, b, floor)
    assert 0.0 < f_small <= f_large + 1e-9 <= 1.0 + 1e-9


@settings(max_examples=100, deadline=None)
@given(capacity=st.floats(0.0, 1e7), a=chunks, c=chunks, per=st.floats(1.0, 1024.0))
def test_metadata_ram_falls_as_chunk_size_grows(capacity: float, a: float, c: float, per: float) -> None:
    small, large = sorted((a, c))
    assert metadata_ram_bytes(capacity, large, per) <= metadata_ram_bytes(capacity, small, per)


@settings(max_examples=150, deadline=None)
@given(
    used=st.floats(1.0, 1e6),
    shares=st.lists(st.floats(0.0, 1.0), min_size=0, max_size=2),
    slack=st.floats(1.0, 3.0),
    chunk=chunks,
    b=st.floats(0.5, 0.99),
    measured=st.one_of(st.none(), st.floats(0.001, 1.0)),
)
def test_tier_split_accounts_for_all_io(
    used: float, shares: list[float], slack: float, chunk: float, b: float, measured: float | None
) -> None:
    caps = [used * s for s in shares] + [used * slack]  # the last tier can always take the rest
    split = tier_split(caps, used, chunk, b=b, measured_fraction=measured)
    io = [t.io_share for t in split.tiers]
    assert all(x >= 0 for x in io)
    assert sum(io) == pytest.approx(1.0, abs=1e-12)
    assert sum(t.data_gb for t in split.tiers) == pytest.approx(used)


# ---- bad input ---------------------------------------------------------------------------------


def test_zero_chunk_size_is_rejected_naming_the_field() -> None:
    for call in (
        lambda: needed_fast_fraction(1000, 0),
        lambda: tier_split([100, 1000], 1000, 0),
        lambda: metadata_ram_bytes(1000, 0),
        lambda: migration_mb_per_s(10, 0, 24),
    ):
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == "chunk_mb"


def test_locality_bias_outside_its_domain_is_rejected() -> None:
    for b in (0.3, 1.0, float("nan")):
        with pytest.raises(InputError) as err:
            needed_fast_fraction(1000, 7.5, b=b)
        assert err.value.field == "b"


def test_other_bad_arguments_name_their_field() -> None:
    cases = [
        (lambda: needed_fast_fraction(-5, 7.5), "capacity_gb"),
        (lambda: needed_fast_fraction(1000, 7.5, io_capture=0), "io_capture"),
        (lambda: needed_fast_fraction(1000, 7.5, measured_fraction=1.5), "measured_fraction"),
        (lambda: tier_split([100, -1], 50, 7.5), "tier_capacities_gb[1]"),
        (lambda: tier_split([], 50, 7.5), "tier_capacities_gb"),
        (lambda: tier_split([100], 50, 7.5, free_reserve_pct=100), "free_reserve_pct"),
        (lambda: migration_mb_per_s(10, 7.5, 0), "window_h"),
        (lambda: metadata_ram_bytes(-1, 7.5), "capacity_gb"),
    ]
    for call, field in cases:
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == field


def test_a_uniform_workload_needs_fast_capacity_in_proportion_to_its_io():
    # no skew: 80% of the I/O needs 80% of the data on the fast tier, whatever the chunk (up to
    # the last whole chunk: 1 GiB chunks of 10 TB round 80% up by at most one chunk in 1,024)
    b, hot = b_for_skew(Skew(), 10_000)
    assert b == pytest.approx(0.5, abs=1e-6) and hot == pytest.approx(0.8)
    for chunk in (7.5, 1024.0):
        assert needed_fast_fraction(10_000, chunk, b=b, floor_fraction=hot) == pytest.approx(
            0.8, abs=1 / 1024
        )


def test_the_x_y_rule_gives_the_block_level_hot_set_and_chunks_inflate_it():
    # 90% of I/O to 10% of data: 80% of I/O lies on 10% x 0.8 / 0.9 = 8.89% of the blocks
    assert hot_fraction(Skew(io_pct=90, data_pct=10), 10_000) == pytest.approx(0.1 * 0.8 / 0.9)
    b, hot = b_for_skew(Skew(io_pct=90, data_pct=10), 10_000)
    small = needed_fast_fraction(10_000, 7.5, b=b, floor_fraction=hot)
    large = needed_fast_fraction(10_000, 1024.0, b=b, floor_fraction=hot)
    assert hot <= small <= large <= 1.0
    assert large > 1.5 * hot  # 1 GiB chunks drag cold blocks along


@given(st.floats(0.0, 1.5), st.floats(0.0, 1.5))
@settings(max_examples=25, deadline=None)
def test_more_skew_never_needs_more_fast_capacity(a, b_alpha):
    lo, hi = sorted((a, b_alpha))
    x_lo = needed_fast_fraction(5_000, 42.0, *_fitted(Skew(zipf_alpha=lo)))
    x_hi = needed_fast_fraction(5_000, 42.0, *_fitted(Skew(zipf_alpha=hi)))
    assert x_hi <= x_lo + 1e-9


def _fitted(skew):
    b, hot = b_for_skew(skew, 5_000)
    return (0.8, b, hot)
