"""The chance of meeting every target (models.confidence): Monte Carlo over the uncertain inputs and
the model's error band, across every case judged, and sizing to a stated confidence."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.base import InputError
from models.cases import HEALTHY_ONLY
from models.confidence import confidence, size_to_confidence
from models.provenance import with_model_error
from models.size import size
from models.tests.conftest import make_config, oltp
from models.verdict import meets, plan
from models.whatif.uncertainty import Range, Uncertainty, apply_uncertain, draw

POINT = Range(low=0.0, expected=0.0, high=0.0)
ONE = Range(low=1.0, expected=1.0, high=1.0)


def only_model_error(low: float, high: float) -> Uncertainty:
    """Every input stated exactly but the model's own error, triangular over (low, 1, high)."""
    return Uncertainty(
        skew_alpha_delta=POINT,
        hot_data_factor=ONE,
        working_set_factor=ONE,
        full_stripe_share_delta=POINT,
        cache_factor=ONE,
        locality_b_delta=POINT,
        scaling_efficiency=ONE,
        model_error_factor=Range(low=low, expected=1.0, high=high),
    )


def reads_only():
    return oltp(iops=1500, read_pct=100, ws_gb=2000, capacity_tb=2)


def test_the_chance_is_the_share_of_model_errors_below_the_one_where_the_drives_reach_70_pct(hdd15k):
    # 16 x 300 GB 15K in RAID-5 3+1, 1,500 random reads: data drives 57.08% busy (test_verdict), the
    # limit 70%. Drive times x f make the design fail above some f*; the engine's own verdict finds
    # it (monotone in f). With f triangular over (0.5, 1, 1.5) the chance is the CDF at f*:
    # F(x) = 1 - (1.5 - x)^2 / ((1.5 - 0.5)(1.5 - 1)) for x >= 1.
    cfg = make_config(hdd15k, "raid5", 4, 16)
    wl = [reads_only()]
    p = plan(wl, HEALTHY_ONLY)
    lo, hi = 1.0, 1.5
    assert meets(wl, with_model_error(cfg, lo), p)[0] and not meets(wl, with_model_error(cfg, hi), p)[0]
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if meets(wl, with_model_error(cfg, mid), p)[0] else (lo, mid)
    u = only_model_error(0.5, 1.5)
    got = confidence(wl, cfg, u, samples=1000, seed=7, relax=HEALTHY_ONLY)
    f = draw(u, 1000, 7)["model_error_factor"]
    assert got.chance_pct == pytest.approx(100.0 * np.mean(f <= lo))  # every sample, exactly
    cdf = 1.0 - (1.5 - lo) ** 2 / (1.0 * 0.5)
    assert got.chance_pct == pytest.approx(100.0 * cdf, abs=100.0 * 3 * np.sqrt(cdf * (1 - cdf) / 1000))
    assert got.inputs == ["the model's own error (make validate)"]
    # one input: the comparison decides all but the samples a bisection over them needs (~log2 1000)
    assert got.evaluated <= 12


def brute_chance(wl, cfg, u, n, seed, relax=None) -> float:
    """The chance of judging every sample with the engine (:func:`models.verdict.meets`), no comparison."""
    d = draw(u, n, seed)
    met = 0
    for k in range(n):
        w2, c2, _ = apply_uncertain(wl, cfg, {name: float(v[k]) for name, v in d.items()})
        met += meets(w2, c2, plan(w2, relax))[0]
    return 100.0 * met / n


CASES = {
    # a cached RAID-DP design near its limits: skew, working set, cache and the model's error apply
    "raid-dp, every case": (
        lambda d: make_config(d, "raid-dp", 8, 24),
        lambda: [oltp(iops=2600, read_pct=70, ws_gb=40, capacity_tb=2)],
        None,
    ),
    # growing 30%/year for 2 years: judged at month 24 (x1.69 load), with a read-latency target
    "raid5, at the horizon, with a target": (
        lambda d: make_config(d, "raid5", 5, 30),
        lambda: [
            oltp(
                iops=700,
                read_pct=80,
                ws_gb=60,
                capacity_tb=1,
                target=10.0,
                growth_pct_per_year=30,
                horizon_years=2,
            )
        ],
        None,
    ),
    # the same design with the failure cases relaxed: healthy and cold caches only
    "raid-dp, healthy only": (
        lambda d: make_config(d, "raid-dp", 8, 24),
        lambda: [oltp(iops=2900, read_pct=70, ws_gb=40, capacity_tb=2)],
        HEALTHY_ONLY,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_comparison_decides_the_same_samples_the_engine_would(hdd15k, name):
    # the answer with samples (and, per case, failure cases) decided by comparison is the answer of
    # judging every sample with the engine, on the same seeded draws
    config, workloads, relax = CASES[name]
    cfg, wl = config(hdd15k), workloads()
    u = Uncertainty(model_error_factor=Range(low=1 / 1.2, expected=1.0, high=1.2))
    n = 40
    got = confidence(wl, cfg, u, samples=n, seed=3, relax=relax)
    brute = brute_chance(wl, cfg, u, n, 3, relax)
    assert 0 < brute < 100  # the design is near its limits: both answers occur
    assert got.chance_pct == pytest.approx(brute)
    assert got.evaluated < n
    assert len(got.inputs) >= 4


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(loose=st.floats(min_value=4.0, max_value=40.0), tighter=st.floats(min_value=0.2, max_value=1.0))
def test_a_tighter_latency_target_never_raises_the_chance(hdd15k, loose, tighter):
    # every check is monotone in the target: a sample meeting the tighter target meets the looser
    cfg = make_config(hdd15k, "raid-dp", 8, 24)
    u = Uncertainty(model_error_factor=Range(low=1 / 1.2, expected=1.0, high=1.2))
    chance = [
        confidence([oltp(iops=2000, read_pct=70, ws_gb=40, target=t)], cfg, u, samples=60, seed=5).chance_pct
        for t in (loose, loose * tighter)
    ]
    assert chance[1] <= chance[0]


def test_sizing_to_a_confidence_adds_groups_until_the_chance_reaches_it(hdd15k):
    family = make_config(hdd15k, "raid5", 4, None)
    wl = [reads_only()]
    u = only_model_error(0.8, 1.4)
    base = size(wl, family, relax=HEALTHY_ONLY)
    sized = size_to_confidence(wl, family, 90, u, samples=400, relax=HEALTHY_ONLY)
    conf = sized.confidence
    assert conf is not None
    assert sized.drive_count >= base.drive_count
    assert conf.chance_pct >= 90 and conf.target_pct == 90 and conf.drive_count == sized.drive_count
    fewer = make_config(hdd15k, "raid5", 4, sized.drive_count - 4)
    assert confidence(wl, fewer, u, samples=400, relax=HEALTHY_ONLY).chance_pct < 90
    assert sized.result.verdict is not None and sized.result.verdict.passed


@pytest.mark.parametrize(("kw", "field"), [({"samples": 0}, "samples"), ({"samples": 5000}, "samples")])
def test_bad_sample_counts_name_their_field(hdd15k, kw, field):
    with pytest.raises(InputError) as e:
        confidence([reads_only()], make_config(hdd15k, "raid5", 4, 16), **kw)
    assert e.value.field == field


@pytest.mark.parametrize("pct", [0.0, 100.0])
def test_a_confidence_of_0_or_100_pct_is_refused(hdd15k, pct):
    with pytest.raises(InputError) as e:
        size_to_confidence([reads_only()], make_config(hdd15k, "raid5", 4, None), pct)
    assert e.value.field == "confidence_pct"
