"""Observed vs predicted: the current configuration evaluated at the loads the host measured."""

from __future__ import annotations

import pytest

from models.base import InputError
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.evidence import at_observed_load, compare_observed
from models.tests.conftest import make_config, oltp
from models.workload import ObservedLoad

OBSERVED = ObservedLoad(
    source="iostat on db01: sda, 2024-01-15 10:00 to 11:00",
    iops=1200.0,
    read_pct=80.0,
    read_latency_ms=8.0,
    write_latency_ms=1.0,
    queue_length=10.4,
    intervals=60,
)


def observed_workload():  # noqa: ANN201 - a Workload
    w = oltp(iops=3000, read_pct=70)  # the sizing rate (a p95, say) differs from the observation
    return w.model_copy(update={"phases": [w.phases[0].model_copy(update={"observed": OBSERVED})]})


def test_the_model_runs_at_the_observed_load_not_the_sizing_rate() -> None:
    other = oltp(name="template")  # a workload without observations is left out
    at_load = at_observed_load([observed_workload(), other])
    assert [w.name for w in at_load] == ["oltp"]
    phase = at_load[0].phases[0]
    assert (phase.iops, phase.read_pct, phase.io_size_kib) == (1200.0, 80.0, 8)


def test_no_observed_phase_is_an_input_error_on_workloads() -> None:
    with pytest.raises(InputError) as info:
        at_observed_load([oltp()])
    assert info.value.field == "workloads"


def test_each_observed_phase_gets_the_predicted_latency_and_its_error(hdd15k: DriveSpec) -> None:
    at_load = at_observed_load([observed_workload()])
    result = evaluate(at_load, make_config(hdd15k))
    comparison = compare_observed(at_load, result)

    (row,) = comparison.rows
    predicted = result.windows[0].phases[0].read_latency_ms.value
    assert predicted is not None
    assert row.predicted_read_latency_ms.value == predicted
    # error % = (predicted - observed) / observed x 100, observed 8 ms
    assert row.read_error_pct == pytest.approx(round((predicted - 8.0) / 8.0 * 100.0, 2))
    assert (row.observed_iops, row.observed_queue_length, row.window) == (1200.0, 10.4, "business hours")
    assert row.bottleneck == result.windows[0].bottleneck
