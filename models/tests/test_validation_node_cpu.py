"""Cores a published cluster used, predicted from the shipped catalog node (``kind: node_cpu_use``)."""

from pathlib import Path

import pytest

from models.catalog import load_catalog
from models.validation import OUT_OF_SAMPLE, ValidationContext
from models.validation.node_cpu_use import node_cpu_use_rows, predicted_cores

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RECORD = {
    "id": "write_only",
    "model": {
        "array": "ceph-nvme-reference",
        "drive": "nvme-pm9a3-1920",
        "nodes": 4,
        "drives_per_node": 2,
        "cores_per_node": 32,
        "capacity_tb": 10,
    },
    "tolerance_pct": 25,
}


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    return ValidationContext(calibration={}, catalog=load_catalog(FIXTURES))


def test_random_4k_writes_with_three_copies_keep_busy_the_cores_their_catalog_costs_add_up_to(ctx):
    # the shipped node: 177 us per write and per copy, 3.0 us per KiB written (every copy), 5 us per
    # back-end I/O; 10,000 writes/s of 4 KiB with 3 copies:
    #   ops  10,000 x 177 + 20,000 copies x 177 = 5,310,000 us/s
    #   KiB  (40,000 + 80,000 copy KiB) x 3.0 = 360,000 us/s
    #   back end: one drive write per copy, 30,000 x 5 us = 150,000 us/s
    # 5,820,000 us/s = 5.82 core-seconds per second -> 5.82 cores (no data-service multipliers)
    m = {"id": "w", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 10000}
    assert predicted_cores(RECORD, m, ctx) == pytest.approx(5.82, rel=1e-9)


def test_cores_grow_in_proportion_to_the_throughput(ctx):
    m = {"id": "w", "copies": 3, "read_pct": 70, "size_kib": 8, "iops": 20000}
    double = {**m, "iops": 40000}
    assert predicted_cores(RECORD, double, ctx) == pytest.approx(
        2 * predicted_cores(RECORD, m, ctx), rel=1e-9
    )


def test_rows_are_out_of_sample_and_a_measurement_the_engine_lacks_is_not_gated(ctx):
    measurements = [
        {"id": "busy", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 10000, "cores_used": [5, 7]},
        {
            "id": "idle",
            "copies": 3,
            "read_pct": 0,
            "size_kib": 4,
            "iops": 1000,
            "cores_used": 2,
            "not_gated": "low load",
        },
    ]
    busy, idle = node_cpu_use_rows({**RECORD, "measurements": measurements}, ctx)
    assert (busy.basis, busy.gate, busy.passed) == (OUT_OF_SAMPLE, True, True)
    assert busy.measured == (5.0, 7.0)
    assert (idle.gate, idle.tolerance_pct) == (False, None)
    assert "not gated: low load" in idle.note
