"""The all-flash / scale-out validation handler (``kind: flash_scale_out``, issue #15)."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from models.catalog import load_catalog
from models.raid import RaidScheme
from models.validation import OUT_OF_SAMPLE, ValidationContext
from models.validation.runner import load_yaml_dir
from models.validation.scale_out import (
    FitError,
    _layout,
    binding_resource,
    custom_records,
    fit_costs,
    measured_iops,
    node_controller,
    predict,
    scale_out_rows,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def ctx() -> ValidationContext:
    """The shipped calibration (custom_hardware.yaml, scale_out_fit.yaml) and catalog."""
    return ValidationContext(
        calibration=load_yaml_dir(FIXTURES / "calibration"), catalog=load_catalog(FIXTURES)
    )


SYNTHETIC_NODE = {
    "id": "synthetic-node",
    "base": "ceph-nvme-reference",
    "hardware": {"cores": 32, "cluster_network_mb_s": 2900},
    "source": "a test record",
}


@pytest.fixture(scope="module")
def synthetic_ctx() -> ValidationContext:
    """A custom node of 32 cores and the catalog's Ceph node, no shipped fit."""
    return ValidationContext(
        calibration={"custom_hardware": {"records": [SYNTHETIC_NODE]}}, catalog=load_catalog(FIXTURES)
    )


def _record(measurements: list[dict]) -> dict:
    """A write-only test cluster: 4 nodes of 6 SATA SSDs, 32 cores and one 25GbE each."""
    return {
        "id": "synthetic",
        "model": {
            "array": "ceph-nvme-reference",
            "drive": "ssd-sata-s4510-3840",
            "controller": "synthetic-node",
            "nodes": 4,
            "drives_per_node": 6,
            "ports": {"type": "25gbe", "per_node": 1},
            "capacity_tb": 3.2,
        },
        "iops_tolerance_pct": 25,
        "measurements": measurements,
    }


def test_throughput_figures_convert_to_iops_at_the_io_size():
    # 63 GiB/s of 4 MiB I/Os: 63 x 2^30 / 2^22 = 63 x 256 = 16,128 IOPS
    assert measured_iops({"id": "r", "size_kib": 4096, "gib_s": 63}) == pytest.approx(16128.0, rel=1e-12)
    # 13.13 GB/s (decimal) of 4 MiB I/Os: 13.13e9 / 4,194,304 = 3,130.436 IOPS
    assert measured_iops({"id": "r", "size_kib": 4096, "gb_s": 13.13}) == pytest.approx(3130.436, rel=1e-6)
    assert measured_iops({"id": "r", "size_kib": 4, "iops": 248000}) == 248000.0
    with pytest.raises(ValueError, match="iops, gb_s or gib_s"):
        measured_iops({"id": "r", "size_kib": 4})


def test_an_erasure_coded_measurement_is_a_k_plus_m_stripe_kept_once():
    layout, copies = _layout({"id": "ec", "ec": [2, 1]}, 24)
    assert layout.scheme is RaidScheme.ERASURE
    assert (layout.group_width, layout.ec_data, layout.ec_parity, copies) == (3, 2, 1, 1)
    layout, copies = _layout({"id": "r3", "copies": 3}, 24)
    assert (layout.scheme, layout.copies, copies) == (RaidScheme.REPLICA, 3, 3)
    with pytest.raises(ValueError, match="no 4\\+2 stripe"):
        _layout({"id": "ec", "ec": [4, 2]}, 4)


def test_the_binding_resource_is_the_busiest_utilization_not_a_failover_what_if_or_wear():
    checks = [
        SimpleNamespace(name="drives:pool", value=40.0, unit="%"),
        SimpleNamespace(name="controllers", value=99.9, unit="%"),
        SimpleNamespace(name="controllers after failover", value=133.2, unit="%"),
        SimpleNamespace(name="endurance:pool", value=250.0, unit="DWPD"),
        SimpleNamespace(name="ports", value=None, unit="%"),
    ]
    assert binding_resource(checks) == "controllers"
    assert binding_resource([]) == "none"


def test_a_cpu_bound_write_costs_every_copy_so_three_copies_give_two_thirds_of_two(synthetic_ctx):
    # CPU per front-end write = copies x (c_write + KiB x c_KiB + back-end I/O x c_BE): with the
    # cores the binding resource, 3 copies sustain exactly 2/3 of the IOPS of 2 copies
    m2 = {"id": "w2", "copies": 2, "read_pct": 0, "size_kib": 4, "iops": 90000}
    m3 = {"id": "w3", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 1}
    record = _record([m2, m3])
    fit = {
        "target": "custom:synthetic-node",
        "parameters": {"cpu_us_write": {"rows": ["synthetic/w2"], "prior": 100.0}},
    }
    costs, residuals = fit_costs(fit, {"synthetic": record}, synthetic_ctx)
    assert set(costs) == {"cpu_us_write"}  # the read-miss cost is not fitted: the catalog's stays
    assert residuals["synthetic/w2"] == pytest.approx(0.0, abs=0.05)
    override = ("custom:synthetic-node", costs)
    iops2, bind2 = predict(record, m2, synthetic_ctx, override)
    iops3, bind3 = predict(record, m3, synthetic_ctx, override)
    assert iops2 == pytest.approx(90000.0, rel=1e-3)
    assert iops3 / iops2 == pytest.approx(2.0 / 3.0, rel=1e-6)
    assert bind2 == bind3 == "controllers"


