"""Cache hit ratios: hand-computed values, exact LRU simulation, invariants, bad input, calibration."""

from __future__ import annotations

import math
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from scipy.optimize import brentq

from models import cache
from models.base import InputError
from models.cache import (
    CacheLevel,
    burst_disk_read_gb,
    che_hit_ratio,
    cold_hit_ratio,
    effective_cache_working_set_gb,
    fit_burst_parameters,
    flash_cacheable_read_fraction,
    hit_ratio_curve,
    level_hit_ratios,
    uniform_hit_ratio,
    warm_and_cold_hit_ratios,
)
from models.kept import Kept, using
from models.validation import ValidationContext
from models.validation.cache_cases import cache_and_tiering, predict_boot_storm
from models.validation.runner import load_yaml_dir
from models.workload import Skew

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = ROOT / "fixtures" / "calibration"
RECORDS = ROOT / "fixtures" / "validation" / "cache_and_tiering.yaml"

ZIPF = Skew(zipf_alpha=0.8)
BLOCK_GB = 4096 / 1e9  # one 4 KiB block in decimal GB

skews = st.one_of(
    st.just(Skew()),
    st.floats(0.0, 3.0).map(lambda a: Skew(zipf_alpha=a)),
    st.tuples(st.floats(1.0, 50.0), st.floats(0.0, 1.0)).map(
        lambda t: Skew(data_pct=t[0], io_pct=t[0] + t[1] * (99.0 - t[0]))
    ),
)


# ---- hand-computed values ------------------------------------------------------------------------


def test_uniform_hit_ratio_is_cache_over_working_set() -> None:
    # 16 GB / 100 GB = 0.16 (published: 15-17% measured on a FAS3170)
    assert uniform_hit_ratio(16, 100) == pytest.approx(0.16)


def test_cache_larger_than_its_data_hits_every_read() -> None:
    assert uniform_hit_ratio(200, 100) == 1.0
    assert che_hit_ratio(200, 100, ZIPF) == 1.0
    assert che_hit_ratio(100, 100, Skew(io_pct=80, data_pct=20)) == 1.0


def test_che_with_uniform_skew_is_exactly_cache_over_working_set() -> None:
    assert che_hit_ratio(16, 100, Skew()) == pytest.approx(0.16, abs=1e-15)
    assert che_hit_ratio(16, 100, Skew(zipf_alpha=0.0)) == pytest.approx(0.16, abs=1e-15)


def test_two_class_skew_matches_che_computed_by_hand() -> None:
    # 80% of I/O to 20% of the data, N items: q_hot = 0.8/(0.2 N) = 4/N, q_cold = 0.2/(0.8 N) = 0.25/N.
    # Pick t_C = N ln4 / 4: q_hot t = ln 4 -> hit_hot = 1 - 1/4 = 0.75;
    # q_cold t = ln4 / 16 = ln2 / 8 -> hit_cold = 1 - 2^(-1/8) = 1 - 0.9170040 = 0.0829960.
    # C/N = 0.2 x 0.75 + 0.8 x 0.0829960 = 0.15 + 0.0663968 = 0.2163968
    # H   = 0.8 x 0.75 + 0.2 x 0.0829960 = 0.60 + 0.0165992 = 0.6165992
    hit = che_hit_ratio(21.63968, 100, Skew(io_pct=80, data_pct=20))
    assert hit == pytest.approx(0.6165992, abs=2e-6)


def test_che_matches_exact_lru_simulation_for_a_small_catalog() -> None:
    # 200 items, Zipf 0.8, 200,000 IRM requests (20,000 warm-up) through a true LRU.
    n, alpha, requests, warmup = 200, 0.8, 200_000, 20_000
    rng = np.random.default_rng(20020701)
    q = np.arange(1, n + 1, dtype=float) ** -alpha
    stream = rng.choice(n, size=requests, p=q / q.sum()).tolist()
    for size in (10, 40, 100):
        lru: OrderedDict[int, None] = OrderedDict()
        hits = 0
        for i, item in enumerate(stream):
            if item in lru:
                lru.move_to_end(item)
                hits += i >= warmup
            else:
                lru[item] = None
                if len(lru) > size:
                    lru.popitem(last=False)
        simulated = hits / (requests - warmup)
        assert che_hit_ratio(size * BLOCK_GB, n * BLOCK_GB, Skew(zipf_alpha=alpha)) == pytest.approx(
            simulated, abs=0.02
        )


