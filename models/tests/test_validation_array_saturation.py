"""Saturation of a catalog array's default configuration (``kind: array_saturation``), by hand."""

from pathlib import Path

import pytest

from models.catalog import load_catalog
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, ValidationContext
from models.validation.array_saturation import array_saturation_rows, predicted_saturation
from models.validation.runner import load_yaml_dir

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
C60 = {"id": "c60", "array": "pure-flasharray-c60", "tolerance_pct": 25}


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    # the shipped custom records (custom_hardware.yaml): the ONTAP Select nodes of the tests below
    return ValidationContext(
        calibration=load_yaml_dir(FIXTURES / "calibration"), catalog=load_catalog(FIXTURES)
    )


def test_the_c60_reproduces_the_published_figure_its_ceilings_were_read_off(ctx):
    # one controller serves (active-passive): 84,000 IOPS x 1 at 70/30 32 KiB, where
    # 84,000 x 32 KiB = 2,752.5 MB/s reaches the MB/s ceiling at the same point
    iops, binding = predicted_saturation(C60, {"id": "m", "read_pct": 70, "size_kib": 32}, ctx)
    assert iops == pytest.approx(84000, rel=1e-3)
    assert binding == "controllers"


def test_long_reads_on_the_c60_stop_at_its_mb_s_ceiling(ctx):
    # 2,752.5 MB/s / (256 x 1.024 kB) = 2,752.5 / 0.262144 = 10,500 IOPS of 256 KiB
    iops, _ = predicted_saturation(C60, {"id": "m", "read_pct": 100, "size_kib": 256}, ctx)
    assert iops == pytest.approx(10500, rel=1e-3)


def test_a_ceiling_source_row_is_in_sample_and_ungated_every_other_is_gated(ctx):
    measurements = [
        {"id": "src", "read_pct": 70, "size_kib": 32, "iops": 84000, "ceiling_source": True},
        {"id": "other", "read_pct": 70, "size_kib": 32, "iops": 100000},
    ]
    src, other = array_saturation_rows({**C60, "measurements": measurements}, ctx)
    assert (src.basis, src.gate, src.passed) == (IN_SAMPLE, False, True)
    assert (other.basis, other.gate) == (OUT_OF_SAMPLE, True)
    assert other.error_pct == pytest.approx(-16.0, abs=0.1)  # 84,000 / 100,000 - 1


ONTAP = {
    "id": "ontap",
    "array": "netapp-aff-a400",
    "controller": "ontap-select-96-medium-node",
    "storage_efficiency": False,
}


def test_a_record_on_other_hardware_names_its_custom_node_and_the_cores_bind(ctx):
    # ONTAP Select medium nodes (8 cores each, storage efficiency off) as an HA pair of the A400's
    # software: 2 x 8e6 core-us per s / 92.3 core-us per 8 KiB read = 173,300 reads per s
    read, binding = predicted_saturation(ONTAP, {"id": "r", "read_pct": 100, "size_kib": 8}, ctx)
    assert binding == "controllers"
    assert read == pytest.approx(2 * 8e6 / (8e6 / (677 * 128)), rel=0.01)
    # twice the cores, twice the CPU-bound reads
    doubled, _ = predicted_saturation(
        {**ONTAP, "controller": "ontap-select-96-large-node"},
        {"id": "r", "read_pct": 100, "size_kib": 8},
        ctx,
    )
    assert doubled == pytest.approx(2 * read, rel=1e-6)


def test_a_mix_costs_the_weighted_sum_of_its_reads_and_writes(ctx):
    # CPU per I/O is linear in the read share: a 50/50 mix runs at the harmonic mean of the pure rates
    read, _ = predicted_saturation(ONTAP, {"id": "r", "read_pct": 100, "size_kib": 8}, ctx)
    write, _ = predicted_saturation(ONTAP, {"id": "w", "read_pct": 0, "size_kib": 8}, ctx)
    mix, _ = predicted_saturation(ONTAP, {"id": "m", "read_pct": 50, "size_kib": 8}, ctx)
    assert mix == pytest.approx(2 / (1 / read + 1 / write), rel=1e-4)


def test_cost_source_rows_are_in_sample_and_not_gated_rows_are_reported_with_their_reason(ctx):
    measurements = [
        {"id": "src", "read_pct": 100, "size_kib": 8, "iops": 173312, "cost_source": True},
        {"id": "far", "read_pct": 100, "size_kib": 8, "iops": 50000, "not_gated": "another bottleneck"},
        {"id": "gated", "read_pct": 100, "size_kib": 8, "iops": 50000},
    ]
    src, far, gated = array_saturation_rows({**ONTAP, "tolerance_pct": 25, "measurements": measurements}, ctx)
    assert (src.basis, src.gate) == (IN_SAMPLE, False)
    assert "per-I/O costs were derived from this figure" in src.note
    assert (far.basis, far.gate) == (OUT_OF_SAMPLE, False)
    assert "not gated: another bottleneck" in far.note
    assert (gated.basis, gated.gate, gated.passed) == (OUT_OF_SAMPLE, True, False)


def test_hardware_not_in_a_named_custom_record_is_refused(ctx):
    # an inline figure is a hidden override: a record names a custom record of the same array or nothing
    for bad in ({**ONTAP, "controller": "no-such-node"}, {**ONTAP, "controller": "ceph-node-epyc-9454p"}):
        with pytest.raises(ValueError, match="is no custom_hardware.yaml record based on netapp-aff-a400"):
            predicted_saturation(bad, {"id": "r", "read_pct": 100, "size_kib": 8}, ctx)
