"""`make validate` gates, run as a test: predictions against published measurements."""

import copy
from pathlib import Path

import pytest
import yaml

from models.catalog import load_catalog
from models.validation import (
    CROSS_VALIDATED,
    IN_SAMPLE,
    OUT_OF_SAMPLE,
    STANDARD_METHOD,
    Row,
    ValidationContext,
)
from models.validation.queue_depth_curves import cross_validated_rows
from models.validation.runner import format_report, load_yaml_dir, run_all, summary
from models.validation.standard_method import textbook_drive_count

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return run_all(FIXTURES / "validation")


@pytest.fixture(scope="module")
def curve_records() -> list[dict]:
    return yaml.safe_load((FIXTURES / "validation" / "queue_depth_curves.yaml").read_text())["records"]


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    return ValidationContext(
        calibration=load_yaml_dir(FIXTURES / "calibration"), catalog=load_catalog(FIXTURES)
    )


def test_every_validation_gate_passes(rows):
    failed = [
        f"{r.basis} {r.record} {r.metric}: predicted {r.predicted:.4g} vs {r.measured}"
        for r in rows
        if r.failed
    ]
    assert not failed, "\n".join(failed)


def test_the_only_gates_excused_as_known_failures_are_the_listed_ones(rows):
    # the standard-method shortfall of issue #14 is closed: every default case is >= 0.9x
    assert [r for r in rows if r.basis == STANDARD_METHOD and r.gate]
    # issue #30: predicted from the shipped Ceph node (one fit over two publications), Micron's mixed
    # 70/30 loads miss their 25% gate by about a point; printed KNOWN, never hidden by a wider gate
    known = sorted((r.record, r.metric) for r in rows if r.gate and not r.passed and r.known_failure)
    assert known == [
        ("micron_9200max_ceph_rhcs3", "mixed_70_30_4k_2x IOPS"),
        ("micron_9200max_ceph_rhcs3", "mixed_70_30_4k_3x IOPS"),
    ]
    assert all(abs(r.error_pct or 0) < 30 for r in rows if r.known_failure and not r.passed)


def test_textbook_7k2_raid6_at_70pct_reads_needs_448_drives():
    drive = load_catalog(FIXTURES).drives["hdd-7k2-nlsas-4000"]
    # 8.2 seek + 4.1667 rotation + 8 KiB / 129 MB/s (0.0635) = 12.430 ms -> 80.45 IOPS x 0.7 = 56.31
    # back-end 7,000 x (1 - 0.006) + 3,000 x 6 = 24,958 -> 443.2 -> 444 -> whole groups of 8: 448
    drives, backend, cap = textbook_drive_count(
        drive,
        iops=10000,
        read_pct=70,
        size_kib=8,
        hit_ratio=0.006,
        write_penalty=6,
        busy_pct=70,
        capacity_tb=20,
        data_share=0.75,
        group_width=8,
    )
    assert backend == pytest.approx(24958)
    assert cap == 7  # 20 TB / (4 TB x 0.75) = 6.67
    assert drives == 448


def test_a_known_failure_is_reported_but_not_counted_as_failed():
    row = Row("r", "ratio", 0.5, (0.9, float("inf")), gate=True, tolerance_pct=0, known_failure="issue #14")
    assert not row.passed and not row.failed
    assert "1 known failures" in summary([row]) and "0 failed" in summary([row])


def test_the_fas2050_plateau_is_the_controller_not_the_drives_fitted_or_not(rows):
    bott = [
        r for r in rows if r.record == "fas2050_fileserver_cpu_bound" and r.metric.startswith("bottleneck")
    ]
    assert {r.basis for r in bott} == {IN_SAMPLE, CROSS_VALIDATED}
    assert len(bott) == 6 and all(r.passed for r in bott)


def test_every_published_curve_point_is_reported_in_sample_and_cross_validated(rows):
    # 4 curves x 9 depths x (IOPS, response), once fitted and once left out of the fit
    for basis in (IN_SAMPLE, CROSS_VALIDATED):
        qd = [
            r
            for r in rows
            if "@QD" in r.metric and not r.metric.startswith("bottleneck") and r.basis == basis
        ]
        assert len(qd) == 4 * 9 * 2


def test_a_curve_left_out_does_not_shape_its_own_cross_validated_prediction(curve_records, ctx):
    # halve every published IOPS of one curve: its in-sample fit would move, its
    # cross-validated prediction (fitted on the other three curves) must not
    before = [
        r for r in cross_validated_rows(curve_records, ctx) if r.record == "fas3070_fileserver_moderate"
    ]
    doctored = copy.deepcopy(curve_records)
    moderate = next(r for r in doctored if r["id"] == "fas3070_fileserver_moderate")
    moderate["rows"] = [[qd, mb / 2, iops / 2, rt] for qd, mb, iops, rt in moderate["rows"]]
    after = [r for r in cross_validated_rows(doctored, ctx) if r.record == "fas3070_fileserver_moderate"]
    assert [r.predicted for r in after] == pytest.approx([r.predicted for r in before], rel=1e-9)
    assert after[0].measured == pytest.approx(before[0].measured / 2)  # IOPS @QD1 halved


def test_the_report_keeps_fitted_cross_validated_and_out_of_sample_rows_apart(rows):
    report = format_report(rows)
    assert (
        report.index("In-sample rows")
        < report.index("Cross-validated rows")
        < report.index("Out-of-sample rows")
    )
    out_part = report[report.index("Out-of-sample rows") :]
    assert "fas3170_uniform_random_16g_over_100g" in out_part
    in_part = report[: report.index("Cross-validated rows")]
    assert "fas3170_uniform_random_16g_over_100g" not in in_part
    assert {r.basis for r in rows} >= {IN_SAMPLE, CROSS_VALIDATED, OUT_OF_SAMPLE}


