"""Phase.mean_size_kib of one I/O size takes a shortcut: it answers the mix's sum exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from models.workload import Phase


@given(size=st.floats(min_value=0.5, max_value=16384.0) | st.integers(1, 16384))
def test_one_size_is_the_sum_of_its_mix(size: float) -> None:
    ph = Phase(name="p", window="w", iops=100.0, read_pct=50.0, io_size_kib=size)
    expected = sum(s * f for s, f in ph.size_mix)
    assert type(ph.mean_size_kib) is type(expected)
    assert ph.mean_size_kib.hex() == expected.hex()
