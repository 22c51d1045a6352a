"""Saturation of a catalog array's default configuration (``kind: array_saturation``), by hand."""

from pathlib import Path

import pytest

from models.catalog import load_catalog
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, ValidationContext
from models.validation.array_saturation import array_saturation_rows, predicted_saturation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
C60 = {"id": "c60", "array": "pure-flasharray-c60", "tolerance_pct": 25}


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    return ValidationContext(calibration={}, catalog=load_catalog(FIXTURES))


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
