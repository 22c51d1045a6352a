import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from models.base import InputError
from models.drives import (
    CommandQueuing,
    DriveClass,
    DriveSpec,
    command_queuing_factor,
    drive_class,
    full_stroke_seek_ms,
    hdd_service_ms,
    queued_positioning_ms,
    rotational_latency_ms,
    short_stroke_seek_ms,
    ssd_latency_ms,
    ssd_service_ms,
)
from models.parameters import EngineParameters


def test_rotational_latency_is_half_a_revolution():
    # 15,000 rpm = 250 rev/s = 4 ms per revolution -> 2 ms on average
    assert rotational_latency_ms(15000) == pytest.approx(2.0)
    assert rotational_latency_ms(7200) == pytest.approx(4.1667, rel=1e-4)


def test_short_stroke_seek_follows_square_root_of_span():
    # t = 0.2 + (3.5 - 0.2) * sqrt(0.04) = 0.2 + 3.3 * 0.2 = 0.86 ms
    assert short_stroke_seek_ms(3.5, 0.2, 0.04) == pytest.approx(0.86)
    # full span gives the datasheet average
    assert short_stroke_seek_ms(3.5, 0.2, 1.0) == pytest.approx(3.5)


def test_full_stroke_implied_by_the_curve_is_near_the_datasheet():
    # Savvio 10K.4: track 0.30 ms, avg read 3.8 ms, full stroke 7.8 ms (datasheet)
    # square-root curve: 0.3 + 3.5 * 15/8 = 6.86 ms, within 15% of the datasheet figure
    assert full_stroke_seek_ms(3.8, 0.3) == pytest.approx(6.8625)
    assert abs(full_stroke_seek_ms(3.8, 0.3) / 7.8 - 1) < 0.15


SAS = CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=65536)


def test_command_queuing_factor_is_one_at_queue_of_one_and_halves_positioning_when_deep():
    assert command_queuing_factor(1, SAS) == 1.0
    # q = 9, q_half = 8: 1 / (1 + 8/16) = 2/3
    assert command_queuing_factor(9, SAS) == pytest.approx(2 / 3)
    assert command_queuing_factor(65536, SAS) == pytest.approx(0.5, abs=1e-3)


def test_15k_random_4k_read_at_qd1_is_near_180_iops(hdd15k):
    # 0.2 overhead + 3.5 seek + 2.0 rot + 4096 B / 100 MB/s (0.041 ms) = 5.741 ms -> 174 IOPS:
    # the folklore "180 IOPS" is this full-stroke, QD1, 4 KiB case only
    s = hdd_service_ms(hdd15k, 4)
    assert s == pytest.approx(0.2 + 3.5 + 2.0 + 4096 / 100e6 * 1000)
    assert 1000 / s == pytest.approx(174.2, abs=0.5)


def test_short_stroking_and_queuing_raise_iops_well_above_folklore(hdd15k):
    # 2% span, 8 queued: 0.2 + (0.2 + 3.3*sqrt(0.02) + 2.0) * ncq(8) + 0.041
    s = hdd_service_ms(hdd15k, 4, span_fraction=0.02, queue_depth=8, queuing=SAS)
    pos = (0.2 + 3.3 * math.sqrt(0.02) + 2.0) * (1 / (1 + 7 / 15))
    assert s == pytest.approx(0.2 + pos + 0.04096)
    assert 1000 / s > 300


def test_write_seek_is_slower_than_read_seek(hdd15k):
    assert hdd_service_ms(hdd15k, 8, is_read=False) > hdd_service_ms(hdd15k, 8, is_read=True)


def test_sequential_io_pays_no_positioning(hdd15k):
    # 0.2 + 1 MiB / 100 MB/s = 0.2 + 10.486 ms
    assert hdd_service_ms(hdd15k, 1024, sequential=True) == pytest.approx(0.2 + 1048576 / 100e6 * 1000)


def test_ssd_service_is_bound_by_iops_then_bandwidth(ssd):
    # 4 KiB read: 1000 / 400,000 = 0.0025 ms; 1 MiB read: 1048576 / 2100e6 s = 0.4993 ms
    assert ssd_service_ms(ssd, 4) == pytest.approx(0.0025)
    assert ssd_service_ms(ssd, 1024) == pytest.approx(1048576 / 2100e6 * 1000)
    assert ssd_service_ms(ssd, 4, is_read=False) == pytest.approx(1000 / 50000)
    assert ssd_latency_ms(ssd, 4) == pytest.approx(0.12)


@given(st.floats(0.001, 1.0), st.floats(0.001, 1.0))
def test_seek_never_falls_as_span_grows(a, b):
    lo, hi = sorted((a, b))
    assert short_stroke_seek_ms(3.5, 0.2, lo) <= short_stroke_seek_ms(3.5, 0.2, hi) + 1e-12


@given(st.floats(1, 512), st.floats(1, 512))
def test_command_queuing_never_slows_a_drive_as_its_queue_grows(a, b):
    lo, hi = sorted((a, b))
    assert command_queuing_factor(hi, SAS) <= command_queuing_factor(lo, SAS) + 1e-12


