"""The read-latency composition and the window's IOPS-weighted latency, stated once in
:mod:`models.latency` and used by the scalar engine and the batch path alike (#29)."""

import math

import numpy as np
import pytest

from models.latency import cache_hits_ms, iops_weighted_ms, read_latency_ms, window_latencies_of


def test_read_latency_by_hand() -> None:
    # hits: 0.5 x 0.1 + 0.2 x 0.3 = 0.11 ms; miss 0.3 at t_hit 0.1 + R_miss 5 = 5.1 ms
    # R = 1 + 0.5 x (0.11 + 0.3 x 5.1) + 0.5 x (0.1 + 0.4) = 1 + 0.82 + 0.25 = 2.07 ms
    hits = cache_hits_ms(0.5, 0.2, 0.1, 0.3)
    assert hits == pytest.approx(0.11)
    assert read_latency_ms(1.0, 0.5, hits, 0.3, 0.1, 5.0, 0.4) == pytest.approx(2.07)


def test_all_random_reads_carry_no_readahead() -> None:
    # rnd = 1: R = 1 + (0.11 + 0.3 x 5.1) = 2.64 ms, whatever the readahead (inf: saturated)
    assert read_latency_ms(1.0, 1.0, 0.11, 0.3, 0.1, 5.0, math.inf) == pytest.approx(2.64)


def test_read_latency_on_arrays_is_the_scalar_elementwise() -> None:
    front = np.array([1.0, 2.0, 0.5])
    miss = np.array([0.3, 0.0, 0.9])
    r_miss = np.array([5.0, 1.0, 12.0])
    got = read_latency_ms(front, 0.8, cache_hits_ms(0.4, 0.1, 0.2, 0.5), miss, 0.2, r_miss, 0.3)
    for k in range(3):
        one = read_latency_ms(front[k], 0.8, cache_hits_ms(0.4, 0.1, 0.2, 0.5), miss[k], 0.2, r_miss[k], 0.3)
        assert got[k] == one


def test_window_latency_is_iops_weighted_and_inf_when_a_phase_saturates() -> None:
    # (2 x 100 x 0.7 + 4 x 50 x 1) / (70 + 50) = 340 / 120 ms
    assert iops_weighted_ms([(100.0, 0.7, 2.0), (50.0, 1.0, 4.0)]) == pytest.approx(340 / 120)
    assert iops_weighted_ms([(100.0, 0.7, 2.0), (50.0, 1.0, math.inf)]) == math.inf
    rows = iops_weighted_ms([(100.0, 0.7, np.array([2.0, 2.0])), (50.0, 1.0, np.array([4.0, np.inf]))])
    assert rows[0] == pytest.approx(340 / 120) and rows[1] == math.inf
    assert iops_weighted_ms([]) == 0.0


def test_window_latencies_of_reads_writes_and_all() -> None:
    # reads: 2 ms x 70 + 4 ms x 50 over 120; writes: 1 ms x 30 over 30; all: (340 + 30) / 150
    read, write, avg = window_latencies_of([(100.0, 70.0, 2.0, 1.0), (50.0, 100.0, 4.0, None)])
    assert read == pytest.approx(340 / 120)
    assert write == pytest.approx(1.0)
    assert avg == pytest.approx(370 / 150)
    assert window_latencies_of([(100.0, 70.0, None, 1.0)])[0] is None
