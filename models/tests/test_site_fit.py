"""Calibrate from your own array: controller costs and working set fitted to host latencies."""

from __future__ import annotations

from datetime import date

import pytest

from models.base import InputError
from models.configuration import Configuration
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.evidence import at_observed_load, compare_observed
from models.provenance import CalibrationStatus, scaled_controller
from models.site_fit import _scaled_workloads, fit_site
from models.tests.conftest import make_config, oltp
from models.workload import ObservedLoad, Workload

DAY = date(2026, 11, 28)


def _observed(
    name: str, iops: float, read_pct: float, window: str, read_ms: float, write_ms: float | None
) -> Workload:
    w = oltp(name=name, iops=iops, read_pct=read_pct)
    seen = ObservedLoad(
        source=f"iostat {name}",
        iops=iops,
        read_pct=read_pct,
        read_latency_ms=read_ms,
        write_latency_ms=write_ms,
        intervals=60,
    )
    return w.model_copy(
        update={"phases": [w.phases[0].model_copy(update={"window": window, "observed": seen})]}
    )


def _as_the_model_predicts(
    workloads: list[Workload], cfg: Configuration, f: float, w: float
) -> list[Workload]:
    """The workloads with 'observed' latencies taken from the model at controller costs x f and
    working sets x w: a site whose true factors are known."""
    at = _scaled_workloads(at_observed_load(workloads), w)
    truth = cfg.model_copy(update={"controller": scaled_controller(cfg.controller, f)})
    rows = {r.workload: r for r in compare_observed(at, evaluate(at, truth, cold_cache=False)).rows}
    out = []
    for wl in workloads:
        r = rows[wl.name]
        ph = wl.phases[0]
        assert ph.observed is not None
        seen = ph.observed.model_copy(
            update={
                "read_latency_ms": r.predicted_read_latency_ms.value,
                "write_latency_ms": r.predicted_write_latency_ms.value,
            }
        )
        out.append(wl.model_copy(update={"phases": [ph.model_copy(update={"observed": seen})]}))
    return out


@pytest.fixture
def site(hdd15k: DriveSpec) -> Configuration:
    # one core per controller and 32 GB of DRAM: the controller's load and the cache both move latency
    return make_config(hdd15k, ctrl={"cores": 1, "dram_cache_gb": 32})


LOADS = [
    _observed("db", 2000, 70, "business hours", 1.0, 1.0),
    _observed("batch", 2500, 80, "night", 1.0, 1.0),
    _observed("reports", 1200, 95, "evening", 1.0, 1.0),
]


@pytest.mark.parametrize(("f", "w"), [(2.0, 0.5), (0.6, 1.8)])
def test_without_the_prior_the_fit_recovers_the_factors_of_a_site_the_model_describes(
    site: Configuration, f: float, w: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("models.site_fit.PRIOR_WEIGHT", 0.0)
    fit = fit_site(_as_the_model_predicts(LOADS, site, f, w), site, fitted_on=DAY)
    assert fit.cost_factor == pytest.approx(f, rel=0.02)
    assert fit.drive_time_factor == pytest.approx(1.0, rel=0.02)
    assert fit.working_set_factor == pytest.approx(w, rel=0.02)
    assert fit.rms_log_error_after < 0.01 < fit.rms_log_error_before
    assert fit.observations == 6


@pytest.mark.parametrize(("f", "w"), [(2.0, 0.5), (0.6, 1.8)])
def test_the_prior_draws_each_factor_toward_the_record_never_past_it(
    site: Configuration, f: float, w: float
) -> None:
    fit = fit_site(_as_the_model_predicts(LOADS, site, f, w), site, fitted_on=DAY)
    # shrinkage: each fitted factor lies between the record (1) and the site's true factor; the
    # controller's (which every window's write latency reads) within 15% of the truth
    for fitted, true in ((fit.cost_factor, f), (fit.working_set_factor, w)):
        assert min(1.0, true) - 1e-3 <= fitted <= max(1.0, true) + 1e-3
    assert fit.cost_factor == pytest.approx(f, rel=0.15)
    assert fit.rms_log_error_after < 0.1 * fit.rms_log_error_before


def test_the_fitted_controller_is_a_site_fit_with_scaled_costs(site: Configuration) -> None:
    seen = _as_the_model_predicts(LOADS, site, 2.0, 0.5)
    fit = fit_site(seen, site, fitted_on=DAY)
    ctrl = fit.controller
    assert ctrl.calibration is not None and ctrl.calibration.status is CalibrationStatus.FITTED_SITE
    note = ctrl.calibration.note or ""
    assert "2026-11-28" in note and "6 host latencies in 3 window(s)" in note
    # make_config's controller costs 20 / 60 / 80 us (read hit / miss / write) x f
    assert ctrl.cpu_us_read_miss == pytest.approx(60.0 * fit.cost_factor, rel=1e-3)
    assert ctrl.cpu_us_write == pytest.approx(80.0 * fit.cost_factor, rel=1e-3)
    # the fitted workloads: the observed phase's working set (oltp: 200 GB) x w, to size a successor with
    assert fit.workloads[0].phases[0].working_set_gb == pytest.approx(
        200.0 * fit.working_set_factor, rel=1e-3
    )
    assert [r.window for r in fit.rows] == ["business hours", "night", "evening"]
    assert (
        fit.drives[0].calibration is not None
        and fit.drives[0].calibration.status is CalibrationStatus.FITTED_SITE
    )


def test_two_observed_latencies_cannot_place_three_factors(site: Configuration) -> None:
    with pytest.raises(InputError) as info:
        fit_site([_observed("db", 2000, 70, "business hours", 4.0, 1.0)], site, fitted_on=DAY)
    assert info.value.field == "workloads"


def test_a_site_the_configuration_cannot_describe_is_refused(site: Configuration) -> None:
    # 0.05 ms reads and writes on 15K drives: no controller cost, drive time or working set in range
    # comes near, and the fit says so rather than keep a record that does not describe the site
    loads = [
        _observed("db", 2000, 70, "business hours", 0.05, 0.05),
        _observed("batch", 2500, 80, "night", 0.05, 0.05),
    ]
    with pytest.raises(InputError) as info:
        fit_site(loads, site, fitted_on=DAY)
    assert info.value.field == "configuration"
    assert "cannot describe the system" in info.value.reason