def test_a_zero_rpm_hard_disk_is_rejected_naming_the_field():
    with pytest.raises(ValidationError) as e:
        DriveSpec(
            id="x",
            name="x",
            kind="hdd",
            capacity_gb=1,
            rpm=0,
            avg_read_seek_ms=3,
            avg_write_seek_ms=3,
            media_rate_mb_s=100,
        )
    assert "rpm" in str(e.value)


def test_a_negative_seek_is_rejected():
    with pytest.raises(ValidationError) as e:
        DriveSpec(
            id="x",
            name="x",
            kind="hdd",
            capacity_gb=1,
            rpm=7200,
            avg_read_seek_ms=-1,
            avg_write_seek_ms=3,
            media_rate_mb_s=100,
        )
    assert "avg_read_seek_ms" in str(e.value)


def test_nan_and_infinity_are_rejected():
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValidationError):
            DriveSpec(
                id="x",
                name="x",
                kind="hdd",
                capacity_gb=bad,
                rpm=7200,
                avg_read_seek_ms=8,
                avg_write_seek_ms=9,
                media_rate_mb_s=100,
            )


def test_span_outside_unit_interval_names_the_argument():
    with pytest.raises(InputError) as e:
        short_stroke_seek_ms(3.5, 0.2, 0.0)
    assert e.value.field == "span_fraction"


# ---- command queuing per drive class -----------------------------------------------------------

TCQ = CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=256.0)
NCQ = CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=32.0)


def test_a_lone_command_gets_no_queuing_gain():
    assert queued_positioning_ms(6.0, 1.0, TCQ) == 6.0
    assert queued_positioning_ms(6.0, 0.3, TCQ) == 6.0  # a mean queue below one is no queue


def test_queued_positioning_at_nine_commands_is_two_thirds():
    # q = 9, q_half = 8, g = 1: f = 1 / (1 + 8/16) = 2/3; 6 ms x 2/3 = 4 ms
    assert queued_positioning_ms(6.0, 9.0, TCQ) == pytest.approx(4.0)


def test_sata_ncq_gains_nothing_past_its_32_command_limit():
    # q' = min(64, 32) = 32: f = 1 / (1 + 31/39) = 39/70
    assert command_queuing_factor(64.0, NCQ) == pytest.approx(39 / 70)
    assert command_queuing_factor(4096.0, NCQ) == command_queuing_factor(32.0, NCQ)
    assert command_queuing_factor(64.0, TCQ) < command_queuing_factor(64.0, NCQ)


@given(
    st.floats(1, 4096),
    st.floats(1, 4096),
    st.floats(0, 3),
    st.floats(0.1, 1024),
    st.floats(1, 4096),
)
def test_positioning_never_grows_with_the_queue_nor_falls_below_the_full_gain(a, b, g, h, lim):
    cq = CommandQueuing(gain_max=g, q_half=h, queue_limit=lim)
    lo, hi = sorted((a, b))
    assert command_queuing_factor(hi, cq) <= command_queuing_factor(lo, cq) + 1e-12
    assert command_queuing_factor(hi, cq) >= 1.0 / (1.0 + g) - 1e-12


def test_queued_positioning_rejects_a_negative_time_and_a_nan_queue():
    with pytest.raises(InputError) as e:
        queued_positioning_ms(-1.0, 4.0, TCQ)
    assert e.value.field == "positioning_ms"
    with pytest.raises(InputError) as e:
        queued_positioning_ms(5.0, float("nan"), TCQ)
    assert e.value.field == "queue_per_drive"


def _hdd(interface: str, rpm: int) -> DriveSpec:
    return DriveSpec(
        id="x",
        name="x",
        kind="hdd",
        interface=interface,
        capacity_gb=1000,
        rpm=rpm,
        avg_read_seek_ms=8,
        avg_write_seek_ms=9,
        media_rate_mb_s=150,
    )


def test_drive_class_follows_interface_and_spindle_speed(ssd):
    assert drive_class(_hdd("SATA", 7200)) is DriveClass.SATA
    assert drive_class(_hdd("SATA", 10000)) is DriveClass.SATA  # a 10K SATA drive still has NCQ
    assert drive_class(_hdd("NL-SAS", 7200)) is DriveClass.NL_SAS
    assert drive_class(_hdd("SAS", 7200)) is DriveClass.NL_SAS
    assert drive_class(_hdd("FC", 10000)) is DriveClass.SAS_FC
    assert drive_class(_hdd("SAS", 15000)) is DriveClass.SAS_FC
    assert drive_class(ssd) is DriveClass.SSD


def test_engine_parameters_give_each_drive_its_class_queuing(ssd):
    p = EngineParameters()
    assert p.command_queuing.for_drive(_hdd("SATA", 7200)).queue_limit == 32
    assert p.command_queuing.for_drive(ssd).gain_max == 0  # no positioning to reorder


def test_a_queue_limit_below_one_is_rejected_naming_the_field():
    with pytest.raises(ValidationError) as e:
        CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=0.5)
    assert "queue_limit" in str(e.value)
