"""Drive-level queue-depth validation: the prediction is the engine's HDD service time, by hand."""

import pytest

from models.drives import CommandQueuing, DriveKind, DriveSpec
from models.parameters import CommandQueuingByClass, EngineParameters
from models.validation import IN_SAMPLE, OUT_OF_SAMPLE, ValidationContext
from models.validation.drive_queue_depth import drive_queue_depth_rows, predicted_iops

DRIVE = DriveSpec(
    id="hdd-test-7k2",
    name="7.2K test drive",
    kind=DriveKind.HDD,
    interface="SATA",
    capacity_gb=32000,
    rpm=7200,
    avg_read_seek_ms=7.4,
    avg_write_seek_ms=8.2,
    track_to_track_ms=0.23,
    overhead_ms=0.3,
    media_rate_mb_s=220,
)
QUEUING = CommandQueuingByClass(sata=CommandQueuing(gain_max=1.61, q_half=8.0, queue_limit=32.0))


class _Catalog:
    drives = {DRIVE.id: DRIVE}


def _ctx() -> ValidationContext:
    params = {"command_queuing": QUEUING.model_dump()}
    return ValidationContext(calibration={"engine": {"parameters": params}}, catalog=_Catalog())


def test_qd16_read_iops_is_the_reciprocal_of_overhead_transfer_and_queued_positioning():
    # rotation 30,000/7,200 = 4.1667 ms; full-stroke positioning 0.23 + 4.1667 + (7.4 - 0.23) = 11.5667 ms
    # f(16) = 1 / (1 + 1.61 x 15/23) = 1/2.05 = 0.48780; transfer 4 x 1.024/220 = 0.01862 ms
    # service 0.3 + 0.01862 + 11.5667 x 0.48780 = 5.9609 ms -> 167.76 IOPS
    iops = predicted_iops(DRIVE, 16.0, EngineParameters(command_queuing=QUEUING))
    assert iops == pytest.approx(167.76, rel=1e-4)


def test_a_queue_of_one_gains_nothing_from_reordering():
    # 0.3 + 0.01862 + 11.5667 = 11.8853 ms -> 84.14 IOPS, whatever the gain
    iops = predicted_iops(DRIVE, 1.0, EngineParameters(command_queuing=QUEUING))
    assert iops == pytest.approx(84.14, rel=1e-4)


def test_a_record_fitted_for_its_class_is_in_sample_and_others_are_gated_out_of_sample():
    base = {"id": "r", "source": "[x] y", "drive": DRIVE.id, "status": "datasheet", "tolerance_pct": 15}
    points = [{"queue_depth": 16, "iops": 170}]
    fitted = drive_queue_depth_rows({**base, "fit_for": ["sata"], "points": points}, _ctx())
    held_out = drive_queue_depth_rows({**base, "fit_for": ["nl_sas"], "points": points}, _ctx())
    assert [(r.basis, r.gate) for r in fitted] == [(IN_SAMPLE, False)]
    assert [(r.basis, r.gate) for r in held_out] == [(OUT_OF_SAMPLE, True)]
    assert held_out[0].error_pct == pytest.approx((167.76 / 170 - 1) * 100, rel=1e-3)


def test_a_point_the_engine_cannot_reproduce_is_reported_not_gated():
    point = {"queue_depth": 256, "iops": 400, "not_gated": "queue depth not stated"}
    rec = {"id": "r", "source": "[x] y", "drive": DRIVE.id, "status": "measured", "points": [point]}
    (row,) = drive_queue_depth_rows(rec, _ctx())
    assert not row.gate
    assert row.tolerance_pct is None
    assert "not gated: queue depth not stated" in row.note