def test_binned_zipf_matches_the_exact_che_sum_for_a_large_catalog() -> None:
    # 300,000 items summed exactly vs the 256 log-spaced rank bins
    n, alpha, c = 300_000, 0.9, 12_000
    q = np.arange(1, n + 1, dtype=float) ** -alpha
    q /= q.sum()
    u = brentq(lambda u: (-np.expm1(-q * math.exp(u))).sum() - c, math.log(c), 40.0, xtol=1e-13)
    exact = float((q * -np.expm1(-q * math.exp(u))).sum())
    assert che_hit_ratio(c * BLOCK_GB, n * BLOCK_GB, Skew(zipf_alpha=alpha)) == pytest.approx(exact, abs=1e-4)


def test_hit_ratio_curve_agrees_with_che_hit_ratio() -> None:
    sizes = np.array([0.0, 0.01, 1.0, 16.0, 50.0, 99.9, 100.0, 150.0])
    for skew in (ZIPF, Skew(zipf_alpha=1.2), Skew(io_pct=90, data_pct=10), Skew()):
        curve = hit_ratio_curve(sizes, 100.0, skew)
        expected = [che_hit_ratio(s, 100.0, skew) for s in sizes]
        assert curve == pytest.approx(expected, abs=1e-8)


def test_hit_ratio_curve_is_monotone_and_within_unit_interval_for_200_points() -> None:
    sizes = np.linspace(0.0, 120.0, 200)
    for alpha in (0.3, 0.8, 1.0, 1.5, 3.0):
        curve = hit_ratio_curve(sizes, 100.0, Skew(zipf_alpha=alpha))
        assert np.all(np.diff(curve) >= 0) and curve[0] == 0.0 and curve[-1] == 1.0


def test_skewed_access_hits_more_than_uniform_for_the_same_cache() -> None:
    assert che_hit_ratio(16, 100, ZIPF) > che_hit_ratio(16, 100, Skew())


def test_exclusive_levels_behave_like_one_cache_of_the_sum() -> None:
    # uniform: h_dram = 16/100, h_flash = (16 + 32)/100 - 16/100 = 0.32
    h_dram, h_flash = level_hit_ratios(16, 32, 100, Skew(), exclusive=True)
    assert (h_dram, h_flash) == pytest.approx((0.16, 0.32))


def test_inclusive_flash_only_adds_what_it_holds_beyond_dram() -> None:
    # inclusive: h_flash = H(max(16, 32)) - H(16) = 0.32 - 0.16 = 0.16; a flash smaller than DRAM adds 0
    assert level_hit_ratios(16, 32, 100, Skew(), exclusive=False) == pytest.approx((0.16, 0.16))
    assert level_hit_ratios(16, 8, 100, Skew(), exclusive=False) == pytest.approx((0.16, 0.0))


def test_a_dedupe_aware_flash_behind_a_plain_dram_counts_dram_per_logical_copy() -> None:
    # W = 100 GB, dedupe 4:1 -> 25 GB physical; DRAM 16 GB not aware = 4 GB of physical blocks;
    # flash 8 GB aware. Uniform: h_dram = 4/25 = 0.16 (= 16/100, as without dedupe),
    # h_flash = (4 + 8)/25 - 0.16 = 0.48 - 0.16 = 0.32
    h = level_hit_ratios(16, 8, 100, Skew(), dedupe_ratio=4.0, flash_dedupe_aware=True)
    assert h == pytest.approx((0.16, 0.32))
    # neither aware: dedupe changes nothing: (0.16, (16 + 8)/100 - 0.16 = 0.08)
    assert level_hit_ratios(16, 8, 100, Skew(), dedupe_ratio=4.0) == pytest.approx((0.16, 0.08))


def test_dedupe_aware_cache_sees_the_working_set_shrunk_by_the_ratio() -> None:
    assert effective_cache_working_set_gb(100, 4.0, dedupe_aware=True) == 25.0
    assert effective_cache_working_set_gb(100, 4.0, dedupe_aware=False) == 100.0