def test_summary_gives_median_and_max_absolute_error_and_gate_failures():
    rows = [
        Row("a", "m", 110.0, 100.0, gate=True, tolerance_pct=5),  # +10%, fails
        Row("a", "m", 80.0, 100.0),  # -20%
        Row("a", "m", 101.0, 100.0),  # +1%
        Row("a", "b", 1.0, 1.0, gate=True, expect=True),  # boolean: no error
    ]
    # |errors| 10, 20, 1 -> median 10, max 20
    assert summary(rows) == (
        "4 rows: median |error| 10.0%, max |error| 20.0% (3 numeric rows); 2 gates, 1 failed"
    )


def test_a_row_with_an_unknown_basis_is_refused():
    with pytest.raises(ValueError):
        format_report([Row("a", "m", 1.0, 1.0, basis="fitted-ish")])


def test_row_range_and_factor_semantics():
    assert Row("r", "m", 16.0, (15.0, 17.0), gate=True, tolerance_pct=0).passed
    assert not Row("r", "m", 18.5, (15.0, 17.0), gate=True, tolerance_pct=5).passed  # 17 x 1.05 = 17.85
    assert Row("r", "m", 90.0, 67.0, gate=True, factor=1.5).passed  # 67 x 1.5 = 100.5
    assert not Row("r", "m", 40.0, 67.0, gate=True, factor=1.5).passed  # 67 / 1.5 = 44.7
    assert Row("r", "m", 110.0, 100.0, gate=True, tolerance_pct=10).error_pct == pytest.approx(10.0)


def test_the_shipped_model_error_table_is_what_make_validate_computes(rows):
    # fixtures/calibration/model_error.yaml is written by `make model-error`; the API reads it.
    # The per-class figures must be those of the validation as it runs now (provenance fields, the
    # inputs' digest and the catalog version, are informational and not compared).
    from models.provenance import ModelErrorTable
    from models.validation.runner import MODEL_ERROR_FILE, class_errors, overall_errors

    shipped = ModelErrorTable.model_validate(yaml.safe_load((FIXTURES / MODEL_ERROR_FILE).read_text()))
    assert shipped.classes == class_errors(rows), "run `make model-error` and commit the fixture"
    assert shipped.overall == overall_errors(rows), "run `make model-error` and commit the fixture"


def test_every_measured_row_names_its_class_of_system(rows):
    from models.provenance import SystemClass
    from models.validation import REBUILD_CLASS

    measured = [r for r in rows if r.basis != STANDARD_METHOD]
    # a sizing class, or the rebuild rows' own reporting class
    assert {r.system_class for r in measured} <= {c.value for c in SystemClass} | {REBUILD_CLASS}
    assert {r.record for r in measured if r.system_class == REBUILD_CLASS} == {
        "openzfs_draid_90_hdd_scaling",
        "ecmguide_15k_sas_500gb_raid1",
        "ecmguide_sata_2tb_raid6",
    }
    # the Clyso 4 MiB streams are streaming; its 4 KiB random rows scale-out
    by_metric = {r.metric: r.system_class for r in measured if r.record == "clyso_dell_r6615_ceph_quincy"}
    assert by_metric["read_4m_30osd GiB/s"] == "streaming"
    assert by_metric["rand_read_4k_30osd IOPS"] == "scale_out"


def test_class_errors_pool_cross_validated_and_out_of_sample_rows_only():
    from models.validation.runner import class_errors

    def row(basis: str, predicted: float) -> Row:
        return Row("r", "m", predicted, 100.0, basis=basis, system_class="hdd")

    # |errors| 10, 20 (cross-validated), 30 (out-of-sample); the in-sample 50 stays out of "expected"
    got = class_errors(
        [row(CROSS_VALIDATED, 110), row(CROSS_VALIDATED, 80), row(OUT_OF_SAMPLE, 130), row(IN_SAMPLE, 150)]
    )
    hdd = got["hdd"]
    assert (hdd.expected.rows, hdd.expected.median_pct, hdd.expected.max_pct) == (3, 20.0, 30.0)
    assert hdd.expected.p90_pct == pytest.approx(28.0)  # 20 + (30 - 20) x 0.8: position 0.9 x 2 = 1.8
    assert (hdd.in_sample.rows, hdd.in_sample.median_pct) == (1, 50.0)
    assert got["all_flash"].expected.rows == 0


def test_a_measured_row_without_a_class_is_refused():
    from models.validation.runner import class_errors

    with pytest.raises(ValueError, match="without a known system_class"):
        class_errors([Row("nameless", "m", 1.0, 1.0, basis=OUT_OF_SAMPLE)])


def test_rebuild_rows_count_in_no_sizing_class_band_and_are_summarized_apart():
    from models.validation import REBUILD_CLASS
    from models.validation.runner import class_errors, overall_errors, rebuild_errors

    # an HDD row off by 10%, a rebuild row off by 50%: the HDD band and the pooled band see only the 10%
    rows = [
        Row("a", "m", 110.0, 100.0, basis=OUT_OF_SAMPLE, system_class="hdd"),
        Row("r", "hours", 150.0, 100.0, basis=OUT_OF_SAMPLE, system_class=REBUILD_CLASS),
    ]
    assert class_errors(rows)["hdd"].expected.max_pct == pytest.approx(10.0)
    assert overall_errors(rows).max_pct == pytest.approx(10.0)
    assert (rebuild_errors(rows).rows, rebuild_errors(rows).max_pct) == (1, pytest.approx(50.0))
