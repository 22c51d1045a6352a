"""Fitting functions recover known parameters and behave at their edges."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base import InputError
from models.calibration import QueueCurve, fit_command_queuing, predict_queue_iops
from models.drives import CommandQueuing

DEPTHS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0)


def test_predicted_iops_at_a_queue_of_one_is_the_reciprocal_of_the_unqueued_service_time():
    # 0.3 ms fixed + 5.7 ms positioning = 6 ms -> 166.7 IOPS; q = 9, g = 1, h = 8:
    # f = 2/3 -> 0.3 + 3.8 = 4.1 ms -> 243.9 IOPS
    c = QueueCurve("x", (1.0, 9.0), (1.0, 1.0), fixed_ms=0.3, positioning_ms=5.7)
    pred = predict_queue_iops(c, CommandQueuing(gain_max=1.0, q_half=8.0))
    assert pred == pytest.approx([1000 / 6.0, 1000 / 4.1])


@settings(max_examples=25, deadline=None)
@given(st.floats(0.3, 2.5), st.floats(1.0, 60.0), st.floats(0.1, 1.0))
def test_fit_recovers_the_parameters_of_noise_free_curves(g, h, fixed):
    truth = CommandQueuing(gain_max=g, q_half=h, queue_limit=256.0)
    seed = QueueCurve("t", DEPTHS, (1.0,) * len(DEPTHS), fixed_ms=fixed, positioning_ms=8.0)
    iops = tuple(predict_queue_iops(seed, truth))
    fitted = fit_command_queuing([QueueCurve("t", DEPTHS, iops, fixed_ms=fixed)], 256.0)
    assert fitted.gain_max == pytest.approx(g, rel=2e-3)
    assert fitted.q_half == pytest.approx(h, rel=5e-3)


def test_fit_keeps_the_stated_queue_limit():
    iops = (100.0, 130.0, 160.0, 190.0, 210.0, 220.0, 220.0, 220.0, 220.0)
    fitted = fit_command_queuing([QueueCurve("sata", DEPTHS, iops, fixed_ms=0.3)], 32.0)
    assert fitted.queue_limit == 32.0


def test_fit_needs_a_queue_deeper_than_one():
    with pytest.raises(InputError) as e:
        fit_command_queuing([QueueCurve("x", (1.0,), (100.0,), fixed_ms=0.2)], 32.0)
    assert e.value.field == "curves"


def test_a_curve_without_a_queue_of_one_needs_its_positioning_stated():
    with pytest.raises(InputError) as e:
        QueueCurve("x", (4.0,), (100.0,), fixed_ms=0.2).unqueued_positioning_ms()
    assert e.value.field == "x.queue_depths"


def test_fit_with_q_half_held_solves_the_gain_of_a_single_queued_datasheet_point():
    # 0.3 ms fixed, 12 ms unqueued positioning, 168 IOPS at QD16, q_half held at 8:
    # 1000/168 = 5.952 ms -> f(16) = (5.952 - 0.3) / 12 = 0.4710
    # 1 / (1 + g 15/23) = 0.47103 -> g = (1/0.47103 - 1) x 23/15 = 1.7219
    c = QueueCurve("exos", (16.0,), (168.0,), fixed_ms=0.3, positioning_ms=12.0)
    fitted = fit_command_queuing([c], 256.0, q_half=8.0)
    assert fitted.q_half == 8.0
    assert fitted.gain_max == pytest.approx(1.7219, rel=1e-3)
