import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.base import InputError
from models.queueing import Station, mg1_response_ms, mm1_response_ms, multi_server, mva


def test_mm1_response_is_service_over_idle_share():
    # S = 5 ms at 75% busy: 5 / 0.25 = 20 ms
    assert mm1_response_ms(5, 0.75) == pytest.approx(20)
    assert mm1_response_ms(5, 1.0) is None


def test_mg1_equals_mm1_for_exponential_service():
    assert mg1_response_ms(5, 0.6, scv=1.0) == pytest.approx(mm1_response_ms(5, 0.6))


def test_mg1_with_deterministic_service_waits_half_as_long():
    # M/D/1: W = U S / (2 (1 - U)) = 0.5 * 4 / (2 * 0.5) = 2 -> R = 6
    assert mg1_response_ms(4, 0.5, scv=0.0) == pytest.approx(6.0)


def test_mva_single_queue_matches_closed_form():
    # one queue of demand D: X(n) = 1/D, R(n) = n D (all n customers queue at it)
    pts = mva([Station("disk", 10.0)], 8)
    for p in pts:
        assert p.throughput_per_s == pytest.approx(100.0)
        assert p.response_ms == pytest.approx(10.0 * p.population)


def test_mva_with_delay_matches_machine_repairman_n1():
    # N = 1: R = Z + D = 5 + 10, X = 1000 / 15
    pts = mva([Station("think", 5.0, delay=True), Station("disk", 10.0)], 1)
    assert pts[0].throughput_per_s == pytest.approx(1000 / 15)


def test_mva_two_balanced_queues_n2():
    # two queues of D each, N = 2: R_k(2) = D (1 + Q_k(1)), Q_k(1) = 0.5 -> R = 2 * 1.5 D = 3D, X = 2 / 3D
    pts = mva([Station("a", 10.0), Station("b", 10.0)], 2)
    assert pts[1].throughput_per_s == pytest.approx(2 / 30 * 1000)


def test_mva_replicas_equal_separate_identical_stations():
    a = mva([Station("d", 4.0, replicas=3)], 16)
    b = mva([Station("d1", 4.0), Station("d2", 4.0), Station("d3", 4.0)], 16)
    for pa, pb in zip(a, b, strict=True):
        assert pa.throughput_per_s == pytest.approx(pb.throughput_per_s)


def test_background_load_inflates_closed_demand():
    # background demand equal to the closed one, N = 1: R = D / (1 - X bg), X = 1000 / R
    # -> R = 10 / (1 - 10 / R) -> R = 20 ms, X = 50/s, background busy 50%
    pts = mva([Station("disk", 10.0, background_ms=10.0)], 1)
    assert pts[0].response_ms == pytest.approx(20.0, rel=1e-6)
    assert pts[0].utilization["disk"] == pytest.approx(1.0, rel=1e-6)


def test_multi_server_split_keeps_total_demand():
    parts = multi_server("cpu", 1.0, 4)
    assert sum(s.demand_ms for s in parts) == pytest.approx(1.0)


@given(st.lists(st.floats(0.01, 20), min_size=1, max_size=5), st.integers(1, 64))
def test_mva_throughput_never_exceeds_bottleneck_and_response_never_falls(demands, n):
    pts = mva([Station(f"s{i}", d) for i, d in enumerate(demands)], n)
    cap = 1000 / max(demands)
    for a, b in zip(pts, pts[1:], strict=False):
        assert b.throughput_per_s >= a.throughput_per_s - 1e-9
        assert b.response_ms >= a.response_ms - 1e-9
    assert pts[-1].throughput_per_s <= cap * (1 + 1e-9)


def test_mva_rejects_zero_population():
    with pytest.raises(InputError):
        mva([Station("a", 1.0)], 0)
