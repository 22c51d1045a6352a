"""Checks: a :class:`~models.results.Limit` answers as the :class:`~models.results.Check` it builds."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from models.explain import Explained
from models.results import Limit, PhaseResult, WindowResult, check

VALUES = (
    st.none() | st.floats(allow_nan=True) | st.sampled_from([0.0, 80.0, 80.0 + 1e-9, 80.0 + 2e-9, math.inf])
)
LIMITS = st.floats(min_value=0.0, max_value=1e6) | st.sampled_from([0.0, 80.0, 100.0])


@given(value=VALUES, limit=LIMITS)
def test_a_limit_passes_and_ranks_as_its_check(value: float | None, limit: float) -> None:
    lim = Limit("drives:aggr0", value, limit, "%", "drives busy")
    built = check(*lim)
    assert lim.check() == built
    assert lim.passed == built.passed
    # the window verdict's ranking key (evaluate._verdict) on the built check
    key = float("inf") if built.value is None else built.value / built.limit if built.limit else 0.0
    assert lim.load == key


def test_a_check_near_its_limit_shows_the_digits_that_tell_them_apart():
    # at three significant digits 10.003 ms reads "10", as its limit does: more digits say why it fails
    assert (
        check("r", 10.003, 10.0, "ms", "read latency").text
        == "read latency 10.003 ms, over the limit of 10 ms"
    )
    assert (
        check("r", 9.9996, 10.0, "ms", "read latency").text
        == "read latency 9.9996 ms, within the limit of 10 ms"
    )
    assert (
        check("l", 1000.4, 1000.0, "IOPS", "load").text == "load 1,000.4 IOPS, over the limit of 1,000 IOPS"
    )
    # apart at three digits, or equal: as always
    assert check("d", 69.3, 70.0, "%", "drives busy").text == "drives busy 69.3 %, within the limit of 70 %"
    assert check("d", 70.0, 70.0, "%", "drives busy").text == "drives busy 70 %, within the limit of 70 %"


def _phase(
    name: str, iops: float, mb_s: float, read_pct: float, ms: tuple[float | None, float]
) -> PhaseResult:
    """A phase with only what a window's totals read (its IOPS, MB/s, read share, read and write latency)."""
    read_ms, write_ms = ms
    fields: dict[str, Any] = {
        "workload": "db",
        "phase": name,
        "iops": iops,
        "mb_per_s": mb_s,
        "read_pct": read_pct,
    }
    fields["read_latency_ms"] = Explained(value=read_ms, unit="ms", formula="", text="")
    fields["write_latency_ms"] = Explained(value=write_ms, unit="ms", formula="", text="")
    return PhaseResult.model_construct(**fields)


def _window(phases: list[PhaseResult], read_ms: float | None, write_ms: float | None) -> WindowResult:
    fields: dict[str, Any] = {"window": "night", "phases": phases}
    fields |= {"frontend_iops": sum(p.iops for p in phases), "frontend_mb_s": sum(p.mb_per_s for p in phases)}
    fields |= {"read_latency_ms": read_ms, "write_latency_ms": write_ms}
    return WindowResult.model_construct(**fields)


def test_a_windows_totals_carry_their_sums_and_iops_weighted_latencies_in_words() -> None:
    # day: 3,000 IOPS at 75% reads; scan: 1,000 IOPS, reads only; dump: 500 IOPS, writes only
    # R_read = (2,250 x 6 + 1,000 x 2) / 3,250 = 15,500 / 3,250 = 4.769 ms
    # R_write = (750 x 1 + 500 x 4) / 1,250 = 2,750 / 1,250 = 2.2 ms (the scan writes nothing)
    phases = [
        _phase("day", 3000.0, 24.0, 75.0, (6.0, 1.0)),
        _phase("scan", 1000.0, 250.0, 100.0, (2.0, 0.5)),
        _phase("dump", 500.0, 125.0, 0.0, (3.0, 4.0)),
    ]
    ex = _window(phases, 15500 / 3250, 2.2).explain
    assert ex.frontend_iops.text == "IOPS = 3,000 (db/day) + 1,000 (db/scan) + 500 (db/dump) = 4,500"
    assert ex.frontend_mb_s.text == "MB/s = 24 (db/day) + 250 (db/scan) + 125 (db/dump) = 399"
    assert ex.read_latency_ms.text == "R_read = IOPS-weighted mean of 6 ms (db/day), 2 ms (db/scan) = 4.77 ms"
    assert ex.read_latency_ms.inputs == {"db/day": 6.0, "db/scan": 2.0}
    assert (
        ex.write_latency_ms.text == "R_write = IOPS-weighted mean of 1 ms (db/day), 4 ms (db/dump) = 2.2 ms"
    )
    assert (ex.read_latency_ms.unit, ex.frontend_iops.value, ex.write_latency_ms.value) == ("ms", 4500.0, 2.2)


def test_a_saturated_windows_latency_is_explained_as_unbounded() -> None:
    ex = _window([_phase("day", 3000.0, 24.0, 75.0, (None, 1.0))], None, 1.0).explain
    assert ex.read_latency_ms.value is None
    assert ex.read_latency_ms.text == "R_read is unbounded: a phase's reads saturate a resource"
    assert ex.write_latency_ms.text == "R_write = IOPS-weighted mean of 1 ms (db/day) = 1 ms"