def test_sequential_reads_bypass_flash_read_caches_by_default() -> None:
    assert flash_cacheable_read_fraction(70.0) == pytest.approx(0.7)
    assert flash_cacheable_read_fraction(70.0, cache_sequential=True) == 1.0


def test_cold_first_pass_hit_ratio_computed_by_hand() -> None:
    # 16 GB over 100 GB uniform, 100 GB read from cold: t_C = -100 ln(1 - 0.16) = 17.4353 GB;
    # misses = 16 + (100 - 17.4353) x 0.84 = 16 + 69.3543 = 85.3543 GB -> hit = 0.146457
    assert cold_hit_ratio(16, 100, Skew(), read_gb=100) == pytest.approx(0.146457, abs=1e-6)


def test_cold_cache_holding_everything_misses_only_first_touches() -> None:
    # C >= W, R = W = N items: distinct items touched = N (1 - e^-1), so hit = e^-1 = 0.367879
    assert cold_hit_ratio(200, 100, Skew(), read_gb=100) == pytest.approx(math.exp(-1), abs=1e-9)


def test_cold_hit_ratio_rises_towards_the_warm_one() -> None:
    warm, first_pass = warm_and_cold_hit_ratios(16, 100, ZIPF)
    long_run = cold_hit_ratio(16, 100, ZIPF, read_gb=100_000)
    assert first_pass < long_run <= warm
    assert long_run == pytest.approx(warm, abs=0.005)


# ---- boot storm ----------------------------------------------------------------------------------


def _boot_record() -> dict:
    doc = yaml.safe_load(RECORDS.read_text(encoding="utf-8"))
    return next(r for r in doc["records"] if r["case"] == "boot_storm")


def test_boot_storm_without_dedupe_reads_every_block_once_times_readahead() -> None:
    # no re-references (F = R): disk = a R = 1.37 x 49 = 67.13 GB whatever the cache
    out = burst_disk_read_gb(49, 1.0, [CacheLevel(cache_gb=16)], readahead_amplification=1.37)
    assert out.disk_read_gb == pytest.approx(67.13)


def test_dedupe_aware_flash_cache_cuts_a_boot_storm_to_compulsory_reads() -> None:
    # P = 49 / 33.33 = 1.47 GB; c = 16/33.33 + 32 = 32.48 GB >= s P: disk = 1.37 x 1.47 = 2.0139 GB
    levels = [CacheLevel(cache_gb=16), CacheLevel(cache_gb=32, dedupe_aware=True)]
    out = burst_disk_read_gb(49, 1 / 0.03, levels, readahead_amplification=1.37, concurrency_share=0.42)
    assert out.physical_footprint_gb == pytest.approx(1.47)
    assert out.disk_read_gb == pytest.approx(2.0139)


def test_boot_storm_hand_computed_with_a_cache_that_is_not_dedupe_aware() -> None:
    # D = 33.33, P = 1.47, c = 16 / 33.33 = 0.48, s P = 0.42 x 1.47 = 0.6174
    # M = 1.47 + 47.53 x (1 - 0.48 / 0.6174) = 1.47 + 47.53 x 0.222546 = 12.0476; disk = 1.37 M = 16.505
    out = burst_disk_read_gb(
        49, 1 / 0.03, [CacheLevel(cache_gb=16)], readahead_amplification=1.37, concurrency_share=0.42
    )
    assert out.miss_gb == pytest.approx(12.0476, abs=1e-3)
    assert out.disk_read_gb == pytest.approx(16.505, abs=2e-3)


def test_boot_storm_predictions_land_within_a_factor_1_5_of_the_published_figures() -> None:
    ctx = ValidationContext(calibration=load_yaml_dir(CALIBRATION))
    predicted = predict_boot_storm(_boot_record(), ctx)
    assert 67 / 1.5 <= predicted["disk_read_gb_cold_no_dedupe_no_flash_cache"] <= 67 * 1.5
    assert 16 / 1.5 <= predicted["disk_read_gb_cold_dedupe_no_flash_cache"] <= 16 * 1.5
    assert predicted["disk_read_gb_cold_dedupe_plus_2x16gb_flash_cache"] < 4  # published: "less than 4 GB"