def test_a_fit_naming_an_unknown_cost_target_or_row_is_refused_naming_it(synthetic_ctx):
    record = _record([{"id": "w2", "copies": 2, "read_pct": 0, "size_kib": 4, "iops": 90000}])
    records = {"synthetic": record}

    def fit(target: str, param: str, row: str) -> dict:
        return {"target": target, "parameters": {param: {"rows": [row], "prior": 100.0}}}

    with pytest.raises(FitError, match="unknown parameters \\['cpu_us_hit'\\]"):
        fit_costs(fit("custom:synthetic-node", "cpu_us_hit", "synthetic/w2"), records, synthetic_ctx)
    with pytest.raises(FitError, match="unknown catalog array 'no-such-array'"):
        fit_costs(fit("catalog:no-such-array", "cpu_us_write", "synthetic/w2"), records, synthetic_ctx)
    with pytest.raises(FitError, match="unknown custom record 'ghost'"):
        fit_costs(fit("custom:ghost", "cpu_us_write", "synthetic/w2"), records, synthetic_ctx)
    with pytest.raises(FitError, match="'synthetic/w9': no such validation record/measurement"):
        fit_costs(fit("custom:synthetic-node", "cpu_us_write", "synthetic/w9"), records, synthetic_ctx)
    # a row whose record names hardware the catalog lacks: the fit, the row and the record named
    ghost = {**record, "model": {**record["model"], "drive": "no-such-drive"}}
    with pytest.raises(
        FitError, match="row 'synthetic/w2': record 'synthetic' names unknown drive 'no-such-drive'"
    ):
        fit_costs(
            fit("custom:synthetic-node", "cpu_us_write", "synthetic/w2"), {"synthetic": ghost}, synthetic_ctx
        )
    nowhere = {**record, "model": {**record["model"], "array": "no-such-array"}}
    with pytest.raises(FitError, match="record 'synthetic' names unknown catalog array 'no-such-array'"):
        fit_costs(
            fit("custom:synthetic-node", "cpu_us_write", "synthetic/w2"),
            {"synthetic": nowhere},
            synthetic_ctx,
        )


def test_a_fit_that_does_not_converge_is_refused_naming_it(synthetic_ctx, monkeypatch):
    import models.validation.scale_out as scale_out

    record = _record([{"id": "w2", "copies": 2, "read_pct": 0, "size_kib": 4, "iops": 90000}])
    fit = {
        "target": "custom:synthetic-node",
        "parameters": {"cpu_us_write": {"rows": ["synthetic/w2"], "prior": 100.0}},
    }
    stalled = SimpleNamespace(
        success=False, fun=[0.5], x=[0.0], message="the maximum number of evaluations is exceeded"
    )
    monkeypatch.setattr(scale_out, "least_squares", lambda *a, **k: stalled)
    with pytest.raises(
        FitError, match=r"fit 'custom:synthetic-node': least squares did not converge \(the maximum"
    ):
        fit_costs(fit, {"synthetic": record}, synthetic_ctx)

    def no_number(*a, **k):  # a prediction that is no positive number: log(0)
        raise ValueError("math domain error")

    monkeypatch.setattr(scale_out, "least_squares", no_number)
    with pytest.raises(
        FitError, match=r"fit 'custom:synthetic-node': least squares did not converge \(math domain"
    ):
        fit_costs(fit, {"synthetic": record}, synthetic_ctx)


def test_the_catalog_nodes_iops_ceiling_is_not_carried_to_a_records_own_hardware(ctx):
    # the catalog Ceph node states the published per-node wall (600,000 4 KiB reads per node); the
    # custom records describe the tested nodes (their cores, network) and state no such ceiling
    assert ctx.catalog.arrays["ceph-nvme-reference"].controller.max_iops == 600000
    doc = yaml.safe_load((FIXTURES / "validation" / "flash_scale_out.yaml").read_text())
    for record in doc["records"]:
        if "controller" not in record["model"]:  # the catalog node is the tested one (SolidFire)
            continue
        node = node_controller(record, ctx)
        assert node.max_iops is None and node.max_mb_s is None, record["id"]


