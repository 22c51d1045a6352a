"""`make validate` gates, run as a test: predictions against published measurements."""

from pathlib import Path

import pytest

from models.validation import Row
from models.validation.runner import format_table, run_all

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return run_all(FIXTURES / "validation")


def test_every_validation_gate_passes(rows):
    failed = [
        f"{r.record} {r.metric}: predicted {r.predicted:.4g} vs {r.measured}"
        for r in rows
        if r.gate and not r.passed
    ]
    assert not failed, "\n".join(failed)


def test_the_fas2050_plateau_is_the_controller_not_the_drives(rows):
    bott = [
        r for r in rows if r.record == "fas2050_fileserver_cpu_bound" and r.metric.startswith("bottleneck")
    ]
    assert len(bott) == 3 and all(r.passed for r in bott)


def test_every_published_curve_point_is_reported(rows):
    # 4 curves x 9 depths x (IOPS, response) are all in the table, gated or not
    qd_rows = [r for r in rows if "@QD" in r.metric and not r.metric.startswith("bottleneck")]
    assert len(qd_rows) == 4 * 9 * 2


def test_table_shows_error_percentages(rows):
    table = format_table(rows)
    assert "error %" in table and "fas3070_fileserver_moderate" in table


def test_row_range_and_factor_semantics():
    assert Row("r", "m", 16.0, (15.0, 17.0), gate=True, tolerance_pct=0).passed
    assert not Row("r", "m", 18.5, (15.0, 17.0), gate=True, tolerance_pct=5).passed  # 17 x 1.05 = 17.85
    assert Row("r", "m", 90.0, 67.0, gate=True, factor=1.5).passed  # 67 x 1.5 = 100.5
    assert not Row("r", "m", 40.0, 67.0, gate=True, factor=1.5).passed  # 67 / 1.5 = 44.7
    assert Row("r", "m", 110.0, 100.0, gate=True, tolerance_pct=10).error_pct == pytest.approx(10.0)