def test_burst_defaults_equal_the_calibration_fixture() -> None:
    cal = yaml.safe_load((CALIBRATION / "cache.yaml").read_text(encoding="utf-8"))["boot_storm"]
    assert cal["readahead_amplification"] == cache.DEFAULT_READAHEAD_AMPLIFICATION
    assert cal["concurrency_share"] == cache.DEFAULT_BURST_CONCURRENCY


def test_fitting_the_published_boot_storm_recovers_the_calibrated_values() -> None:
    a, s = fit_burst_parameters(49, 67, 16, 1 / 0.03, [CacheLevel(cache_gb=16)])
    assert round(a, 2) == cache.DEFAULT_READAHEAD_AMPLIFICATION
    assert round(s, 2) == cache.DEFAULT_BURST_CONCURRENCY


# ---- invariants (hypothesis) -------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    skew=skews,
    ws=st.floats(0.01, 1e6),
    a=st.floats(0.0, 1.2),
    b=st.floats(0.0, 1.2),
)
def test_hit_ratio_never_falls_as_cache_grows(skew: Skew, ws: float, a: float, b: float) -> None:
    small, large = sorted((a * ws, b * ws))
    assert che_hit_ratio(small, ws, skew) <= che_hit_ratio(large, ws, skew) + 1e-9


@settings(max_examples=60, deadline=None)
@given(skew=skews, ws=st.floats(0.01, 1e6), frac=st.floats(0.0, 10.0))
def test_hit_ratio_never_exceeds_one(skew: Skew, ws: float, frac: float) -> None:
    assert 0.0 <= che_hit_ratio(frac * ws, ws, skew) <= 1.0


@settings(max_examples=40, deadline=None)
@given(skew=skews, ws=st.floats(0.01, 1e6), fracs=st.lists(st.floats(0.0, 1.5), min_size=1, max_size=50))
def test_hit_ratio_curve_never_falls_as_cache_grows(skew: Skew, ws: float, fracs: list[float]) -> None:
    sizes = np.sort(np.array(fracs) * ws)
    curve = hit_ratio_curve(sizes, ws, skew)
    assert np.all(np.diff(curve) >= 0) and np.all((curve >= 0) & (curve <= 1))


def test_hit_ratio_curve_solves_a_vanishing_cache_beside_large_ones() -> None:
    # a cache of 2.4e-9 of the working set beside caches of 65-110% of it, Zipf alpha 2.57: the
    # small one starts below the occupancy table (t = C, far off) and needs a dozen Newton steps;
    # stopped at eight it was 1.4e-5 high. The 1e-139 one converges only linearly, harmlessly.
    skew, ws = Skew(zipf_alpha=2.5741115374825756), 76524.24032521229
    sizes = (
        np.array([1.1146952066569907e-139, 1.095616300581317, 0.6487639789628278, 2.3694458191309722e-09])
        * ws
    )
    curve = hit_ratio_curve(sizes, ws, skew)
    alone = che_hit_ratio(float(sizes[3]), ws, skew)
    assert 0.998 < alone < 0.9981
    assert curve[3] == pytest.approx(alone, abs=1e-10)
    assert curve[0] == pytest.approx(che_hit_ratio(float(sizes[0]), ws, skew), abs=1e-12)
    assert curve[1] == 1.0  # a cache larger than the working set holds all of it
    assert curve[2] == pytest.approx(che_hit_ratio(float(sizes[2]), ws, skew), abs=1e-10)


@settings(max_examples=40, deadline=None)
@given(skew=skews, ws=st.floats(0.01, 1e6), fracs=st.lists(st.floats(0.0, 1.2), min_size=1, max_size=5))
def test_hit_ratio_curve_agrees_with_the_scalar_solver(skew: Skew, ws: float, fracs: list[float]) -> None:
    sizes = np.array(fracs) * ws
    assert hit_ratio_curve(sizes, ws, skew) == pytest.approx(
        [che_hit_ratio(c, ws, skew) for c in sizes], abs=1e-6
    )