def test_a_not_gated_measurement_is_reported_with_its_error_binding_and_reason(synthetic_ctx):
    m3 = {"id": "w3", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 50000, "not_gated": "a stated gap"}
    m3g = {"id": "w3g", "copies": 3, "read_pct": 0, "size_kib": 4, "iops": 50000}
    rows = {r.metric: r for r in scale_out_rows(_record([m3, m3g]), synthetic_ctx)}
    reported, gated = rows["w3 IOPS"], rows["w3g IOPS"]
    assert reported.basis == gated.basis == OUT_OF_SAMPLE  # no shipped fit names them
    assert not reported.gate and reported.tolerance_pct is None
    assert "not gated: a stated gap" in reported.note and "binds: " in reported.note
    assert gated.gate and gated.tolerance_pct == 25


def test_a_record_with_its_own_fit_or_node_overrides_is_refused(synthetic_ctx):
    with pytest.raises(ValueError, match="shipped values only"):
        scale_out_rows({**_record([]), "fit": {"cpu_us_write": "w2"}}, synthetic_ctx)
    record = _record([])
    record["model"] = {**record["model"], "cores_per_node": 48}
    with pytest.raises(ValueError, match="shipped values only"):
        scale_out_rows(record, synthetic_ctx)


def test_a_custom_record_may_state_hardware_only_and_fitted_costs_in_software():
    bad = {**SYNTHETIC_NODE, "hardware": {"cores": 32, "cpu_us_write": 1.0}}
    ctx = ValidationContext(
        calibration={"custom_hardware": {"records": [bad]}}, catalog=load_catalog(FIXTURES)
    )
    with pytest.raises(ValueError, match="hardware may state only"):
        custom_records(ctx)


def test_issue_15_out_of_sample_flash_rows_from_three_sources_each_name_what_binds(ctx):
    doc = yaml.safe_load((FIXTURES / "validation" / "flash_scale_out.yaml").read_text())
    rows, sources = [], set()
    for record in doc["records"]:
        numeric = [r for r in scale_out_rows(record, ctx) if r.basis == OUT_OF_SAMPLE and r.expect is None]
        rows += numeric
        if numeric:
            sources.add(re.match(r"\[([^\]]+)\]", record["source"]).group(1))
    assert len(rows) >= 8
    assert len(sources) >= 3
    assert all(re.search(r"binds: \S", r.note) for r in rows)
    assert all(r.error_pct is not None for r in rows)


# ---- shipped values only (issue #30) -----------------------------------------------------------------

MODEL_KEYS = {"array", "drive", "controller", "nodes", "drives_per_node", "ports", "capacity_tb"}
"""What a record may state: which shipped hardware, and the test's configuration."""


def test_every_validation_row_is_predicted_from_shipped_values_only(ctx):
    # the node a row is predicted on is the catalog's, or a shipped custom record (the catalog node
    # with published hardware, and fitted software costs equal to scale_out_fit.yaml's values);
    # nothing else in the record changes a figure
    doc = yaml.safe_load((FIXTURES / "validation" / "flash_scale_out.yaml").read_text())
    customs = custom_records(ctx)
    fitted = {
        f["target"]: f["values"]
        for f in yaml.safe_load((FIXTURES / "calibration" / "scale_out_fit.yaml").read_text())["fits"]
    }
    for record in doc["records"]:
        assert "fit" not in record, record["id"]
        assert set(record["model"]) <= MODEL_KEYS, (record["id"], set(record["model"]) - MODEL_KEYS)
        used = node_controller(record, ctx)
        shipped = ctx.catalog.arrays[record["model"]["array"]].controller
        custom = customs.get(record["model"].get("controller", ""))
        if custom is not None:
            software = custom.get("software", {})
            if software:
                assert software == pytest.approx(fitted[f"custom:{custom['id']}"], rel=1e-9), custom["id"]
            shipped = shipped.model_copy(update={**custom["hardware"], **software})
        assert used == shipped, record["id"]


def test_the_catalog_node_carries_the_shipped_fit_and_says_so(ctx):
    fit = yaml.safe_load((FIXTURES / "calibration" / "scale_out_fit.yaml").read_text())["fits"][0]
    assert fit["target"] == "catalog:ceph-nvme-reference"
    node = ctx.catalog.arrays["ceph-nvme-reference"]
    for name, value in fit["values"].items():
        assert getattr(node.controller, name) == pytest.approx(value, rel=1e-9), name
        assert node.calibration.controller.figures[name].status == "fitted"
    assert fit["residuals_pct"] and fit["date"]
    # cached reads and KiB read are still placeholders: the part stays an estimate
    assert node.calibration.controller.status == "estimate"


def test_make_calibrate_reproduces_the_shipped_values():
    # scripts/calibrate.py --check fits again and compares with what ships (writes nothing)
    import subprocess
    import sys

    root = FIXTURES.parent
    done = subprocess.run(
        [sys.executable, "scripts/calibrate.py", "--check"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
