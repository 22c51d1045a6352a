"""Latency you can quote: QD1 = host + controller + device, percentiles from the queueing model."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.curves import queue_depth_sweep
from models.evaluate import evaluate
from models.kept import Kept, using
from models.queueing import mg1_wait_moments
from models.tail_latency import Path, gamma_path, mixture_quantile, pooled_gamma, sojourn_moments
from models.tests.conftest import make_config, oltp
from models.tests.test_flash import nvme, writes_only
from models.workload import Phase, Workload


def test_mm1_wait_second_moment_matches_the_closed_form():
    # M/M/1 (c^2 = 1), S = 2 ms, U = 0.6: E[W] = 0.6 x 2 / 0.4 = 3 ms, E[W^2] = 2 U S^2 / (1 - U)^2 = 30
    w1, w2 = mg1_wait_moments(2.0, 0.6, 1.0)
    assert w1 == pytest.approx(3.0)
    assert w2 == pytest.approx(2 * 0.6 * 4 / 0.16)


def test_mm1_sojourn_fits_an_exponential_so_p99_is_mean_times_ln_100():
    # sojourn of M/M/1 is exponential with mean S / (1 - U) = 5 ms: the gamma fit has k = 1
    w1, w2 = mg1_wait_moments(2.0, 0.6, 1.0)
    mean, var = sojourn_moments(2.0, 1.0, w1, w2)
    path = gamma_path(1.0, 0.0, mean, var)
    assert path.k == pytest.approx(1.0)
    assert mixture_quantile([path], 0.99) == pytest.approx(5.0 * math.log(100))


def test_point_masses_put_the_percentile_on_the_slow_path_when_it_holds_more_than_the_tail():
    # 94% of reads at 1 ms and 6% at 10 ms: F(1 ms) = 0.94 < 0.95, so p95 = 10 ms; p90 = 1 ms
    paths = [Path(0.94, 1.0), Path(0.06, 10.0)]
    assert mixture_quantile(paths, 0.95) == pytest.approx(10.0)
    assert mixture_quantile(paths, 0.9) == pytest.approx(1.0)
    # with 96% at 1 ms the fast path alone covers 95% of reads: p95 = 1 ms
    assert mixture_quantile([Path(0.96, 1.0), Path(0.04, 10.0)], 0.95) == pytest.approx(1.0)


@settings(max_examples=60)
@given(
    st.lists(st.tuples(st.floats(0.01, 1), st.floats(0, 20)), min_size=0, max_size=4),
    st.tuples(st.floats(0.01, 1), st.floats(0, 20), st.floats(0.2, 20), st.floats(0.01, 5)),
    st.floats(0.5, 0.995),
)
def test_the_quantile_of_point_masses_and_a_gamma_is_where_the_distribution_reaches_q(points, g, q):
    from scipy.special import gammainc

    paths = [Path(w, c) for w, c in points] + [Path(*g)]
    t = mixture_quantile(paths, q)
    total = sum(p.weight for p in paths)

    def cdf(x: float) -> float:
        mass = sum(p.weight for p in paths[:-1] if p.const_ms <= x)
        gp = paths[-1]
        return (mass + gp.weight * gammainc(gp.k, max(x - gp.const_ms, 0) / gp.theta_ms)) / total

    assert cdf(t) >= q - 1e-9
    assert cdf(t * (1 - 1e-6) - 1e-9) <= q + 1e-9  # the least such t


def test_gamma_paths_pool_into_one_of_the_same_mean_and_variance():
    # two exponentials (k = 1) of means 1 and 3 ms, equal weights: mean 2, E[X^2] = (2 + 18) / 2 = 10,
    # variance 6 -> k = 4 / 6, theta = 3
    pooled = pooled_gamma([Path(0.5, 0.0, 1.0, 1.0), Path(0.5, 0.0, 1.0, 3.0)])
    assert pooled.weight == pytest.approx(1.0)
    assert pooled.k == pytest.approx(4 / 6)
    assert pooled.theta_ms == pytest.approx(3.0)


@settings(max_examples=25, deadline=None)
@given(st.floats(500, 20000), st.floats(10, 100), st.sampled_from(["raid5", "raid-dp", "raid10"]))
def test_p99_is_never_below_p95_nor_p95_below_the_fastest_path(iops, read_pct, scheme):
    width = 4 if scheme == "raid10" else 8
    result = evaluate([oltp(iops=iops, read_pct=read_pct)], make_config(nvme(), scheme, width, 16))
    ph = result.windows[0].phases[0]
    assert ph.read_p95_latency_ms is not None and ph.read_p99_latency_ms is not None
    p95, p99 = ph.read_p95_latency_ms.value, ph.read_p99_latency_ms.value
    if p95 is None:
        return
    assert p99 is not None and p99 >= p95 - 1e-12
    assert p95 >= 0.2  # no read is faster than a DRAM hit (t_hit 0.2 ms)


def test_a_write_only_phase_has_no_read_percentiles():
    ph = evaluate(writes_only(1000), make_config(nvme(), "raid6", 10, 20)).windows[0].phases[0]
    assert ph.read_p95_latency_ms is None and ph.read_p99_latency_ms is None


def test_busy_hdd_pool_p99_lies_far_above_its_mean(hdd15k):
    result = evaluate([oltp(iops=1800, read_pct=100, ws_gb=2000)], make_config(hdd15k, "raid-dp", 20, 20))
    ph = result.windows[0].phases[0]
    mean, p99 = ph.read_latency_ms.value, ph.read_p99_latency_ms.value
    assert mean is not None and p99 is not None
    assert p99 > 2.5 * mean
    assert result.windows[0].read_p99_latency_ms == pytest.approx(p99)


def random_reads(size_kib: float = 4) -> list[Workload]:
    return [
        Workload(
            name="r",
            capacity_tb=10,
            phases=[Phase(name="p", window="w", iops=1000, read_pct=100, io_size_kib=size_kib)],
        )
    ]


def test_ssd_qd1_latency_is_host_plus_controller_plus_device():
    # no DRAM cache: every read misses. QD1 = host 0 + controller CPU (60 us per miss + 0.5 us/KiB x
    # 4 KiB + 5 us for its one back-end I/O = 0.067 ms, alone on the cores) + port 4 KiB at
    # 4 x 1,150 MB/s (0.00089 ms) + cache path t_hit 0.2 ms + NVMe QD1 read 0.08 ms = 0.3479 ms (the
    # SSD's ~0.002 ms throughput demand is inside its latency)
    cfg = make_config(nvme(), "raid10", 4, 8, ctrl={"dram_cache_gb": 0, "cpu_us_read_miss": 60, "cores": 4})
    curve = queue_depth_sweep(random_reads(), cfg, depths=[1])
    port = 4 * 1024 / (4 * 1150e6) * 1000
    assert curve.points[0].avg_response_ms == pytest.approx(0.067 + port + 0.2 + 0.08, rel=1e-6)


def test_write_only_queue_depth_curve_grows_once_destage_saturates(hdd15k):
    cfg = make_config(hdd15k, "raid5", 5, 5)
    curve = queue_depth_sweep(writes_only(1000), cfg, depths=[1, 256])
    qd1, qd256 = curve.points
    assert qd256.iops == pytest.approx(qd1.iops, rel=0.05) or qd256.iops > qd1.iops
    assert qd256.avg_response_ms > 50 * qd1.avg_response_ms
    assert qd256.iops * qd256.avg_response_ms / 1000 == pytest.approx(256, rel=1e-6)  # Little's law


def test_a_vanishing_read_share_still_gives_finite_percentiles_or_none(hdd15k):
    # 5e-324 % reads (a denormal rate): the cold-cache window once produced an infinite p95 that the
    # result refused; the percentiles are of that phase's own read paths, whatever their share
    wl = oltp(iops=52, read_pct=5e-324, ws_gb=10, capacity_tb=1.0)
    window = evaluate([wl], make_config(hdd15k, "raid6", 8, 16)).windows[0]
    cold = window.cold_cache
    assert cold is not None  # a 10 GB working set: warm from DRAM, cold from the drives
    for p in (window.read_p95_latency_ms, window.read_p99_latency_ms, cold.read_p95_latency_ms):
        value = p.value if hasattr(p, "value") else p
        assert value is None or math.isfinite(value)


_PATHS = st.lists(
    st.builds(
        Path,
        st.floats(0, 1),
        st.floats(0, 50) | st.just(math.inf),
        st.just(0.0) | st.floats(0.1, 20),
        st.just(0.0) | st.floats(0.01, 20),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=80)
@given(paths=_PATHS, qs=st.sampled_from([(0.95, 0.99), (0.99,), (0.5, 0.95, 0.99)]))
def test_remembered_quantiles_are_the_ones_computed_afresh(paths, qs):
    from models import tail_latency

    with using(Kept()):
        first = tail_latency.quantiles_or_none(paths, qs)
        again = tail_latency.quantiles_or_none(paths, qs)  # remembered
    assert (
        first
        == again
        == tail_latency._quantiles_or_none(paths, qs)
        == tail_latency.quantiles_or_none(paths, qs)
    )


def test_quantiles_are_remembered_for_the_exact_bits_only():
    from models import tail_latency

    memo = Kept()
    with using(memo):
        tail_latency.quantiles_or_none([Path(1.0, 0.0)], (0.99,))
        tail_latency.quantiles_or_none([Path(1.0, -0.0)], (0.99,))  # equal, other bits: its own entry
    assert len(memo.quantiles) == 2