@settings(max_examples=40, deadline=None)
@given(
    skew=skews,
    ws=st.floats(0.01, 1e5),
    d=st.floats(0.0, 2.0),
    f=st.floats(0.0, 5.0),
    exclusive=st.booleans(),
    ratio=st.floats(1.0, 50.0),
    aware=st.tuples(st.booleans(), st.booleans()),
)
def test_level_hit_ratios_sum_to_at_most_one(
    skew: Skew, ws: float, d: float, f: float, exclusive: bool, ratio: float, aware: tuple[bool, bool]
) -> None:
    h_dram, h_flash = level_hit_ratios(
        d * ws,
        f * ws,
        ws,
        skew,
        exclusive=exclusive,
        dedupe_ratio=ratio,
        dram_dedupe_aware=aware[0],
        flash_dedupe_aware=aware[1],
    )
    assert h_dram >= 0 and h_flash >= 0 and h_dram + h_flash <= 1.0 + 1e-12


@settings(max_examples=40, deadline=None)
@given(skew=skews, ws=st.floats(0.1, 1e5), c=st.floats(0.0, 2.0), reads=st.floats(0.01, 100.0))
def test_cold_hit_ratio_never_exceeds_the_warm_one(skew: Skew, ws: float, c: float, reads: float) -> None:
    warm, cold = warm_and_cold_hit_ratios(c * ws, ws, skew, read_gb=reads * ws)
    assert 0.0 <= cold <= warm <= 1.0
    assert cold_hit_ratio(c * ws, ws, skew, read_gb=reads * ws) <= warm + 1e-6


def _brent_reference(c_gb: float, ws_gb: float, skew: Skew) -> float:
    """Che's H by Brent's method on ln t over the same popularity classes (an independent solve)."""
    m, q = cache._popularity(ws_gb * 1e9 / 4096, skew, cache.DEFAULT_BINS)
    c = c_gb / ws_gb * float(m.sum())
    lo, hi = math.log(c), math.log(-math.log1p(-c / float(m.sum())) / float(q.min()))

    def excess(u: float) -> float:
        return float(m @ -np.expm1(-np.minimum(q * math.exp(u), 500.0))) - c

    if hi <= lo or excess(hi) <= 0:
        u = hi
    elif excess(lo) >= 0:
        u = lo
    else:
        u = brentq(excess, lo, hi, xtol=1e-13, rtol=1e-14)
    return float((m * q) @ -np.expm1(-np.minimum(q * math.exp(u), 500.0)))


@settings(max_examples=150, deadline=None)
@given(skew=skews, ws=st.floats(1e-3, 1e6), frac=st.floats(1e-6, 0.999))
def test_newton_che_solve_agrees_with_brent_to_1e_9(skew: Skew, ws: float, frac: float) -> None:
    expected = _brent_reference(frac * ws, ws, skew)
    assert che_hit_ratio(frac * ws, ws, skew) == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_newton_che_solve_meets_the_hand_computed_two_class_root() -> None:
    # the two-class case above: t_C = N ln4 / 4 gives C/N = 0.2 x 0.75 + 0.8 x (1 - 2^(-1/8))
    n = 1e6
    c = n * (0.2 * 0.75 + 0.8 * (1.0 - 2.0 ** (-1.0 / 8.0)))
    pop = cache._popularity_table(n, None, 80.0, 20.0, cache.DEFAULT_BINS)
    t, h = cache._che_solve(c, pop)
    assert t == pytest.approx(n * math.log(4.0) / 4.0, rel=1e-11)
    assert h == pytest.approx(0.8 * 0.75 + 0.2 * (1.0 - 2.0 ** (-1.0 / 8.0)), rel=1e-12)


def test_popularity_tables_are_shared_within_a_memo_and_read_only() -> None:
    with using(Kept()):
        m, q = cache._popularity(2.5e7, ZIPF, cache.DEFAULT_BINS)
        m2, q2 = cache._popularity(2.5e7, Skew(zipf_alpha=0.8), cache.DEFAULT_BINS)
    assert m is m2 and q is q2
    m3, _ = cache._popularity(2.5e7, ZIPF, cache.DEFAULT_BINS)  # outside a memo: built afresh, equal
    assert m3 is not m and np.array_equal(m3, m)
    with pytest.raises(ValueError):
        m[0] = 2.0
    # log-spaced bins end exactly at N + 1/2: the classes hold N items and all the requests
    assert float(m.sum()) == pytest.approx(2.5e7, rel=1e-13)
    assert float(m @ q) == pytest.approx(1.0, rel=1e-13)


