"""CPU time per I/O scales with the core clock: ``c(f) = c(f0) x f0 / f`` where both clocks are stated."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.batch import candidate_space, evaluate_batch, family_configuration
from models.catalog import Catalog, build_configuration, load_catalog
from models.controller import (
    ControllerLoad,
    ControllerSpec,
    HaMode,
    at_core_clock,
    clock_factor,
    clock_text,
    controller_utilization,
)
from models.evaluate import evaluate
from models.recommend import catalog_families
from models.tests.test_batch import CALIBRATED, WAFL_MODERATE, _assert_windows_agree, mixed_workloads
from models.workload import Phase, Workload

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def spec(**changes: object) -> ControllerSpec:
    base = ControllerSpec(
        model="clocked",
        count=1,
        ha_mode=HaMode.SINGLE,
        cores=4,
        cpu_us_read_hit=0.0,
        cpu_us_read_miss=0.0,
        cpu_us_write=100.0,
        cpu_us_per_kib=0.0,
        cpu_us_per_backend_io=0.0,
    )
    return base.model_copy(update=changes)


def test_costs_calibrated_at_3_ghz_cost_one_and_a_half_times_on_2_ghz_cores() -> None:
    # c(2 GHz) = 100 us x 3.0 / 2.0 = 150 us per write; 10,000 writes/s = 1.5 core-s/s on 4 cores: 37.5%
    clocked = at_core_clock(spec(core_ghz=2.0, costs_core_ghz=3.0))
    assert clocked.cpu_us_write == pytest.approx(150.0, rel=1e-12)
    assert clocked.costs_core_ghz == 2.0  # the costs now stand at the cores' clock: scaling again is a no-op
    assert at_core_clock(clocked) is clocked
    u = controller_utilization(ControllerLoad(writes=10_000), clocked, serving=1)
    assert u == pytest.approx(0.375, rel=1e-12)


def test_ontap_select_95_medium_node_pays_the_96_costs_times_26_over_21() -> None:
    # the A400's ONTAP costs were derived on Xeon Gold 6142 cores at 2.6 GHz; the 9.5 node ran at 2.1 GHz:
    # per write 149 x 2.6 / 2.1 = 184.476 us, per read miss 87 x 2.6 / 2.1 = 107.714 us
    a400 = load_catalog(FIXTURES).arrays["netapp-aff-a400"].controller
    node = at_core_clock(a400.model_copy(update={"cores": 8, "core_ghz": 2.1}))
    assert node.cpu_us_write == pytest.approx(184.476190, rel=1e-6)
    assert node.cpu_us_read_miss == pytest.approx(107.714286, rel=1e-6)
    assert node.kib_written_us == pytest.approx(3.0 * 2.6 / 2.1, rel=1e-12)
    assert "2.6 GHz / 2.1 GHz" in clock_text(a400.model_copy(update={"core_ghz": 2.1}))


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({}, "core_ghz) and the costs' calibration clock (costs_core_ghz) unstated"),
        ({"core_ghz": 2.1}, "calibration clock (costs_core_ghz) unstated"),
        ({"costs_core_ghz": 2.6}, "the cores' clock (core_ghz) unstated"),
    ],
)
def test_an_unstated_clock_leaves_the_costs_as_calibrated_and_says_so(
    changes: dict[str, float], words: str
) -> None:
    s = spec(**changes)
    assert clock_factor(s) is None
    assert at_core_clock(s) is s
    assert clock_text(s).endswith(words)


@pytest.mark.parametrize("ghz", [0.4, 6.5, 0.0, -1.0])
def test_a_clock_outside_half_to_six_ghz_is_refused_naming_the_field(ghz: float) -> None:
    for field in ("core_ghz", "costs_core_ghz"):
        with pytest.raises(ValidationError) as err:
            ControllerSpec(model="x", **{field: ghz})
        assert [e["loc"] for e in err.value.errors()] == [(field,)]


@settings(max_examples=60, deadline=None)
@given(
    slow=st.floats(0.5, 6.0),
    faster=st.floats(0.0, 5.5),
    f0=st.floats(0.5, 6.0),
    writes=st.floats(0.0, 1e6),
    misses=st.floats(0.0, 1e6),
    kib=st.floats(0.0, 1e7),
)
def test_a_higher_clock_never_means_more_cpu_utilization(
    slow: float, faster: float, f0: float, writes: float, misses: float, kib: float
) -> None:
    fast = min(6.0, slow + faster)
    load = ControllerLoad(writes=writes, read_misses=misses, kib_per_s=kib, write_kib_per_s=kib / 2)
    s = spec(costs_core_ghz=f0, cpu_us_read_miss=60.0, cpu_us_per_kib=0.5)
    u_slow = controller_utilization(load, at_core_clock(s.model_copy(update={"core_ghz": slow})), 1)
    u_fast = controller_utilization(load, at_core_clock(s.model_copy(update={"core_ghz": fast})), 1)
    assert u_fast <= u_slow * (1 + 1e-12)


def test_evaluate_explains_the_clock_scaling_with_its_inputs() -> None:
    cat = load_catalog(FIXTURES)
    array = cat.arrays["netapp-aff-a400"]
    assert array.default_drive is not None
    cfg = build_configuration(array, cat.drives[array.default_drive], array.default_raid)
    wl = [
        Workload(
            name="db",
            capacity_tb=10,
            phases=[Phase(name="d", window="d", iops=50_000, read_pct=70, io_size_kib=8)],
        )
    ]
    plain = evaluate(wl, cfg)
    slow = cfg.model_copy(update={"controller": cfg.controller.model_copy(update={"core_ghz": 2.1})})
    clocked = evaluate(wl, slow)
    u0 = plain.windows[0].controller_utilization_pct
    u1 = clocked.windows[0].controller_utilization_pct
    assert "core_ghz) unstated" in u0.text
    assert "c(f0) x 2.6 GHz / 2.1 GHz = c(f0) x 1.238" in u1.text
    assert u1.inputs["core_ghz"] == 2.1
    assert u1.inputs["c_write_us"] == pytest.approx(149 * 2.6 / 2.1, rel=1e-12)
    # every CPU cost x 2.6 / 2.1 (the data services and protocol multiply both alike); ceilings untouched
    assert u0.value is not None and u1.value is not None
    assert u1.value == pytest.approx(u0.value * 2.6 / 2.1, rel=1e-9)


def test_batch_agrees_with_evaluate_on_a_clock_scaled_controller() -> None:
    cat: Catalog = load_catalog(FIXTURES)
    families = [
        f
        for f in catalog_families(cat, None, **WAFL_MODERATE)
        if f.array.id in ("netapp-aff-a400", "netapp-fas8040")
    ][:6]
    assert families
    slowed = []
    for f in families:
        ctrl = f.array.controller.model_copy(update={"core_ghz": 1.3, "costs_core_ghz": 2.6})
        slowed.append(replace(f, array=f.array.model_copy(update={"controller": ctrl})))
    space = candidate_space(slowed)
    workloads = mixed_workloads()
    batch = evaluate_batch(workloads, space, params=CALIBRATED, prune=False)
    first, last = space.starts[:-1], space.starts[1:] - 1
    rows = np.unique(np.concatenate([first, last]))
    detail = batch.detail(rows)
    for j, row in enumerate(rows):
        family = space.families[int(space.family[row])]
        config = family_configuration(family, int(space.drive_count[row]))
        assert config.controller.core_ghz == 1.3
        result = evaluate(workloads, config, params=CALIBRATED)
        assert bool(detail.passed[j]) == result.passed, family.label
        _assert_windows_agree(result, detail, j, family.label)
        # the scaling reached the batch: twice the CPU costs of the unscaled family
        plain = family_configuration(families[int(space.family[row])], int(space.drive_count[row]))
        u_plain = evaluate(workloads, plain, params=CALIBRATED).windows[0].controller_utilization_pct.value
        u_slow = result.windows[0].controller_utilization_pct.value
        assert u_plain is not None and u_slow is not None
        assert u_slow == pytest.approx(2 * u_plain, rel=1e-9)  # no ceiling binds these controllers
