"""Latency vs load: the saturation search and what the curve costs."""

from __future__ import annotations

import pytest

from models import curves
from models.curves import _max_util, latency_vs_load, saturation_scale
from models.evaluate import evaluate
from models.tests.conftest import make_config, oltp


def utilization(workload, config, scale: float) -> float:
    return _max_util(evaluate([workload], config, load_scale=scale), "business hours")


@pytest.mark.parametrize(
    ("iops", "drives"),
    [
        (2000, 16),  # below saturation: bracketed upwards from the operating point
        (9000, 16),  # past saturation at the operating point: bracketed by halving
        (200, 96),  # far below: the first guess 2/u(1) overshoots by a wide margin
    ],
)
def test_saturation_scale_puts_the_busiest_resource_at_100_percent(hdd15k, iops, drives):
    wl = oltp(iops=iops)
    cfg = make_config(hdd15k, "raid-dp", 16, drives)

    s = saturation_scale([wl], cfg, "business hours")

    assert utilization(wl, cfg, s * (1 - 1e-4)) < 1.0 <= utilization(wl, cfg, s * (1 + 1e-4))


def test_saturation_scale_of_an_ssd_pool_where_utilization_grows_in_proportion(ssd):
    # no command-queuing gain: u(s) = s u(1), so s* = 1 / u(1)
    wl = oltp(iops=50000)
    cfg = make_config(ssd, "raid-dp", 16, 16)

    s = saturation_scale([wl], cfg, "business hours")

    assert s == pytest.approx(1 / utilization(wl, cfg, 1.0), rel=1e-5)


def test_latency_curve_ends_just_below_saturation_and_marks_the_operating_point(hdd15k):
    curve = latency_vs_load([oltp(iops=2000)], make_config(hdd15k, "raid-dp", 16, 16))

    assert curve.points[-1].iops == pytest.approx(0.999 * curve.saturation_iops)
    assert curve.points[-1].read_latency_ms is not None
    assert curve.operating_iops == 2000
    assert curve.operating_load_pct == pytest.approx(100 * 2000 / curve.saturation_iops)


def test_latency_curve_costs_about_thirty_evaluations_not_sixty(hdd15k, monkeypatch):
    # Regression (issue #7, what-if redraw): plain bisection to 2^-40 took 43 evaluations to find
    # saturation before the 20 points; the root search takes about ten.
    calls = 0

    def counting(*args, **kwargs):
        nonlocal calls
        calls += 1
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(curves, "evaluate", counting)

    latency_vs_load([oltp(iops=2000)], make_config(hdd15k, "raid-dp", 16, 16), points=20)

    assert calls <= 20 + 15


def test_latency_curve_carries_the_operating_point_latency_of_the_full_evaluation(hdd15k):
    # the curve evaluates the window's phases alone; the evaluation of every window agrees there
    night = oltp(iops=800, name="batch").model_copy(
        update={
            "phases": [
                oltp().phases[0].model_copy(update={"name": "night", "window": "nightly", "iops": 800})
            ]
        }
    )
    workloads = [oltp(iops=2000), night]
    cfg = make_config(hdd15k, "raid-dp", 16, 32)

    curve = latency_vs_load(workloads, cfg, window="business hours")

    full = next(w for w in evaluate(workloads, cfg).windows if w.window == "business hours")
    assert curve.operating_read_latency_ms == pytest.approx(full.read_latency_ms, rel=1e-12)