def test_kept_solves_give_the_hit_ratios_of_fresh_ones() -> None:
    memo = Kept()
    with using(memo):
        first = (che_hit_ratio(3.0, 100.0, ZIPF), cold_hit_ratio(3.0, 100.0, ZIPF))
        again = (che_hit_ratio(3.0, 100.0, ZIPF), cold_hit_ratio(3.0, 100.0, ZIPF))  # kept
    assert memo.table(cache._che_solution)
    assert first == again == (che_hit_ratio(3.0, 100.0, ZIPF), cold_hit_ratio(3.0, 100.0, ZIPF))


# ---- bad input ---------------------------------------------------------------------------------


def test_negative_cache_is_rejected_naming_the_field() -> None:
    with pytest.raises(InputError) as err:
        che_hit_ratio(-1, 100, ZIPF)
    assert err.value.field == "cache_gb"
    with pytest.raises(InputError) as err:
        hit_ratio_curve([1.0, -2.0], 100, ZIPF)
    assert err.value.field == "cache_sizes_gb"


def test_zero_working_set_is_rejected_naming_the_field() -> None:
    for fn in (uniform_hit_ratio, lambda c, w: che_hit_ratio(c, w, ZIPF)):
        with pytest.raises(InputError) as err:
            fn(16, 0)
        assert err.value.field == "working_set_gb"


def test_skew_outside_its_domain_is_rejected_naming_the_field() -> None:
    with pytest.raises(ValidationError, match="zipf_alpha"):
        Skew(zipf_alpha=3.5)
    with pytest.raises(ValidationError, match="io_pct"):
        Skew(io_pct=10, data_pct=20)
    # a Skew built without validation is still checked by the model
    with pytest.raises(InputError) as err:
        che_hit_ratio(16, 100, Skew.model_construct(zipf_alpha=5.0, io_pct=None, data_pct=None))
    assert err.value.field == "skew.zipf_alpha"


def test_other_bad_arguments_name_their_field() -> None:
    cases = [
        (lambda: che_hit_ratio(16, 100, ZIPF, block_kib=0), "block_kib"),
        (lambda: che_hit_ratio(16, 100, ZIPF, bins=4), "bins"),
        (lambda: effective_cache_working_set_gb(100, 0.5, True), "dedupe_ratio"),
        (lambda: flash_cacheable_read_fraction(120), "random_pct"),
        (lambda: cold_hit_ratio(16, 100, ZIPF, read_gb=0), "read_gb"),
        (lambda: burst_disk_read_gb(49, 2.0, [], concurrency_share=0), "concurrency_share"),
        (lambda: burst_disk_read_gb(49, 2.0, [], readahead_amplification=0.5), "readahead_amplification"),
        (lambda: burst_disk_read_gb(49, 2.0, [], footprint_gb=60), "footprint_gb"),
        (lambda: level_hit_ratios(16, -1, 100, ZIPF), "flash_gb"),
    ]
    for call, field in cases:
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == field


# ---- validation records ------------------------------------------------------------------------


def test_cache_and_tiering_records_carry_id_source_and_case() -> None:
    doc = yaml.safe_load(RECORDS.read_text(encoding="utf-8"))
    assert doc["kind"] == "cache_and_tiering"
    for record in doc["records"]:
        assert (
            record["id"]
            and record["source"]
            and record["case"] in {"uniform_hit", "boot_storm", "chunk_guidance"}
        )


def test_every_cache_and_tiering_gate_passes() -> None:
    # calls the handler directly, so a record file or handler of another kind cannot break it
    doc = yaml.safe_load(RECORDS.read_text(encoding="utf-8"))
    ctx = ValidationContext(calibration=load_yaml_dir(CALIBRATION))
    rows = [row for record in doc["records"] for row in cache_and_tiering(record, ctx)]
    gates = [r for r in rows if r.gate]
    assert len(gates) == 6
    assert all(r.passed for r in gates), [(r.metric, r.predicted, r.measured) for r in gates if not r.passed]
